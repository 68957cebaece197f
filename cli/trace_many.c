// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl trace PATTERN|FUNC... [--functions FILE] [--max N] [trace's options]
 *
 * Many functions at once, as funclatency -F 'vfs_*' and bpftrace's
 * kprobe:vfs_* take them: each function matched is a trace of its own,
 * named by the function, with every option given. Patterns are matched
 * here, against the text symbols of /proc/kallsyms ('MODULE:PATTERN' only
 * in that module); names without a pattern are taken as they are. What
 * may be traced, the module decides (KSTATS_TRACE_MATCHED for a pattern's
 * matches: no notrace functions, no unwinder); what it refuses is skipped
 * and said, each with its reason, and the rest traced. Where the module
 * can (KSTATS_FEAT_GROUP), the kernel functions' traces are made deferred
 * and attached at once: on fprobe as one fprobe over all of them, whose
 * cost per call does not grow with their number. One-shot (the default)
 * prints every function's histograms at the end; --keep leaves the
 * traces, for show and untrace 'PATTERN'.
 */
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "json.h"
#include "keys.h"
#include "names.h"
#include "trace.h"
#include "trace_args.h"
#include "usym.h"
#include "trace_many.h"

bool ks_is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

bool ks_trace_many_wanted(const struct ks_trace_args *a)
{
	return a->from || a->args.nr > 1 || (a->args.nr == 1 && ks_is_pattern(a->args.v[0]));
}

struct many_fn *ks_many_find(const struct many *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr; i++)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

struct many_fn *ks_many_add(struct many *m, const char *name, bool matched,
			   unsigned long long addr)
{
	struct many_fn *f;

	m->v = xrealloc(m->v, m->nr + 1, sizeof(*m->v));
	f = &m->v[m->nr++];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->matched = matched;
	f->addr = addr;
	return f;
}

/* --functions FILE's lines ('-': standard input), blank ones and # comments not. */
static int read_from(const char *path, struct ks_names *pats)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL, *p, *end;
	size_t cap = 0;

	if (!f)
		return ks_fail(EXIT_USAGE, NULL, "--functions %s: %s", path, strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		end = p + strcspn(p, "#\r\n");
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		*end = '\0';
		if (!*p)
			continue;
		pats->v = xrealloc(pats->v, pats->nr + 1, sizeof(*pats->v));
		pats->v[pats->nr++] = xstrdup(p);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	if (!pats->nr)
		return ks_fail(EXIT_USAGE, "one function or pattern a line ('vfs_*')",
			       "--functions %s: no function in it", path);
	return 0;
}

/*
 * Padding and CFI stubs the compiler puts before functions: symbols of
 * text, but no function to trace.
 */
static bool is_stub(const char *name)
{
	return !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6);
}

/*
 * Matches every pattern of @pats against /proc/kallsyms' text symbols,
 * into @m (in kallsyms' order, once each); @hits counts each pattern's.
 */
static int match_kallsyms(const struct ks_names *pats, struct many *m, size_t *hits)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], mod[128], full[400];
	unsigned long long addr;
	const char *colon;
	struct many_fn *fn;
	size_t i;
	char type;
	int n;

	if (!f)
		return ks_fail(EXIT_RUNTIME, NULL, "reading /proc/kallsyms: %s",
			       strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		mod[0] = '\0';
		n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name, mod);
		if (n < 3)
			continue;
		if (!mod[0] && !strcmp(name, "_sinittext"))
			m->init_start = addr;
		if (!mod[0] && !strcmp(name, "_einittext"))
			m->init_end = addr;
		if ((type != 't' && type != 'T') || is_stub(name))
			continue;
		for (i = 0; i < pats->nr; i++) {
			const char *pat = pats->v[i];

			if (!ks_is_pattern(pat))
				continue;
			colon = strchr(pat, ':');
			if (colon && (!mod[0] || strncmp(pat, mod, colon - pat) ||
				      mod[colon - pat]))
				continue;
			if (fnmatch(colon ? colon + 1 : pat, name, 0))
				continue;
			hits[i]++;
			snprintf(full, sizeof(full), "%s%s%s", colon ? mod : "", colon ? ":" : "",
				 name);
			fn = ks_many_find(m, full);
			if (!fn) {
				ks_many_add(m, full, true, addr);
			} else if (fn->addr != addr && !fn->why) {
				fn->why = "more than one function has this name: kstats "
					  "would time one (MODULE:NAME picks a module's)";
			}
			break;
		}
	}
	fclose(f);
	return 0;
}

