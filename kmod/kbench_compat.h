/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: kernel API differences between the kernels kbench supports
 * (6.1 to 6.12), in one place.  Features are detected from the kernel's
 * headers by Kbuild (KBENCH_HAVE_*), not from version numbers, so a
 * backport is handled too.
 */
#ifndef _KBENCH_COMPAT_H
#define _KBENCH_COMPAT_H

#include <net/genetlink.h>

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

#endif /* _KBENCH_COMPAT_H */
