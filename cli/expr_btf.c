// SPDX-License-Identifier: GPL-2.0
/*
 * trace --value/--if: an operand's names and types, from the kernel's BTF
 * read with libbpf (vmlinux, and /sys/kernel/btf/MODULE for MODULE:FUNC or
 * a function only a module has; KSTATS_BTF names another vmlinux file and
 * KSTATS_BTF_MODULES another directory of modules' BTF: the host tests'
 * fixtures). An operand becomes its source (argument register
 * or return value), the pointer reads its members need with their offsets,
 * and the final width and sign, which its type decides: unsigned integers,
 * pointers and bool zero-extend, signed ones sign-extend (NEG-NAME), enums
 * as BTF says they are signed or not. Without BTF only argN, retval and
 * casts to u8..u64/s8..s64 work: argN and retval are then the whole
 * 64-bit register, unsigned. So it is for a user-space function, always
 * (kstats reads no program's debug info), and its memory is not read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "expr.h"
#include "expr_btf.h"
#include "btf.h"
#include "libs_dl.h"

#define REG_ARGS	6	/* x86-64: rdi, rsi, rdx, rcx, r8, r9 */


bool ks_btf_ctx_vmlinux(struct ks_btf_ctx *c, const char *path)
{
	c->vmlinux = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	if (libbpf_get_error(c->vmlinux)) {
		c->vmlinux = NULL;
		snprintf(c->where, sizeof(c->where), "none");
		return false;
	}
	c->btf = c->vmlinux;
	snprintf(c->where, sizeof(c->where), "vmlinux");
	return true;
}

/* The split BTF of module @mod, or of the first module that has @func (@mod ""). */
static void open_module(struct ks_btf_ctx *c, const char *mod)
{
	struct btf *btf;

	if (!mod[0]) {
		btf = ks_btf_module_with(c->vmlinux, c->func, ks_btf_func_proto, &c->proto,
					 c->where, sizeof(c->where));
		if (btf)
			c->btf = btf;
		return;
	}
	btf = ks_btf_module(c->vmlinux, mod);
	if (!btf)
		return;
	c->btf = btf;
	c->proto = ks_btf_func_proto(c->btf, c->func);
	snprintf(c->where, sizeof(c->where), "module %s", mod);
}

/* A user-space function: no BTF; registers, casts and retval only. */
static struct ks_btf_ctx *user_open(const char *func)
{
	struct ks_btf_ctx *c = xcalloc(1, sizeof(*c));

	c->proto = -1;
	c->names = -1;
	c->user = true;
	c->func = strrchr(func, ':') ? strrchr(func, ':') + 1 : func;
	snprintf(c->where, sizeof(c->where), "none (a user-space function)");
	return c;
}

static struct ks_btf_ctx *func_open(const char *func)
{
	struct ks_btf_ctx *c = xcalloc(1, sizeof(*c));
	const char *env = getenv("KSTATS_BTF"), *colon = strchr(func, ':');
	char mod[128] = "";

	ks_btf_quiet();
	c->proto = -1;
	c->names = -1;
	c->func = colon ? colon + 1 : func;
	if (colon)
		snprintf(mod, sizeof(mod), "%.*s", (int)(colon - func), func);
	if (!ks_btf_ctx_vmlinux(c, env))
		return c;
	if (!mod[0])
		c->proto = ks_btf_func_proto(c->vmlinux, c->func);
	/* The host tests' vmlinux has its modules beside it, or none. */
	if (c->proto < 0 && (!env || getenv("KSTATS_BTF_MODULES")))
		open_module(c, mod);
	if (c->proto < 0 && mod[0] && c->btf == c->vmlinux)
		snprintf(c->where, sizeof(c->where), "vmlinux (no BTF of module %.60s)", mod);
	else if (c->proto < 0)
		snprintf(c->where, sizeof(c->where), "%.60s (without %.60s)",
			 c->btf == c->vmlinux ? "vmlinux" : c->where, c->func);
	return c;
}

/*
 * "[module:]symbol", "tp:[system:]event", or a section "A..B" of either;
 * @user: "BINARY:SYMBOL", a user-space function; @usdt: USDT probes.
 */
struct ks_btf_ctx *ks_btf_ctx_open(const char *func, bool user,
				   const struct ks_usdt_args *usdt)
{
	struct ks_btf_ctx *c;

	if (usdt)
		return ks_btf_usdt_open(usdt);
	if (user)
		return user_open(func);
	c = ks_btf_tp_open(func);
	if (c)
		return c;
	return strstr(func, "..") ? ks_btf_section_open(func, func_open) : func_open(func);
}