/* What is skipped before asking the module: the reason, or NULL. */
static const char *check_here(const struct ks_trace_args *a, const struct many *m,
			      struct many_fn *f)
{
	int room = ks_trace_name_room(a, f->name);

	if (f->why)
		return f->why;
	if (f->matched && f->addr && strchr(f->name, ':') == NULL &&
	    f->addr >= m->init_start && f->addr < m->init_end)
		return "__init text, freed after boot";
	if (strspn(f->name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		   "0123456789_.:-") != strlen(f->name))
		return "its name is not a metric's (letters, digits, _ . : -)";
	if (room) {
		snprintf(f->buf, sizeof(f->buf), "its name is longer than the %d bytes its "
			 "metrics leave it", room);
		return f->buf;
	}
	if (a->key == KSTATS_KEY_ERRNO && !f->user) {
		char why[128];

		if (ks_btf_errno_narrow(f->name, why, sizeof(why))) {
			snprintf(f->buf, sizeof(f->buf), "returns %.60s: no errno to key",
				 why);
			return f->buf;
		}
	}
	return NULL;
}

/* The module's refusal of one function, as a reason; NULL: not one function's. */
static const char *module_reason(int err, bool matched)
{
	switch (err) {
	case ENOENT:
		return "no such function";
	case EINVAL:
		return "kprobes refuses it (blacklisted, noinstr, or not text)";
	case ELOOP:
		return "a function of kstats itself";
	case EEXIST:
		return "a metric of this name exists ('kstatsctl list')";
	case EDEADLK:
		return matched ? "the stack unwinder, or called by kstats' handlers" : NULL;
	case ENXIO:
		return matched ? "no ftrace call site (notrace, a .cold part, or assembly)" :
		       NULL;
	case EBUSY:
		return "traced with --self already";
	case ENOSPC:
		return "too many traces of this function share its entry data";
	}
	return NULL;
}

/* The metrics one-shot prints of @name, appended to @names (as trace.c's). */
static void run_names(const struct ks_trace_args *a, const char *name, struct ks_names *names)
{
	static const char *const split[] = { "ONCPU", "RUNQ", "BLOCKED" };
	char buf[KSTATS_NAME_LEN + 16];
	size_t i;

	names->v = xrealloc(names->v, names->nr + 5, sizeof(*names->v));
	names->v[names->nr++] = xstrdup(name);
	if (a->self) {
		snprintf(buf, sizeof(buf), "SELF-%s", name);
		names->v[names->nr++] = xstrdup(buf);
	}
	for (i = 0; a->split && i < ARRAY_SIZE(split); i++) {
		snprintf(buf, sizeof(buf), "%s-%s", split[i], name);
		names->v[names->nr++] = xstrdup(buf);
	}
}

/* What was skipped, on stderr; with -j and --keep, in the JSON document too. */
static void say_skipped(const struct many *m, size_t traced, const char *what)
{
	size_t i, skipped = m->nr - traced;

	if (!skipped)
		return;
	fprintf(stderr, "kstatsctl: %s: %zu of %zu functions skipped:\n", what, skipped,
		m->nr);
	for (i = 0; i < m->nr; i++)
		if (m->v[i].why)
			fprintf(stderr, "kstatsctl:   %s: %s\n", m->v[i].name, m->v[i].why);
}

