// SPDX-License-Identifier: GPL-2.0
/*
 * For `make bench`: the kernel's own probe mechanism on ktarget_empty()
 * (tests/kmod/ktarget_main.c), with handlers that do nothing but keep the
 * same per-call data as kstats. Timed against kstats' trace of the same
 * function, it tells what kstats' handlers add from what the mechanism
 * itself costs. With clock=1 the handlers also do what any timing of a call
 * must: read the clock kstats reads at entry and at exit, and subtract
 * (into a per-CPU sink); against that, what is left is kstats' own share.
 *
 *   insmod kstats_bare.ko mech=fprobe	(or mech=kretprobe) [clock=1]
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>

#include "../../module/compat.h"

#define BARE_TARGET "ktarget_empty"

static char *mech = "kretprobe";
module_param(mech, charp, 0444);
MODULE_PARM_DESC(mech, "fprobe or kretprobe");
static bool clock;
module_param(clock, bool, 0444);
MODULE_PARM_DESC(clock, "read the clock at entry and exit, as a timer must");

static DEFINE_PER_CPU(u64, bare_sink);

static __always_inline void bare_start(u64 *t0)
{
	if (clock)
		*t0 = ktime_get_mono_fast_ns();
}

static __always_inline void bare_end(const u64 *t0)
{
	if (clock)
		this_cpu_write(bare_sink, ktime_get_mono_fast_ns() - *t0);
}

static int bare_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	bare_start((u64 *)ri->data);
	return 0;
}

static int bare_kretprobe_exit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	bare_end((u64 *)ri->data);
	return 0;
}

static struct kretprobe bare_rp = {
	.kp.symbol_name = BARE_TARGET,
	.entry_handler = bare_kretprobe_entry,
	.handler = bare_kretprobe_exit,
	.data_size = sizeof(u64),
	.maxactive = 64,
};

#ifdef KSTATS_HAVE_FPROBE
static int bare_fprobe_entry(KSTATS_FPROBE_HANDLER_ARGS)
{
	bare_start(data);
	return 0;
}

static void bare_fprobe_exit(KSTATS_FPROBE_HANDLER_ARGS)
{
	bare_end(data);
}

static struct fprobe bare_fp = {
	.entry_handler = bare_fprobe_entry,
	.exit_handler = bare_fprobe_exit,
	.entry_data_size = sizeof(u64),
};

static int bare_fprobe_register(void)
{
	return register_fprobe(&bare_fp, BARE_TARGET, NULL);
}

static void bare_fprobe_unregister(void)
{
	unregister_fprobe(&bare_fp);
}
#else
static int bare_fprobe_register(void)
{
	return -EOPNOTSUPP;
}

static void bare_fprobe_unregister(void)
{
}
#endif

static bool on_fprobe;

static int __init bare_init(void)
{
	on_fprobe = !strcmp(mech, "fprobe");
	if (on_fprobe)
		return bare_fprobe_register();
	if (strcmp(mech, "kretprobe"))
		return -EINVAL;
	return register_kretprobe(&bare_rp);
}

static void __exit bare_exit(void)
{
	if (on_fprobe)
		bare_fprobe_unregister();
	else
		unregister_kretprobe(&bare_rp);
}
module_init(bare_init);
module_exit(bare_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats bench: a bare fprobe or kretprobe on ktarget_empty()");
