// SPDX-License-Identifier: GPL-2.0
/*
 * trace BINARY:FUNC: which file BINARY is (a path, a program on $PATH, or a
 * library name such as c or libssl, found through the process's mappings
 * with --pid, else /etc/ld.so.cache), and the file offset of FUNC's first
 * instruction, from its symbol (.symtab, else .dynsym) through the program
 * headers (libelf). The file is opened once: the descriptor parsed is the
 * one handed to the kernel, so the inode probed is the inode read.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "usym.h"
#include "libs_dl.h"

#define VERSYM_HIDDEN	0x8000	/* not in glibc's elf.h */

/*
 * Whether @binary names a user-space file rather than a kernel module: a
 * path, or a name that is no module, loaded or built in (/sys/module),
 * nor one whose BTF KSTATS_BTF_MODULES holds (the host tests' modules).
 */
bool ks_usym_is_user(const char *binary)
{
	const char *btf_modules = getenv("KSTATS_BTF_MODULES");
	char path[600];

	if (strchr(binary, '/'))
		return true;
	snprintf(path, sizeof(path), "/sys/module/%.256s", binary);
	if (!access(path, F_OK))
		return false;
	if (!btf_modules)
		return true;
	snprintf(path, sizeof(path), "%.300s/%.256s", btf_modules, binary);
	return access(path, F_OK) != 0;
}

bool ks_usym_wanted(const char *func, bool asked)
{
	const char *colon = strrchr(func, ':');
	char binary[256];

	if (asked)
		return true;
	if (!colon || !strncmp(func, "tp:", 3))
		return false;
	snprintf(binary, sizeof(binary), "%.*s", (int)(colon - func), func);
	return ks_usym_is_user(binary);
}

/* "c", "libc", "libc.so.6" -> "libc": the stem a library's file starts with. */
static void lib_stem(const char *name, char *stem, size_t size)
{
	snprintf(stem, size, "%s%s", strncmp(name, "lib", 3) ? "lib" : "", name);
	stem[strcspn(stem, ".")] = '\0';
}

/* glibc's ld.so.cache (the "glibc-ld.so.cache1.1" layout): the first x86-64 @stem.so*. */
static int ldcache_find(const char *stem, char *out, size_t size)
{
	static const char magic[] = "glibc-ld.so.cache1.1";
	struct { int32_t flags; uint32_t key, value, os; uint64_t hwcap; } e;
	size_t len = strlen(stem), n, i;
	uint32_t nlibs;
	char *buf = NULL;
	long fsize;
	FILE *f = fopen("/etc/ld.so.cache", "re");
	int found = -1;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (fsize = ftell(f)) < 48 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc((size_t)fsize + 1);
	if (!buf || fread(buf, 1, (size_t)fsize, f) != (size_t)fsize)
		goto out;
	buf[fsize] = '\0';
	if (memcmp(buf, magic, sizeof(magic) - 1))
		goto out;
	memcpy(&nlibs, buf + 20, sizeof(nlibs));
	n = nlibs;
	for (i = 0; i < n && 48 + (i + 1) * sizeof(e) <= (size_t)fsize; i++) {
		memcpy(&e, buf + 48 + i * sizeof(e), sizeof(e));
		/* FLAG_ELF_LIBC6 | FLAG_X8664_LIB64 */
		if (e.flags != 0x0303 || e.key >= (size_t)fsize || e.value >= (size_t)fsize)
			continue;
		if (strncmp(buf + e.key, stem, len) || strncmp(buf + e.key + len, ".so", 3))
			continue;
		snprintf(out, size, "%s", buf + e.value);
		found = 0;
		break;
	}
out:
	free(buf);
	fclose(f);
	return found;
}

int ks_maps_each(long pid, int (*fn)(uint64_t start, uint64_t end, uint64_t off,
				      const char *path, void *arg), void *arg)
{
	char maps[64], line[4096 + 128], file[4096];
	uint64_t start, end, off;
	int rc = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%ld/maps", pid);
	f = fopen(maps, "re");
	if (!f)
		return -2;
	while (!rc && fgets(line, sizeof(line), f)) {
		file[0] = '\0';
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %4095[^\n]",
			   &start, &end, &off, file) == 4 && file[0] == '/')
			rc = fn(start, end, off, file, arg);
	}
	fclose(f);
	return rc;
}

struct stem_find {
	const char *stem;
	long pid;
	char *out;
	size_t size;
};