static void print_kept_json(const struct many *m)
{
	struct json *j = json_doc("trace");
	size_t i;

	json_key(j, "functions");
	json_arr(j);
	for (i = 0; i < m->nr; i++)
		if (!m->v[i].why)
			json_str(j, m->v[i].name);
	json_arr_end(j);
	json_key(j, "skipped");
	json_arr(j);
	for (i = 0; i < m->nr; i++) {
		if (!m->v[i].why)
			continue;
		json_obj(j);
		json_kstr(j, "function", m->v[i].name);
		json_kstr(j, "reason", m->v[i].why);
		if (m->v[i].err)
			json_kstr(j, "errno", ks_errno_name(m->v[i].err));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	json_end(j);
}

/* Undoes the traces made so far (--keep; one-shot's go with the file). */
static void untrace_made(int fd, const struct many *m)
{
	struct kstats_untrace u;
	size_t i;

	for (i = 0; i < m->nr; i++) {
		if (!m->v[i].traced)
			continue;
		memset(&u, 0, sizeof(u));
		snprintf((char *)u.name, sizeof(u.name), "%s", m->v[i].name);
		ioctl(fd, KSTATS_IOC_UNTRACE, &u);
	}
}

/* Options that belong to one function, or to other kinds of target. */
static int check_options(const struct ks_trace_args *a, const struct ks_names *pats)
{
	size_t i;

	if (a->name) {
		ks_set_hint("each function's metric is named by the function");
		return ks_usage("--name names one trace: not with several functions");
	}
	if (a->start || a->end)
		return ks_usage("--start and --end time one section: not with several "
				"functions");
	if (a->x.value || a->x.pred || a->x.time) {
		ks_set_hint("trace the functions one at a time with them");
		return ks_usage("--value, --if and --time: not yet with several functions");
	}
	for (i = 0; i < pats->nr; i++)
		if (!strncmp(pats->v[i], "tp:", 3)) {
			ks_set_hint("trace a tracepoint alone");
			return ks_usage("'%s': with several functions, each is a function",
					pats->v[i]);
		}
	if (ks_many_user_kind(pats) < 0) {
		ks_set_hint("one command for the kernel's, one for the program's");
		return ks_usage("kernel and user-space functions: not in one command");
	}
	if (ks_many_user_kind(pats))
		return 0;	/* ks_many_user() checks the rest */
	if (a->mech != KSTATS_MECH_AUTO && a->mech != KSTATS_MECH_FPROBE &&
	    a->mech != KSTATS_MECH_KRETPROBE)
		return ks_usage("--mechanism %s: several functions are traced by fprobe "
				"or kretprobe", ks_trace_mechs[a->mech]);
	return 0;
}

/* @pats matched and checked here into @m: 0 or an exit code, said. */
static int collect(const struct ks_trace_args *a, const struct ks_names *pats,
		   struct many *m, size_t *todo)
{
	size_t *hits = xcalloc(pats->nr, sizeof(*hits)), i;
	bool user = ks_many_user_kind(pats);
	int rc = 0;

	for (i = 0; i < pats->nr && !ks_is_pattern(pats->v[i]); i++)
		;
	if (user)
		rc = ks_many_user(a, pats, m);
	else if (i < pats->nr)
		rc = match_kallsyms(pats, m, hits);
	for (i = 0; i < pats->nr && !rc; i++) {
		const char *pat = pats->v[i], *colon = strchr(pat, ':');

		if (user) {
			continue;
		} else if (!ks_is_pattern(pat)) {
			if (!ks_many_find(m, pat))
				ks_many_add(m, pat, false, 0);
		} else if (!hits[i]) {
			ks_set_hint("'grep \" %.*s\" /proc/kallsyms' lists the functions there "
				    "are", (int)strcspn(colon ? colon + 1 : pat, "*?["),
				    colon ? colon + 1 : pat);
			rc = ks_fail(EXIT_RUNTIME, NULL, "'%s' matches no kernel function%s",
				     pat, colon ? " of that module" : "");
		}
	}
	free(hits);
	*todo = 0;
	for (i = 0; i < m->nr && !rc; i++) {
		m->v[i].why = check_here(a, m, &m->v[i]);
		*todo += !m->v[i].why;
	}
	return rc;
}

/*
 * The traces made, deferred, attached at once (on fprobe as one fprobe):
 * 0 or an exit code, said.
 */
static int attach_group(int fd, const struct ks_trace_args *a, const struct many *m,
			size_t traced)
{
	struct kstats_attach at;
	int err;

	memset(&at, 0, sizeof(at));
	if (!ioctl(fd, KSTATS_IOC_ATTACH, &at))
		return 0;
	err = errno;
	if (a->keep)
		untrace_made(fd, m);
	ks_set_hint("the kernel refused the probe: 'dmesg' may say why; fewer functions need "
		    "less of it");
	return ks_fail(EXIT_RUNTIME, NULL, "cannot attach the probe of the %zu functions: %s",
		       traced, strerror(err));
}

/*
 * Asks the module for a trace of each function left: 0 or an exit code,
 * said. @group: deferred, then attached together (KSTATS_FEAT_GROUP).
 */
static int trace_each(int fd, struct ks_trace_args *a, struct many *m, size_t *traced,
		      const uint8_t *cpus, size_t cpus_len, const uint64_t *key_values,
		      bool group)
{
	size_t i, refused = 0, einval = 0;
	const char *first = NULL;
	struct ks_ucost ucost = { 0 };
	struct kstats_uprobe up;
	struct kstats_trace t;
	int rc;

	*traced = 0;
	for (i = 0; i < m->nr; i++) {
		struct many_fn *f = &m->v[i];

		if (f->why)
			continue;
		first = first ? first : f->name;
		ks_trace_request(&t, a, f->user ? f->label : f->name, cpus, cpus_len, key_values);
		if (f->matched)
			t.flags |= KSTATS_TRACE_MATCHED;
		if (group && !f->user)
			t.flags |= KSTATS_TRACE_DEFER;
		if (f->user) {
			memset(&up, 0, sizeof(up));
			up.fd = f->ufd;
			up.role = KSTATS_UPROBE_FUNC;
			up.offset = f->uoff;
			/* The name, not the label: and nothing after its NUL (ABI). */
			memset(t.name, 0, sizeof(t.name));
			snprintf((char *)t.name, sizeof(t.name), "%s", f->name);
			t.mechanism = KSTATS_MECH_UPROBE;
			t.uprobes = (uint64_t)(uintptr_t)&up;
			t.nr_uprobes = 1;
			t.uprobe_size = sizeof(up);
			/* Measured once, for every function. */
			rc = ks_ucost_fill(fd, &t, false, &ucost);
			if (rc)
				return rc;
		}
		if (a->cgroup_fd >= 0) {
			t.flags |= KSTATS_TRACE_CGROUP;
			t.cgroup_fd = a->cgroup_fd;
		}
		if (!ioctl(fd, KSTATS_IOC_TRACE, &t)) {
			f->traced = true;
			(*traced)++;
			continue;
		}
		f->err = errno;
		f->why = module_reason(f->err, f->matched);
		refused++;
		einval += f->err == EINVAL;
		/* Not this function's but the request's: all or nothing. */
		if (!f->why) {
			if (a->keep)
				untrace_made(fd, m);
			return ks_trace_refused(f->err, fd, f->user ? f->label : f->name, a,
						f->user);
		}
	}
	/* Each refused alike, for what may be the request's fault: say so. */
	if (!*traced && refused && einval == refused)
		return ks_trace_refused(EINVAL, fd, first, a, m->v[0].user);
	return group && *traced && !m->v[0].user ? attach_group(fd, a, m, *traced) : 0;
}

int ks_trace_many(struct ks_trace_args *a, const uint8_t *cpus, size_t cpus_len,
		  const uint64_t *key_values)
{
	uint32_t max = a->max ? a->max : KS_TRACE_MANY_DEFAULT;
	struct ks_names pats = { 0 }, names = { 0 };
	struct kstats_info info;
	struct many m = { 0 };
	size_t todo, traced = 0, i;
	bool matched = false, group = false;
	char what[160], label[64];
	sigset_t sigs;
	int rc, fd = -1;

	pats.v = xcalloc(a->args.nr ? a->args.nr : 1, sizeof(*pats.v));
	for (i = 0; i < a->args.nr; i++)
		pats.v[pats.nr++] = xstrdup(a->args.v[i]);
	rc = a->from ? read_from(a->from, &pats) : 0;
	if (!rc)
		rc = check_options(a, &pats);
	if (rc)
		goto out;
	if (pats.nr == 1)
		snprintf(what, sizeof(what), "'%.120s'", pats.v[0]);
	else
		snprintf(what, sizeof(what), "%zu names and patterns", pats.nr);
	rc = collect(a, &pats, &m, &todo);
	if (rc)
		goto out;
	if (todo > max) {
		if (todo <= KS_TRACE_MANY_MAX)
			ks_set_hint("--max %zu traces them all (each a trace and metrics "
				    "of its own), or a narrower pattern fewer", todo);
		else
			ks_set_hint("at most %d at once: a narrower pattern", KS_TRACE_MANY_MAX);
		rc = ks_fail(EXIT_USAGE, NULL, "%s: %zu functions to trace, over --max %u",
			     what, todo, max);
		goto out;
	}
	if (!todo) {
		say_skipped(&m, 0, what);
		rc = ks_fail(EXIT_RUNTIME, NULL, "%s: none of the %zu functions can be traced",
			     what, m.nr);
		goto out;
	}
	if (a->dry_run) {
		say_skipped(&m, todo, what);
		for (i = 0; i < m.nr; i++)
			if (m.v[i].why)
				continue;
			else if (m.v[i].user)
				printf("%s (%s, file offset 0x%llx)\n", m.v[i].name, m.v[i].label,
				       (unsigned long long)m.v[i].uoff);
			else
				printf("%s\n", m.v[i].name);
		rc = 0;
		goto out;
	}
	for (i = 0; i < m.nr; i++)
		matched |= m.v[i].matched;
	rc = EXIT_RUNTIME;
	fd = ks_dev_open();
	if (fd < 0)
		goto out;
	if (ks_dev_info(fd, &info) == 0) {
		if (a->mech != KSTATS_MECH_AUTO && !(info.mechanisms & (1ULL << a->mech))) {
			rc = ks_trace_refused(EOPNOTSUPP, fd, m.v[0].name, a, false);
			goto out;
		}
		if (matched && !(info.features & KSTATS_FEAT_MATCHED)) {
			rc = ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'matched' where a "
				     "kstats module can; a newer one can", "%s: this kstats "
				     "module cannot check the functions a pattern matches", what);
			goto out;
		}
		group = info.features & KSTATS_FEAT_GROUP;
	}
	if (a->cgroup) {
		a->cgroup_fd = ks_cgroup_open(a->cgroup);
		if (a->cgroup_fd < 0)
			goto out;
	}
	/* As trace.c: a signal once the traces exist ends the run, not the command. */
	if (!a->keep)
		ks_block_stop_signals(&sigs);
	rc = trace_each(fd, a, &m, &traced, cpus, cpus_len, key_values, group);
	if (rc)
		goto out;
	say_skipped(&m, traced, what);
	if (!traced) {
		rc = ks_fail(EXIT_RUNTIME, NULL, "%s: none of the %zu functions could be traced",
			     what, m.nr);
		goto out;
	}
	if (a->keep) {
		if (opts.json)
			print_kept_json(&m);
		else if (m.untrace[0] || (pats.nr == 1 && ks_is_pattern(pats.v[0])))
			fprintf(stderr, "kstatsctl: tracing %zu functions until 'kstatsctl "
				"untrace '%s''; 'kstatsctl show '%s'' shows them\n", traced,
				m.untrace[0] ? m.untrace : pats.v[0],
				m.untrace[0] ? m.untrace : pats.v[0]);
		else
			fprintf(stderr, "kstatsctl: tracing %zu functions until 'kstatsctl "
				"untrace NAME...'; 'kstatsctl show NAME...' shows them\n", traced);
		rc = 0;
		goto out;
	}
	for (i = 0; i < m.nr; i++)
		if (m.v[i].traced)
			run_names(a, m.v[i].name, &names);
	if (traced == 1)
		snprintf(label, sizeof(label), "%.63s", names.v[0]);
	else
		snprintf(label, sizeof(label), "%zu functions", traced);
	a->run.label = label;
	rc = ks_trace_run(fd, (const char *const *)names.v, names.nr, a->key, &a->run);
out:
	if (fd >= 0)
		close(fd);
	for (i = 0; i < m.nr; i++) {
		free(m.v[i].name);
		free(m.v[i].label);
	}
	free(m.v);
	for (i = 0; i < m.nr_fds; i++)
		close(m.fds[i]);
	free(m.fds);
	for (i = 0; i < pats.nr; i++)
		free(pats.v[i]);
	free(pats.v);
	for (i = 0; i < names.nr; i++)
		free(names.v[i]);
	free(names.v);
	return rc;
}
