// SPDX-License-Identifier: GPL-2.0
/* kstats.ko: load and unload, and cleanup after modules that forget to. */
#include <linux/module.h>
#include <linux/notifier.h>

#include "metric.h"
#include "trace.h"
#include "version.h"

/*
 * A module goes away: traces of its functions detach, and its metrics are
 * deleted if it did not delete them itself. A module whose init is done
 * is about to free its init code: traces of that detach.
 */
static int kstats_module_notify(struct notifier_block *nb, unsigned long state,
				void *data)
{
	if (state == MODULE_STATE_LIVE) {
		kstats_trace_module_text_gone(data, true);
	} else if (state == MODULE_STATE_GOING) {
		kstats_trace_module_text_gone(data, false);
		kstats_delete_owned_by(data);
	}
	return NOTIFY_OK;
}

static struct notifier_block kstats_module_nb = {
	.notifier_call = kstats_module_notify,
};

static int __init kstats_init(void)
{
	int err;

	err = kstats_debugfs_init();
	if (err)
		return err;
	err = register_module_notifier(&kstats_module_nb);
	if (err)
		goto fail_notifier;
	err = kstats_dev_init();
	if (err)
		goto fail_dev;
	pr_info("kstats: version %s loaded\n", KSTATS_VERSION);
	return 0;

fail_dev:
	unregister_module_notifier(&kstats_module_nb);
fail_notifier:
	kstats_debugfs_exit();
	return err;
}

static void __exit kstats_exit(void)
{
	/* No file is open (each holds a module reference): no ioctl runs. */
	kstats_dev_exit();
	kstats_trace_exit();
	unregister_module_notifier(&kstats_module_nb);
	/* Only metrics created from user space can remain: modules hold us. */
	kstats_delete_all();
	kstats_debugfs_exit();
}

module_init(kstats_init);
module_exit(kstats_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("The kstats authors");
MODULE_DESCRIPTION("Per-CPU log-linear histograms of kernel timings");
MODULE_VERSION(KSTATS_VERSION);
