// SPDX-License-Identifier: GPL-2.0
/*
 * A keyed trace's metrics (trace --by KEY): the module names them
 * NAME{KEY=VALUE}, the value as a number (errno=-11, cgroup=4242); people
 * read and may type the error's name (errno=-EAGAIN) or the cgroup's path
 * (cgroup=/system.slice, cgroups.c). One spelling in, two out: the
 * module's in JSON "name", snapshot files and operands, the readable one in
 * text and as Prometheus' label.
 */
#define _GNU_SOURCE	/* strerrorname_np() */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kstatsctl.h"
#include "keys.h"
#include "text.h"

/* The kernel's own error values, which user space has no names for. */
static const struct {
	int nr;
	const char *name;
} kernel_errnos[] = {
	{ 512, "ERESTARTSYS" }, { 513, "ERESTARTNOINTR" }, { 514, "ERESTARTNOHAND" },
	{ 515, "ENOIOCTLCMD" }, { 516, "ERESTART_RESTARTBLOCK" }, { 517, "EPROBE_DEFER" },
	{ 518, "EOPENSTALE" }, { 519, "ENOPARAM" }, { 521, "EBADHANDLE" },
	{ 522, "ENOTSYNC" }, { 523, "EBADCOOKIE" }, { 524, "ENOTSUPP" },
	{ 525, "ETOOSMALL" }, { 526, "ESERVERFAULT" }, { 527, "EBADTYPE" },
	{ 528, "EJUKEBOX" }, { 529, "EIOCBQUEUED" }, { 530, "ERECALLCONFLICT" },
	{ 531, "ENOGRACE" },
};

/* The name of error @nr (1..4095), or NULL. */
const char *ks_errno_name(int nr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kernel_errnos); i++)
		if (kernel_errnos[i].nr == nr)
			return kernel_errnos[i].name;
	return nr < 512 ? strerrorname_np(nr) : NULL;
}

/*
 * A return register read as an error, -4095..-1, by the errno key's rule
 * (module/trace_keys.c): the whole register, or its lower half when the
 * upper half is 0 (an int). 0 when it is none.
 */
int ks_retval_errno(uint64_t v)
{
	if ((int64_t)v < 0 && (int64_t)v >= -4095)
		return (int)(int64_t)v;
	if (!(v >> 32) && (int32_t)v < 0 && (int32_t)v >= -4095)
		return (int32_t)v;
	return 0;
}

/* The error called @name ("EAGAIN", "eagain"), or 0. */
static int errno_by_name(const char *name)
{
	int nr;

	for (nr = 1; nr <= 4095; nr++) {
		const char *n = ks_errno_name(nr);

		if (n && !strcasecmp(n, name))
			return nr;
	}
	return 0;
}

bool ks_key_parse(const char *name, struct ks_key *k)
{
	const char *brace = strchr(name, '{'), *eq;
	size_t len = strlen(name);

	if (!brace || len < 4 || name[len - 1] != '}')
		return false;
	eq = strchr(brace, '=');
	if (!eq || (size_t)(eq - brace - 1) >= sizeof(k->key) ||
	    (size_t)(name + len - 1 - eq - 1) >= sizeof(k->value) ||
	    eq == brace + 1 || eq + 1 == name + len - 1)
		return false;
	k->base_len = (size_t)(brace - name);
	snprintf(k->key, sizeof(k->key), "%.*s", (int)(eq - brace - 1), brace + 1);
	snprintf(k->value, sizeof(k->value), "%.*s", (int)(name + len - 2 - eq), eq + 1);
	return true;
}

