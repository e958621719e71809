/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/kbench.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_KBENCH_GEN_H
#define _LINUX_KBENCH_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/kbench.h>
#include <kbench_compat.h>

#define KBENCH_SAMPLES_LIMIT	1000000
#define KBENCH_ITERATIONS_LIMIT	16777216
#define KBENCH_WARMUP_LIMIT	10000
#define KBENCH_TARGET_NS_MIN	100
#define KBENCH_TARGET_NS_MAX	20000000
#define KBENCH_WINDOW_US_MAX	20000

/* Ops table for kbench */
extern const struct genl_split_ops kbench_nl_ops[6];

int kbench_nl_clock_start(struct netlink_callback *cb);
int kbench_nl_samples_start(struct netlink_callback *cb);
int kbench_nl_run_get_start(struct netlink_callback *cb);
int kbench_nl_samples_done(struct netlink_callback *cb);
int kbench_nl_run_get_done(struct netlink_callback *cb);

int kbench_nl_info_doit(struct sk_buff *skb, struct genl_info *info);
int kbench_nl_routine_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int kbench_nl_clock_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int kbench_nl_run_doit(struct sk_buff *skb, struct genl_info *info);
int kbench_nl_samples_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int kbench_nl_run_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

enum {
	KBENCH_NLGRP_PROGRESS,
};

#endif /* _LINUX_KBENCH_GEN_H */
