// SPDX-License-Identifier: GPL-2.0
/*
 * trace --value/--if: an operand's members, casts and reads. "->" follows
 * a pointer (a read of 8 bytes, unless it is the register in hand), "."
 * adds a member's offset; members of anonymous structs and unions are
 * found through them. The last member is read with its own width (or a
 * narrower cast's: x86-64 is little-endian, so the low bytes are at its
 * address). Bitfields, arrays, floats and structs by value are refused.
 */
#include <stdio.h>
#include <string.h>

#include "expr_btf.h"
#include "libs_dl.h"

/* ---- members ---- */

/*
 * Member @name of @t (a struct or union), through anonymous ones, into
 * @off (bytes) and @mt; 1 not found (the nearest name in @best), -1 a
 * bitfield (its bits in @bits).
 */
static int member(const struct ks_btf_ctx *c, int tid, const char *name, int32_t *off,
		  struct rtype *mt, char *best, int *dist, int *bits)
{
	const struct btf_type *t = btf__type_by_id(c->btf, (unsigned int)tid), *st;
	const struct btf_member *m = btf_members(t);
	const char *mn;
	int i, sub, rc;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		mn = btf__name_by_offset(c->btf, m->name_off);
		if (mn && *mn) {
			if (strcmp(mn, name)) {
				eb_nearest(name, mn, best, dist);
				continue;
			}
			*bits = (int)btf_member_bitfield_size(t, (uint32_t)i);
			if (*bits || btf_member_bit_offset(t, (uint32_t)i) % 8)
				return -1;
			*off = (int32_t)(btf_member_bit_offset(t, (uint32_t)i) / 8);
			*mt = (struct rtype){ .id = (int)m->type };
			return 0;
		}
		/* An anonymous struct or union: its members are this one's. */
		sub = (int)m->type;
		st = eb_skip_mods(c->btf, &sub);
		if (!st || !(btf_is_struct(st) || btf_is_union(st)))
			continue;
		rc = member(c, sub, name, off, mt, best, dist, bits);
		if (!rc)
			*off += (int32_t)(btf_member_bit_offset(t, (uint32_t)i) / 8);
		if (rc <= 0)
			return rc;
	}
	return 1;
}

/*
 * Where @name is inside a named struct or union member of @tid, at most
 * @depth levels down ("__sk_common.skc_dport": the kernel's sk_dport
 * macros are not in BTF); into @path, false when nowhere.
 */
static bool embedded_path(const struct ks_btf_ctx *c, int tid, const char *name,
			  char *path, size_t len, int depth)
{
	const struct btf_type *t = btf__type_by_id(c->btf, (unsigned int)tid), *st;
	const struct btf_member *m = btf_members(t);
	char sub[192];
	const char *mn;
	int i, id;

	for (i = 0; depth > 0 && i < btf_vlen(t); i++, m++) {
		mn = btf__name_by_offset(c->btf, m->name_off);
		id = (int)m->type;
		st = eb_skip_mods(c->btf, &id);
		if (!st || !(btf_is_struct(st) || btf_is_union(st)))
			continue;
		if (mn && *mn) {
			int32_t off;
			struct rtype mt;
			char best[KS_EXPR_IDENT];
			int dist = 0, bits;	/* 0: no nearest name wanted */

			if (member(c, id, name, &off, &mt, best, &dist, &bits) <= 0) {
				snprintf(path, len, "%s.%s", mn, name);
				return true;
			}
			if (embedded_path(c, id, name, sub, sizeof(sub), depth - 1)) {
				snprintf(path, len, "%s.%.150s", mn, sub);
				return true;
			}
		}
	}
	return false;
}

