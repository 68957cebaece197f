// SPDX-License-Identifier: GPL-2.0
/*
 * libkmod through dlopen(), once, on first use (see kmod_dl.h for why).
 * The soname is libkmod's ABI: its functions keep their signatures within
 * it, and struct ks_kmod takes them from <libkmod.h>.
 */
#include <dlfcn.h>
#include <stddef.h>

#include "kstatsctl.h"
#include "kmod_dl.h"

#define KMOD_SONAME "libkmod.so.2"

/* One entry per function: its name and its place in struct ks_kmod. */
#define KMOD_FN(f) { "kmod_" #f, offsetof(struct ks_kmod, f) }

static const struct {
	const char *name;
	size_t off;
} kmod_fns[] = {
	KMOD_FN(new), KMOD_FN(unref), KMOD_FN(set_log_fn),
	KMOD_FN(module_new_from_name), KMOD_FN(module_unref),
	KMOD_FN(module_get_path), KMOD_FN(module_get_info),
	KMOD_FN(module_info_get_key), KMOD_FN(module_info_get_value),
	KMOD_FN(module_info_free_list), KMOD_FN(list_next),
	KMOD_FN(module_probe_insert_module),
};

const struct ks_kmod *ks_kmod(const char **err)
{
	static struct ks_kmod fns;
	static const char *why;
	static int state;	/* 0 not tried, 1 loaded, -1 failed */
	void *lib, *sym;
	size_t i;

	if (state) {
		*err = why;
		return state > 0 ? &fns : NULL;
	}
	state = -1;
	lib = dlopen(KMOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		*err = why = dlerror();
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(kmod_fns); i++) {
		sym = dlsym(lib, kmod_fns[i].name);
		if (!sym) {
			*err = why = dlerror();
			return NULL;
		}
		*(void **)((char *)&fns + kmod_fns[i].off) = sym;
	}
	state = 1;
	*err = NULL;
	return &fns;
}
