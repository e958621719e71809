/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: kernel API differences between the kernels kbench supports
 * (6.1 to 6.12), in one place.  Features are detected from the kernel's
 * headers by Kbuild (KBENCH_HAVE_*), not from version numbers, so a
 * backport is handled too.
 *
 * The generated family (kbench_nl_gen.[ch]) includes this file: the spec
 * names it as the header of kbench-cpu-max.
 */
#ifndef _KBENCH_COMPAT_H
#define _KBENCH_COMPAT_H

#include <linux/fs.h>
#include <linux/threads.h>
#include <net/genetlink.h>

/*
 * The spec's kbench-cpu-max, the policy bound of the RUN cpu: the highest
 * CPU number this kernel can have.  It is a value of the kernel built
 * against, so the spec names it and it is defined here.
 */
#define KBENCH_CPU_MAX		(NR_CPUS - 1)

/*
 * Split ops (struct genl_split_ops, genl_family.split_ops; 6.2+) are what
 * ynl-gen-c generates.  6.1 has only struct genl_ops, which has every member
 * the generated table sets (cmd, doit, dumpit, done, policy, maxattr,
 * flags), so there the table is a table of full ops and kbench_family.c
 * hands it over as .ops.  That behaves the same because:
 *  - every kbench command is either do or dump, never both (6.1 refuses two
 *    ops with one cmd: a spec adding the other half needs a merged entry);
 *  - kbench_family.c gives an op without a policy a reject-all one on every
 *    kernel;
 *  - the GENL_CMD_CAP_* flags the generator sets are only reported, and
 *    6.1 reports them from doit/dumpit anyway.
 */
#ifndef KBENCH_HAVE_GENL_SPLIT_OPS
#define genl_split_ops		genl_ops
#endif

/*
 * ynl-gen-c makes the range of NLA_POLICY_FULL_RANGE a const object; 6.1's
 * struct nla_policy points to it without const (6.2 added it), so there
 * the pointer's const is cast away.  The netlink core only reads a range.
 */
#ifndef KBENCH_HAVE_CONST_NLA_RANGE
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {			\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),		\
	.validation_type = NLA_VALIDATE_RANGE_PTR,		\
	.range = (struct netlink_range_validation *)(_range),	\
}

#undef NLA_POLICY_FULL_RANGE_SIGNED
#define NLA_POLICY_FULL_RANGE_SIGNED(tp, _range) {		\
	.type = NLA_ENSURE_SINT_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,		\
	.range_signed =						\
		(struct netlink_range_validation_signed *)(_range), \
}
#endif

/*
 * Formatted extack messages (kbench_extack_fmt(), kbench_netlink.c): 6.2+
 * copies the text into the extack (NL_SET_ERR_MSG_FMT, 80 bytes); 6.1
 * only takes a pointer to a message that outlives the request.
 */
#ifdef KBENCH_HAVE_EXTACK_FMT
#define KBENCH_EXTACK_MSG_LEN	NETLINK_MAX_FMTMSG_LEN
#else
#define KBENCH_EXTACK_MSG_LEN	80
#endif

/* The parsed attributes of a dump request. */
static inline struct nlattr **kbench_dump_attrs(struct netlink_callback *cb)
{
#ifdef KBENCH_HAVE_GENL_INFO_DUMP
	/* 6.2+: dumps carry a whole struct genl_info */
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * A reference to @file unless its count is 0 (its release has begun):
 * 6.1 and 6.12 count in f_count (6.1's get_file_rcu()), 6.13+ in f_ref.
 */
static inline bool kbench_file_get_live(struct file *file)
{
#ifdef KBENCH_HAVE_FILE_REF
	return file_ref_get(&file->f_ref);
#else
	return atomic_long_inc_not_zero(&file->f_count);
#endif
}

#endif /* _KBENCH_COMPAT_H */