/* Reads what is in hand at + off: one more load. */
static int load(struct ks_parse *p, const struct ks_node *n, struct rstate *s)
{
	int i = s->op->nr_loads;

	if (i == KSTATS_EXPR_LOADS) {
		ks_set_hint("kstats follows at most %d pointers per operand",
			    KSTATS_EXPR_LOADS);
		return eb_refuse(p, n, "the chain is too long: more than %d reads",
			      KSTATS_EXPR_LOADS);
	}
	s->op->offsets[i] = s->off;
	snprintf(s->d->fields[i], sizeof(s->d->fields[i]), "%s", s->field);
	s->op->nr_loads++;
	s->at = false;
	s->off = 0;
	return 0;
}

static int resolve(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		   bool pred, struct rstate *s);

/*
 * What '->', '.' or '*' applies to, resolved into @s, its text into @sub
 * (256 bytes) and its type's name into @ty (96); the duration refused.
 */
static int resolve_sub(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		       bool pred, struct rstate *s, char *sub, char *ty)
{
	if (resolve(c, p, n->sub, pred, s))
		return -1;
	ks_node_text(n->sub, sub, 256);
	eb_type_name(c, &s->t, ty, 96);
	if (s->op->source == KSTATS_OPERAND_DURATION) {
		ks_set_hint("compare it with a time: duration > 1ms");
		return eb_refuse(p, n, "the duration is a number, not a pointer");
	}
	return 0;
}

static int access(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		  bool pred, struct rstate *s)
{
	char ty[96], sub[256], best[KS_EXPR_IDENT] = "";
	const struct btf_type *ct;
	struct rtype owner, mt;
	int dist = 1 << 20, bits = 0, tid, rc;
	bool arrow = n->kind == KS_N_ARROW;
	int32_t off = 0;

	if (resolve_sub(c, p, n, pred, s, sub, ty))
		return -1;
	if (arrow && !eb_is_ptr(c, &s->t)) {
		if (eb_composite(c, &s->t, &tid)) {
			ks_set_hint("'.' reaches a member of a struct: %s.%s", sub, n->ident);
			return eb_refuse(p, n, "'%s' is %s, not a pointer: '->' follows pointers",
				      sub, ty);
		}
		ks_set_hint("cast it to a pointer first: ((struct NAME *)%s)->%s", sub,
			    n->ident);
		return eb_refuse(p, n, "'%s' is %s, not a pointer: '->' needs one", sub, ty);
	}
	if (!arrow && eb_is_ptr(c, &s->t)) {
		ks_set_hint("'->' follows a pointer: %s->%s", sub, n->ident);
		return eb_refuse(p, n, "'%s' is a pointer (%s): '.' reaches a member of a "
			      "struct", sub, ty);
	}
	if (arrow) {
		if (s->size != 8)
			return eb_refuse(p, n, "'%s' is %d bytes: a pointer is 8", sub, s->size);
		if (s->at && load(p, n, s))
			return -1;
		owner = eb_pointee(c, &s->t);
	} else {
		owner = s->t;
		if (!s->at) {
			eb_type_name(c, &owner, ty, sizeof(ty));
			ks_set_hint("a struct returned or passed by value is in registers, "
				    "not memory: kstats reads integers and pointers");
			return eb_refuse(p, n, "'%s' is a struct by value (%s)", sub, ty);
		}
	}
	ct = eb_composite(c, &owner, &tid);
	if (!ct) {
		eb_type_name(c, &owner, ty, sizeof(ty));
		if (owner.builtin || !owner.id)
			ks_set_hint("cast it to a struct pointer: ((struct NAME *)%s)->%s",
				    sub, n->ident);
		else if (!strncmp(ty, "struct ", 7) || !strncmp(ty, "union ", 6))
			ks_set_hint("BTF declares %s but does not define it here", ty);
		return eb_refuse(p, n, "'%s' %s %s, which has no members", sub,
			      arrow ? "points to" : "is", owner.id || owner.builtin ? ty :
			      "void");
	}
	rc = member(c, tid, n->ident, &off, &mt, best, &dist, &bits);
	eb_type_name(c, &owner, ty, sizeof(ty));
	if (rc > 0) {
		char path[256];

		if (embedded_path(c, tid, n->ident, path, sizeof(path), 3))
			ks_set_hint("it is in an embedded struct: %s%s%s", sub,
				    arrow ? "->" : ".", path);
		else if (best[0])
			ks_set_hint("did you mean '%s'?", best);
		return eb_refuse(p, n, "%s has no member '%s'", ty, n->ident);
	}
	if (rc < 0) {
		ks_set_hint("kstats reads whole bytes; a bitfield's word can be read "
			    "through a cast, its bits tested with '&' in --if");
		return eb_refuse(p, n, "%s.%s is a bitfield (%d bits): not supported", ty,
			      n->ident, bits);
	}
	s->at = true;
	s->off += off;
	s->t = mt;
	ks_node_text(n, s->text, sizeof(s->text));
	memcpy(s->field, s->text, sizeof(s->field));
	if (eb_scalar(c, &mt, &s->size, &s->sign, &(const char *){ NULL }) == false)
		s->size = 8;	/* a struct or array: only a member of it can be read */
	return 0;
}

