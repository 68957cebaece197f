// SPDX-License-Identifier: GPL-2.0
/*
 * A module whose init code is traced (tests/guest/trace-tests.sh): its init
 * waits until "go" is written to debugfs kstats_init_target/go, so that a
 * trace can attach to init_target_work(), an __init function; then it
 * calls that function "calls" times and returns. The module goes live and
 * its init code is freed: kstats must detach the trace first.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>

static unsigned int calls = 10;
module_param(calls, uint, 0444);
MODULE_PARM_DESC(calls, "calls of init_target_work() once released");

static DECLARE_COMPLETION(go);
static struct dentry *dir;

static ssize_t go_write(struct file *file, const char __user *buf, size_t len,
			loff_t *ppos)
{
	complete(&go);
	return len;
}

static const struct file_operations go_fops = {
	.owner = THIS_MODULE,
	.write = go_write,
};

static noinline __noclone int __init init_target_work(unsigned int i)
{
	asm volatile("" : "+r" (i));
	return i;
}

static int __init init_target_init(void)
{
	unsigned int i;
	int err;

	dir = debugfs_create_dir("kstats_init_target", NULL);
	debugfs_create_file("go", 0200, dir, NULL, &go_fops);
	err = wait_for_completion_killable(&go);
	if (err) {
		debugfs_remove(dir);
		return err;
	}
	for (i = 0; i < calls; i++)
		init_target_work(i);
	return 0;
}

static void __exit init_target_exit(void)
{
	debugfs_remove(dir);
}

module_init(init_target_init);
module_exit(init_target_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats test: a module whose init code is traced");
