/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A keyed trace's metrics, NAME{KEY=VALUE} (keys.c), and the cgroups
 * their values name (cgroups.c).
 */
#ifndef KSTATSCTL_KEYS_H
#define KSTATSCTL_KEYS_H

#include "kstatsctl.h"

#define KS_KEY_VALUE_MAX	512	/* as typed: a cgroup's path */
struct ks_key {
	size_t base_len;	/* NAME's bytes */
	char key[16], value[KS_KEY_VALUE_MAX];
};
/* Whether @name is a key's metric's, and then its parts. */
bool ks_key_parse(const char *name, struct ks_key *k);
/* NAME's bytes if @name is a key's metric's as the module names them (NAME{a-z=a-z0-9-}), else 0. */
size_t ks_key_name_base(const char *name);
/*
 * The value as people read it: errno=-11 as -EAGAIN, cgroup=4242 as its
 * path (of this boot), comm=6e67696e78 as nginx; else as it is.
 */
const char *ks_key_value_text(const struct ks_key *k, char *buf, size_t len);
/* A metric's name to print in text (ks_text()), with its key's value readable. */
char *ks_metric_label(char *buf, size_t len, const char *name);
/*
 * NAME{errno=-EAGAIN}, NAME{cgroup=/a/b} or NAME{comm=nginx} as the
 * module names it (errno=-11, cgroup=4242, comm=6e67696e78); 0 or a usage
 * error.
 */
int ks_key_name_canonical(const char *in, char *out, size_t len);
/* The name of error @nr (1..4095: ENOENT, ERESTARTSYS), or NULL. */
const char *ks_errno_name(int nr);
/* A return value as an error by the errno key's rule (keys.c): -N, or 0. */
int ks_retval_errno(uint64_t v);
/* trace --key-values LIST: the values of key @key; their count, or -1 (said). */
int ks_key_values_parse(uint32_t key, const char *list, uint64_t *vals);

/* Where the cgroup v2 hierarchy is mounted here, or NULL. */
const char *ks_cgroup_mount(void);
/* The path of cgroup @id below the mount ("/" the root), or NULL. */
const char *ks_cgroup_path(uint64_t id);
/* The id of the cgroup at @path below the mount; -1: none. */
int ks_cgroup_id(const char *path, uint64_t *id);
/* --cgroup PATH: an open cgroup v2 directory, or -1 (error printed). */
int ks_cgroup_open(const char *path);
/* This boot's random ID (/proc/sys/kernel/random/boot_id), or "" (model.c). */
void ks_read_boot_id(char *buf, size_t len);
/* A set read from a file of boot @boot_id: its cgroup ids are not this boot's unless equal. */
void ks_cgroup_source(const char *boot_id);

#endif /* KSTATSCTL_KEYS_H */
