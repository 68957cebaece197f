// SPDX-License-Identifier: GPL-2.0
/*
 * The grammar of trace --value EXPR and --if PRED (kstatsctl(8)):
 *
 *   pred    := and ('||' and)*
 *   and     := atom ('&&' atom)*
 *   atom    := '(' pred ')' | expr CMP constant
 *   CMP     := '==' | '!=' | '<' | '<=' | '>' | '>=' | '&'   ('&': a bit test)
 *   expr    := '(' type ')' expr | '*' expr | postfix
 *   postfix := primary ('->' IDENT | '.' IDENT)*
 *   primary := IDENT | '(' expr ')'
 *   type    := ['struct' | 'union' | 'enum'] IDENT '*'*
 *   constant:= ['-'] NUMBER [UNIT]    (decimal or 0x hex; a unit for durations)
 *
 * Names are not resolved here (expr_btf.c does, with BTF): only the shape.
 * A parenthesis before a comparison is tried as a group first, then as an
 * operand's; the error of whichever got further is the one said.
 * Parentheses in a predicate are distributed into the OR of AND groups
 * the module runs; more terms than it holds are refused.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

enum tok {
	T_END, T_IDENT, T_NUM, T_ARROW, T_DOT, T_LP, T_RP, T_STAR, T_ANDAND, T_OROR,
	T_AMP, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_MINUS, T_BAD,
};

struct lexer {
	struct ks_parse *p;
	const char *s;
	int pos;			/* of the current token */
	enum tok tok;
	int len;
	/* The furthest error, kept while alternatives are tried. */
	char err[256];
	char hint[256];
	int err_pos;
};

static const struct {
	const char *text;
	enum tok tok;
	uint32_t cmp;
} ops[] = {
	{ "->", T_ARROW, 0 }, { "&&", T_ANDAND, 0 }, { "||", T_OROR, 0 },
	{ "==", T_EQ, KSTATS_CMP_EQ }, { "!=", T_NE, KSTATS_CMP_NE },
	{ "<=", T_LE, KSTATS_CMP_LE }, { ">=", T_GE, KSTATS_CMP_GE },
	{ "<", T_LT, KSTATS_CMP_LT }, { ">", T_GT, KSTATS_CMP_GT },
	{ "&", T_AMP, KSTATS_CMP_AND }, { ".", T_DOT, 0 }, { "(", T_LP, 0 },
	{ ")", T_RP, 0 }, { "*", T_STAR, 0 }, { "-", T_MINUS, 0 },
};

static void lex_at(struct lexer *l, int pos)
{
	const char *s = l->s;
	size_t i;

	while (s[pos] == ' ' || s[pos] == '\t')
		pos++;
	l->pos = pos;
	l->len = 0;
	if (!s[pos]) {
		l->tok = T_END;
		return;
	}
	if (isalpha((unsigned char)s[pos]) || s[pos] == '_') {
		while (isalnum((unsigned char)s[pos + l->len]) || s[pos + l->len] == '_')
			l->len++;
		l->tok = T_IDENT;
		return;
	}
	if (isdigit((unsigned char)s[pos])) {
		while (isalnum((unsigned char)s[pos + l->len]) || s[pos + l->len] == '.')
			l->len++;
		l->tok = T_NUM;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strncmp(s + pos, ops[i].text, strlen(ops[i].text))) {
			l->tok = ops[i].tok;
			l->len = (int)strlen(ops[i].text);
			return;
		}
	l->tok = T_BAD;
	l->len = 1;
}

static void next(struct lexer *l)
{
	lex_at(l, l->pos + l->len);
}

/* Keeps the error furthest into the text; returns -1. */
static int fail(struct lexer *l, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct lexer *l, const char *hint, const char *fmt, ...)
{
	va_list ap;

	if (l->err[0] && l->err_pos > l->pos)
		return -1;
	va_start(ap, fmt);
	vsnprintf(l->err, sizeof(l->err), fmt, ap);
	va_end(ap);
	snprintf(l->hint, sizeof(l->hint), "%s", hint ? hint : "");
	l->err_pos = l->pos;
	return -1;
}

/* The current token as text, for messages ("end of text" at the end). */
static const char *tok_text(const struct lexer *l, char *buf, size_t len)
{
	if (l->tok == T_END)
		return "the end";
	snprintf(buf, len, "'%.*s'", l->len, l->s + l->pos);
	return buf;
}