void ks_btf_ctx_close(struct ks_btf_ctx *c)
{
	if (!c)
		return;
	ks_btf_ctx_close(c->other);
	if (c->btf && c->btf != c->vmlinux)
		btf__free(c->btf);
	btf__free(c->vmlinux);
	free(c);
}

const char *ks_btf_ctx_where(const struct ks_btf_ctx *c)
{
	return c->where;
}

/* ---- types ---- */

const struct btf_type *eb_skip_mods(const struct btf *btf, int *id)
{
	int r = btf__resolve_type(btf, (unsigned int)*id);

	if (r < 0)
		return NULL;
	*id = r;
	return btf__type_by_id(btf, (unsigned int)r);
}

void eb_type_name(const struct ks_btf_ctx *c, const struct rtype *t, char *buf,
		      size_t len)
{
	static const char *const sname[] = { "u", "s" };
	const struct btf_type *bt;
	char inner[96], stars[16] = "";
	const char *name;
	int i;

	for (i = 0; i < t->stars && i < (int)sizeof(stars) - 1; i++)
		stars[i] = '*';
	if (t->builtin) {
		snprintf(buf, len, "%s%d%s%s", sname[t->sign], t->size * 8,
			 t->stars ? " " : "", stars);
		return;
	}
	bt = t->id ? btf__type_by_id(c->btf, (unsigned int)t->id) : NULL;
	if (!bt) {
		snprintf(inner, sizeof(inner), "void");
	} else if (btf_is_ptr(bt)) {
		struct rtype p = { .id = (int)bt->type };

		eb_type_name(c, &p, inner, sizeof(inner) - 2);
		strcat(inner, inner[strlen(inner) - 1] == '*' ? "*" : " *");
	} else if (btf_is_const(bt) || btf_is_volatile(bt) || btf_is_restrict(bt) ||
		   btf_is_type_tag(bt)) {
		struct rtype p = { .id = (int)bt->type };

		eb_type_name(c, &p, inner, sizeof(inner));
	} else if (btf_is_array(bt)) {
		struct rtype p = { .id = (int)btf_array(bt)->type };
		char e[80];

		eb_type_name(c, &p, e, sizeof(e));
		snprintf(inner, sizeof(inner), "%s[%u]", e, btf_array(bt)->nelems);
	} else {
		name = btf__name_by_offset(c->btf, bt->name_off);
		snprintf(inner, sizeof(inner), "%s%s%s",
			 btf_is_struct(bt) || (btf_is_fwd(bt) && !btf_kflag(bt)) ? "struct " :
			 btf_is_union(bt) || btf_is_fwd(bt) ? "union " :
			 btf_is_any_enum(bt) ? "enum " : "",
			 name && *name ? name : btf_is_func_proto(bt) ? "function" :
			 "(anonymous)", "");
	}
	snprintf(buf, len, "%s%s%s", inner, t->stars ? " " : "", stars);
}

bool eb_is_ptr(const struct ks_btf_ctx *c, const struct rtype *t)
{
	int id = t->id;
	const struct btf_type *bt;

	if (t->stars)
		return true;
	if (t->builtin || !id)
		return false;
	bt = eb_skip_mods(c->btf, &id);
	return bt && btf_is_ptr(bt);
}

/* What @t points to (eb_is_ptr(@t)). */
struct rtype eb_pointee(const struct ks_btf_ctx *c, const struct rtype *t)
{
	struct rtype p = *t;
	const struct btf_type *bt;
	int id = t->id;

	if (t->stars) {
		p.stars--;
		return p;
	}
	bt = eb_skip_mods(c->btf, &id);
	p.id = (int)bt->type;
	p.stars = 0;
	return p;
}

/* The struct or union @t is (no pointer), else NULL. */
const struct btf_type *eb_composite(const struct ks_btf_ctx *c, const struct rtype *t,
					int *id)
{
	const struct btf_type *bt;

	*id = t->id;
	if (t->builtin || t->stars || !t->id)
		return NULL;
	bt = eb_skip_mods(c->btf, id);
	/* A declaration only ("struct foo;"): its definition, by name. */
	if (bt && btf_is_fwd(bt)) {
		int def = btf__find_by_name_kind(c->btf, btf__name_by_offset(c->btf, bt->name_off),
						 btf_kflag(bt) ? BTF_KIND_UNION : BTF_KIND_STRUCT);

		bt = def > 0 ? btf__type_by_id(c->btf, (unsigned int)def) : NULL;
		*id = def;
	}
	return bt && (btf_is_struct(bt) || btf_is_union(bt)) ? bt : NULL;
}

