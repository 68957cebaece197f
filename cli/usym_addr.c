// SPDX-License-Identifier: GPL-2.0
/*
 * A user address named, for the outliers of user-space functions: the
 * file that process PID maps there (/proc/PID/maps), the address's place
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
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "outliers.h"
#include "usym.h"

/* The file mapped at @addr in @pid, and @addr's offset in it: 0, or -1. */
static int mapped_file(long pid, uint64_t addr, char *path, size_t size, uint64_t *off)
{
	char maps[64], line[4096 + 128], file[4096];
	uint64_t start, end, moff;
	int rc = -1;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%ld/maps", pid);
	f = fopen(maps, "re");
	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f)) {
		file[0] = '\0';
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %4095[^\n]",
			   &start, &end, &moff, file) == 4 && file[0] == '/' &&
		    addr >= start && addr < end) {
			snprintf(path, size, "%s", file);
			*off = addr - start + moff;
			rc = 0;
		}
	}
	fclose(f);
	return rc;
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

char *ks_uaddr_name(char *buf, size_t len, long pid, uint64_t addr)
{
	Elf_Scn *symtab, *dynsym;
	const char *name = NULL, *base;
	char path[4096];
	Elf_Data *versym;
	uint64_t off, v, at = 0;
	Elf *e;
	int fd;

	if (pid <= 0 || mapped_file(pid, addr, path, sizeof(path), &off))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && !file_vaddr(e, off, &v)) {
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