#define QUOTE_MAX	40	/* characters of an option's text quoted in a message */

const char *ks_expr_where(const struct ks_parse *p, int col, char *buf, size_t len)
{
	int n = (int)strlen(p->text), from = col - 1 - QUOTE_MAX / 2;

	if (n <= QUOTE_MAX) {
		snprintf(buf, len, "%s '%s'", p->opt, p->text);
		return buf;
	}
	if (from + QUOTE_MAX > n)
		from = n - QUOTE_MAX;
	if (from < 0)
		from = 0;
	snprintf(buf, len, "%s '%s%.*s%s'", p->opt, from ? "..." : "", QUOTE_MAX,
		 p->text + from, from + QUOTE_MAX < n ? "..." : "");
	return buf;
}

static int said(struct lexer *l)
{
	char where[96];

	if (l->hint[0])
		ks_set_hint("%s", l->hint);
	return ks_usage("%s: %s (column %d)", ks_expr_where(l->p, l->err_pos + 1, where,
			sizeof(where)), l->err, l->err_pos + 1);
}

static struct ks_node *node(struct lexer *l, enum ks_node_kind kind)
{
	struct ks_node *n;

	if (l->p->nr_nodes == KS_EXPR_NODES) {
		fail(l, NULL, "too long: at most %d names, members and casts",
		     KS_EXPR_NODES);
		return NULL;
	}
	n = &l->p->nodes[l->p->nr_nodes++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->col = l->pos + 1;
	return n;
}

static bool is_tag(const struct lexer *l)
{
	static const char *const tags[] = { "struct", "union", "enum" };
	size_t i;

	for (i = 0; l->tok == T_IDENT && i < ARRAY_SIZE(tags); i++)
		if ((size_t)l->len == strlen(tags[i]) && !strncmp(l->s + l->pos, tags[i], l->len))
			return true;
	return false;
}

static void copy_ident(const struct lexer *l, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", l->len, l->s + l->pos);
}

static struct ks_node *parse_expr(struct lexer *l);

/*
 * After '(': a cast's type, if this is one: a tag, a name with '*', or a
 * lone name followed by ')' and then by an operand ("(u32)arg2").
 */
/* One of C's integer type words: "unsigned long" is a type of several. */
static bool is_int_word(const struct lexer *l)
{
	static const char *const words[] = { "unsigned", "signed", "char", "short", "int",
					     "long" };
	size_t i;

	for (i = 0; l->tok == T_IDENT && i < ARRAY_SIZE(words); i++)
		if ((size_t)l->len == strlen(words[i]) && !strncmp(l->s + l->pos, words[i], l->len))
			return true;
	return false;
}

static bool looks_like_cast(struct lexer *l)
{
	struct lexer t = *l;

	if (is_tag(&t) || is_int_word(&t))
		return true;
	if (t.tok != T_IDENT)
		return false;
	next(&t);
	if (t.tok == T_STAR)
		return true;
	if (t.tok != T_RP)
		return false;
	next(&t);
	return t.tok == T_IDENT || t.tok == T_LP;
}

static struct ks_node *parse_cast(struct lexer *l)
{
	char b[64];
	struct ks_node *n = node(l, KS_N_CAST);

	if (!n)
		return NULL;
	if (is_tag(l)) {
		copy_ident(l, n->tag, sizeof(n->tag));
		next(l);
		if (l->tok != T_IDENT) {
			fail(l, NULL, "expected the %s's name, found %s", n->tag,
			     tok_text(l, b, sizeof(b)));
			return NULL;
		}
	}
	if (l->len >= KS_EXPR_IDENT) {
		fail(l, NULL, "a name of over %d characters", KS_EXPR_IDENT - 1);
		return NULL;
	}
	copy_ident(l, n->ident, sizeof(n->ident));
	next(l);
	/* "unsigned long long": the words of one type, a blank between each. */
	while (!n->tag[0] && is_int_word(l) && strlen(n->ident) + 1 + (size_t)l->len <
	       sizeof(n->ident)) {
		snprintf(n->ident + strlen(n->ident), sizeof(n->ident) - strlen(n->ident),
			 " %.*s", l->len, l->s + l->pos);
		next(l);
	}
	for (; l->tok == T_STAR; next(l))
		n->stars++;
	if (l->tok != T_RP) {
		fail(l, NULL, "expected ')' to end the cast, found %s", tok_text(l, b, sizeof(b)));
		return NULL;
	}
	next(l);
	n->sub = parse_expr(l);
	return n->sub ? n : NULL;
}

static struct ks_node *parse_postfix(struct lexer *l)
{
	struct ks_node *n = NULL, *m;
	char b[64];

