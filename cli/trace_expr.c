// SPDX-License-Identifier: GPL-2.0
/*
 * trace --value EXPR [--time], --if PRED and --dry-run: what goes with
 * what, the names the value's metrics need room for, and the module's
 * support (KSTATS_FEAT_EXPR). The expressions themselves: expr_*.c.
 */
#include <string.h>

#include "kstatsctl.h"
#include "device.h"
#include "expr.h"
#include "trace.h"

/* VALUE-NAME and NEG-NAME must fit where NAME does. */
#define VALUE_NAME_MAX	(KSTATS_NAME_LEN - 1 - (int)strlen("VALUE-"))
#define NEG_NAME_MAX	(KSTATS_NAME_LEN - 1 - (int)strlen("NEG-"))

static bool is_tp(const char *target)
{
	return !strncmp(target, "tp:", 3);
}

/*
 * A tracepoint alone or a USDT probe alone (a point): a value at every
 * hit, nothing timed. 0 if @func is none, or fits; else the error said.
 */
static int ks_trace_expr_point(const struct ks_trace_expr *x, const char *func)
{
	if (x->end || (!is_tp(func) && !x->usdt))
		return 0;
	if (!x->value) {
		ks_set_hint("--start tp:A --end tp:B times a section between two "
			    "tracepoints; --value EXPR records a value at every hit of one");
		return ks_usage("%s: a tracepoint alone is a point in time, with "
				"nothing to time: --value EXPR", func);
	}
	if (x->time || x->timed) {
		ks_set_hint("--start %s --end %s --value EXPR --time times a section and "
			    "records a value", x->usdt ? "usdt:B:P:START" : "tp:A",
			    x->usdt ? "usdt:B:P:END" : "tp:B");
		return ks_usage("--%s: %s is a point in time, with nothing to time",
				x->time ? "time" : x->timed, func);
	}
	return 0;
}

int ks_trace_expr_check(const struct ks_trace_expr *x, const char *func, const char *name,
			struct ks_plan *plan)
{
	size_t len = strlen(name);
	int rc;

	memset(plan, 0, sizeof(*plan));
	plan->func = func;
	if (x->time && !x->value) {
		ks_set_hint("--value EXPR --time: the duration in NAME, the value "
			    "in VALUE-NAME");
		return ks_usage("--time goes with --value (without --value, NAME is "
				"the duration already)");
	}
	rc = ks_trace_expr_point(x, func);
	if (rc || (!x->value && !x->pred))
		return rc;
	if (x->end && is_tp(func) != is_tp(x->end)) {
		ks_set_hint("a section is between two tracepoints or two functions");
		return ks_usage("--%s: %s..%s is between a tracepoint and a function",
				x->value ? "value" : "if", func, x->end);
	}
	if (x->value && !x->time && x->timed) {
		ks_set_hint("--value EXPR --time records both: the duration in NAME, "
			    "the value in VALUE-NAME");
		return ks_usage("--%s times calls, but with --value alone NAME holds "
				"values", x->timed);
	}
	if (x->end) {
		char both[1100];

		snprintf(both, sizeof(both), "%s..%s", func, x->end);
		rc = ks_expr_compile(both, x->value, x->pred, x->time, x->usdt != NULL,
				     x->usdt, plan);
		plan->func = func;
	} else {
		rc = ks_expr_compile(func, x->value, x->pred, x->time, x->user || x->usdt,
				     x->usdt, plan);
	}
	if (rc)
		return rc;
	if (x->time && len > (size_t)VALUE_NAME_MAX)
		return ks_usage("--value --time: the name must be at most %d bytes "
				"(VALUE-NAME must fit in %d); --name a shorter one",
				VALUE_NAME_MAX, KSTATS_NAME_LEN - 1);
	if (ks_plan_signed(plan) && len > (size_t)NEG_NAME_MAX)
		return ks_usage("--value %s is signed: the name must be at most %d "
				"bytes (NEG-NAME must fit in %d); --name a shorter one",
				x->value, NEG_NAME_MAX, KSTATS_NAME_LEN - 1);
	return 0;
}

/* Whether @plan reads memory: a user-space one needs KSTATS_FEAT_UPROBE_LOADS. */
static bool plan_loads(const struct ks_plan *plan)
{
	bool loads = (plan->e.flags & KSTATS_EXPR_VALUE) && plan->e.value.nr_loads;
	uint32_t i;

	for (i = 0; i < plan->e.nr_terms; i++)
		loads |= plan->e.terms[i].operand.nr_loads != 0;
	return loads;
}

int ks_trace_expr_supported(int fd, const char *func, const struct ks_trace_expr *x,
			    const struct ks_plan *plan)
{
	bool user = x->user || x->usdt;
	uint64_t need = x->usdt ? KSTATS_FEAT_USDT_EXPR : user ? KSTATS_FEAT_UPROBE_EXPR :
			KSTATS_FEAT_EXPR;
	struct kstats_info info;

	if (ks_dev_info(fd, &info))
		info.features = 0;
	if ((info.features & need) != need)
		return ks_fail(EXIT_RUNTIME, x->usdt ? "'kstatsctl info' lists 'usdt-expr' "
			       "where a kstats module can; a newer one can" : user ?
			       "'kstatsctl info' lists 'uprobe-expr' where a kstats module "
			       "can; a newer one can" : "'kstatsctl info' lists 'expr' where "
			       "a kstats module can; a newer one can", "tracing %s "
			       "--value/--if: this kstats module cannot record values nor "
			       "filter calls%s", func, x->usdt ? " at USDT probes" : user ?
			       " of a user-space function" : "");
	if (user && plan_loads(plan) && !(info.features & KSTATS_FEAT_UPROBE_LOADS))
		return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'uprobe-loads' where a "
			       "kstats module can; a newer one can", "tracing %s: %s reads "
			       "the program's memory, which this kstats module cannot", func,
			       plan->value.text[0] ? plan->value.text : "--if");
	return 0;
}

/*
 * The metrics one-shot prints, after NAME: VALUE-NAME with --time,
 * NEG-NAME for a signed value; into @bufs, pointed to from @names[*n..].
 */
void ks_trace_expr_names(const struct ks_plan *plan, const char *name,
			 char bufs[2][KSTATS_NAME_LEN + 8], const char **names, size_t *n)
{
	if (plan->e.flags & KSTATS_EXPR_TIME) {
		snprintf(bufs[0], sizeof(bufs[0]), "VALUE-%s", name);
		names[(*n)++] = bufs[0];
	}
	if (ks_plan_signed(plan)) {
		snprintf(bufs[1], sizeof(bufs[1]), "NEG-%s", name);
		names[(*n)++] = bufs[1];
	}
}
