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

/*
 * A module's own trace events (TRACE_EVENT: each its class), for sections
 * between tracepoints: fxm_start(priv, n) and fxm_done(priv, ret).
 */
struct trace_event_raw_fxm_start {
	unsigned short ent;
	int level;
	long n;
	char __data[0];
};

typedef void (*btf_trace_fxm_start)(void *, struct fxm_priv *, long);
typedef void (*btf_trace_fxm_done)(void *, struct fxm_priv *, long);
btf_trace_fxm_start fxm_start_probe;
btf_trace_fxm_done fxm_done_probe;
struct trace_event_raw_fxm_start fxm_start_record;

void trace_event_raw_event_fxm_start(void *__data, struct fxm_priv *priv, long n) { }
void __bpf_trace_fxm_done(void *__data, struct fxm_priv *priv, long ret) { }
