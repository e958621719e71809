/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: where the shared engine meets the world it is compiled in.
 *
 * The headers under include/kbench/ are compiled into both kbench.ko and
 * the userspace library libkbench.  This is the only one of them that
 * includes anything: errno values, NULL, __always_inline and the 64-bit signed
 * type of a sample's net ticks (s64 / int64_t: the arrays a world keeps
 * its samples in) from the kernel or the C library (glibc), perf's ABI
 * (<linux/perf_event.h>: the event types and generic events of events.h),
 * and the netlink ABI's flag values (by a relative path, so that no -I
 * order can pick the in-kernel <linux/kbench.h> instead).  Everything
 * else uses plain C types.
 */
#ifndef _KBENCH_WORLD_H
#define _KBENCH_WORLD_H

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#define kbench_s64	s64
#else
#include <errno.h>
#include <linux/perf_event.h>
#include <stddef.h>		/* NULL */
#include <sys/cdefs.h>		/* __always_inline, as glibc defines it */

/*
 * int64_t (long on LP64), what userspace keeps its samples in; a macro, not
 * a typedef of int64_t, to need no <stdint.h> and be checkpatch-clean.
 */
#define kbench_s64	__INT64_TYPE__
#ifndef __always_inline
#error "kbench: this C library has no __always_inline in <sys/cdefs.h>"
#endif
#endif

#include "../uapi/linux/kbench.h"

#define KBENCH_U64_MAX		(~0ULL)
#define KBENCH_S64_MAX		((long long)(KBENCH_U64_MAX >> 1))
#define KBENCH_NSEC_PER_SEC	1000000000ULL

#endif /* _KBENCH_WORLD_H */