/* A builtin type name (u8..u64, s8..s64) into @t. */
/*
 * C's integer types of several words, as x86-64 (LP64) has them: "unsigned
 * char" is u8, "long long int" s64, plain char signed.
 */
static bool c_int(const char *name, struct rtype *t)
{
	int is_unsigned = 0, is_signed = 0, chars = 0, shorts = 0, ints = 0, longs = 0;
	char copy[KS_EXPR_IDENT], *w, *save;

	snprintf(copy, sizeof(copy), "%s", name);
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!strcmp(w, "unsigned"))
			is_unsigned++;
		else if (!strcmp(w, "signed"))
			is_signed++;
		else if (!strcmp(w, "char"))
			chars++;
		else if (!strcmp(w, "short"))
			shorts++;
		else if (!strcmp(w, "int"))
			ints++;
		else if (!strcmp(w, "long"))
			longs++;
		else
			return false;
	if (is_unsigned + is_signed > 1 || chars + shorts + (longs > 0) > 1 || ints > 1 ||
	    longs > 2 || (chars && ints))
		return false;
	*t = (struct rtype){ .builtin = true, .sign = !is_unsigned,
			     .size = chars ? 1 : shorts ? 2 : longs ? 8 : 4 };
	return true;
}

/* A builtin type name (u8..u64, s8..s64, C's integers) into @t. */
static bool builtin(const char *name, struct rtype *t)
{
	static const char *const names[] = { "u8", "u16", "u32", "u64", "s8", "s16",
					     "s32", "s64" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i])) {
			*t = (struct rtype){ .builtin = true, .size = 1 << (i % 4),
					     .sign = i >= 4 };
			return true;
		}
	return c_int(name, t);
}

