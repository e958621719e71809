// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_genl_test: a module that registers a generic netlink family at
 * load and unregisters it at unload, and nothing else (built only for the
 * test bed: KBENCH_TEST_MODULES=m).  Registering takes genetlink's cb_lock
 * for writing, which every request holds for reading while its handler
 * runs: tests/selftests/kbench_hazard_test.sh times insmod and rmmod of
 * this module while a long RUN is in flight, to show that no kbench
 * request holds the lock across a run.
 *
 * Loaded with notifier=1 it also registers a netlink notifier (as
 * nl80211 or nfnetlink_queue do), which takes the write side of netlink's
 * notifier chain: tests/ynl/races_test.py loads it so while a closed
 * requester's runs end, to show that their wait does not hold the chain.
 */
#include <linux/module.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

static bool kbgt_notifier;
module_param_named(notifier, kbgt_notifier, bool, 0444);
MODULE_PARM_DESC(notifier, "also register a netlink notifier");

static int kbgt_notify(struct notifier_block *nb, unsigned long state,
		       void *ptr)
{
	return NOTIFY_DONE;
}

static struct notifier_block kbgt_nb = {
	.notifier_call = kbgt_notify,
};

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
	int err;

	if (kbgt_notifier) {
		err = netlink_register_notifier(&kbgt_nb);
		if (err)
			return err;
	}
	err = genl_register_family(&kbgt_family);
	if (err && kbgt_notifier)
		netlink_unregister_notifier(&kbgt_nb);
	return err;
}

static void __exit kbgt_exit(void)
{
	genl_unregister_family(&kbgt_family);
	if (kbgt_notifier)
		netlink_unregister_notifier(&kbgt_nb);
}

module_init(kbgt_init);
module_exit(kbgt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench test bed: registers a generic netlink family");
