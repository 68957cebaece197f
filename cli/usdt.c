// SPDX-License-Identifier: GPL-2.0
/*
 * trace NAME --start usdt:BINARY:PROVIDER:START --end usdt:BINARY:PROVIDER:END,
 * and trace usdt:BINARY:PROVIDER:NAME --value EXPR (a point):
 * where the USDT probes are, from the binary's .note.stapsdt notes
 * (libelf), as <sys/sdt.h> writes them: per place a probe is compiled in,
 * the probe's address, the link-time address of .stapsdt.base and its
 * semaphore's address (0: none), then provider, name and arguments. The
 * notes are not allocated, so prelink does not move them: an address is
 * moved by what .stapsdt.base moved. The probe becomes a file offset
 * through the executable segment, the semaphore through the writable one.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device.h"
#include "usdt.h"
#include "usym.h"
#include "libs_dl.h"

#define USDT_PREFIX	"usdt:"
#define USDT_NOTE_TYPE	3		/* sys/sdt.h's _SDT_NOTE_TYPE */

bool ks_usdt_named(const char *point)
{
	return point && !strncmp(point, USDT_PREFIX, strlen(USDT_PREFIX));
}

/* usdt:BINARY:PROVIDER:NAME, split (the last two ':' end BINARY and PROVIDER). */
struct usdt_point {
	char binary[4096];
	const char *provider, *name;
	char buf[1024];
};

static int usdt_split(const char *opt, const char *point, struct usdt_point *u)
{
	const char *rest = point + strlen(USDT_PREFIX), *name = strrchr(rest, ':');
	const char *prov = name;

	while (prov && prov > rest && prov[-1] != ':')
		prov--;
	if (!name || prov <= rest + 1 || !name[1] || prov == name ||
	    (size_t)(prov - 1 - rest) >= sizeof(u->binary) ||
	    strlen(prov) >= sizeof(u->buf)) {
		ks_set_hint("e.g. usdt:/usr/bin/postgres:postgresql:query__start");
		return ks_usage("%s '%s': a USDT probe is usdt:BINARY:PROVIDER:NAME", opt,
				point);
	}
	snprintf(u->binary, sizeof(u->binary), "%.*s", (int)(prov - 1 - rest), rest);
	snprintf(u->buf, sizeof(u->buf), "%s", prov);
	u->buf[name - prov] = '\0';
	u->provider = u->buf;
	u->name = u->buf + (name - prov) + 1;
	return 0;
}

/* The options USDT probes cannot have, or take otherwise; @point: a probe alone. */
static int usdt_args_check(const struct ks_trace_args *a, const char *point)
{
	if (point && a->start) {
		ks_set_hint("a section: trace NAME --start usdt:B:P:START --end usdt:B:P:END");
		return ks_usage("%s with --start: trace a probe alone, or a section", point);
	}
	if (!point && (!a->end || !ks_usdt_named(a->start) || !ks_usdt_named(a->end))) {
		ks_set_hint("a USDT probe is a point: time the section between two, "
			    "--start usdt:B:P:START --end usdt:B:P:END");
		return ks_usage("--start and --end: both USDT probes, or neither");
	}
	if (a->mech != KSTATS_MECH_AUTO && a->mech != KSTATS_MECH_UPROBE)
		return ks_usage("--mechanism: USDT probes are uprobes");
	if (point && !a->x.value) {
		ks_set_hint("--value arg0 records a probe's first argument at each hit; "
			    "--start usdt:B:P:START --end usdt:B:P:END times a section");
		return ks_usage("%s: a probe alone is a point in time, with nothing to "
				"time: --value EXPR", point);
	}
	return 0;
}