/*
 * Width and sign of a scalar @t into @s; else the reason it is none, into
 * @why (a struct, an array, a float, void, a function).
 */
bool eb_scalar(const struct ks_btf_ctx *c, const struct rtype *t, int *size,
		   bool *sign, const char **why)
{
	const struct btf_type *bt;
	int id = t->id;

	if (t->builtin && !t->stars) {
		*size = t->size;
		*sign = t->sign;
		return true;
	}
	if (eb_is_ptr(c, t)) {
		*size = 8;
		*sign = false;
		return true;
	}
	bt = id ? eb_skip_mods(c->btf, &id) : NULL;
	if (bt && btf_is_int(bt) && bt->size <= 8) {
		*size = (int)bt->size;
		*sign = btf_int_encoding(bt) & BTF_INT_SIGNED;
		return true;
	}
	if (bt && btf_is_any_enum(bt) && bt->size <= 8) {
		*size = (int)bt->size;
		*sign = btf_kflag(bt);
		return true;
	}
	*why = !bt ? "void" : btf_is_struct(bt) ? "a struct" : btf_is_union(bt) ? "a union" :
	       btf_is_array(bt) ? "an array" : btf_is_float(bt) ? "a floating-point number" :
	       btf_is_int(bt) ? "an integer wider than 64 bits" : "not a number";
	return false;
}

/* ---- messages ---- */

int eb_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j, prev, cur, tmp;
	int row[KS_EXPR_IDENT + 1];

	if (la > KS_EXPR_IDENT || lb > KS_EXPR_IDENT)
		return 1 << 20;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < cur)
				cur = row[j] + 1;
			if (row[j - 1] + 1 < cur)
				cur = row[j - 1] + 1;
			tmp = row[j];
			row[j] = cur;
			prev = tmp;
		}
	}
	return row[lb];
}

/* Keeps in @best the name nearest @want (within a third of its length, at least 2). */
void eb_nearest(const char *want, const char *name, char *best, int *dist)
{
	int d = eb_distance(want, name), max = (int)strlen(want) / 3;

	if (d < *dist && d <= (max < 2 ? 2 : max)) {
		*dist = d;
		snprintf(best, KS_EXPR_IDENT, "%s", name);
	}
}

int eb_refuse(struct ks_parse *p, const struct ks_node *n, const char *fmt, ...)
{
	char msg[512], where[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ks_usage("%s: %s (column %d)", ks_expr_where(p, n->col, where, sizeof(where)),
			msg, n->col);
}

/* ---- sources ---- */

#define USER_HINT	"a user-space function's arguments are argN (arg0 the first: " \
			"x86-64's rdi, rsi, rdx, rcx, r8, r9) and retval, each a whole " \
			"register: cast for width and sign, (s32)arg0"

int eb_user_refuse_load(const struct ks_btf_ctx *c, struct ks_parse *p,
			const struct ks_node *n)
{
	char text[256];

	ks_node_text(n, text, sizeof(text));
	ks_set_hint("what a pointer points to is read through a cast: *(u32 *)arg0");
	return eb_refuse(p, n, "'%s' names a member: kstats reads no debug info of "
			 "programs, so knows no struct of %s", text, c->func);
}

/* Parameter @i's name ("arg3" without one) into @buf; a tracepoint's after its data. */
const char *eb_param_name(const struct ks_btf_ctx *c, int i, char *buf, size_t len)
{
	const struct btf_type *pt = btf__type_by_id(c->btf, (unsigned int)(c->names >= 0 ?
						    c->names : c->proto));
	const struct btf_param *bp = btf_params(pt) + c->first + i;
	const char *name = btf__name_by_offset(c->btf, bp->name_off);

	if (name && *name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "arg%d", i);
	return buf;
}

int eb_nr_params(const struct ks_btf_ctx *c)
{
	const struct btf_type *pt = btf__type_by_id(c->btf, (unsigned int)c->proto);

	return btf_vlen(pt) - c->first;
}

const char *eb_param_list(const struct ks_btf_ctx *c, char *buf, size_t len)
{
	char name[KS_EXPR_IDENT];
	size_t at = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < eb_nr_params(c) && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
				       eb_param_name(c, i, name, sizeof(name)));
	return eb_nr_params(c) ? buf : "none";
}

