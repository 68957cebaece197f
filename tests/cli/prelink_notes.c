// SPDX-License-Identifier: GPL-2.0
/*
 * prelink_notes FILE DELTA: makes FILE look prelinked for its USDT probes
 * (check_usym.py). prelink moves a program's allocated sections, and so
 * .stapsdt.base, but not its notes, which are not allocated: their
 * addresses stay the link-time ones. Debian no longer ships prelink, so
 * this does the same to a built fixture from the other side: every stapsdt
 * note's probe, base and semaphore address is lowered by DELTA, as if the
 * program had been linked DELTA lower and prelinked to where it is. A
 * reader that adds what .stapsdt.base moved finds the places the unpatched
 * file has; one that does not, finds them DELTA too low. Through libelf;
 * the file's layout is kept byte for byte but for the notes' addresses.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STAPSDT_NOTE_TYPE 3

static int lower(void *at, uint64_t delta)
{
	uint64_t v;

	memcpy(&v, at, 8);
	if (!v)
		return 0;	/* no semaphore */
	if (v < delta)
		return -1;
	v -= delta;
	memcpy(at, &v, 8);
	return 1;
}

static int patch(Elf *e, uint64_t delta)
{
	size_t shstrndx, at = 0, name_at, desc_at;
	Elf_Scn *scn = NULL;
	const char *name;
	int patched = 0;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	Elf_Data *d;

	if (elf_getshdrstrndx(e, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(e, scn))) {
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE &&
		    (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".note.stapsdt"))
			break;
	}
	if (!scn || !(d = elf_getdata(scn, NULL)))
		return -1;
	while ((at = gelf_getnote(d, at, &nh, &name_at, &desc_at)) > 0) {
		char *desc = (char *)d->d_buf + desc_at;

		if (nh.n_type != STAPSDT_NOTE_TYPE || nh.n_descsz < 24)
			continue;
		if (lower(desc, delta) < 0 || lower(desc + 8, delta) < 0 ||
		    lower(desc + 16, delta) < 0)
			return -1;
		patched++;
	}
	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	return patched;
}

int main(int argc, char **argv)
{
	uint64_t delta;
	int fd, n;
	Elf *e;

	if (argc != 3 || !(delta = strtoull(argv[2], NULL, 0))) {
		fprintf(stderr, "usage: prelink_notes FILE DELTA\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	fd = open(argv[1], O_RDWR);
	e = fd < 0 ? NULL : elf_begin(fd, ELF_C_RDWR, NULL);
	if (!e) {
		fprintf(stderr, "prelink_notes: %s: cannot open as ELF\n", argv[1]);
		return 1;
	}
	/* Keep every offset where it is: only the notes' bytes change. */
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	n = patch(e, delta);
	if (n <= 0 || elf_update(e, ELF_C_WRITE) < 0) {
		fprintf(stderr, "prelink_notes: %s: %s\n", argv[1],
			n <= 0 ? "no stapsdt note to move" : elf_errmsg(-1));
		return 1;
	}
	elf_end(e);
	close(fd);
	printf("%d notes\n", n);
	return 0;
}