/* .note.stapsdt, or NULL; .stapsdt.base's address in @base (0: none). */
static Elf_Scn *usdt_notes(Elf *e, uint64_t *base)
{
	Elf_Scn *scn = NULL, *notes = NULL;
	size_t shstrndx;
	const char *name;
	GElf_Shdr sh;

	*base = 0;
	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (sh.sh_type == SHT_NOTE && !strcmp(name, ".note.stapsdt"))
			notes = scn;
		else if (!strcmp(name, ".stapsdt.base"))
			*base = sh.sh_addr;
	}
	return notes;
}

/* One note's descriptor: three addresses, then provider, name, arguments. */
struct usdt_note {
	uint64_t pc, base, sem;
	const char *provider, *name, *args;
};

static bool usdt_note_read(const char *desc, size_t size, struct usdt_note *n)
{
	const char *end = desc + size, *p = desc + 24;

	if (size < 24 + 3)
		return false;
	memcpy(&n->pc, desc, 8);	/* x86-64 only: little-endian, 8 bytes */
	memcpy(&n->base, desc + 8, 8);
	memcpy(&n->sem, desc + 16, 8);
	n->provider = p;
	p = memchr(p, '\0', (size_t)(end - p));
	if (!p++ || p >= end)
		return false;
	n->name = p;
	p = memchr(p, '\0', (size_t)(end - p));
	if (!p++)
		return false;
	/* The arguments: none in notes older than <sys/sdt.h> version 3. */
	n->args = p < end && memchr(p, '\0', (size_t)(end - p)) ? p : "";
	return true;
}

/* Every place of PROVIDER:NAME in @e, appended to @u with @role, its arguments in @args. */
static int usdt_find(Elf *e, const struct usdt_point *pt, const char *path, uint32_t role,
		     struct ks_usdt *u, struct ks_usdt_args *args)
{
	uint64_t base, off, sem_off, moved;
	uint32_t found = 0;
	size_t at = 0, name_at, desc_at;
	struct usdt_note n;
	Elf_Data *d;
	GElf_Nhdr nh;
	Elf_Scn *scn = usdt_notes(e, &base);

	if (!scn || !(d = elf_getdata(scn, NULL)))
		return ks_fail(EXIT_RUNTIME, "USDT probes come from <sys/sdt.h> "
			       "(DTRACE_PROBE, STAP_PROBE); 'readelf -n FILE' lists "
			       "them", "%s: no USDT probes (no .note.stapsdt section)", path);
	while ((at = gelf_getnote(d, at, &nh, &name_at, &desc_at)) > 0) {
		if (nh.n_type != USDT_NOTE_TYPE || nh.n_namesz != sizeof("stapsdt") ||
		    memcmp((char *)d->d_buf + name_at, "stapsdt", sizeof("stapsdt")))
			continue;
		if (!usdt_note_read((char *)d->d_buf + desc_at, nh.n_descsz, &n))
			return ks_fail(EXIT_RUNTIME, NULL, "%s: a malformed USDT note", path);
		if (strcmp(n.provider, pt->provider) || strcmp(n.name, pt->name))
			continue;
		/* Prelinked: the notes kept the link-time addresses. */
		moved = base && n.base ? base - n.base : 0;
		if (ks_uelf_offset(e, n.pc + moved, PF_X, &off))
			return ks_fail(EXIT_RUNTIME, NULL, "%s: USDT probe %s:%s (0x%llx) "
				       "is in no executable segment", path, n.provider,
				       n.name, (unsigned long long)n.pc);
		sem_off = 0;
		if (n.sem && ks_uelf_offset(e, n.sem + moved, PF_W, &sem_off))
			return ks_fail(EXIT_RUNTIME, NULL, "%s: USDT probe %s:%s's semaphore "
				       "(0x%llx) is in no writable segment", path,
				       n.provider, n.name, (unsigned long long)n.sem);
		if (u->nr == KSTATS_UPROBES_MAX)
			return ks_fail(EXIT_RUNTIME, "a probe compiled in many places "
				       "(inlined) is a breakpoint in each", "%s: the "
				       "USDT probes are in more than %d places", path,
				       KSTATS_UPROBES_MAX);
		u->up[u->nr++] = (struct kstats_uprobe){
			.fd = u->fd, .role = role, .offset = off, .ref_ctr_offset = sem_off,
		};
		ks_usdt_args_add(args, n.args);
		found++;
	}
	if (!found)
		return ks_fail(EXIT_RUNTIME, "'readelf -n FILE' lists its USDT probes "
			       "(stapsdt notes: Provider, Name)", "%s: no USDT probe %s:%s",
			       path, pt->provider, pt->name);
	snprintf(args->probe, sizeof(args->probe), "%s:%s", pt->provider, pt->name);
	return 0;
}

