/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snapshot files (snapfile.c): reading and writing a set of metrics.
 * snapfile_io.h has the byte-order aware insides.
 */
#ifndef KSTATSCTL_SNAPFILE_H
#define KSTATSCTL_SNAPFILE_H

#include "model.h"

/* Why a file was not read: what is wrong with it, and what to do. */
struct ks_snap_why {
	char msg[160];
	const char *hint;
};
/* Reads a whole file; 0, or -1 with @why filled in. */
int ks_snapfile_parse(const void *buf, size_t len, struct ks_set *set,
		      struct ks_snap_why *why);
/* A snapshot file or an HdrHistogram log (by content); 0 or exit code. */
int ks_snapfile_read(const char *path, struct ks_set *set);
/* A whole file ('-': stdin) into *@buf (freed by the caller); 0 or exit code. */
int ks_file_read(const char *path, uint8_t **buf, size_t *len);
/* Writes @set; @swap writes the other byte order (tests). 0 or -1 (errno). */
int ks_snapfile_write(FILE *f, const struct ks_set *set, bool swap);
/*
 * Writes the length and checksum of the version-2 file in @buf, as the
 * writer does (and the fuzzer, to get past the checksum); leaves other
 * files as they are.
 */
void ks_snapfile_seal(void *buf, size_t len);

#endif /* KSTATSCTL_SNAPFILE_H */