static int cast_type(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		     struct rtype *t)
{
	int kind = !strcmp(n->tag, "struct") ? BTF_KIND_STRUCT :
		   !strcmp(n->tag, "union") ? BTF_KIND_UNION :
		   !strcmp(n->tag, "enum") ? BTF_KIND_ENUM : 0;
	int id;

	if (!kind && builtin(n->ident, t)) {
		t->stars = n->stars;
		return 0;
	}
	if (c->user) {
		ks_set_hint("a user-space function's casts are to u8, u16, u32, u64, s8, "
			    "s16, s32, s64 and C's integer types (unsigned long...)");
		return eb_refuse(p, n, "no type '%s%s%s': kstats reads no debug info of "
			      "programs", n->tag, n->tag[0] ? " " : "", n->ident);
	}
	if (!c->vmlinux) {
		ks_set_hint("without BTF, casts are to u8, u16, u32, u64, s8, s16, s32, "
			    "s64 and C's integer types (unsigned long...)");
		return eb_refuse(p, n, "no BTF here (/sys/kernel/btf/vmlinux) to know "
			      "type '%s%s%s'", n->tag, n->tag[0] ? " " : "", n->ident);
	}
	id = kind ? btf__find_by_name_kind(c->btf, n->ident, (uint32_t)kind) :
		    btf__find_by_name_kind(c->btf, n->ident, BTF_KIND_TYPEDEF);
	if (id < 0 && !kind)
		id = btf__find_by_name_kind(c->btf, n->ident, BTF_KIND_INT);
	if (id < 0 && kind == BTF_KIND_ENUM)
		id = btf__find_by_name_kind(c->btf, n->ident, BTF_KIND_ENUM64);
	if (id < 0) {
		ks_set_hint("%s", kind ? "the name as BTF has it ('bpftool btf dump file "
			    "/sys/kernel/btf/vmlinux')" : "a struct needs its tag: (struct "
			    "NAME *); fixed widths: u8..u64, s8..s64; C's integers: unsigned long...");
		return eb_refuse(p, n, "no type '%s%s%s' in BTF", n->tag, n->tag[0] ? " " : "",
			      n->ident);
	}
	*t = (struct rtype){ .id = id, .stars = n->stars };
	return 0;
}

static int cast(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		bool pred, struct rstate *s)
{
	char from[96], to[96], sub[256];
	const char *why = NULL;
	struct rtype t;
	int size;
	bool sign;

	if (resolve(c, p, n->sub, pred, s) || cast_type(c, p, n, &t))
		return -1;
	ks_node_text(n->sub, sub, sizeof(sub));
	eb_type_name(c, &s->t, from, sizeof(from));
	eb_type_name(c, &t, to, sizeof(to));
	if (s->op->source == KSTATS_OPERAND_DURATION) {
		ks_set_hint("compare it with a time: duration > 1ms");
		return eb_refuse(p, n, "the duration is ns, 64 bits: it takes no cast");
	}
	if (!eb_scalar(c, &t, &size, &sign, &why))
		return eb_refuse(p, n, "(%s): %s is not a number nor a pointer", to, why);
	if (!eb_scalar(c, &s->t, &s->size, &s->sign, &why))
		return eb_refuse(p, n, "'%s' is %s (%s): only a number or a pointer can be "
			      "cast", sub, why, from);
	if (size > s->size && sign != s->sign) {
		ks_set_hint("cast to the same sign first, or to %s%d", s->sign ? "s" : "u",
			    size * 8);
		return eb_refuse(p, n, "(%s) of %s widens a %s value to %s: negative "
			      "values would read as huge ones", to, from,
			      s->sign ? "signed" : "unsigned", s->sign ? "unsigned" : "signed");
	}
	if (size > s->size && eb_is_ptr(c, &t)) {
		ks_set_hint("a pointer is read whole: cast the 8-byte value");
		return eb_refuse(p, n, "'%s' is %d bytes: a pointer is 8", sub, s->size);
	}
	/*
	 * Narrower: the low bytes (little-endian: at the value's address), as
	 * the cast's sign. Wider: extended by the value's own sign, the same.
	 */
	if (size <= s->size) {
		s->size = size;
		s->sign = sign;
	}
	s->t = t;
	ks_node_text(n, s->text, sizeof(s->text));
	return 0;
}