	if (l->tok == T_LP) {
		next(l);
		n = parse_expr(l);
		if (!n)
			return NULL;
		if (l->tok != T_RP) {
			fail(l, "each '(' needs its ')'", "expected ')', found %s",
			     tok_text(l, b, sizeof(b)));
			return NULL;
		}
		next(l);
	} else if (l->tok == T_IDENT) {
		if (l->len >= KS_EXPR_IDENT) {
			fail(l, NULL, "a name of over %d characters", KS_EXPR_IDENT - 1);
			return NULL;
		}
		n = node(l, KS_N_NAME);
		if (!n)
			return NULL;
		copy_ident(l, n->ident, sizeof(n->ident));
		next(l);
	} else {
		fail(l, "an operand is a parameter's name, argN, retval or duration, "
		     "then ->member or .member", "expected an operand, found %s",
		     tok_text(l, b, sizeof(b)));
		return NULL;
	}
	while (l->tok == T_ARROW || l->tok == T_DOT) {
		m = node(l, l->tok == T_ARROW ? KS_N_ARROW : KS_N_DOT);
		if (!m)
			return NULL;
		next(l);
		if (l->tok != T_IDENT) {
			fail(l, NULL, "expected a member's name after '%s', found %s",
			     m->kind == KS_N_ARROW ? "->" : ".", tok_text(l, b, sizeof(b)));
			return NULL;
		}
		copy_ident(l, m->ident, sizeof(m->ident));
		m->sub = n;
		n = m;
		next(l);
	}
	if (l->s[l->pos] == '[') {
		fail(l, "kstats reads scalars through pointers and members; an "
		     "array's element is not one of them", "arrays cannot be indexed");
		return NULL;
	}
	return n;
}

static struct ks_node *parse_expr(struct lexer *l)
{
	struct lexer save = *l;
	struct ks_node *n;

	if (l->tok == T_STAR) {
		n = node(l, KS_N_DEREF);
		if (!n)
			return NULL;
		next(l);
		n->sub = parse_expr(l);
		return n->sub ? n : NULL;
	}
	if (l->tok == T_LP) {
		next(l);
		if (looks_like_cast(l))
			return parse_cast(l);
		*l = save;
	}
	return parse_postfix(l);
}

void ks_node_text(const struct ks_node *n, char *buf, size_t len)
{
	char sub[256], stars[16];
	int i;

	switch (n->kind) {
	case KS_N_NAME:
		snprintf(buf, len, "%s", n->ident);
		return;
	case KS_N_ARROW:
	case KS_N_DOT:
		ks_node_text(n->sub, sub, sizeof(sub));
		/* A cast's or a '*''s result needs its parentheses before a member. */
		snprintf(buf, len, n->sub->kind == KS_N_CAST || n->sub->kind == KS_N_DEREF ?
			 "(%s)%s%s" : "%s%s%s", sub, n->kind == KS_N_ARROW ? "->" : ".",
			 n->ident);
		return;
	case KS_N_DEREF:
		ks_node_text(n->sub, sub, sizeof(sub));
		snprintf(buf, len, "*%s", sub);
		return;
	case KS_N_CAST:
		ks_node_text(n->sub, sub, sizeof(sub));
		for (i = 0; i < n->stars && i < (int)sizeof(stars) - 1; i++)
			stars[i] = '*';
		stars[i] = 0;
		snprintf(buf, len, "(%s%s%s%s%s)%s", n->tag, n->tag[0] ? " " : "", n->ident,
			 n->stars ? " " : "", stars, sub);
		return;
	}
}

/* ---- predicates ---- */

/* A predicate's tree, before distribution. */
struct pnode {
	enum { P_CMP, P_AND, P_OR } kind;
	struct pnode *l, *r;
	struct ks_cmp *cmp;
};

#define PNODES	(KSTATS_EXPR_TERMS * 8)

struct pstate {
	struct lexer l;
	struct pnode nodes[PNODES];
	int nr;
};

static struct pnode *pnode(struct pstate *s, int kind)
{
	struct pnode *n;

