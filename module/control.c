// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs kstats/_control: the 2020 kstats patch's command line, kept for
 * its users as a thin text layer over TRACE and UNTRACE, with their checks
 * (privilege of the opener, lockdown, every refusal and its errno):
 *
 *   echo "trace S [bits B] [start X] [end Y]" > _control
 *   echo "remove S" > _control
 *   cat _control		(the traces, one name per line)
 *
 * trace S times function S (metrics S and GAP-S); with start X, function X
 * under the name S; with end Y, the section from X (default S) to Y, per
 * task. __tracepoint_T as X and Y is the tracepoint T. bits is frac_bits
 * (default 3).
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "commands.h"
#include "trace.h"

#define KSTATS_CONTROL_MAX	(3 * KSTATS_SYM_MAX)

/*
 * "__tracepoint_T" is the tracepoint "tp:T" (kmalloc'ed into *@copy); any
 * other symbol, or none, is itself. -ENOMEM if the copy fails.
 */
static int kstats_control_symbol(const char **s, char **copy)
{
	if (!*s || !str_has_prefix(*s, "__tracepoint_"))
		return 0;
	*copy = kasprintf(GFP_KERNEL, "tp:%s", *s + strlen("__tracepoint_"));
	*s = *copy;
	return *copy ? 0 : -ENOMEM;
}

/* The next word of @s (words are separated by blanks), or NULL. */
static char *kstats_control_word(char **s)
{
	char *w;

	*s = skip_spaces(*s);
	if (!**s)
		return NULL;
	w = *s;
	while (**s && !isspace(**s))
		(*s)++;
	if (**s)
		*(*s)++ = '\0';
	return w;
}

/* "S [bits B] [start X] [end Y]" into @req and the symbols to trace. */
static int kstats_control_parse(char *args, struct kstats_trace *req,
				const char **start, const char **end)
{
	char *name = kstats_control_word(&args), *key, *val;

	if (!name || strlen(name) >= KSTATS_NAME_LEN || kstats_name_check(name))
		return -EINVAL;
	strscpy((char *)req->name, name, sizeof(req->name));
	req->frac_bits = 3;
	*start = *end = NULL;
	while ((key = kstats_control_word(&args))) {
		val = kstats_control_word(&args);
		if (!val)
			return -EINVAL;
		if (!strcmp(key, "bits")) {
			if (kstrtou32(val, 10, &req->frac_bits) ||
			    req->frac_bits > KSTATS_FRAC_BITS_MAX)
				return -EINVAL;
		} else if (!strcmp(key, "start") && !*start) {
			*start = val;
		} else if (!strcmp(key, "end") && !*end) {
			*end = val;
		} else {
			return -EINVAL;
		}
	}
	if (!*start)
		*start = name;
	return 0;
}

static int kstats_control_trace(struct file *file, char *args)
{
	char *tp_start = NULL, *tp_end = NULL;
	const char *start, *end, *func = NULL;
	struct kstats_trace req = { };
	unsigned long *cpus = NULL;
	int err;

	err = kstats_control_parse(args, &req, &start, &end);
	if (err)
		return err;
	err = kstats_control_symbol(&start, &tp_start) ?:
	      kstats_control_symbol(&end, &tp_end);
	if (err)
		goto out;
	err = -EINVAL;
	if (!end) {
		func = start;	/* a function: a tracepoint alone times nothing */
		start = NULL;
		if (str_has_prefix(func, "tp:"))
			goto out;
	}
	if (strlen(func ?: start) >= KSTATS_SYM_MAX || (end && strlen(end) >= KSTATS_SYM_MAX))
		goto out;
	err = -EPERM;
	if (!kstats_file_privileged(file))
		goto out;
	err = -ENOMEM;
	cpus = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	/*
	 * Owned by no file: a creator may RECORD into its trace unprivileged,
	 * and only /dev/kstats files tell kstats when they close.
	 */
	if (cpus)
		err = kstats_trace_start(NULL, &req, func, start, end, cpus, NULL, NULL);
out:
	bitmap_free(cpus);
	kfree(tp_start);
	kfree(tp_end);
	return err;
}

static ssize_t kstats_control_write(struct file *file, const char __user *ubuf,
				    size_t len, loff_t *ppos)
{
	char *buf, *line, *cmd, *name;
	int err;

	if (!len || len > KSTATS_CONTROL_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	line = buf;
	cmd = kstats_control_word(&line);
	name = cmd && !strcmp(cmd, "remove") ? kstats_control_word(&line) : NULL;
	if (cmd && !strcmp(cmd, "trace"))
		err = kstats_control_trace(file, line);
	else if (name && !kstats_control_word(&line) && !kstats_name_check(name))
		err = kstats_file_privileged(file) ? kstats_trace_stop(file, name) : -EPERM;
	else
		err = -EINVAL;
	kfree(buf);
	return err ?: len;
}

static int kstats_control_show(struct seq_file *sf, void *unused)
{
	return kstats_trace_names(sf);
}

static int kstats_control_open(struct inode *inode, struct file *file)
{
	return single_open(file, kstats_control_show, NULL);
}

static const struct file_operations kstats_control_fops = {
	.owner = THIS_MODULE,
	.open = kstats_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = kstats_control_write,
};

void kstats_control_init(struct dentry *dir)
{
	debugfs_create_file(KSTATS_CONTROL_NAME, 0600, dir, NULL, &kstats_control_fops);
}