size_t ks_key_name_base(const char *name)
{
	struct ks_key k;

	if (!ks_key_parse(name, &k) ||
	    strspn(k.key, "abcdefghijklmnopqrstuvwxyz") != strlen(k.key) ||
	    strspn(k.value, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(k.value))
		return 0;
	return k.base_len;
}

/* A comm key's value, hex of the name's bytes (the module's spelling): the name, or NULL. */
static const char *comm_from_hex(const char *hex, char *buf, size_t len)
{
	size_t n = strlen(hex), i;
	unsigned int byte;

	if (!n || n % 2 || n / 2 >= len || n > 30 ||
	    strspn(hex, "0123456789abcdef") != n)
		return NULL;
	for (i = 0; i < n / 2; i++) {
		if (sscanf(hex + 2 * i, "%2x", &byte) != 1 || !byte)
			return NULL;
		buf[i] = (char)byte;
	}
	buf[i] = '\0';
	return buf;
}

const char *ks_key_value_text(const struct ks_key *k, char *buf, size_t len)
{
	unsigned long long id;
	char *end;
	long v;
	const char *n;

	if (!strcmp(k->key, "comm"))
		return comm_from_hex(k->value, buf, len) ?: k->value;
	if (!strcmp(k->key, "cgroup")) {
		id = strtoull(k->value, &end, 10);
		if (*end || !(n = ks_cgroup_path(id)))
			return k->value;
		snprintf(buf, len, "%s", n);
		return buf;
	}
	if (strcmp(k->key, "errno"))
		return k->value;
	v = strtol(k->value, &end, 10);
	if (*end || v >= 0 || v < -4095 || !(n = ks_errno_name((int)-v)))
		return k->value;
	snprintf(buf, len, "-%s", n);
	return buf;
}

char *ks_metric_label(char *buf, size_t len, const char *name)
{
	char full[KSTATS_NAME_LEN + KS_KEY_VALUE_MAX], val[KS_KEY_VALUE_MAX];
	struct ks_key k;

	if (!ks_key_parse(name, &k))
		return ks_text(buf, len, name);
	snprintf(full, sizeof(full), "%.*s{%s=%s}", (int)k.base_len, name, k.key,
		 ks_key_value_text(&k, val, sizeof(val)));
	return ks_text(buf, len, full);
}

int ks_key_name_canonical(const char *in, char *out, size_t len)
{
	struct ks_key k;
	uint64_t id;
	int nr;

	/* A comm as people read it: nginx, kworker/1:2. */
	if (ks_key_parse(in, &k) && !strcmp(k.key, "comm") && strcmp(k.value, "other") &&
	    !strpbrk(k.value, "*?[")) {
		size_t i, at;

		if (strlen(k.value) > 15)
			return ks_usage("'%s': a task's name (comm) is at most 15 bytes", in);
		at = (size_t)snprintf(out, len, "%.*s{comm=", (int)k.base_len, in);
		for (i = 0; k.value[i] && at < len; i++)
			at += (size_t)snprintf(out + at, len - at, "%02x",
					       (unsigned char)k.value[i]);
		if (at < len)
			snprintf(out + at, len - at, "}");
		return 0;
	}
	if (ks_key_parse(in, &k) && !strcmp(k.key, "cgroup") && k.value[0] == '/') {
		if (ks_cgroup_id(k.value, &id))
			return ks_usage("'%s': no cgroup %s here (an id, as cgroup=4242, "
					"is taken too)", in, k.value);
		snprintf(out, len, "%.*s{cgroup=%llu}", (int)k.base_len, in,
			 (unsigned long long)id);
		return 0;
	}
	/* -EAGAIN, as the key is written; EAGAIN, eagain and -eagain too. */
	if (!ks_key_parse(in, &k) || strcmp(k.key, "errno") || !strcmp(k.value, "other") ||
	    !isalpha((unsigned char)k.value[k.value[0] == '-']) || strpbrk(k.value, "*?[")) {
		snprintf(out, len, "%s", in);
		return 0;
	}
	nr = errno_by_name(k.value + (k.value[0] == '-'));
	if (!nr)
		return ks_usage("'%s': no error called %s (a number, as errno=-11, is "
				"taken too)", in, k.value + (k.value[0] == '-'));
	snprintf(out, len, "%.*s{errno=-%d}", (int)k.base_len, in, nr);
	return 0;
}

/*
 * trace --key-values LIST: the values of key @key that alone get a metric
 * (not comm: its codes are the module's keyed hashes),
 * into @vals (at most KSTATS_KEYS_MAX): for errno, 0 (no error) or an
 * error by name or number (EAGAIN, -EAGAIN, -11, 11); for cgroup, a
 * cgroup's path; for pid, tid and cpu, a number (the module says which
 * CPUs exist: EINVAL past them). Their count, or -1 when one is not a value (said).
 */
int ks_key_values_parse(uint32_t key, const char *list, uint64_t *vals)
{
	char *copy = strdup(list), *item, *save = NULL, *end;
	int nr = 0;

	if (!copy)
		abort();
	for (item = strtok_r(copy, ",", &save); item && nr >= 0;
	     item = strtok_r(NULL, ",", &save)) {
		const char *v = item;
		long n;

		if (nr == KSTATS_KEYS_MAX) {
			ks_usage("--key-values: at most %d values", KSTATS_KEYS_MAX);
			nr = -1;
		} else if (key >= KSTATS_KEY_PID) {
			errno = 0;
			n = strtol(v, &end, 10);
			if (*v >= '0' && *v <= '9' && !*end && !errno && n >= 0 &&
			    n <= (key == KSTATS_KEY_CPU ? 99999 : 4194304)) {
				vals[nr++] = (uint64_t)n;
			} else {
				ks_usage("--key-values: '%s' is not a %s (0 to %d)", item,
					 key == KSTATS_KEY_CPU ? "CPU number" : "process or thread id",
					 key == KSTATS_KEY_CPU ? 99999 : 4194304);
				nr = -1;
			}
		} else if (key == KSTATS_KEY_CGROUP) {
			if (ks_cgroup_id(item, &vals[nr])) {
				ks_usage("--key-values: no cgroup %s", item);
				nr = -1;
			} else {
				nr++;
			}
		} else {
			if (*v == '-')
				v++;
			errno = 0;
			n = strtol(v, &end, 10);
			if (*v >= '0' && *v <= '9' && !*end && !errno && n >= 0 && n <= 4095)
				vals[nr++] = (uint64_t)n;
			else if ((n = errno_by_name(v)))
				vals[nr++] = (uint64_t)n;
			else {
				ks_usage("--key-values: '%s' is not an error (0, EAGAIN, -11, "
					 "... up to 4095)", item);
				nr = -1;
			}
		}
	}
	free(copy);
	if (!nr) {
		ks_usage("--key-values: no value");
		nr = -1;
	}
	return nr;
}
