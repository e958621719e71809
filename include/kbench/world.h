/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: where the shared engine meets the world it is compiled in.
 *
 * The headers under include/kbench/ are compiled into both kbench.ko and
 * the userspace library libkbench.  This is the only one of them that
 * includes anything: errno values, NULL, __always_inline, the 64-bit signed
 * type of a sample's net ticks (s64 / int64_t: the arrays a world keeps
 * its samples in), and the acquire/release accesses and the spin-wait
 * hint of a concurrent run's rendezvous from the kernel or the C library
 * (glibc, GCC's __atomic builtins), perf's ABI
 * (<linux/perf_event.h>: the event types and generic events of events.h),
 * and the netlink ABI's flag values (by a relative path, so that no -I
 * order can pick the in-kernel <linux/kbench.h> instead).  Everything
 * else uses plain C types.
 */
#ifndef _KBENCH_WORLD_H
#define _KBENCH_WORLD_H

#ifdef __KERNEL__
#include <asm/barrier.h>
#include <linux/atomic.h>
#include <linux/build_bug.h>	/* static_assert() */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/processor.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#define kbench_s64	s64
/*
 * A concurrent run's rendezvous (engine.h): a CPU publishes the windows it
 * reached with a release store and reads the others' with acquire loads,
 * pairing with each other.
 */
#define kbench_load_acquire(p)		smp_load_acquire(p)
/* pairs with kbench_load_acquire() on the other CPUs */
#define kbench_store_release(p, v)	smp_store_release(p, v)
#define kbench_load_once(p)		READ_ONCE(*(p))
#define kbench_cpu_relax()		cpu_relax()
/* the contention bodies (contend.h) */
#define kbench_atomic_long		atomic_long_t
#define kbench_atomic_inc(p)		atomic_long_inc(p)
#define kbench_xchg_acquire(p, v)	xchg_acquire(p, v)
#define kbench_store_once(p, v)		WRITE_ONCE(*(p), v)
/* pingpong: the store must reach the cache (own the line) before the next */
#define kbench_mb()			smp_mb()
#else
#include <assert.h>		/* static_assert() */
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
#define kbench_load_acquire(p)		__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define kbench_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define kbench_load_once(p)		__atomic_load_n(p, __ATOMIC_RELAXED)
/* a compiler barrier: the spin reads the counter, which paces it */
#define kbench_cpu_relax()		__atomic_signal_fence(__ATOMIC_SEQ_CST)
struct kbench_atomic_long_s { long counter; };
#define kbench_atomic_long		struct kbench_atomic_long_s
#define kbench_atomic_inc(p)	__atomic_fetch_add(&(p)->counter, 1, __ATOMIC_RELAXED)
#define kbench_xchg_acquire(p, v)	__atomic_exchange_n(p, v, __ATOMIC_ACQUIRE)
#define kbench_store_once(p, v)		__atomic_store_n(p, v, __ATOMIC_RELAXED)
#define kbench_mb()			__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

#include "../uapi/linux/kbench.h"

#define KBENCH_U64_MAX		(~0ULL)
#define KBENCH_S64_MAX		((long long)(KBENCH_U64_MAX >> 1))
#define KBENCH_NSEC_PER_SEC	1000000000ULL

#endif /* _KBENCH_WORLD_H */