/* Parameter @i's type; refused when its register cannot be told or read. */
static int param(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		 int i, struct rstate *s)
{
	const struct btf_type *pt = btf__type_by_id(c->btf, (unsigned int)c->proto);
	const struct btf_param *bp = btf_params(pt) + c->first;
	char name[KS_EXPR_IDENT], ty[96];
	const char *why;
	int k, size;
	bool sign;

	/* A struct or float passed by value takes other or more registers. */
	for (k = 0; k <= i; k++) {
		struct rtype t = { .id = (int)bp[k].type };

		if (eb_scalar(c, &t, &size, &sign, &why))
			continue;
		eb_type_name(c, &t, ty, sizeof(ty));
		ks_set_hint("a struct or a float passed by value is not one integer "
			    "register; a pointer to it would be");
		if (k == i)
			return eb_refuse(p, n, "%s is passed by value (%s, %s): kstats reads "
				      "integers and pointers", eb_param_name(c, k, name,
				      sizeof(name)), ty, why);
		ks_set_hint("%s (%s) is passed by value before it: the registers of "
			    "the parameters after it cannot be told", eb_param_name(c, k, name,
			    sizeof(name)), ty);
		return eb_refuse(p, n, "%s: its register is not known", n->ident);
	}
	s->t = (struct rtype){ .id = (int)bp[i].type };
	return 0;
}

