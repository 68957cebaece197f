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

/* 0, or why @sym, matched by a pattern, is not to be traced. */
int kstats_match_check(const char *sym)
{
	struct kprobe kp = { .symbol_name = sym, .flags = KPROBE_FLAG_DISABLED };
	const char *name = strchr(sym, ':') ? strchr(sym, ':') + 1 : sym;
	bool on_ftrace;
	size_t i;
	int err;

	lockdep_assert_held(&kstats_trace_lock);
	if (kstats_own_symbol(sym))
		return -ELOOP;
	for (i = 0; i < ARRAY_SIZE(kstats_handler_callees); i++)
		if (kstats_name_matches(kstats_handler_callees[i], name))
			return -EDEADLK;
	/* As kstats_resolve(): a disabled kprobe is never armed. */
	err = register_kprobe(&kp);
	if (err)
		return err == -EILSEQ ? -EINVAL : err;
	on_ftrace = kp.flags & KPROBE_FLAG_FTRACE;
	unregister_kprobe(&kp);
	/* Without kprobes on ftrace, kprobes cannot tell: fprobe will. */
	return on_ftrace || !IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) ? 0 : -ENXIO;
}
