// SPDX-License-Identifier: GPL-2.0
/*
 * One function reached by three call paths, for keys by stack and flame
 * graphs: ktarget_path_a -> ktarget_leaf, ktarget_path_b -> ktarget_mid ->
 * ktarget_leaf, ktarget_path_c -> ktarget_mid -> ktarget_leaf. "paths A B
 * C" takes each path that many times; "paths_calls" reads each path's
 * calls of ktarget_leaf since load. Every call goes through a pointer read
 * once (no inlining, no clone with another name) and is followed by more
 * work (no tail call), so each caller is on the stack.
 */
#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>

#include "ktarget_paths.h"

static u32 paths_calls[3];
static struct debugfs_u32_array paths_array = { paths_calls, ARRAY_SIZE(paths_calls) };
static int paths_sink;

static noinline int ktarget_leaf(int path)
{
	WRITE_ONCE(paths_calls[path], paths_calls[path] + 1);
	barrier();
	return path;
}

static int (*leaf_fn)(int) = ktarget_leaf;

static noinline int ktarget_mid(int path)
{
	int r = READ_ONCE(leaf_fn)(path);

	barrier();
	return r + 1;
}

static int (*mid_fn)(int) = ktarget_mid;

static noinline int ktarget_path_a(void)
{
	int r = READ_ONCE(leaf_fn)(0);

	barrier();
	return r + 1;
}

static noinline int ktarget_path_b(void)
{
	int r = READ_ONCE(mid_fn)(1);

	barrier();
	return r + 1;
}

static noinline int ktarget_path_c(void)
{
	int r = READ_ONCE(mid_fn)(2);

	barrier();
	return r + 1;
}

static int (*path_fn[3])(void) = { ktarget_path_a, ktarget_path_b, ktarget_path_c };

int kpaths_run(unsigned int a, unsigned int b, unsigned int c, u64 *calls)
{
	const unsigned int times[3] = { a, b, c };
	unsigned int p, i;
	int (*fn)(void);
	int sum = 0;

	for (p = 0; p < 3; p++) {
		fn = READ_ONCE(path_fn[p]);
		for (i = 0; i < times[p]; i++)
			sum += fn();
	}
	WRITE_ONCE(paths_sink, sum);
	*calls = (u64)a + b + c;
	return 0;
}

void kpaths_init(struct dentry *dir)
{
	debugfs_create_u32_array("paths_calls", 0400, dir, &paths_array);
}
