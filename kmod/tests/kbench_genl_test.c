// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_genl_test: a module that registers a generic netlink family at
 * load and unregisters it at unload, and nothing else (built only for the
 * test bed: KBENCH_TEST_MODULES=m).  Registering takes genetlink's cb_lock
 * for writing, which every request holds for reading while its handler
 * runs: tests/selftests/kbench_hazard_test.sh times insmod and rmmod of
 * this module while a long RUN is in flight, to show that no kbench
 * request holds the lock across a run.
 */
#include <linux/module.h>
#include <net/genetlink.h>

static int kbgt_noop_doit(struct sk_buff *skb, struct genl_info *info)
{
	return 0;
}

static const struct genl_small_ops kbgt_ops[] = {
	{
		.cmd = 1,
		.validate = GENL_DONT_VALIDATE_STRICT | GENL_DONT_VALIDATE_DUMP,
		.doit = kbgt_noop_doit,
	},
};

static struct genl_family kbgt_family __ro_after_init = {
	.name = "kbench_gtest",
	.version = 1,
	.module = THIS_MODULE,
	.small_ops = kbgt_ops,
	.n_small_ops = ARRAY_SIZE(kbgt_ops),
	.resv_start_op = 2,
};

static int __init kbgt_init(void)
{
	return genl_register_family(&kbgt_family);
}

static void __exit kbgt_exit(void)
{
	genl_unregister_family(&kbgt_family);
}

module_init(kbgt_init);
module_exit(kbgt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench test bed: registers a generic netlink family");
