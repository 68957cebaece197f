// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroups v2 (trace --cgroup, --by cgroup): the hierarchy's mount where
 * kstatsctl runs, and a cgroup's id <-> its path. An id is the inode number
 * of the cgroup's directory (the kernel's cgroup_id()), unique within a
 * boot: a set read from a file of another boot keeps its ids as numbers.
 */
#define _GNU_SOURCE	/* nftw()'s FTW_ACTIONRETVAL */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "kstatsctl.h"
#include "keys.h"

#define CGROUP_DEFAULT_MOUNT	"/sys/fs/cgroup"

static char mount_point[4096];
static bool mount_looked, foreign_boot;

static struct cgroup_dir {
	uint64_t id;
	char *path;		/* from the mount: "/" is the root */
} *dirs;
static size_t nr_dirs;
static bool walked;

static bool is_cgroup2(const char *path)
{
	struct statfs s;

	return !statfs(path, &s) && s.f_type == CGROUP2_SUPER_MAGIC;
}

/* mountinfo's octal escapes (\040 for a space) undone in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* The first cgroup2 mount in /proc/self/mountinfo, or /sys/fs/cgroup; NULL: none. */
const char *ks_cgroup_mount(void)
{
	char line[8192], *dash, *f[5], *save = NULL;
	FILE *mi;
	int i;

	if (mount_looked)
		return mount_point[0] ? mount_point : NULL;
	mount_looked = true;
	mi = fopen("/proc/self/mountinfo", "re");
	while (mi && fgets(line, sizeof(line), mi)) {
		dash = strstr(line, " - cgroup2 ");
		if (!dash)
			continue;
		*dash = '\0';
		for (i = 0; i < 5; i++)
			f[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!f[4])
			continue;
		unescape(f[4]);
		snprintf(mount_point, sizeof(mount_point), "%s", f[4]);
		break;
	}
	if (mi)
		fclose(mi);
	if (!mount_point[0] && is_cgroup2(CGROUP_DEFAULT_MOUNT))
		snprintf(mount_point, sizeof(mount_point), "%s", CGROUP_DEFAULT_MOUNT);
	return mount_point[0] ? mount_point : NULL;
}

void ks_cgroup_source(const char *boot_id)
{
	char here[64];

	ks_read_boot_id(here, sizeof(here));
	if (!boot_id[0] || strcmp(boot_id, here))
		foreign_boot = true;
}

static int add_dir(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t skip = strlen(mount_point);

	(void)ftw;
	if (type != FTW_D)
		return FTW_CONTINUE;
	dirs = xrealloc(dirs, nr_dirs + 1, sizeof(*dirs));
	dirs[nr_dirs].id = (uint64_t)st->st_ino;
	dirs[nr_dirs].path = xstrdup(path[skip] ? path + skip : "/");
	nr_dirs++;
	return FTW_CONTINUE;
}

const char *ks_cgroup_path(uint64_t id)
{
	size_t i;

	if (foreign_boot || !ks_cgroup_mount())
		return NULL;
	if (!walked) {
		walked = true;
		nftw(mount_point, add_dir, 16, FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL);
	}
	for (i = 0; i < nr_dirs; i++)
		if (dirs[i].id == id)
			return dirs[i].path;
	return NULL;
}

/* @path within the mount ("/a/b", or "a/b"), as a directory there. */
static int in_mount(const char *path, char *out, size_t len)
{
	const char *mnt = ks_cgroup_mount();

	if (!mnt)
		return -1;
	if ((size_t)snprintf(out, len, "%s%s%s", mnt, path[0] == '/' ? "" : "/", path) >= len)
		return -1;
	return is_cgroup2(out) ? 0 : -1;
}

int ks_cgroup_id(const char *path, uint64_t *id)
{
	char full[4096];
	struct stat st;

	if (in_mount(path, full, sizeof(full)) || stat(full, &st) || !S_ISDIR(st.st_mode))
		return -1;
	*id = (uint64_t)st.st_ino;
	return 0;
}

int ks_cgroup_open(const char *path)
{
	char full[4096];
	struct stat st;
	int fd;

	/* A cgroup2 directory as given; else one below the mount. */
	if (is_cgroup2(path) && !stat(path, &st) && S_ISDIR(st.st_mode))
		snprintf(full, sizeof(full), "%s", path);
	else if (in_mount(path, full, sizeof(full)) || stat(full, &st) || !S_ISDIR(st.st_mode)) {
		ks_fail(EXIT_RUNTIME, ks_cgroup_mount() ?
			       "a directory of the cgroup v2 hierarchy: its path "
			       "(/sys/fs/cgroup/system.slice), or one below its mount "
			       "(system.slice)" : "no cgroup v2 hierarchy is mounted "
			       "(mount -t cgroup2 none /sys/fs/cgroup)",
			       access(path, F_OK) ? "--cgroup: no cgroup %s" :
			       "--cgroup: %s is not a cgroup v2 directory", path);
		return -1;
	}
	fd = open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		ks_fail(EXIT_RUNTIME, NULL, "--cgroup: %s: %s", full, strerror(errno));
	return fd;
}
