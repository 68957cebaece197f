/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace --value EXPR and --if PRED: the grammar (expr_parse.c), names and
 * types from BTF (expr_btf.c), and the compiled plan, with how it prints
 * (expr_plan.c). The module gets only struct kstats_expr; the plan keeps
 * beside it what each operand came from, for --dry-run and messages.
 */
#ifndef KSTATSCTL_EXPR_H
#define KSTATSCTL_EXPR_H

#include "kstatsctl.h"

#define KS_EXPR_NODES	64	/* parse tree nodes per option */
#define KS_EXPR_IDENT	64

/* A parsed operand: a name, a member access, a cast or a '*' of another node. */
enum ks_node_kind { KS_N_NAME, KS_N_ARROW, KS_N_DOT, KS_N_CAST, KS_N_DEREF };

struct ks_node {
	enum ks_node_kind kind;
	char ident[KS_EXPR_IDENT];	/* the name, or the member's */
	/* KS_N_CAST: "struct" / "union" / "enum" or "", the type's name, pointer depth. */
	char tag[8];
	int stars;
	struct ks_node *sub;		/* what ->, . or the cast applies to */
	int col;			/* 1-based column in the option's text */
};

/* "operand CMP constant", as written. */
struct ks_cmp {
	struct ks_node *lhs;
	uint32_t cmp;			/* KSTATS_CMP_* */
	char constant[48];		/* as written, sign included */
	int col;
};

/* The predicate as an OR of AND groups (parentheses distributed). */
struct ks_dnf {
	int nr_groups;
	int nr[KSTATS_EXPR_TERMS];
	struct ks_cmp *t[KSTATS_EXPR_TERMS][KSTATS_EXPR_TERMS];
};

struct ks_parse {
	const char *opt;		/* "--value" or "--if", for messages */
	const char *text;
	struct ks_node nodes[KS_EXPR_NODES];
	int nr_nodes;
	struct ks_cmp cmps[KSTATS_EXPR_TERMS * 4];
	int nr_cmps;
};

/* 0, or the usage error said (exit status EXIT_USAGE). */
int ks_expr_parse_value(struct ks_parse *p, const char *text, struct ks_node **out);
int ks_expr_parse_pred(struct ks_parse *p, const char *text, struct ks_dnf *out);
/*
 * "--value 'TEXT'" for messages; a long TEXT as its part around column
 * @col ("--if '...->f_next->f_flags'"), so that the message fits a line.
 */
const char *ks_expr_where(const struct ks_parse *p, int col, char *buf, size_t len);
/* @n as text, canonical ("((struct file *)arg0)->f_inode"). */
void ks_node_text(const struct ks_node *n, char *buf, size_t len);

/* What one operand reads, for the plan: its source and each load's field. */
struct ks_operand_desc {
	char text[256];			/* the expression, canonical */
	char source[96];		/* "arg2 (count)", "retval", "duration" */
	char fields[KSTATS_EXPR_LOADS][256];	/* "f_inode->i_size": what load i reads */
	char type[96];			/* the final C type */
	bool time;			/* the duration: ns */
};

struct ks_plan {
	const char *func;		/* as given, "[module:]symbol" */
	const char *pred;		/* --if, as given, or NULL */
	char term_const[KSTATS_EXPR_TERMS][48];	/* each term's constant, as given */
	char btf[160];			/* where names came from: "vmlinux", a module, "none" */
	struct kstats_expr e;
	struct ks_operand_desc value;
	struct ks_operand_desc terms[KSTATS_EXPR_TERMS];
};

struct ks_usdt_args;
/*
 * Compiles --value @value (or NULL) and --if @pred (or NULL) for @func
 * into @plan, with @time (--time); @user: @func is a user-space function
 * (its registers, and its memory through casts); @usdt: USDT probes, a
 * point's or a section's ends' arguments (usdt.h), else NULL. 0 or the
 * error said (an exit code).
 */
int ks_expr_compile(const char *func, const char *value, const char *pred, bool time,
		    bool user, const struct ks_usdt_args *usdt, struct ks_plan *plan);

/* expr_btf.c: the resolver's context for one function. */
struct ks_btf_ctx;
struct ks_btf_ctx *ks_btf_ctx_open(const char *func, bool user,
				   const struct ks_usdt_args *usdt);
void ks_btf_ctx_close(struct ks_btf_ctx *c);
const char *ks_btf_ctx_where(const struct ks_btf_ctx *c);
/*
 * Resolves @n into @op and @d. @pred: the duration is allowed. 0 or the
 * usage error said.
 */
int ks_btf_operand(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		   bool pred, struct kstats_operand *op, struct ks_operand_desc *d);

/* expr_plan.c: trace --dry-run prints the plan (text, or JSON with -j). */
struct ks_plan_view {
	const char *name;		/* the trace's NAME */
	const char *mech;		/* its mechanism, as asked */
	const char *end;		/* a section's end (plan->func its start), or NULL */
	const char *by;			/* --by KEY, or NULL */
	bool split, self;
};
void ks_plan_print(const struct ks_plan *plan, const struct ks_plan_view *v);
const char *ks_cmp_text(uint32_t cmp);	/* "<=" */
/* Whether the value is signed: NEG-NAME exists. */
bool ks_plan_signed(const struct ks_plan *plan);

#endif /* KSTATSCTL_EXPR_H */
