// SPDX-License-Identifier: GPL-2.0
/*
 * What a function matched by a pattern may not be (KSTATS_TRACE_MATCHED):
 * a user who traces 'vfs_*' or '*_open' did not pick each function, so
 * the module refuses what a function named alone may still be.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>

#include "trace.h"

/*
 * The stack unwinder and what kstats' handlers call (outlier stacks and
 * keys): probed, their calls from inside kstats' probes would be missed
 * (kprobes' and fprobe's recursion guards) or, where a kernel lets a
 * probe run inside another's exit, recurse. A trailing or leading '*'
 * matches any rest.
 */
static const char *const kstats_handler_callees[] = {
	"unwind_*", "__unwind_start", "*orc_find", "arch_stack_walk*",
	"stack_trace_*", "get_stack_info*", "in_*_stack", "stack_access_ok",
	"deref_stack_*", "*kernel_text_address", "__module_address",
	"is_module_text_address", "is_bpf_text_address", "bpf_ksym_find",
	"ftrace_graph_ret_addr", "kretprobe_find_ret_addr",
	"rethook_find_ret_addr", "siphash_*", "__siphash_*",
};

/* @pat with at most one '*', at its start, its end or in between. */
static bool kstats_name_matches(const char *pat, const char *name)
{
	const char *star = strchr(pat, '*');
	size_t head, tail, len = strlen(name);

	if (!star)
		return !strcmp(pat, name);
	head = star - pat;
	tail = strlen(star + 1);
	return len >= head + tail && !strncmp(name, pat, head) &&
	       !strcmp(name + len - tail, star + 1);
}

/*
 * Whether @sym ("[module:]symbol") names a function of kstats itself, by
 * kstats' own symbol table: without asking kprobes, whose registration
 * decodes the function (optprobes' can_optimize()) and oopsed on 6.12 for
 * kstats_exit(), which ends where the module's text does.
 */
bool kstats_own_symbol(const char *sym)
{
	const char *colon = strchr(sym, ':');
	struct mod_kallsyms *ks;
	unsigned int i;
	bool own = false;

	if (colon && strncmp(sym, THIS_MODULE->name, colon - sym))
		return false;
	if (colon && THIS_MODULE->name[colon - sym])
		return false;
	sym = colon ? colon + 1 : sym;
	preempt_disable();
	ks = rcu_dereference_sched(THIS_MODULE->kallsyms);
	for (i = 0; ks && i < ks->num_symtab && !own; i++)
		own = !strcmp(ks->strtab + ks->symtab[i].st_name, sym);
	preempt_enable();
	return own;
}

/*
 * Where @sym is, refusing what kstats must not probe: unknown symbols
 * (-ENOENT), the kprobe blacklist and other unprobeable places (-EINVAL),
 * and kstats itself, whose probes would recurse (-ELOOP). The kprobe that
 * asks is registered disabled: it is never armed, so the target's code is
 * not touched (arming and disarming it just before attaching the real
 * probe to a hot function crashed both 6.1 and 6.12). @on_ftrace, unless
 * NULL: whether kprobes would probe it through ftrace.
 */
int kstats_resolve(const char *sym, unsigned long *addr, bool *on_ftrace)
{
	struct kprobe kp = { .symbol_name = sym, .flags = KPROBE_FLAG_DISABLED };
	int err;

	/*
	 * Resolved and attached under one lock, which the module notifier
	 * takes too: no module can go (and another come at the same address)
	 * in between.
	 */
	lockdep_assert_held(&kstats_trace_lock);
	if (kstats_own_symbol(sym))
		return -ELOOP;
	err = register_kprobe(&kp);
	if (err)
		return err == -EILSEQ ? -EINVAL : err;
	*addr = (unsigned long)kp.addr;
	if (on_ftrace)
		*on_ftrace = kp.flags & KPROBE_FLAG_FTRACE;
	unregister_kprobe(&kp);
	return within_module(*addr, THIS_MODULE) ? -ELOOP : 0;
}

/*
 * 0, or why @sym, matched by a pattern, is not to be traced; on 0, @addr
 * is where it is (one resolution a function: a pattern of 1,000).
 */
int kstats_match_check(const char *sym, unsigned long *addr)
{
	const char *name = strchr(sym, ':') ? strchr(sym, ':') + 1 : sym;
	bool on_ftrace;
	size_t i;
	int err;

	if (kstats_own_symbol(sym))	/* before the callees' names */
		return -ELOOP;
	for (i = 0; i < ARRAY_SIZE(kstats_handler_callees); i++)
		if (kstats_name_matches(kstats_handler_callees[i], name))
			return -EDEADLK;
	err = kstats_resolve(sym, addr, &on_ftrace);
	if (err)
		return err;
	/* Without kprobes on ftrace, kprobes cannot tell: fprobe will. */
	if (!on_ftrace && IS_ENABLED(CONFIG_KPROBES_ON_FTRACE)) {
		*addr = 0;
		return -ENXIO;
	}
	return 0;
}
