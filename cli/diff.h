/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstatsctl diff's pieces: the command (diff.c), its details in text and
 * JSON (diff_show.c), and --fail-if (fail_if.c).
 */
#ifndef KSTATSCTL_DIFF_H
#define KSTATSCTL_DIFF_H

#include "stats.h"

enum cmp { CMP_INTERVAL, CMP_WHOLE, CMP_NONE };
extern const char *const diff_cmp_names[];

/* One metric of A and the same-named one of B, and how they compare. */
struct pair {
	const struct ks_metric *a, *b;
	struct ks_metric iv;	/* B - A, for CMP_INTERVAL */
	enum cmp cmp;
	enum ks_unit unit;	/* --units when both hold ns, else UNIT_NONE */
	char note[640];
};

/* How @p's A and B compare (p->cmp, p->note); p->iv is B - A for CMP_INTERVAL. */
void diff_classify(struct pair *p, const struct ks_source *sa,
		   const struct ks_source *sb, bool cumulative);

/* A side's value: [lo, hi] where only that much is known (lo == hi: exact). */
struct range {
	double lo, hi;
};

/* A, B, and for an interval B - A: histograms and statistics. */
struct sides {
	struct ks_hist h[3];
	struct ks_stats st[3];
	int nr;		/* 2, or 3 with B - A; the compared B is [nr - 1] */
	enum ks_unit unit;	/* the pair's */
};
void sides_build(struct sides *sd, const struct pair *p);
void sides_free(struct sides *sd);
/* "B" or "B-A": what A is compared with. */
const char *sides_b_name(const struct sides *sd);

/* Rows: count, mean, min, max, then each percentile shown. */
#define NR_ROWS	((int)(4 + ks_nr_pcts))
#define ROW_COUNT 0
#define ROW_MEAN 1
#define ROW_PCT 4	/* the first percentile */
const char *diff_row_name(int r);
/* Row @r of @st (>= 2): min, max or a percentile. */
const struct ks_est *diff_row_est(const struct ks_stats *st, int r);
/* Row @r of @st as a range; NAN, NAN without samples. */
struct range diff_row_range(const struct ks_stats *st, int r);
/* B relative to A, in %, as the lowest and highest their ranges allow. */
bool diff_change(struct range a, struct range b, double *lo, double *hi);

/* The details of one comparison (diff_show.c); per slot with @slots. */
void diff_text(const struct pair *p, bool slots);
void diff_json(struct json *j, const struct pair *p, bool brief);

/* ---- --fail-if (fail_if.c) ---- */

/*
 * One condition: STAT>THRESHOLD or STAT<THRESHOLD, where THRESHOLD is a
 * change in % (relative: "+10%") or a value (absolute: "2ms"; a count for
 * count). A change is of A to B (B - A); a value is B's (B - A's).
 */
struct ks_fail_if {
	int row;		/* diff's row (ROW_COUNT ...) */
	bool above;		/* > ; else < */
	bool relative;		/* a change in %; else a value */
	double threshold;	/* %, ns, or a count */
	char text[64];
};
/*
 * Parses "COND[,COND...]", adding to *@v; 0, or EXIT_USAGE (printed).
 * Percentiles are those shown (--percentiles, parsed before).
 */
int ks_fail_if_parse(const char *s, struct ks_fail_if **v, size_t *nr);

enum cond_result {
	COND_HELD,		/* surely past the threshold */
	COND_NOT_HELD,		/* not surely */
	COND_FEW_SAMPLES,	/* a percentile with too few samples beyond it */
	COND_NO_VALUE,		/* no samples on a side, a change from 0, or a
				 * value in ns for a metric with no unit */
};
extern const char *const cond_result_names[];

struct cond_eval {
	enum cond_result result;
	struct range a, b;	/* the values compared (a: relative only) */
	double lo, hi;		/* the change, in % (relative) */
	ks_u128 beyond_a, beyond_b;	/* a percentile's samples beyond it */
	bool few_a, few_b;		/* which side has too few */
	bool no_unit;		/* a value in ns, for a metric with no unit */
};
void ks_fail_if_eval(const struct ks_fail_if *f, const struct sides *sd,
		     struct cond_eval *ev);
/* The evaluation as text for the verdict line ("held: p99 changed +56..+64%"). */
void ks_fail_if_say(char *buf, size_t len, const struct ks_fail_if *f,
		    const struct sides *sd, const struct cond_eval *ev);
void ks_fail_if_json(struct json *j, const struct ks_fail_if *f,
		     const struct cond_eval *ev);

/* ---- the verdict (diff_verdict.c) ---- */

/* Every metric compared, and each condition's result for it. */
struct verdict {
	struct pair *p;
	size_t nr;
	const struct ks_fail_if *conds;
	size_t nr_conds;
	struct cond_eval *ev;	/* [pair * nr_conds + cond] */
	char (*say)[256];	/* the same, as text */
	size_t count[COND_NO_VALUE + 1];
	size_t not_compared, metrics_held;
	size_t only_a, only_b;	/* metrics picked in one side only */
	/* With --fail-if: the NAMEs that match no metric of both A and B. */
	const char **nowhere;
	unsigned char *nowhere_in;	/* 1: some in A only, 2: in B only */
	size_t nr_nowhere;
	size_t undecided;	/* not enough samples, no value, NAMEs nowhere */
	bool undecided_pass;	/* --undecided=pass */
	int status;
};
/* Every condition on every pair, and the exit status. */
void verdict_build(struct verdict *v);
void verdict_free(struct verdict *v);
void verdict_text(const struct verdict *v);
void verdict_json(struct json *j, const struct verdict *v);
void held_json(struct json *j, const struct verdict *v);	/* "fail_if" */
/* With @brief, each metric's comparison, note and conditions alone. */
void metrics_json(struct json *j, const struct verdict *v, bool brief);

#endif /* KSTATSCTL_DIFF_H */