static int stem_match(uint64_t start, uint64_t end, uint64_t off, const char *file, void *arg)
{
	struct stem_find *s = arg;
	const char *base = strrchr(file, '/') + 1;
	size_t len = strlen(s->stem);

	(void)start;
	(void)end;
	(void)off;
	if (strncmp(base, s->stem, len) || (base[len] != '.' && base[len] != '-'))
		return 0;
	snprintf(s->out, s->size, "/proc/%ld/root%s", s->pid, file);
	return 1;
}

/* With --pid: the first mapping of @stem (".../libc.so.6", ".../libc-2.36.so"). */
static int maps_find(long pid, const char *stem, char *out, size_t size)
{
	struct stem_find s = { stem, pid, out, size };
	int rc = ks_maps_each(pid, stem_match, &s);

	return rc == 1 ? 0 : rc == -2 ? -2 : -1;
}

/* A bare program name through $PATH. */
static int path_find(const char *name, char *out, size_t size)
{
	const char *p = getenv("PATH");
	size_t n;

	while (p && *p) {
		n = strcspn(p, ":");
		snprintf(out, size, "%.*s/%s", (int)n, p, name);
		if (!access(out, X_OK))
			return 0;
		p += n + (p[n] == ':');
	}
	return -1;
}

int ks_usym_open(const char *binary, long pid, char *path, size_t size)
{
	char stem[256];
	int fd, err;

	if (strchr(binary, '/')) {
		snprintf(path, size, "%s", binary);
	} else {
		lib_stem(binary, stem, sizeof(stem));
		err = pid ? maps_find(pid, stem, path, size) : ldcache_find(stem, path, size);
		if (err == -2)
			return ks_fail(EXIT_RUNTIME, "--pid takes a running process's id",
				       "no process %ld", pid), -1;
		if (err && pid)
			return ks_fail(EXIT_RUNTIME, "'grep lib /proc/PID/maps' lists its "
				       "libraries; a path works too", "%s: process %ld "
				       "maps no library %s", binary, pid, stem), -1;
		if (err && path_find(binary, path, size))
			return ks_fail(EXIT_RUNTIME, "'ldconfig -p' lists the libraries; a "
				       "path works too (/usr/lib/x86_64-linux-gnu/libc.so.6)",
				       "%s: no library %s.so* in /etc/ld.so.cache and no "
				       "program %s on $PATH", binary, stem, binary), -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		ks_fail(EXIT_RUNTIME, NULL, "%s: %s", path, strerror(errno));
	return fd;
}

int ks_uelf_offset(Elf *e, uint64_t v, uint32_t flag, uint64_t *off)
{
	size_t n, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & flag))
			continue;
		if (v >= ph.p_vaddr && v < ph.p_vaddr + ph.p_filesz) {
			*off = v - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

struct usym_match {
	uint64_t value;
	int type;
	int nr;			/* distinct addresses, default versions first */
	bool hidden;
};

/* @func in one symbol table: a name or name@VERSION of .symtab, a .dynsym name. */
static void scan_table(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, Elf_Data *versym,
		       const char *func, struct usym_match *m)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	size_t len = strlen(func);
	GElf_Versym vs;
	GElf_Sym s;
	const char *name;
	bool hidden;

	for (i = 0; d && i < n; i++) {
		int type;

		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || strncmp(name, func, len) || (name[len] && name[len] != '@'))
			continue;
		hidden = (name[len] == '@' && name[len + 1] != '@') ||
			 (versym && gelf_getversym(versym, (int)i, &vs) && (vs & VERSYM_HIDDEN));
		if (m->nr && (s.st_value == m->value || (hidden && !m->hidden)))
			continue;	/* an alias, or a hidden version of one we have */
		if (m->nr && m->hidden && !hidden)
			m->nr = 0;	/* the default version wins */
		m->nr++;
		m->value = s.st_value;
		m->type = type;
		m->hidden = hidden;
	}
}

void ks_uelf_tables(Elf *e, Elf_Scn **symtab, Elf_Scn **dynsym, Elf_Data **versym)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	*symtab = *dynsym = NULL;
	*versym = NULL;
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh)) {
			if (sh.sh_type == SHT_SYMTAB)
				*symtab = scn;
			else if (sh.sh_type == SHT_DYNSYM)
				*dynsym = scn;
			else if (sh.sh_type == SHT_GNU_versym)
				*versym = elf_getdata(scn, NULL);
		}
}

