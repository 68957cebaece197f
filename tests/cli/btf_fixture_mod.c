// SPDX-License-Identifier: GPL-2.0
/*
 * A module's functions and types for trace --value/--if (cli/expr_btf.c):
 * encoded by pahole as split BTF on btf_fixture.c's, as a module's BTF in
 * /sys/kernel/btf/MODULE is on vmlinux's, and handed to kstatsctl as
 * KSTATS_BTF_MODULES/fxmod. struct fx_file is the base's (declared here
 * only, as a module's header would have it in full). Nothing calls these.
 */
struct fx_file;

struct fxm_priv {
	int level;
	struct fx_file *file;
	unsigned long long bytes;
};

long fxm_read(struct fxm_priv *priv, int n) { return priv ? n : -1; }
