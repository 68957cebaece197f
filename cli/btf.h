/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BTF through libbpf (btf.c): what trace --by errno and
 * trace --value/--if both read.
 */
#ifndef KSTATSCTL_BTF_H
#define KSTATSCTL_BTF_H

#include <bpf/btf.h>

/* libbpf prints nothing: kstatsctl's messages say what matters. */
void ks_btf_quiet(void);
/* The id of @func's FUNC_PROTO in @btf, or -1 if @btf has no such function. */
int ks_btf_func_proto(const struct btf *btf, const char *func);

#endif /* KSTATSCTL_BTF_H */
