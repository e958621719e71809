/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: kernel API differences between the kernels kbench supports
 * (6.1 to 6.12), in one place.
 */
#ifndef _KBENCH_COMPAT_H
#define _KBENCH_COMPAT_H

#include <linux/version.h>
#include <net/genetlink.h>

/* The parsed attributes of a dump request. */
static inline struct nlattr **kbench_dump_attrs(struct netlink_callback *cb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

#endif /* _KBENCH_COMPAT_H */
