// SPDX-License-Identifier: GPL-2.0
/*
 * Why the module refused a trace (KSTATS_IOC_TRACE's errors, kstats(4)):
 * each as an error and a hint, with what was asked and what 'kstatsctl
 * info' says this module and kernel can do.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "trace_args.h"

static int trace_error(int err, int fd, const char *func, const struct ks_trace_args *a)
{
	struct kstats_info info;
	char lock[64];
	const char *mode;

	if ((a->x.value || a->x.pred) && err == EINVAL)
		return ks_fail(EXIT_RUNTIME, "--dry-run shows what was asked for; "
			       "kstats(4) lists what the module accepts", "tracing %s: the "
			       "module refused the value or predicate (EINVAL)", func);
	if (a->outliers && (err == E2BIG || (err == EOPNOTSUPP && a->outlier_ppm &&
					     !ks_dev_info(fd, &info) &&
					     (info.features & KSTATS_FEAT_OUTLIERS))))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists what this module "
			       "supports; a newer kstats can", "tracing %s: this kstats "
			       "module cannot keep outliers %s", func,
			       a->outlier_ppm ? "over a percentile" : "");
	if (a->outliers && err == ERANGE)
		return ks_fail(EXIT_USAGE, "the probe itself costs about that much per "
			       "call ('kstatsctl show NAME' shows a trace's floor): "
			       "pick a larger threshold", "--outliers %s: below the "
			       "probe's floor on this machine", a->outliers);
	if (a->key == KSTATS_KEY_COMM && err == EINVAL && !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_COMM_KEY))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'comm-key' where a "
			       "kstats module can; a newer one can", "tracing %s --by: "
			       "this kstats module has no key by comm", func);
	if (a->key == KSTATS_KEY_STACK && err == EINVAL && !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_STACK_KEY))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'stack-key' where a "
			       "kstats module can; a newer one can", "tracing %s --by: "
			       "this kstats module has no key by stack", func);
	if (a->key >= KSTATS_KEY_PID && a->key <= KSTATS_KEY_CPU && err == EINVAL &&
	    !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_TASK_KEYS))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'task-keys' where a "
			       "kstats module can; a newer one can", "tracing %s --by: "
			       "this kstats module has no keys by pid, tid or cpu", func);
	if (a->key_values && err == EINVAL && !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_KEY_VALUES))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'key-values' where a "
			       "kstats module can; a newer one can", "tracing %s "
			       "--key-values: this kstats module cannot fix a key's values",
			       func);
	if (a->key_values && err == EINVAL)
		return ks_fail(EXIT_USAGE, a->key == KSTATS_KEY_CPU ? "each value once, "
			       "each a CPU this machine can have (/sys/devices/system/cpu/possible)" :
			       "each value once", "tracing %s --key-values "
			       "%s: refused (EINVAL)", func, a->key_values);
	if (a->key && err == EINVAL && !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_KEYS))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'keys' where a "
			       "kstats module can; a newer one can", "tracing %s --by: "
			       "this kstats module has no keys", func);
	if ((a->cgroup || a->key == KSTATS_KEY_CGROUP) && err == EINVAL &&
	    !ks_dev_info(fd, &info) && !(info.features & KSTATS_FEAT_CGROUP))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'cgroup' where a "
			       "kstats module and its kernel can", "tracing %s: this "
			       "kstats module cannot tell cgroups apart", func);
	if (a->cgroup && err == EBADF)
		return ks_fail(EXIT_RUNTIME, "cgroup v1 hierarchies are not supported",
			       "--cgroup %s: not a cgroup v2 directory", a->cgroup);
	/* A removed cgroup's directory is empty. */
	if (a->cgroup && err == ENOENT && faccessat(a->cgroup_fd, "cgroup.procs", F_OK, 0))
		return ks_fail(EXIT_RUNTIME, NULL, "--cgroup %s: the cgroup was removed",
			       a->cgroup);
	switch (err) {
	case EOPNOTSUPP:
		if (ks_dev_info(fd, &info) || !(info.features & KSTATS_FEAT_TRACE))
			return ks_trace_unsupported();
		if (a->split && !(info.features & KSTATS_FEAT_SPLIT))
			return ks_fail(EXIT_RUNTIME, "Linux 5.18 and later tell it (the "
				       "sched_switch event's prev_state); 'kstatsctl info' "
				       "lists 'split' where it works", "tracing %s --split: "
				       "this kernel does not say whether a task that leaves "
				       "its CPU blocks or stays runnable", func);
		if (a->self && !(info.features & KSTATS_FEAT_SELF))
			return ks_fail(EXIT_RUNTIME, "it needs Linux 5.18 or later and a "
				       "kstats module that lists 'self' in 'kstatsctl info'",
				       "tracing %s --self: not supported here", func);
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists the mechanisms "
			       "this kernel has; --mechanism auto picks the best",
			       "tracing %s: the %s mechanism is not available on this "
			       "kernel", func, ks_trace_mechs[a->mech]);
	case ESRCH:
		if (a->pid)
			return ks_fail(EXIT_RUNTIME, "--pid takes a process (thread group) "
				       "id; --tid takes any thread's", "tracing %s: no "
				       "process %lld", func, (long long)a->pid);
		return ks_fail(EXIT_RUNTIME, NULL, "tracing %s: no thread %lld", func,
			       (long long)a->tid);
	case ELOOP:
		return ks_fail(EXIT_RUNTIME, "kstats' own functions would time "
			       "themselves", "%s cannot be traced: it is part of kstats",
			       func);
	case EPERM:
		if (!ks_dev_info(fd, &info) && info.flags & KSTATS_INFO_LOCKDOWN) {
			mode = ks_lockdown_mode(lock, sizeof(lock));
			return ks_fail(EXIT_RUNTIME, "lockdown comes with Secure Boot; "
				       "tracing needs a kernel that is not locked down "
				       "(lockdown=none)", "tracing %s: the kernel is "
				       "locked down (%s)", func, mode ? mode : "lockdown");
		}
		return ks_dev_error(err, func);
	case ENOENT:
		return ks_fail(EXIT_RUNTIME, "the function must be in /proc/kallsyms; "
			       "a module's as MODULE:SYMBOL", "no such function: %s", func);
	case EINVAL:
		if (a->maxactive && !ks_dev_info(fd, &info) &&
		    a->maxactive > KSTATS_MAXACTIVE_MAX(info.nr_cpus))
			return ks_fail(EXIT_RUNTIME, "kretprobe's instance pool costs possible "
				       "CPUs x maxactive", "--maxactive: at most %u on this "
				       "machine (%u possible CPUs)",
				       KSTATS_MAXACTIVE_MAX(info.nr_cpus), info.nr_cpus);
		/* fall through */
	case EBUSY:
	case EADDRNOTAVAIL:
	case EILSEQ:
		return ks_fail(EXIT_RUNTIME, "functions that are inlined, marked "
			       "notrace or on the kprobe blacklist "
			       "(/sys/kernel/debug/kprobes/blacklist) cannot be probed",
			       "%s cannot be traced: %s", func, strerror(err));
	case EEXIST:
		return ks_fail(EXIT_RUNTIME, "'kstatsctl untrace NAME' first, or "
			       "--name another", "%s: already traced (or the name is "
			       "taken)", func);
	default:
		return ks_dev_error(err, func);
	}
}