int eb_source(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		  bool pred, struct rstate *s)
{
	const char *id = n->ident;
	char list[512], best[KS_EXPR_IDENT] = "", name[KS_EXPR_IDENT];
	int i, dist = 1 << 20;
	char *end;
	long idx;

	if (!strcmp(id, "duration") && (c->event || c->usdt) && !c->other) {
		ks_set_hint(c->usdt ? "--start usdt:B:P:START --end usdt:B:P:END times a "
			    "section between two probes" : "--start tp:A --end tp:B times a "
			    "section between two tracepoints");
		return eb_refuse(p, n, "%s is a point: it has no duration", c->func);
	}
	if (c->usdt && strcmp(id, "duration"))
		return ks_btf_usdt_source(c, p, n, pred, s);
	if (!strcmp(id, "duration")) {
		if (!pred) {
			ks_set_hint("--value EXPR --time records both; without --value, "
				    "NAME is the duration");
			return eb_refuse(p, n, "the duration is NAME itself, not a value");
		}
		s->op->source = KSTATS_OPERAND_DURATION;
		s->t = (struct rtype){ .builtin = true, .size = 8 };
		s->d->time = true;
		snprintf(s->d->source, sizeof(s->d->source), "duration");
		return 0;
	}
	if (!strcmp(id, "retval") && !c->event && (c->other || c->end)) {
		ks_set_hint("--start %s alone traces it with its return value; a "
			    "section reads its ends' arguments: start.NAME, end.NAME",
			    c->func);
		return eb_refuse(p, n, "a section between functions has no return value");
	}
	if (!strcmp(id, "retval") && c->event) {
		ks_set_hint("a tracepoint passes arguments (%s) and returns nothing",
			    c->proto < 0 ? "argN" : eb_param_list(c, list, sizeof(list)));
		return eb_refuse(p, n, "%s has no return value", c->func);
	}
	if (!strcmp(id, "retval")) {
		s->op->source = KSTATS_OPERAND_RETVAL;
		snprintf(s->d->source, sizeof(s->d->source), "retval");
		if (c->proto < 0) {
			s->t = (struct rtype){ .builtin = true, .size = 8 };
			return 0;
		}
		s->t = (struct rtype){ .id = (int)btf__type_by_id(c->btf,
							  (unsigned int)c->proto)->type };
		if (!s->t.id) {
			ks_set_hint("its return register holds whatever was left "
				    "there; its arguments can be read (argN)");
			return eb_refuse(p, n, "%s returns void: there is no return value",
				      c->func);
		}
		return 0;
	}
	if (!strncmp(id, "arg", 3) && id[3] >= '0' && id[3] <= '9') {
		idx = strtol(id + 3, &end, 10);
		if (*end || (id[3] == '0' && id[4]))
			goto named;
		if (idx >= REG_ARGS - c->first) {
			ks_set_hint("only the first %d arguments are in registers (x86-64%s)",
				    REG_ARGS - c->first, c->first ? "; a tracepoint's data "
				    "takes one" : "");
			return eb_refuse(p, n, "%s is on the stack: kstats reads argument "
				      "registers arg0 to arg%d", id, REG_ARGS - c->first - 1);
		}
		s->op->source = c->end ? KSTATS_OPERAND_END_ARG : KSTATS_OPERAND_ARG;
		s->op->index = (uint8_t)idx;
		if (c->proto < 0) {
			s->t = (struct rtype){ .builtin = true, .size = 8 };
			snprintf(s->d->source, sizeof(s->d->source), "%s", id);
			return 0;
		}
		if (idx >= eb_nr_params(c)) {
			ks_set_hint("its %s: %s", c->event ? "arguments" : "parameters",
				    eb_param_list(c, list, sizeof(list)));
			return eb_refuse(p, n, "%s has %d %s%s: there is no %s", c->func,
				      eb_nr_params(c), c->event ? "argument" : "parameter",
				      eb_nr_params(c) == 1 ? "" : "s", id);
		}
		snprintf(s->d->source, sizeof(s->d->source), "%s (%s)", id,
			 eb_param_name(c, (int)idx, name, sizeof(name)));
		return param(c, p, n, (int)idx, s);
	}
named:
	/* At a tracepoint, a name that is no argument may be a field of its record. */
	for (i = 0; c->event && c->proto >= 0 && i < eb_nr_params(c); i++)
		if (!strcmp(eb_param_name(c, i, name, sizeof(name)), id))
			break;
	if (c->event && (c->proto < 0 || i == eb_nr_params(c))) {
		int rc = ks_btf_tp_field(c, p, n, s);

		if (rc)
			return rc < 0 ? -1 : 0;
	}
	if (c->user) {
		ks_set_hint(USER_HINT);
		return eb_refuse(p, n, "'%s': no names for %s's parameters (kstats reads "
			      "no debug info of programs)", id, c->func);
	}
	if (!c->vmlinux) {
		ks_set_hint("without BTF, name arguments argN (arg0 the first) and "
			    "retval, with a cast for their width: (s32)arg1");
		return eb_refuse(p, n, "'%s': no BTF here (/sys/kernel/btf/vmlinux) to "
			      "name it", id);
	}
	if (c->proto < 0 && c->event) {
		ks_set_hint("BTF has no btf_trace_%s (no such event, or a module "
			    "without BTF?): use argN, with casts: (s32)arg1", c->event);
		return eb_refuse(p, n, "the arguments of %s are not known", c->func);
	}
	if (c->proto < 0) {
		ks_set_hint("BTF has no function %s (inlined, or a module without BTF?): "
			    "use argN and retval, with casts: (s32)arg1", c->func);
		return eb_refuse(p, n, "the parameters of %s are not known", c->func);
	}
	for (i = 0; i < eb_nr_params(c); i++) {
		eb_param_name(c, i, name, sizeof(name));
		if (!strcmp(name, id))
			break;
		eb_nearest(id, name, best, &dist);
	}
	if (i == eb_nr_params(c) && c->event)
		return ks_btf_tp_unknown(c, p, n, best);
	if (i == eb_nr_params(c)) {
		if (best[0])
			ks_set_hint("did you mean '%s'? %s's parameters: %s", best, c->func,
				    eb_param_list(c, list, sizeof(list)));
		else
			ks_set_hint("%s's parameters: %s; or argN, retval", c->func,
				    eb_param_list(c, list, sizeof(list)));
		return eb_refuse(p, n, "%s has no parameter '%s'", c->func, id);
	}
	if (i >= REG_ARGS - c->first) {
		ks_set_hint("only the first %d arguments are in registers (x86-64%s)",
			    REG_ARGS - c->first, c->first ? "; a tracepoint's data "
			    "takes one" : "");
		return eb_refuse(p, n, "%s is argument %d, on the stack: kstats reads "
			      "arg0 to arg%d", id, i, REG_ARGS - c->first - 1);
	}
	s->op->source = c->end ? KSTATS_OPERAND_END_ARG : KSTATS_OPERAND_ARG;
	s->op->index = (uint8_t)i;
	snprintf(s->d->source, sizeof(s->d->source), "arg%d (%s)", i, id);
	return param(c, p, n, i, s);
}

