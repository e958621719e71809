// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the "kbench" generic netlink family.
 *
 * Its policies, op table and multicast groups are generated from
 * Documentation/netlink/specs/kbench.yaml into kbench_nl_gen.[ch] by the
 * kernel's ynl-gen-c (make gen); the handlers are in kbench_netlink.c.
 * ynl-gen-c writes struct genl_family itself only for plain genetlink
 * specs, and ours is genetlink-c (which keeps the uapi names), so the
 * family is written here.  The generated multicast group table is static:
 * this file includes the generated source instead of linking it.
 *
 * Every op has its own policy (an op without a request refuses every
 * attribute), every integer is bounded there, and every rejection names
 * its attribute in the extended ack.  parallel_ops: a long RUN never holds
 * genl_mutex.
 */
#include "kbench_nl_gen.c"
#include "kbench_internal.h"

/*
 * A split op without a policy is not validated at all: 6.2+ parse no
 * attributes for it and ignore any it gets (only a policy dump shows it
 * a reject-all policy), while 6.1 gives a full op without one a reject-all
 * policy (genl_op_fill_in_reject_policy).  So that every kernel refuses
 * attributes to an op the spec gives no request, the ops registered are
 * the generated ones with this policy where they have none.
 */
static const struct nla_policy kbench_reject_all_policy[2] = {
	[0] = { .type = NLA_REJECT },
	[1] = { .type = NLA_REJECT },
};

static struct genl_split_ops kbench_ops[ARRAY_SIZE(kbench_nl_ops)] __ro_after_init;

struct genl_family kbench_genl_family __ro_after_init = {
	.name = KBENCH_GENL_NAME,
	.version = KBENCH_GENL_VERSION,
	.netnsok = false,
	.parallel_ops = true,
	.module = THIS_MODULE,
#ifdef KBENCH_HAVE_GENL_SPLIT_OPS
	.split_ops = kbench_ops,
	.n_split_ops = ARRAY_SIZE(kbench_ops),
#else
	/* 6.1: a table of full ops (kbench_compat.h) */
	.ops = kbench_ops,
	.n_ops = ARRAY_SIZE(kbench_ops),
#endif
	.mcgrps = kbench_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(kbench_nl_mcgrps),
};

int kbench_netlink_init(void)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(kbench_ops); i++) {
		kbench_ops[i] = kbench_nl_ops[i];
		if (kbench_ops[i].policy)
			continue;
		kbench_ops[i].policy = kbench_reject_all_policy;
		kbench_ops[i].maxattr = ARRAY_SIZE(kbench_reject_all_policy) - 1;
	}
	err = netlink_register_notifier(&kbench_netlink_notifier);
	if (err)
		return err;
	err = genl_register_family(&kbench_genl_family);
	if (err)
		netlink_unregister_notifier(&kbench_netlink_notifier);
	return err;
}

void kbench_netlink_exit(void)
{
	genl_unregister_family(&kbench_genl_family);
	netlink_unregister_notifier(&kbench_netlink_notifier);
}
