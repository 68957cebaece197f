# SPDX-License-Identifier: GPL-2.0
# Differences between kernel versions, read from the kernel's headers (see
# compat.h): the shape of what kstats uses, never the version number.
# Included by module/Kbuild and by the test modules' Kbuild.

# Symbol namespaces became string literals in 6.13 (and some stable trees):
# EXPORT_SYMBOL_NS_GPL(sym, ns) then passes ns on as it is. Before, it
# stringified ns: with __stringify() or, up to early 5.15.y, a bare #ns
# (see KSTATS_EXPORT in compat.h). (A variable: the regex's parentheses.)
kstats_ns_re := define EXPORT_SYMBOL_NS_GPL\(sym, ns\).*"[^"]*", ns\)
ccflags-y += $(if $(shell grep -Es '$(kstats_ns_re)' \
	$(srctree)/include/linux/export.h),-DKSTATS_NS_IS_STRING)

# fprobe's entry handler, as declared: the member of struct fprobe (5.18 to
# 6.13) or the fprobe_entry_cb typedef (6.14+), joined onto one line. Its
# parameters tell the shape: entry_data (6.4, 6.1.y backports), ret_ip
# (6.5+, not in those backports), ftrace_regs (6.14+).
kstats_fprobe_h := $(srctree)/include/linux/fprobe.h
kstats_fprobe_re := (typedef int \(\*fprobe_entry_cb\)|int \(\*entry_handler\))\([^;]*;
kstats_fprobe_cb := $(shell tr '\n\t' '  ' 2>/dev/null <$(kstats_fprobe_h) | \
	grep -Eo '$(kstats_fprobe_re)' | head -n1)
ccflags-y += $(if $(findstring entry_data,$(kstats_fprobe_cb)),-DKSTATS_FPROBE_ENTRY_DATA)
ccflags-y += $(if $(findstring ret_ip,$(kstats_fprobe_cb)),-DKSTATS_FPROBE_RET_IP)
ccflags-y += $(if $(findstring ftrace_regs,$(kstats_fprobe_cb)),-DKSTATS_FPROBE_FTRACE_REGS)
# nr_maxactive: a field from 6.4 to 6.13, gone when fprobe moved onto the
# function graph (6.14), which needs no instance pool.
ccflags-y += $(if $(shell grep -s 'nr_maxactive;' $(kstats_fprobe_h)),-DKSTATS_FPROBE_MAXACTIVE)

# hrtimer_setup() replaced hrtimer_init() + setting .function (6.13+; the
# old call is gone in 6.15). Only the test modules use hrtimers.
ccflags-y += $(if $(shell grep -s 'void hrtimer_setup\>' $(srctree)/include/linux/hrtimer.h),-DKSTATS_HAVE_HRTIMER_SETUP)

# sched_switch passes prev_state (5.18+), which --split reads to tell a
# preempted task from a blocked one without racing its wakeup.
# (A variable: the parenthesis and the comma.)
kstats_prev_state := unsigned int prev_state),
ccflags-y += $(if $(shell grep -sF '$(kstats_prev_state)' \
	$(srctree)/include/trace/events/sched.h),-DKSTATS_HAVE_SPLIT)

# EEVDF's delayed dequeue (6.12+): a task that blocked may stay on its
# runqueue, se.sched_delayed set (--split, trace_split.c).
ccflags-y += $(if $(shell grep -s 'sched_delayed;' $(srctree)/include/linux/sched.h),-DKSTATS_HAVE_SCHED_DELAYED)

# uprobes (trace_uprobe.c), three shapes: up to 6.11 int uprobe_register()
# (+ _refctr) and a synchronous uprobe_unregister(), the filter taking an
# enum uprobe_filter_ctx; 6.12 struct uprobe *uprobe_register(..., ref_ctr,
# uc) and uprobe_unregister_nosync() + _sync(), filter (uc, mm); 6.13+ the
# same, and both handlers take a __u64 *data cookie (session consumers).
# (Variables: the parentheses and commas.)
kstats_uprobes_h := $(srctree)/include/linux/uprobes.h
kstats_up_ptr := struct uprobe *uprobe_register(
kstats_up_data := struct pt_regs *regs, __u64 *data)
ccflags-y += $(if $(shell grep -sF '$(kstats_up_ptr)' $(kstats_uprobes_h)),-DKSTATS_UPROBE_PTR)
ccflags-y += $(if $(shell grep -sF '$(kstats_up_data)' $(kstats_uprobes_h)),-DKSTATS_UPROBE_DATA)
ccflags-y += $(if $(shell grep -sF 'enum uprobe_filter_ctx ctx' $(kstats_uprobes_h)),-DKSTATS_UPROBE_FILTER_CTX)
# sched_process_exit gained group_dead (between 6.14 and 6.18): the probe's
# prototype must match (CFI type-checks tracepoint probes).
kstats_exit_gd := struct task_struct *p, bool group_dead)
ccflags-y += $(if $(shell grep -sF '$(kstats_exit_gd)' \
	$(srctree)/include/trace/events/sched.h),-DKSTATS_EXIT_GROUP_DEAD)