/* '*EXPR': what a pointer points to, read as its type (a struct: a member of it). */
static int deref(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		 bool pred, struct rstate *s)
{
	char ty[96], sub[256];
	const char *why;

	if (resolve_sub(c, p, n, pred, s, sub, ty))
		return -1;
	if (!eb_is_ptr(c, &s->t)) {
		ks_set_hint("cast it to a pointer first: *(u32 *)%s", sub);
		return eb_refuse(p, n, "'%s' is %s, not a pointer: '*' needs one", sub, ty);
	}
	if (s->size != 8)
		return eb_refuse(p, n, "'%s' is %d bytes: a pointer is 8", sub, s->size);
	if (s->at && load(p, n, s))
		return -1;
	s->t = eb_pointee(c, &s->t);
	if (!s->t.builtin && !s->t.id && !s->t.stars) {
		ks_set_hint("cast it to what it points to: *(u64 *)%s", sub);
		return eb_refuse(p, n, "'%s' points to void", sub);
	}
	s->at = true;
	s->off = 0;
	ks_node_text(n, s->text, sizeof(s->text));
	memcpy(s->field, s->text, sizeof(s->field));
	if (!eb_scalar(c, &s->t, &s->size, &s->sign, &why))
		s->size = 8;	/* a struct: only a member of it can be read */
	return 0;
}

static int resolve(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		   bool pred, struct rstate *s)
{
	const char *why;

	switch (n->kind) {
	case KS_N_NAME:
		if (eb_source(c, p, n, pred, s))
			return -1;
		snprintf(s->text, sizeof(s->text), "%s", n->ident);
		memcpy(s->field, s->text, sizeof(s->field));
		if (!eb_scalar(c, &s->t, &s->size, &s->sign, &why))
			s->size = 8;	/* refused in param(), or a struct by value */
		return 0;
	case KS_N_ARROW:
	case KS_N_DOT:
		return c->user ? eb_user_refuse_load(c, p, n) : access(c, p, n, pred, s);
	case KS_N_CAST:
		return cast(c, p, n, pred, s);
	case KS_N_DEREF:
		/* A user-space one: through a cast to a pointer (no types to name). */
		return deref(c, p, n, pred, s);
	}
	return -1;
}

int ks_btf_operand(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		   bool pred, struct kstats_operand *op, struct ks_operand_desc *d)
{
	struct rstate s = { .op = op, .d = d };
	const char *why = NULL;
	char ty[96];
	int size;
	bool sign;

	memset(op, 0, sizeof(*op));
	memset(d, 0, sizeof(*d));
	/* A section: the operand's end, and that end's names. */
	if (c->other && ks_btf_section_pick(c, p, (struct ks_node *)n, &c))
		return -1;
	if (resolve(c, p, n, pred, &s))
		return -1;
	if (op->source == KSTATS_OPERAND_END_ARG || op->source == KSTATS_OPERAND_END_FIELD ||
	    op->source == KSTATS_OPERAND_END_REG ||
	    ((op->source == KSTATS_OPERAND_ARG || op->source == KSTATS_OPERAND_FIELD ||
	      op->source == KSTATS_OPERAND_REG) && c->other)) {
		char src[sizeof(d->source)];

		snprintf(src, sizeof(src), "%s", d->source);
		snprintf(d->source, sizeof(d->source), "%s %.80s",
			 c->end ? "end" : "start", src);
	}
	eb_type_name(c, &s.t, ty, sizeof(ty));
	if (!eb_scalar(c, &s.t, &size, &sign, &why)) {
		if (!strcmp(why, "a struct") || !strcmp(why, "a union"))
			ks_set_hint(s.text[0] == '*' || s.text[0] == '(' ?
				    "name one of its members: (%s).member" :
				    "name one of its members: %s.member", s.text);
		else if (!strcmp(why, "an array"))
			ks_set_hint("an array's elements are not indexed: read a scalar "
				    "member beside it, or the array's first bytes through a "
				    "cast of a pointer to it");
		else
			ks_set_hint("kstats records one 64-bit integer per call");
		return eb_refuse(p, n, "'%s' is %s (%s): kstats records integers and "
			      "pointers", s.text, why, ty);
	}
	if (s.at && load(p, n, &s))
		return -1;
	op->size = (uint8_t)s.size;
	op->flags = s.sign ? KSTATS_OPERAND_SIGNED : 0;
	snprintf(d->text, sizeof(d->text), "%s", s.text);
	snprintf(d->type, sizeof(d->type), "%s", ty);
	return 0;
}
