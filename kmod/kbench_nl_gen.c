// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/kbench.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "kbench_nl_gen.h"

#include <uapi/linux/kbench.h>
#include <kbench_compat.h>

/* Integer value ranges */
static const struct netlink_range_validation kbench_a_run_samples_range = {
	.min	= 1ULL,
	.max	= KBENCH_SAMPLES_LIMIT,
};

static const struct netlink_range_validation kbench_a_run_iterations_range = {
	.min	= 1ULL,
	.max	= KBENCH_ITERATIONS_LIMIT,
};

static const struct netlink_range_validation kbench_a_run_target_ns_range = {
	.min	= KBENCH_TARGET_NS_MIN,
	.max	= KBENCH_TARGET_NS_MAX,
};

static const struct netlink_range_validation kbench_a_run_skew_ns_range = {
	.max	= KBENCH_TARGET_NS_MAX,
};

/* KBENCH_CMD_RUN - do */
static const struct nla_policy kbench_run_nl_policy[KBENCH_A_RUN_NOTIFY + 1] = {
	[KBENCH_A_RUN_ROUTINE] = { .type = NLA_STRING, .len = KBENCH_NAME_MAX, },
	[KBENCH_A_RUN_CPU] = NLA_POLICY_MAX(NLA_U32, KBENCH_CPU_MAX),
	[KBENCH_A_RUN_SAMPLES] = NLA_POLICY_FULL_RANGE(NLA_U32, &kbench_a_run_samples_range),
	[KBENCH_A_RUN_ITERATIONS] = NLA_POLICY_FULL_RANGE(NLA_U32, &kbench_a_run_iterations_range),
	[KBENCH_A_RUN_TARGET_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &kbench_a_run_target_ns_range),
	[KBENCH_A_RUN_WARMUP] = NLA_POLICY_MAX(NLA_U32, KBENCH_WARMUP_LIMIT),
	[KBENCH_A_RUN_EVENT] = { .type = NLA_STRING, .len = KBENCH_NAME_MAX, },
	[KBENCH_A_RUN_ARG] = { .type = NLA_U64, },
	[KBENCH_A_RUN_MAX_WINDOW_US] = NLA_POLICY_RANGE(NLA_U32, 1, KBENCH_WINDOW_US_MAX),
	[KBENCH_A_RUN_CPUS] = NLA_POLICY_MAX(NLA_U32, KBENCH_CPU_MAX),
	[KBENCH_A_RUN_SKEW_NS] = NLA_POLICY_FULL_RANGE(NLA_U32, &kbench_a_run_skew_ns_range),
	[KBENCH_A_RUN_NOTIFY] = { .type = NLA_FLAG, },
};

/* KBENCH_CMD_SAMPLES_GET - dump */
static const struct nla_policy kbench_samples_get_nl_policy[KBENCH_A_SAMPLES_PACKED + 1] = {
	[KBENCH_A_SAMPLES_RUN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[KBENCH_A_SAMPLES_ROUTINE] = NLA_POLICY_MAX(NLA_U32, KBENCH_RUN_ROUTINES_MAX),
	[KBENCH_A_SAMPLES_PACKED] = { .type = NLA_FLAG, },
};

/* KBENCH_CMD_RUN_GET - dump */
static const struct nla_policy kbench_run_get_nl_policy[KBENCH_A_RUN_ID + 1] = {
	[KBENCH_A_RUN_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* Ops table for kbench */
const struct genl_split_ops kbench_nl_ops[6] = {
	{
		.cmd	= KBENCH_CMD_INFO,
		.doit	= kbench_nl_info_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= KBENCH_CMD_ROUTINE_GET,
		.dumpit	= kbench_nl_routine_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= KBENCH_CMD_CLOCK_GET,
		.start	= kbench_nl_clock_start,
		.dumpit	= kbench_nl_clock_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= KBENCH_CMD_RUN,
		.doit		= kbench_nl_run_doit,
		.policy		= kbench_run_nl_policy,
		.maxattr	= KBENCH_A_RUN_NOTIFY,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= KBENCH_CMD_SAMPLES_GET,
		.start		= kbench_nl_samples_start,
		.dumpit		= kbench_nl_samples_get_dumpit,
		.done		= kbench_nl_samples_done,
		.policy		= kbench_samples_get_nl_policy,
		.maxattr	= KBENCH_A_SAMPLES_PACKED,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= KBENCH_CMD_RUN_GET,
		.start		= kbench_nl_run_get_start,
		.dumpit		= kbench_nl_run_get_dumpit,
		.done		= kbench_nl_run_get_done,
		.policy		= kbench_run_get_nl_policy,
		.maxattr	= KBENCH_A_RUN_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
};

static const struct genl_multicast_group kbench_nl_mcgrps[] = {
	[KBENCH_NLGRP_PROGRESS] = { "progress", },
};