/* @func's table: .symtab if it has it, else .dynsym. */
static void find_func(Elf *e, const char *func, struct usym_match *m, bool *has_symtab)
{
	Elf_Scn *symtab, *dynsym;
	Elf_Data *versym;
	GElf_Shdr tsh;

	ks_uelf_tables(e, &symtab, &dynsym, &versym);
	*has_symtab = symtab;
	memset(m, 0, sizeof(*m));
	if (symtab && gelf_getshdr(symtab, &tsh))
		scan_table(e, symtab, &tsh, NULL, func, m);
	if (!m->nr && dynsym && gelf_getshdr(dynsym, &tsh))
		scan_table(e, dynsym, &tsh, versym, func, m);
}

Elf *ks_uelf_begin(int fd, const char *path)
{
	GElf_Ehdr eh;
	Elf *e;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		ks_fail(EXIT_RUNTIME, "BINARY is a program or a shared library (a "
			"script's interpreter is the program)", "%s: not an ELF file", path);
		goto fail;
	}
	if (!gelf_getehdr(e, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_machine != EM_X86_64 || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
		ks_fail(EXIT_RUNTIME, "kstats traces x86-64 programs and shared libraries",
			"%s: not an x86-64 executable or shared object", path);
		goto fail;
	}
	return e;
fail:
	if (e)
		elf_end(e);
	return NULL;
}

int ks_usym_offset(int fd, const char *path, const char *func, uint64_t *off)
{
	struct usym_match m;
	bool has_symtab;
	int rc = EXIT_RUNTIME;
	Elf *e = ks_uelf_begin(fd, path);

	if (!e)
		return rc;
	find_func(e, func, &m, &has_symtab);
	if (!m.nr) {
		ks_fail(rc, has_symtab ? "'nm -D --defined-only FILE' and 'nm FILE' list "
			"its functions" : "it has no .symtab (stripped): only exported "
			"functions can be found ('nm -D --defined-only FILE' lists them)",
			"%s: no function %s (searched %s)", path, func,
			has_symtab ? ".symtab and .dynsym" : ".dynsym");
		goto out;
	}
	if (m.nr > 1) {
		ks_fail(rc, "'nm -D FILE' lists them; kstats cannot choose between "
			"them yet", "%s: %s names %d different functions", path, func, m.nr);
		goto out;
	}
	if (m.type == STT_GNU_IFUNC) {
		char hint[512];

		snprintf(hint, sizeof(hint), "trace the implementation it picks (named "
			 "in the library's debug symbols, e.g. __%.200s_avx2)", func);
		ks_fail(rc, hint, "%s: %s is an IFUNC: its symbol is the resolver, "
			"which runs once", path, func);
		goto out;
	}
	if (ks_uelf_offset(e, m.value, PF_X, off)) {
		ks_fail(rc, NULL, "%s: %s (0x%llx) is in no executable segment", path,
			func, (unsigned long long)m.value);
		goto out;
	}
	rc = 0;
out:
	if (e)
		elf_end(e);
	return rc;
}

int ks_utarget_resolve(const char *target, long pid, struct ks_utarget *u)
{
	const char *colon = strrchr(target, ':'), *func, *base;
	char binary[4096];
	int rc;

	u->fd = -1;
	if (!colon || colon == target || !colon[1] ||
	    (size_t)(colon - target) >= sizeof(binary)) {
		ks_set_hint("e.g. /usr/bin/bash:readline, c:malloc");
		return ks_usage("'%s': a user-space function is BINARY:SYMBOL", target);
	}
	snprintf(binary, sizeof(binary), "%.*s", (int)(colon - target), target);
	func = colon + 1;
	u->fd = ks_usym_open(binary, pid, u->path, sizeof(u->path));
	if (u->fd < 0)
		return EXIT_RUNTIME;
	rc = ks_usym_offset(u->fd, u->path, func, &u->offset);
	if (rc) {
		close(u->fd);
		u->fd = -1;
		return rc;
	}
	base = strrchr(u->path, '/');
	/* Too long for a name: ks_name_valid() says so and asks for --name. */
	if (snprintf(u->label, sizeof(u->label), "%s:%s", u->path, func) >= (int)sizeof(u->label) ||
	    snprintf(u->name, sizeof(u->name), "%s:%s", base ? base + 1 : u->path, func) >=
	    (int)sizeof(u->name))
		u->name[KSTATS_NAME_LEN] = '\0';
	return 0;
}