/* The end's binary is the start's: the same file, however named. */
static int usdt_same_binary(const struct ks_trace_args *a, const struct usdt_point *end,
			    struct ks_usdt *u)
{
	char path[4096];
	struct stat s1, s2;
	int fd, same;

	fd = ks_usym_open(end->binary, a->tid ? a->tid : a->pid, path, sizeof(path));
	if (fd < 0)
		return EXIT_RUNTIME;
	same = !fstat(u->fd, &s1) && !fstat(fd, &s2) && s1.st_dev == s2.st_dev &&
	       s1.st_ino == s2.st_ino;
	close(fd);
	if (same)
		return 0;
	ks_set_hint("a section is timed in one program or library: time each "
		    "binary's own probes");
	return ks_usage("--start is in %s, --end in %s: both USDT probes must be in "
			"one binary", u->path, path);
}

int ks_usdt_resolve(const struct ks_trace_args *a, const char *point, struct ks_usdt *u)
{
	struct usdt_point start, end;
	int rc;
	Elf *e;

	memset(u, 0, sizeof(*u));
	u->fd = -1;
	u->point = point != NULL;
	rc = usdt_args_check(a, point) ?:
	     usdt_split(point ? "trace" : "--start", point ? point : a->start, &start) ?:
	     (point ? 0 : usdt_split("--end", a->end, &end));
	if (rc)
		return rc;
	if (!point && !strcmp(start.binary, end.binary) &&
	    !strcmp(start.provider, end.provider) && !strcmp(start.name, end.name))
		return ks_usage("--start and --end: the same USDT probe; a section "
				"runs from one probe to another");
	u->fd = ks_usym_open(start.binary, a->tid ? a->tid : a->pid, u->path,
			     sizeof(u->path));
	if (u->fd < 0)
		return EXIT_RUNTIME;
	rc = !point && strcmp(start.binary, end.binary) ? usdt_same_binary(a, &end, u) : 0;
	if (rc)
		goto fail;
	e = ks_uelf_begin(u->fd, u->path);
	rc = EXIT_RUNTIME;
	if (!e)
		goto fail;
	rc = point ? usdt_find(e, &start, u->path, KSTATS_UPROBE_POINT, u, &u->args[0]) :
	     usdt_find(e, &start, u->path, KSTATS_UPROBE_START, u, &u->args[0]) ?:
	     usdt_find(e, &end, u->path, KSTATS_UPROBE_END, u, &u->args[1]);
	elf_end(e);
	if (rc)
		goto fail;
	snprintf(u->start, sizeof(u->start), USDT_PREFIX "%s:%s:%s", u->path,
		 start.provider, start.name);
	if (!point)
		snprintf(u->end, sizeof(u->end), USDT_PREFIX "%s:%s:%s", u->path,
			 end.provider, end.name);
	return 0;
fail:
	close(u->fd);
	u->fd = -1;
	return rc;
}

int ks_usdt_supported(int fd, const char *start)
{
	struct kstats_info info;

	if (!ks_dev_info(fd, &info) && (info.features & KSTATS_FEAT_USDT))
		return 0;
	return ks_fail(EXIT_RUNTIME, "'kstatsctl info' lists 'usdt' where a kstats "
		       "module can; a newer one can", "tracing %s: this kstats module "
		       "cannot time sections between USDT probes", start);
}
