// SPDX-License-Identifier: GPL-2.0
/* A careless consumer: creates a metric and never deletes it. */
#include <linux/err.h>
#include <linux/kstats.h>
#include <linux/module.h>

static int __init forget_init(void)
{
	struct kstats *ks = kstats_new("selftest.forgotten", 2);

	if (IS_ERR(ks))
		return PTR_ERR(ks);
	kstats_record(ks, 42);
	return 0;
}

/* An exit function, so the module can be unloaded, that forgets. */
static void __exit forget_exit(void)
{
}

module_init(forget_init);
module_exit(forget_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats test: a module that forgets kstats_delete()");
MODULE_IMPORT_NS_KSTATS();
