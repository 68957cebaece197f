// SPDX-License-Identifier: GPL-2.0
/*
 * trace runs one-shot by default, as funclatency does: it traces until
 * Ctrl-C, --duration or --count intervals, prints, and untraces (the kernel
 * removes a KSTATS_TRACE_AUTOREMOVE trace when this command's descriptor
 * closes, however it ends). --keep leaves the trace for 'show' and
 * 'untrace' and returns at once, so what only a run can do does not go
 * with it. Whether stdout is a terminal changes none of this.
 */
#include <string.h>

#include "kstatsctl.h"
#include "trace_args.h"

/* The first one-shot option given, as the user would type it, or NULL. */
static const char *run_option(const struct ks_trace_args *a)
{
	if (a->run.duration > 0)
		return "--duration";
	if (a->run.interval > 0)
		return "--interval";
	if (a->run.count)
		return "--count";
	if (a->run.output)
		return "--output";
	if (a->format_set)
		return "--format";
	return NULL;
}

int ks_trace_mode_check(const struct ks_trace_args *a)
{
	const char *opt = run_option(a);

	if (a->keep && a->autoremove) {
		ks_set_hint("without --keep the trace goes when the command ends "
			    "(--autoremove says the same)");
		return ks_usage("--keep and --autoremove say opposite things");
	}
	if (a->keep && opt) {
		ks_set_hint("without --keep, trace runs for --duration or --count "
			    "intervals, prints and untraces; with it, 'kstatsctl show "
			    "NAME' prints and 'kstatsctl untrace NAME' ends it");
		return ks_usage("%s goes with a one-shot trace, not with --keep", opt);
	}
	if (a->run.count && !(a->run.interval > 0))
		return ks_usage("--count goes with --interval");
	if (a->run.output && !(a->run.interval > 0)) {
		ks_set_hint("add --interval S (-i 1): 'kstatsctl trace FUNC -i 1 -o "
			    "run.hlog', then 'kstatsctl plot heatmap run.hlog FUNC'");
		return ks_usage("--output writes an interval log: it goes with --interval");
	}
	if (a->run.output && !strcmp(a->run.output, "-")) {
		ks_set_hint("standard output shows each interval's histogram; -o "
			    "names a file for the HdrHistogram log");
		return ks_usage("--output: '-': give a file");
	}
	return 0;
}
