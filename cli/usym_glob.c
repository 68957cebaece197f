// SPDX-License-Identifier: GPL-2.0
/*
 * trace 'BINARY:GLOB': the functions of a program or library whose names
 * match a shell pattern, from its .symtab (else, stripped, its .dynsym)
 * through libelf, each with its file offset, or why it cannot be traced
 * as a function: an IFUNC (its symbol is the resolver), a name held by
 * several functions, an address in no executable segment. Versioned names
 * (name@VERSION) count as their name; a hidden version yields to the
 * default one, as trace BINARY:SYMBOL resolves them (elf_sym.c).
 */
#include <fnmatch.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "usym.h"
#include "libs_dl.h"

#define VERSYM_HIDDEN	0x8000	/* not in glibc's elf.h */

struct found {
	char *name;
	uint64_t value;
	int type, nr;
	bool hidden;
};

static struct found *lookup(struct found *v, size_t nr, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (strlen(v[i].name) == len && !strncmp(v[i].name, name, len))
			return &v[i];
	return NULL;
}

static void scan(Elf *e, Elf_Scn *scn, Elf_Data *versym, const char *glob,
		 struct found **v, size_t *nr)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	char base[512];
	struct found *f;
	GElf_Versym vs;
	GElf_Shdr sh;
	const char *name;
	size_t i, n, len;
	GElf_Sym s;
	bool hidden;
	int type;

	if (!d || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n; i++) {
		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF || !s.st_value)
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		if (!name)
			continue;
		len = strcspn(name, "@");
		if (!len || len >= sizeof(base))
			continue;
		snprintf(base, sizeof(base), "%.*s", (int)len, name);
		if (fnmatch(glob, base, 0))
			continue;
		hidden = (name[len] == '@' && name[len + 1] != '@') ||
			 (versym && gelf_getversym(versym, (int)i, &vs) && (vs & VERSYM_HIDDEN));
		f = lookup(*v, *nr, name, len);
		if (!f) {
			*v = xrealloc(*v, *nr + 1, sizeof(**v));
			f = &(*v)[(*nr)++];
			memset(f, 0, sizeof(*f));
			f->name = xstrdup(base);
		} else if (s.st_value == f->value || (hidden && !f->hidden)) {
			continue;	/* an alias, or a hidden version of one we have */
		} else if (f->hidden && !hidden) {
			f->nr = 0;	/* the default version wins */
		}
		f->nr++;
		f->value = s.st_value;
		f->type = type;
		f->hidden = hidden;
	}
}

int ks_usym_glob(int fd, const char *path, const char *glob, struct ks_usym **out,
		 size_t *nr)
{
	Elf_Scn *symtab, *dynsym;
	struct found *v = NULL;
	Elf_Data *versym;
	struct ks_usym *u;
	size_t n = 0, i;
	Elf *e = ks_uelf_begin(fd, path);

	*out = NULL;
	*nr = 0;
	if (!e)
		return EXIT_RUNTIME;
	ks_uelf_tables(e, &symtab, &dynsym, &versym);
	if (symtab)
		scan(e, symtab, NULL, glob, &v, &n);
	else if (dynsym)
		scan(e, dynsym, versym, glob, &v, &n);
	u = xcalloc(n ? n : 1, sizeof(*u));
	for (i = 0; i < n; i++) {
		u[i].name = v[i].name;
		if (v[i].nr > 1)
			u[i].why = "several functions have this name";
		else if (v[i].type == STT_GNU_IFUNC)
			u[i].why = "an IFUNC: its symbol is the resolver, which runs once";
		else if (ks_uelf_offset(e, v[i].value, PF_X, &u[i].offset))
			u[i].why = "in no executable segment";
	}
	free(v);
	elf_end(e);
	*out = u;
	*nr = n;
	return 0;
}