	if (s->nr == PNODES) {
		fail(&s->l, NULL, "too long: at most %d terms", KSTATS_EXPR_TERMS);
		return NULL;
	}
	n = &s->nodes[s->nr++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	return n;
}

static struct pnode *parse_or(struct pstate *s);

static struct pnode *parse_cmp(struct pstate *s)
{
	struct lexer *l = &s->l;
	struct ks_parse *p = l->p;
	struct ks_node *lhs = parse_expr(l);
	struct ks_cmp *c;
	struct pnode *n;
	char b[64];
	size_t i;
	int start;

	if (!lhs)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(ops) && !(ops[i].tok == l->tok && ops[i].cmp); i++)
		;
	if (i == ARRAY_SIZE(ops)) {
		if (l->tok == T_BAD && l->s[l->pos] == '=')
			fail(l, "equality is '=='", "'=' is not a comparison");
		else
			fail(l, "a term is EXPR CMP CONSTANT, CMP one of == != < <= > >= "
			     "and & (a bit test)", "expected a comparison after the "
			     "operand, found %s", tok_text(l, b, sizeof(b)));
		return NULL;
	}
	if (p->nr_cmps == (int)ARRAY_SIZE(p->cmps)) {
		fail(l, NULL, "too many terms: at most %d", KSTATS_EXPR_TERMS);
		return NULL;
	}
	c = &p->cmps[p->nr_cmps++];
	memset(c, 0, sizeof(*c));
	c->lhs = lhs;
	c->cmp = ops[i].cmp;
	c->col = l->pos + 1;
	next(l);
	start = l->pos;
	if (l->tok == T_MINUS)
		next(l);
	if (l->tok != T_NUM) {
		fail(l, "constants are numbers: 42, -1, 0x1f, 1ms (a duration's)",
		     "expected a constant, found %s", tok_text(l, b, sizeof(b)));
		return NULL;
	}
	/* "- 5": the sign belongs to the number; blanks between go. */
	for (i = 0; start < l->pos + l->len && i < sizeof(c->constant) - 1; start++)
		if (l->s[start] != ' ' && l->s[start] != '\t')
			c->constant[i++] = l->s[start];
	next(l);
	n = pnode(s, P_CMP);
	if (n)
		n->cmp = c;
	return n;
}

static struct pnode *parse_atom(struct pstate *s)
{
	struct pstate save;
	struct pnode *n;
	char b[64];

	if (s->l.tok != T_LP)
		return parse_cmp(s);
	/* A group first; if that fails, an operand in parentheses. */
	save = *s;
	next(&s->l);
	n = parse_or(s);
	if (n && s->l.tok == T_RP) {
		next(&s->l);
		return n;
	}
	if (n)
		fail(&s->l, "each '(' needs its ')'", "expected ')', found %s",
		     tok_text(&s->l, b, sizeof(b)));
	/* Keep the error found so far: the other reading may get less far. */
	memcpy(save.l.err, s->l.err, sizeof(save.l.err));
	memcpy(save.l.hint, s->l.hint, sizeof(save.l.hint));
	save.l.err_pos = s->l.err_pos;
	*s = save;
	return parse_cmp(s);
}

static struct pnode *parse_and(struct pstate *s)
{
	struct pnode *n = parse_atom(s), *a;

	while (n && s->l.tok == T_ANDAND) {
		next(&s->l);
		a = pnode(s, P_AND);
		if (!a)
			return NULL;
		a->l = n;
		a->r = parse_atom(s);
		n = a->r ? a : NULL;
	}
	return n;
}

static struct pnode *parse_or(struct pstate *s)
{
	struct pnode *n = parse_and(s), *o;

