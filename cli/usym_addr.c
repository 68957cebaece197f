// SPDX-License-Identifier: GPL-2.0
/*
 * A user address named, for the outliers of user-space functions: the
 * file that process PID maps there (/proc/PID/maps, ks_maps_each()), opened
 * through /proc/PID/root as elf_sym.c opens a process's libraries, the
 * address's place
 * in it (its PT_LOAD), and the function symbol of .symtab, else .dynsym,
 * that holds it (libelf): "func+0xoff [file]", as a kernel frame reads
 * "func+0xoff [module]". Quiet: an address it cannot name is for the
 * caller to print otherwise (the process gone, an anonymous mapping, a
 * stripped file).
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "outliers.h"
#include "usym.h"
#include "libs_dl.h"

struct addr_find {
	uint64_t addr, off;
	char *path;
	size_t size;
};

static int addr_match(uint64_t start, uint64_t end, uint64_t off, const char *file, void *arg)
{
	struct addr_find *a = arg;

	if (a->addr < start || a->addr >= end)
		return 0;
	snprintf(a->path, a->size, "%s", file);
	a->off = a->addr - start + off;
	return 1;
}

/* File offset @off's address in @e, through the PT_LOAD holding it: 0, or -1. */
static int file_vaddr(Elf *e, uint64_t off, uint64_t *v)
{
	size_t n, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(e, &n))
		return -1;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    off >= ph.p_offset && off < ph.p_offset + ph.p_filesz) {
			*v = off - ph.p_offset + ph.p_vaddr;
			return 0;
		}
	return -1;
}

/* The function of table @scn holding @v: its name and start, or NULL. */
static const char *holder(Elf *e, Elf_Scn *scn, uint64_t v, uint64_t *at)
{
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	size_t i, n;
	GElf_Shdr sh;
	GElf_Sym s;

	if (!d || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return NULL;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++)
		if (gelf_getsym(d, (int)i, &s) && GELF_ST_TYPE(s.st_info) == STT_FUNC &&
		    s.st_shndx != SHN_UNDEF && v >= s.st_value && v < s.st_value + s.st_size) {
			*at = s.st_value;
			return elf_strptr(e, sh.sh_link, s.st_name);
		}
	return NULL;
}

/*
 * Names already found (or not), by process and address: a stack's frames
 * recur in every outlier of a path, and each naming reads the process's
 * maps and the file's symbols.
 */
#define NAMED_SLOTS	1024
static struct named {
	long pid;
	uint64_t addr;
	char *name;		/* NULL: not nameable */
} named[NAMED_SLOTS];

static char *name_uncached(char *buf, size_t len, long pid, uint64_t addr);

char *ks_uaddr_name(char *buf, size_t len, long pid, uint64_t addr)
{
	struct named *n = &named[(addr ^ (uint64_t)pid * 0x9e3779b97f4a7c15ULL) % NAMED_SLOTS];
	char *s;

	if (n->pid == pid && n->addr == addr && pid > 0) {
		if (!n->name)
			return NULL;
		snprintf(buf, len, "%s", n->name);
		return buf;
	}
	s = name_uncached(buf, len, pid, addr);
	free(n->name);
	n->pid = pid;
	n->addr = addr;
	n->name = s ? xstrdup(s) : NULL;
	return s;
}

static char *name_uncached(char *buf, size_t len, long pid, uint64_t addr)
{
	Elf_Scn *symtab, *dynsym;
	const char *name = NULL, *base;
	char path[4096], root[4200];
	struct addr_find a = { addr, 0, path, sizeof(path) };
	Elf_Data *versym;
	uint64_t v, at = 0;
	Elf *e;
	int fd;

	if (pid <= 0 || ks_maps_each(pid, addr_match, &a) != 1)
		return NULL;
	/* Its own file, as the process sees it (another mount namespace too). */
	snprintf(root, sizeof(root), "/proc/%ld/root%s", pid, path);
	fd = open(root, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && !file_vaddr(e, a.off, &v)) {
		ks_uelf_tables(e, &symtab, &dynsym, &versym);
		name = holder(e, symtab, v, &at);
		if (!name)
			name = holder(e, dynsym, v, &at);
	}
	if (name) {
		base = strrchr(path, '/');
		snprintf(buf, len, "%s+0x%" PRIx64 " [%s]", name, v - at, base + 1);
	}
	elf_end(e);
	close(fd);
	return name ? buf : NULL;
}
