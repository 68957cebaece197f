/* SPDX-License-Identifier: GPL-2.0 */
/* trace BINARY:FUNC: user-space functions (elf_sym.c). */
#ifndef KSTATSCTL_USYM_H
#define KSTATSCTL_USYM_H

#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether BINARY (of BINARY:FUNC) is a file: a path, or not a loaded kernel module. */
bool ks_usym_is_user(const char *binary);
/* Whether trace's FUNC is a user-space function: @asked (--mechanism uprobe), or BINARY:FUNC. */
bool ks_usym_wanted(const char *func, bool asked);
/*
 * BINARY opened for reading, its path in @path: as given with a '/'; a
 * library name (c, libssl) through process @pid's mappings, else
 * /etc/ld.so.cache; else a program on $PATH. The fd, or -1 (error printed).
 */
int ks_usym_open(const char *binary, long pid, char *path, size_t size);
/*
 * Each file mapping of process @pid, in /proc/PID/maps order: @fn(start,
 * end, file offset, path) until it returns nonzero. That value, 0 at the
 * end, or -2 when the process is gone.
 */
int ks_maps_each(long pid, int (*fn)(uint64_t start, uint64_t end, uint64_t off,
				      const char *path, void *arg), void *arg);
/* FUNC's file offset in the ELF file @fd: 0, or an exit code (error printed). */
int ks_usym_offset(int fd, const char *path, const char *func, uint64_t *off);

/* @fd's ELF, checked to be an x86-64 program or library (libelf's Elf), or NULL (error printed). */
struct Elf *ks_uelf_begin(int fd, const char *path);
/* @e's .symtab, .dynsym and GNU version table (versym's data), each or NULL. */
void ks_uelf_tables(Elf *e, Elf_Scn **symtab, Elf_Scn **dynsym, Elf_Data **versym);
/* Address @v's file offset, through the PT_LOAD with p_flags @flag (PF_X, PF_W) holding it: 0 or -1. */
int ks_uelf_offset(struct Elf *e, uint64_t v, uint32_t flag, uint64_t *off);

/* A user-space function to trace: its file, open, and where in it. */
struct ks_utarget {
	int fd;				/* -1: none */
	uint64_t offset;
	char path[4096];
	char label[4096 + 256];		/* PATH:FUNC, the trace's target */
	char name[4096];		/* the default metric name: FILE:FUNC */
};
/*
* BINARY:SYMBOL in @target (the last ':' splits them), opened and resolved
 * into @u. 0, or an exit code (error printed; @u->fd closed).
 */
int ks_utarget_resolve(const char *target, long pid, struct ks_utarget *u);

/* A function 'BINARY:GLOB' matched (usym_glob.c): where, or why not. */
struct ks_usym {
	char *name;			/* malloc'ed */
	uint64_t offset;		/* its file offset */
	const char *why;		/* NULL, or why it cannot be traced */
};
/*
 * The functions of the ELF file @fd (@path) whose names match @glob, in
 * symbol table order, into *@out (@nr of them; each name freed by the
 * caller, then *@out): 0, or an exit code (error printed).
 */
int ks_usym_glob(int fd, const char *path, const char *glob, struct ks_usym **out,
		 size_t *nr);

#endif /* KSTATSCTL_USYM_H */