/* A user-space function's refusals (kstats(4)); the rest as any trace's. */
static int trace_user_error(int err, int fd, const char *func, const struct ks_trace_args *a)
{
	struct kstats_info info;

	if (err == EOPNOTSUPP && !ks_dev_info(fd, &info) &&
	    !(info.mechanisms & (1ULL << KSTATS_MECH_UPROBE)))
		return ks_fail(EXIT_RUNTIME, "it needs a kernel with uprobes "
			       "(CONFIG_UPROBES) on x86-64 and a kstats module that "
			       "lists 'uprobe' in 'kstatsctl info'", "tracing %s: this "
			       "kernel or kstats module cannot trace user-space "
			       "functions", func);
	if (err == EOPNOTSUPP && a->outliers && !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_UPROBE_OUTLIERS))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'uprobe-outliers' where a "
			       "kstats module can; a newer one can", "tracing %s --outliers: "
			       "this kstats module keeps no outliers of user code", func);
	if (err == EOPNOTSUPP && (a->split || a->self) && !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_UPROBE_SPLIT))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'uprobe-split' where a "
			       "kstats module can; a newer one can", "tracing %s --split/--self: "
			       "this kstats module cannot split a user-space function's time",
			       func);
	if (err == EINVAL && a->key == KSTATS_KEY_STACK && a->start && !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_USDT_EXPR))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'usdt-expr' where a "
			       "kstats module can; a newer one can", "tracing %s --by stack: "
			       "this kstats module takes no stack at USDT probes", func);
	if (err == EINVAL && a->key == KSTATS_KEY_STACK && !ks_dev_info(fd, &info) &&
	    !(info.features & KSTATS_FEAT_UPROBE_STACK))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'uprobe-stack' where a "
			       "kstats module can; a newer one can", "tracing %s --by stack: "
			       "this kstats module cannot key a user-space function by its stack",
			       func);
	if (err == EOPNOTSUPP)
		return ks_fail(EXIT_RUNTIME, "uprobes refuses some instructions; "
			       "another function may do", "tracing %s: the kernel "
			       "cannot probe that instruction", func);
	if (err == EINVAL)
		return ks_fail(EXIT_RUNTIME, "the file may have changed since it was "
			       "read (try again), or another tool probes the same "
			       "place with another USDT semaphore", "tracing %s: the "
			       "kernel refused the probe (EINVAL)", func);
	return trace_error(err, fd, func, a);
}

int ks_trace_refused(int err, int fd, const char *func, const struct ks_trace_args *a,
		     bool user)
{
	return user ? trace_user_error(err, fd, func, a) : trace_error(err, fd, func, a);
}
