/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside trace --value/--if's resolver: the BTF context and the types and
 * messages expr_btf.c shares with expr_resolve.c.
 */
#ifndef KSTATSCTL_EXPR_BTF_H
#define KSTATSCTL_EXPR_BTF_H

#include <bpf/btf.h>

#include "expr.h"

struct ks_btf_ctx {
	struct btf *vmlinux;	/* NULL: no BTF */
	struct btf *btf;	/* the function's: vmlinux or a module's (split) */
	const char *func;	/* the symbol, without its module */
	int proto;		/* its FUNC_PROTO's id, or -1 */
	char where[160];
	/* A tracepoint (expr_tp.c): "tp:[system:]event", its data first. */
	const char *event;	/* the event's name, or NULL: a function */
	int first;		/* parameters before the arguments: 1, the data */
	int names;		/* a FUNC_PROTO of the same types, named; or -1 */
	bool end;		/* a section's end: its arguments are read there */
	struct ks_btf_ctx *other;	/* a section's start: its end's context */
	bool user;		/* a user-space function or USDT probe: no BTF */
	const struct ks_usdt_args *usdt;	/* a USDT probe's arguments, or NULL */
};

/* expr_tp.c: a tracepoint's context, or NULL if @target is not one. */
/*
 * @c's vmlinux BTF, from @path ($KSTATS_BTF) or the kernel's: false (where
 * "none") if there is none.
 */
bool ks_btf_ctx_vmlinux(struct ks_btf_ctx *c, const char *path);
struct ks_btf_ctx *ks_btf_tp_open(const char *target);
/* expr_usdt.c: a USDT point's context (@ua[1] without places), or a section's. */
struct ks_btf_ctx *ks_btf_usdt_open(const struct ks_usdt_args *ua);
/* Whether USDT context @c's probe has argument @id. */
bool ks_btf_usdt_has(const struct ks_btf_ctx *c, const char *id);
/* expr_section.c: section "A..B"'s contexts, each end's by @open_one, linked. */
struct ks_btf_ctx *ks_btf_section_open(const char *target,
				       struct ks_btf_ctx *(*open_one)(const char *));
/*
 * A section's operand @n: which end it reads (a name one end has, or
 * start.NAME / end.NAME, which becomes NAME), into *@pick; 0 or the usage
 * error said.
 */
int ks_btf_section_pick(struct ks_btf_ctx *c, struct ks_parse *p, struct ks_node *n,
			struct ks_btf_ctx **pick);
/* @n names no argument nor field of tracepoint @c: refused, with a hint. */
int ks_btf_tp_unknown(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		      const char *best);
int eb_nr_params(const struct ks_btf_ctx *c);
const char *eb_param_name(const struct ks_btf_ctx *c, int i, char *buf, size_t len);
const char *eb_param_list(const struct ks_btf_ctx *c, char *buf, size_t len);

/* A type: a BTF id (0: void) under @stars extra pointers, or a builtin (@builtin). */
struct rtype {
	int id;
	int stars;
	bool builtin;		/* u8..u64, s8..s64: @size and @sign */
	int size;
	bool sign;
};

/* An operand while it resolves: a value in hand, or one at (value + off). */
struct rstate {
	struct kstats_operand *op;
	struct ks_operand_desc *d;
	struct rtype t;
	bool at;		/* the value is in memory at (what is in hand + off) */
	int32_t off;
	int size;		/* bytes to read (or of the register), 1..8 */
	bool sign;
	char text[256];		/* the expression so far */
	char field[256];	/* ... as a read names it: without a cast of it */
};

const struct btf_type *eb_skip_mods(const struct btf *btf, int *id);
void eb_type_name(const struct ks_btf_ctx *c, const struct rtype *t, char *buf, size_t len);
bool eb_is_ptr(const struct ks_btf_ctx *c, const struct rtype *t);
/* What @t points to (eb_is_ptr(@t)). */
struct rtype eb_pointee(const struct ks_btf_ctx *c, const struct rtype *t);
/* The struct or union @t is (no pointer), its id in @id; else NULL. */
const struct btf_type *eb_composite(const struct ks_btf_ctx *c, const struct rtype *t,
				    int *id);
/*
 * Width and sign of a scalar @t; else false, with the reason it is none in
 * @why ("a struct", "an array", "a floating-point number", "void").
 */
bool eb_scalar(const struct ks_btf_ctx *c, const struct rtype *t, int *size, bool *sign,
	       const char **why);
/* Keeps in @best (KS_EXPR_IDENT bytes) the name nearest @want, if near enough. */
void eb_nearest(const char *want, const char *name, char *best, int *dist);
/* The edit distance of @a and @b (large past KS_EXPR_IDENT). */
int eb_distance(const char *a, const char *b);
/* The usage error "OPT 'TEXT': MESSAGE (column N)"; returns EXIT_USAGE. */
int eb_refuse(struct ks_parse *p, const struct ks_node *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A user-space function's refusal of @n, a read of its memory: EXIT_USAGE. */
int eb_user_refuse_load(const struct ks_btf_ctx *c, struct ks_parse *p,
			const struct ks_node *n);
/*
 * expr_tp.c: @n as a field of tracepoint @c's record into @s: 1 if it is
 * one, 0 if not, -1 refused (said).
 */
int ks_btf_tp_field(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		    struct rstate *s);
/* Whether tracepoint @c's record has a field @name (tracefs' format, or BTF). */
bool ks_btf_tp_has_field(const struct ks_btf_ctx *c, const char *name);
/* @n, a name: its source (a parameter, argN, retval, duration) into @s. */
int eb_source(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n, bool pred,
	      struct rstate *s);

/* @n, a name at USDT context @c: its source into @s; 0 or the usage error said. */
int ks_btf_usdt_source(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		       bool pred, struct rstate *s);

#endif /* KSTATSCTL_EXPR_BTF_H */
