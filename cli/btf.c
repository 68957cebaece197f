// SPDX-License-Identifier: GPL-2.0
/*
 * A traced function's return type, from the kernel's BTF, read with
 * libbpf: trace --by errno keys the whole return register, which holds
 * the function's value only for int, long and pointers (for bool, char
 * and short its upper bits are whatever the register held, and can read
 * as an error the function never returned). KSTATS_BTF names another
 * vmlinux BTF file (the host tests' fixture); without BTF, or without the
 * function in it, nothing is known and nothing is refused.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kstatsctl.h"
#include "trace.h"
#include "btf.h"
#include "libs_dl.h"

#define BTF_DIR	"/sys/kernel/btf"

/* libbpf's own messages: ours say what matters. */
static int quiet(enum libbpf_print_level level __attribute__((unused)),
		 const char *fmt __attribute__((unused)), va_list ap __attribute__((unused)))
{
	return 0;
}

void ks_btf_quiet(void)
{
	libbpf_set_print(quiet);
}

int ks_btf_func_proto(const struct btf *btf, const char *func)
{
	const struct btf_type *fn, *t;
	int id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);

	if (id < 0)
		return -1;
	fn = btf__type_by_id(btf, id);
	t = fn ? btf__type_by_id(btf, fn->type) : NULL;
	return t && btf_is_func_proto(t) ? (int)fn->type : -1;
}

/* @func's prototype's return type id in @btf, or -1 if @btf has no such function. */
static int return_type(const struct btf *btf, const char *func)
{
	int proto = ks_btf_func_proto(btf, func);

	return proto < 0 ? -1 : (long)btf__type_by_id(btf, proto)->type;
}

/*
 * Why @func's return cannot be keyed by errno ("bool, 1 byte"), into @why;
 * false when it can or nothing is known.
 */
static bool too_narrow(const struct btf *btf, long ret, char *why, size_t len)
{
	const struct btf_type *t;
	const char *name;
	int id;

	if (ret == 0) {
		snprintf(why, len, "void: the register holds whatever was left there");
		return true;
	}
	id = btf__resolve_type(btf, (unsigned int)ret);
	t = id < 0 ? NULL : btf__type_by_id(btf, id);
	if (!t || btf_is_ptr(t) || !(btf_is_int(t) || btf_is_enum(t)) || t->size >= 4)
		return false;
	name = btf__name_by_offset(btf, t->name_off);
	snprintf(why, len, "%s (%u byte%s): the rest of the register is undefined",
		 name && *name ? name : "an integer", t->size, t->size == 1 ? "" : "s");
	return true;
}

static const char *module_dir(void)
{
	return getenv("KSTATS_BTF_MODULES") ?: BTF_DIR;
}

struct btf *ks_btf_module(struct btf *vmlinux, const char *mod)
{
	char path[512];
	struct btf *btf;

	snprintf(path, sizeof(path), "%.300s/%.200s", module_dir(), mod);
	btf = btf__parse_split(path, vmlinux);
	return libbpf_get_error(btf) ? NULL : btf;
}

struct btf *ks_btf_module_with(struct btf *vmlinux, const char *name,
			       int (*find)(const struct btf *, const char *), int *id,
			       char *where, size_t where_len)
{
	DIR *dir = opendir(module_dir());
	struct btf *btf = NULL;
	struct dirent *d;

	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "vmlinux"))
			continue;
		btf = ks_btf_module(vmlinux, d->d_name);
		if (!btf)
			continue;
		*id = find(btf, name);
		if (*id >= 0) {
			snprintf(where, where_len, "module %.100s", d->d_name);
			break;
		}
		btf__free(btf);
		btf = NULL;
	}
	if (dir)
		closedir(dir);
	return btf;
}

/*
 * Whether @target ("[module:]function") returns what --by errno cannot key
 * (BTF says so): 1 with its type in @why, or 0 (also when nothing is known).
 */
int ks_btf_errno_narrow(const char *target, char *why, size_t why_len)
{
	const char *env = getenv("KSTATS_BTF"), *colon = strchr(target, ':');
	struct btf *vmlinux, *btf;
	char mod[128] = "";
	long ret = -1;
	int narrow = 0;

	ks_btf_quiet();
	if (colon && (size_t)(colon - target) < sizeof(mod))
		snprintf(mod, sizeof(mod), "%.*s", (int)(colon - target), target);
	if (colon)
		target = colon + 1;
	vmlinux = env ? btf__parse(env, NULL) : btf__load_vmlinux_btf();
	if (libbpf_get_error(vmlinux))
		return 0;	/* no BTF: documented, nothing refused */
	btf = vmlinux;
	if (!mod[0])
		ret = return_type(vmlinux, target);
	if (ret < 0 && !env) {
		int id = -1;

		if (mod[0]) {
			btf = ks_btf_module(vmlinux, mod);
			id = btf ? return_type(btf, target) : -1;
		} else {
			btf = ks_btf_module_with(vmlinux, target, return_type, &id, why, why_len);
		}
		ret = id;
	}
	if (btf && ret >= 0)
		narrow = too_narrow(btf, ret, why, why_len);
	if (btf && btf != vmlinux)
		btf__free(btf);
	btf__free(vmlinux);
	return narrow;
}

/*
 * trace --by errno on @target ("[module:]function"): 0 if its return can
 * be keyed (or nothing is known), or the usage error, said.
 */
int ks_btf_errno_check(const char *target)
{
	const char *colon = strchr(target, ':');
	char why[128];

	if (!ks_btf_errno_narrow(target, why, sizeof(why)))
		return 0;
	ks_set_hint("--by errno keys functions returning int, long or a pointer; "
		    "trace it without --by, or key its caller");
	return ks_usage("--by errno: %s returns %s, and would read as errors it "
			"never returned", colon ? colon + 1 : target, why);
}
