/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkmod, opened only when kstatsctl needs it (kmod_dl.c): to load kstats
 * or to find its installed file. Linked, libkmod and what it links
 * (libcrypto's 21,000 relocations, liblzma, libzstd) were half of every
 * kstatsctl start, for a library that most commands never call.
 */
#ifndef KSTATSCTL_KMOD_DL_H
#define KSTATSCTL_KMOD_DL_H

#include <libkmod.h>

/* libkmod's own prototypes (typeof names no symbol: nothing is linked). */
struct ks_kmod {
	__typeof__(kmod_new) *new;
	__typeof__(kmod_unref) *unref;
	__typeof__(kmod_set_log_fn) *set_log_fn;
	__typeof__(kmod_module_new_from_name) *module_new_from_name;
	__typeof__(kmod_module_unref) *module_unref;
	__typeof__(kmod_module_get_path) *module_get_path;
	__typeof__(kmod_module_get_info) *module_get_info;
	__typeof__(kmod_module_info_get_key) *module_info_get_key;
	__typeof__(kmod_module_info_get_value) *module_info_get_value;
	__typeof__(kmod_module_info_free_list) *module_info_free_list;
	__typeof__(kmod_list_next) *list_next;
	__typeof__(kmod_module_probe_insert_module) *module_probe_insert_module;
};

/* libkmod's functions, or NULL with why in @err (dlerror's text). */
const struct ks_kmod *ks_kmod(const char **err);

#endif /* KSTATSCTL_KMOD_DL_H */
