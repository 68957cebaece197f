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
/*
 * Kernel modules' split BTF on @vmlinux, from $KSTATS_BTF_MODULES (tests)
 * or /sys/kernel/btf: module @mod's, or NULL; or the first module's for
 * which @find(btf, @name) >= 0, that value in *@id and the module's name in
 * @where ("module NAME"), or NULL.
 */
struct btf *ks_btf_module(struct btf *vmlinux, const char *mod);
struct btf *ks_btf_module_with(struct btf *vmlinux, const char *name,
			       int (*find)(const struct btf *, const char *), int *id,
			       char *where, size_t where_len);

#endif /* KSTATSCTL_BTF_H */
