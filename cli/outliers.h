/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's outliers: read from the module (outlier_read.c), their
 * stacks named from /proc/kallsyms (ksyms.c), printed (fmt_outliers.c).
 */
#ifndef KSTATSCTL_OUTLIERS_H
#define KSTATSCTL_OUTLIERS_H

#include "model.h"

/* KSTATS_IOC_OUTLIERS, all entries; 0 or an errno. */
int ks_outliers_read(int fd, const char *name, struct kstats_outliers *o,
		     struct kstats_outlier **e);
void ks_outliers_counters(int fd, struct ks_metric *m);
/* "over 1 ms", "over p99.9 = 1.3 ms". */
char *ks_outliers_threshold(char *buf, size_t len, const struct kstats_outliers *o);
/* show's line: "12 outliers over ..., 3 lost; kstatsctl outliers NAME". */
void ks_outliers_line(FILE *out, const char *name, const struct kstats_outliers *o);

/* /proc/kallsyms' text symbols, sorted by address. */
struct ks_ksym {
	uint64_t addr;
	char *name;		/* "func" or "func [module]" */
};
struct ks_ksyms {
	struct ks_ksym *v;
	size_t nr;
	bool loaded;
	bool hidden;		/* every address reads 0: kptr_restrict */
};
void ks_ksyms_load(struct ks_ksyms *k);
void ks_ksyms_free(struct ks_ksyms *k);
/* "func+0xoff [module]", or NULL when no symbol holds @addr. */
char *ks_ksym_name(char *buf, size_t len, const struct ks_ksyms *k, uint64_t addr);
/*
 * A user address of process @pid: "func+0xoff [file]" through its mappings
 * and the file's symbols (usym_addr.c, libelf), or NULL. The code shared
 * with the tests reaches it through ks_uaddr_namer, which kstatsctl sets
 * (main.c); NULL: user frames are not named.
 */
char *ks_uaddr_name(char *buf, size_t len, long pid, uint64_t addr);
extern char *(*ks_uaddr_namer)(char *buf, size_t len, long pid, uint64_t addr);

/*
 * A trace's outliers as 'outliers' prints them, from the module
 * (symbolized) or from a snapshot file: the same for both, so that a
 * file prints as the live command does. Frames are text, kept in one
 * buffer: entry e's frame f is text + e->stack[f].
 */
struct ks_outl_entry {
	uint64_t seq, time_ns, duration_ns;
	int64_t realtime_ns;		/* time_ns as wall time */
	int32_t pid, tgid;
	uint32_t cpu_start, cpu_end;
	uint32_t flags;			/* KSTATS_OUTLIER_* */
	uint64_t retval;		/* with KSTATS_OUTLIER_RETVAL: the return register */
	uint32_t nr_frames;		/* the kernel's (at most KSTATS_OUTLIER_FRAMES) */
	uint32_t nr_stack;		/* in stack[]: nr_frames, or 0 when withheld */
	char comm[16];			/* NUL-terminated */
	uint32_t stack[KSTATS_OUTLIER_FRAMES];
};
struct ks_outl {
	struct kstats_outliers o;	/* counters, threshold, capacity */
	bool withheld;			/* no stacks at all: the note says why */
	char note[256];			/* "", or why stacks are withheld or raw */
	struct ks_outl_entry *e;
	uint32_t nr;
	char *text;
	size_t text_len, text_cap;
	/* outliers --follow: missed since the previous document (JSON). */
	bool follow;
	uint64_t lost, ratelimited_since;
	/* With a filter: the entries it left out (not in e[]). */
	bool filtered;
	uint64_t unmatched;
};

/*
 * outliers -p/-t/-C/--comm/--min: only the calls of process P, thread T,
 * that ended on these CPUs, by a task called COMM, or as long as --min.
 */
struct ks_outl_filter {
	int64_t pid, tid;		/* 0: any */
	uint8_t *cpus;			/* KS_CPU_BITS bits, or NULL: any */
	char comm[16];			/* "": any */
	uint64_t min_ns;		/* 0: any */
	bool on;			/* any of them */
	bool task;			/* pid, tid or comm: needs the entries' task */
};
/* Keeps in @ol the entries @f matches (all without a filter), in order. */
void ks_outl_filter(struct ks_outl *ol, const struct ks_outl_filter *f);
/* A task filter on entries without their task: said (EXIT_RUNTIME), else 0. */
int ks_outl_filter_refused(const struct ks_outl_filter *f, const struct ks_outl *ol,
			   uint32_t out_flags, const char *path);