	while (n && s->l.tok == T_OROR) {
		next(&s->l);
		o = pnode(s, P_OR);
		if (!o)
			return NULL;
		o->l = n;
		o->r = parse_and(s);
		n = o->r ? o : NULL;
	}
	return n;
}

/* Terms in @d, over all groups. */
static int dnf_terms(const struct ks_dnf *d)
{
	int g, n = 0;

	for (g = 0; g < d->nr_groups; g++)
		n += d->nr[g];
	return n;
}

/*
 * @n as an OR of AND groups into @d; -1 when it takes more than the module's
 * KSTATS_EXPR_TERMS terms (@need: how many it takes, at least).
 */
static int distribute(const struct pnode *n, struct ks_dnf *d, int *need)
{
	struct ks_dnf a, b;
	int i, j, k;

	memset(d, 0, sizeof(*d));
	if (n->kind == P_CMP) {
		d->nr_groups = 1;
		d->nr[0] = 1;
		d->t[0][0] = n->cmp;
		return 0;
	}
	if (distribute(n->l, &a, need) || distribute(n->r, &b, need))
		return -1;
	if (n->kind == P_OR) {
		*need = dnf_terms(&a) + dnf_terms(&b);
		if (*need > KSTATS_EXPR_TERMS)
			return -1;
		*d = a;
		for (i = 0; i < b.nr_groups; i++) {
			d->nr[d->nr_groups] = b.nr[i];
			memcpy(d->t[d->nr_groups++], b.t[i], sizeof(b.t[i]));
		}
		return 0;
	}
	/* (a1 || a2) && (b1 || b2): every a group with every b group. */
	*need = 0;
	for (i = 0; i < a.nr_groups; i++)
		for (j = 0; j < b.nr_groups; j++)
			*need += a.nr[i] + b.nr[j];
	if (*need > KSTATS_EXPR_TERMS)
		return -1;
	for (i = 0; i < a.nr_groups; i++)
		for (j = 0; j < b.nr_groups; j++) {
			k = d->nr_groups++;
			memcpy(d->t[k], a.t[i], sizeof(*a.t[i]) * (size_t)a.nr[i]);
			memcpy(d->t[k] + a.nr[i], b.t[j], sizeof(*b.t[j]) * (size_t)b.nr[j]);
			d->nr[k] = a.nr[i] + b.nr[j];
		}
	return 0;
}

static void lex_init(struct lexer *l, struct ks_parse *p, const char *text)
{
	memset(l, 0, sizeof(*l));
	l->p = p;
	l->s = text;
	lex_at(l, 0);
}

static int ended(struct lexer *l)
{
	char b[64];

	if (l->tok == T_END)
		return 0;
	if (l->tok == T_BAD)
		fail(l, "operands are names, argN, retval, duration, ->member, "
		     ".member and casts; --if adds == != < <= > >= &, && and ||",
		     "'%c' is not part of the grammar", l->s[l->pos]);
	else
		fail(l, NULL, "unexpected %s", tok_text(l, b, sizeof(b)));
	return said(l);
}

int ks_expr_parse_value(struct ks_parse *p, const char *text, struct ks_node **out)
{
	struct lexer l;
	char b[64];

	p->opt = "--value";
	p->text = text;
	lex_init(&l, p, text);
	*out = parse_expr(&l);
	if (!*out)
		return said(&l);
	if (l.tok >= T_ANDAND && l.tok <= T_GE) {
		fail(&l, "--if takes a predicate: --value EXPR --if 'EXPR > 0'",
		     "a value is one operand; %s makes it a predicate",
		     tok_text(&l, b, sizeof(b)));
		return said(&l);
	}
	return ended(&l);
}

int ks_expr_parse_pred(struct ks_parse *p, const char *text, struct ks_dnf *out)
{
	struct pstate *s = xcalloc(1, sizeof(*s));
	struct pnode *n;
	char where[96];
	int need = 0, rc;

	p->opt = "--if";
	p->text = text;
	lex_init(&s->l, p, text);
	n = parse_or(s);
	if (!n)
		rc = said(&s->l);
	else if ((rc = ended(&s->l)))
		;
	else if (distribute(n, out, &need)) {
		ks_set_hint("the module runs an OR of AND groups of at most %d terms; "
			    "a parenthesized OR inside an AND repeats the terms around it",
			    KSTATS_EXPR_TERMS);
		rc = ks_usage("%s: too complex: %d terms or more as an OR of AND "
			      "groups, at most %d", ks_expr_where(p, 1, where, sizeof(where)),
			      need, KSTATS_EXPR_TERMS);
	}
	free(s);
	return rc;
}
