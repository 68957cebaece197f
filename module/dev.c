// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/kstats: the misc device and its ioctl dispatch. Argument handling
 * common to every command lives here (sizes, directions, privilege); the
 * commands themselves are in commands.c. The rules are in the uapi header.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "commands.h"
#include "trace.h"

/* Privilege is the opener's (file->f_cred), not the caller's. */
bool kstats_file_privileged(struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_PERFMON) ||
	       file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
}

/* A name field: NUL-terminated, valid, and zero after the NUL. */
static int kstats_arg_terminated(const __u8 name[KSTATS_NAME_LEN])
{
	size_t len = strnlen((const char *)name, KSTATS_NAME_LEN), i;

	if (len == KSTATS_NAME_LEN)
		return -EINVAL;
	for (i = len; i < KSTATS_NAME_LEN; i++)
		if (name[i])
			return -EINVAL;
	return 0;
}

int kstats_arg_name(const __u8 name[KSTATS_NAME_LEN])
{
	return kstats_arg_terminated(name) ?: kstats_name_check((const char *)name);
}

/* A name to look up: also a key's metric, NAME{KEY=VALUE}. */
int kstats_arg_lookup_name(const __u8 name[KSTATS_NAME_LEN])
{
	return kstats_arg_terminated(name) ?: kstats_lookup_name_check((const char *)name);
}

bool kstats_arg_zero(const void *p, size_t len)
{
	return !memchr_inv(p, 0, len);
}

struct kstats_cmd {
	unsigned int ioc;	/* the command at the kernel's struct size */
	u16 ver0;		/* the smallest struct accepted */
	int (*run)(struct file *file, void *arg);
};

static const struct kstats_cmd kstats_cmds[] = {
	{ KSTATS_IOC_INFO, KSTATS_INFO_SIZE_VER0, kstats_cmd_info },
	{ KSTATS_IOC_CREATE, KSTATS_CREATE_SIZE_VER0, kstats_cmd_create },
	{ KSTATS_IOC_DELETE, KSTATS_DELETE_SIZE_VER0, kstats_cmd_delete },
	{ KSTATS_IOC_LIST, KSTATS_LIST_SIZE_VER0, kstats_cmd_list },
	{ KSTATS_IOC_CONTROL, KSTATS_CONTROL_SIZE_VER0, kstats_cmd_control },
	{ KSTATS_IOC_SNAPSHOT, KSTATS_SNAPSHOT_SIZE_VER0, kstats_cmd_snapshot },
	{ KSTATS_IOC_RECORD, KSTATS_RECORD_SIZE_VER0, kstats_cmd_record },
	{ KSTATS_IOC_TRACE, KSTATS_TRACE_SIZE_VER0, kstats_cmd_trace },
	{ KSTATS_IOC_UNTRACE, KSTATS_UNTRACE_SIZE_VER0, kstats_cmd_untrace },
	{ KSTATS_IOC_OUTLIERS, KSTATS_OUTLIERS_SIZE_VER0, kstats_cmd_outliers },
	{ KSTATS_IOC_ATTACH, KSTATS_ATTACH_SIZE_VER0, kstats_cmd_attach },
};

/* Everything in a command number but the size must match. */
#define KSTATS_IOC_SIZE_BITS	(_IOC_SIZEMASK << _IOC_SIZESHIFT)

/* Large enough for every command's struct; checked at build time. */
union kstats_arg {
	struct kstats_info info;
	struct kstats_create create;
	struct kstats_delete del;
	struct kstats_list list;
	struct kstats_control control;
	struct kstats_snapshot snapshot;
	struct kstats_record record;
	struct kstats_trace trace;
	struct kstats_untrace untrace;
	struct kstats_outliers outliers;
	struct kstats_attach attach;
};

static long kstats_ioctl(struct file *file, unsigned int ioc, unsigned long uarg)
{
	void __user *uptr = (void __user *)uarg;
	size_t usize = _IOC_SIZE(ioc);
	const struct kstats_cmd *cmd;
	union kstats_arg arg;
	size_t ksize;
	int ret;

	BUILD_BUG_ON(ARRAY_SIZE(kstats_cmds) != _IOC_NR(KSTATS_IOC_ATTACH) + 1);
	if (_IOC_NR(ioc) >= ARRAY_SIZE(kstats_cmds))
		return -ENOTTY;
	cmd = &kstats_cmds[_IOC_NR(ioc)];
	if ((ioc ^ cmd->ioc) & ~KSTATS_IOC_SIZE_BITS)
		return -ENOTTY;
	if (usize < cmd->ver0)
		return -EINVAL;
	ksize = _IOC_SIZE(cmd->ioc);

	memset(&arg, 0, sizeof(arg));
	if (_IOC_DIR(ioc) & _IOC_WRITE) {
		/* Zero-extends an older struct; -E2BIG for a newer non-zero tail. */
		ret = copy_struct_from_user(&arg, ksize, uptr, usize);
		if (ret)
			return ret;
	}
	ret = cmd->run(file, &arg);
	if ((_IOC_DIR(ioc) & _IOC_READ) && (!ret || ret == -ENOSPC)) {
		if (copy_to_user(uptr, &arg, min(usize, ksize)))
			return -EFAULT;
		if (usize > ksize && clear_user(uptr + ksize, usize - ksize))
			return -EFAULT;
	}
	return ret;
}

static int kstats_release(struct inode *inode, struct file *file)
{
	kstats_trace_file_closed(file);
	kstats_file_closed(file);
	return 0;
}

static const struct file_operations kstats_fops;

/* Whether @file is a /dev/kstats file: only those own metrics and traces. */
bool kstats_dev_file(struct file *file)
{
	return file->f_op == &kstats_fops;
}

static const struct file_operations kstats_fops = {
	.owner = THIS_MODULE,
	.release = kstats_release,
	.unlocked_ioctl = kstats_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice kstats_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "kstats",
	.fops = &kstats_fops,
	.mode = 0600,
};

int kstats_dev_init(void)
{
	/* On kstats_ioctl()'s stack: the largest argument (SNAPSHOT's, 264 bytes). */
	BUILD_BUG_ON(sizeof(union kstats_arg) > 272);
	return misc_register(&kstats_misc);
}

void kstats_dev_exit(void)
{
	misc_deregister(&kstats_misc);
}