/*
 * @nr entries of KSTATS_IOC_OUTLIERS (@o, @e) into @ol, each frame named
 * from @k (loaded here if need be). @file: for a snapshot file, which
 * keeps no kernel address: a frame no symbol holds is "[unknown]", and
 * with kptr_restrict's hidden addresses the stacks are withheld.
 */
void ks_outl_from_module(struct ks_outl *ol, const struct kstats_outliers *o,
			 const struct kstats_outlier *e, uint32_t nr,
			 struct ks_ksyms *k, bool file);
/* Appends @s to @ol's text; its offset. */
uint32_t ks_outl_text(struct ks_outl *ol, const char *s, size_t len);
/* What @ol holds, and @ol (malloc'ed); NULL: nothing. */
void ks_outl_free(struct ks_outl *ol);
/* 'outliers' output (fmt_outliers.c): the table; the JSON document's members. */
void fmt_outliers_table(FILE *out, const char *name, const struct ks_outl *ol);
/* One of them, as the table prints it: its line, then its stack. */
void fmt_outlier_entry(FILE *out, const struct ks_outl *ol, uint32_t i);
/*
 * outliers --folded (fmt_folded.c): collapsed stacks, outermost frame
 * first, @func last, weighted by calls or (@by_time) their ns.
 */
void fmt_outliers_folded(FILE *out, const char *func, const struct ks_outl *ol, bool by_time);
/* Folded stacks (fmt_folded.c): a line's stack and weight. */
struct ks_folded {
	char *stack;		/* malloc'ed; freed by ks_folded_print() */
	uint64_t weight;
};
/* @v's lines sorted, identical stacks added up, printed. */
void ks_folded_print(FILE *out, struct ks_folded *v, size_t nr);
/* "ctl_cmd+0x9e2 [mod]" as a folded frame: "ctl_cmd [mod]", safe text. */
void ks_folded_frame(char *buf, size_t len, const char *frame);
/* "@root;outermost;...;@frames[0];@func" (@root NULL: none), malloc'ed. */
char *ks_folded_join(const char *root, const char *const *frames, uint32_t nr, const char *func);
struct ks_names;
/*
 * show --folded (show_folded.c): the stack keys of the traces @traces,
 * live, or from the snapshot file @path (NULL: live).
 */
int ks_show_folded(const struct ks_names *traces, const char *path, bool by_time);
struct ks_key_stack;
struct ks_stack_names;
/* stack_names.c: @st's frames named from @k (loaded when needed), malloc'ed. */
struct ks_stack_names *ks_stack_name(const struct ks_key_stack *st, struct ks_ksyms *k);
/* A stack key's folded line, @func last; @other: the key "other" (no frames). */
char *ks_stack_folded_line(const struct ks_stack_names *s, bool other, const char *func);
/* Entry @e's folded stack ("root;...;caller;@func"), malloc'ed (fmt_folded.c). */
char *ks_outl_stack_line(const struct ks_outl *ol, const struct ks_outl_entry *e,
			 const char *func);
struct ks_plot;
/* plot flame (plot_flame.c): the flame graph of @ol, @name's slow calls of @func. */
int ks_plot_flame(FILE *out, const char *name, const char *func, const struct ks_outl *ol,
		  const struct ks_plot *p);
/*
 * plot flame's data (outliers.c): trace @name's outliers, live (@path
 * NULL) or from the snapshot file @path (@name NULL: its only trace that
 * keeps them), drawn into @out.
 */
int ks_outliers_flame(const char *path, const char *name, FILE *out, const struct ks_plot *p);
/* outliers NAME --follow (outliers_follow.c). */
int ks_outliers_follow(const char *name, const struct ks_outl_filter *f);
void fmt_outliers_json(struct json *j, const char *name, const struct ks_outl *ol);

#endif /* KSTATSCTL_OUTLIERS_H */
