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
 * Every op has its own policy (an op without one rejects every attribute),
 * every integer is bounded there, and every rejection names its attribute
 * in the extended ack.  parallel_ops: a long RUN never holds genl_mutex.
 */
#include "kbench_nl_gen.c"
#include "kbench_internal.h"

struct genl_family kbench_genl_family __ro_after_init = {
	.name = KBENCH_GENL_NAME,
	.version = KBENCH_GENL_VERSION,
	.netnsok = false,
	.parallel_ops = true,
	.module = THIS_MODULE,
#ifdef KBENCH_HAVE_GENL_SPLIT_OPS
	.split_ops = kbench_nl_ops,
	.n_split_ops = ARRAY_SIZE(kbench_nl_ops),
#else
	/* 6.1: a table of full ops (kbench_compat.h) */
	.ops = kbench_nl_ops,
	.n_ops = ARRAY_SIZE(kbench_nl_ops),
#endif
	.mcgrps = kbench_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(kbench_nl_mcgrps),
};
