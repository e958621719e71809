/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: loop bodies of the contention routines, for several CPUs at once
 * (a concurrent run), compiled into both kbench.ko and the userspace twins
 * with world.h's atomics.  Unlike bodies.h they are C, so their instruction
 * counts are the compiler's: what they measure is the cache line's
 * traffic, not instructions.  Each takes a pointer that a run gives every
 * CPU: the same object (shared) or each CPU its own (per-CPU), each in a
 * struct kbench_line of its own, 128 bytes: two cache lines (no false
 * sharing, the adjacent-line prefetcher included) where the world aligns
 * its arrays of them at 128 bytes.
 *
 *   atomic_shared / atomic_percpu   an atomic increment of one counter
 *   spin_shared / spin_percpu       lock and unlock of one lock
 *   pingpong                        a store to this CPU's own word of one
 *                                   shared line and a full barrier (the
 *                                   store must own the line before the
 *                                   next): the line bounces between the
 *                                   CPUs, but no CPU ever waits for
 *                                   another (no spinning in a window)
 *
 * The lock here is a test-and-test-and-set lock (an acquire exchange, a
 * spin on plain loads, a release store): userspace has no kernel spinlock,
 * so the twins of spin_* time this one, not the kernel's queued spinlock.
 */
#ifndef _KBENCH_CONTEND_H
#define _KBENCH_CONTEND_H

#include "world.h"

#define KBENCH_LINE_WORDS	16

struct kbench_line {
	union {
		kbench_atomic_long counter;
		unsigned int lock;
		unsigned long word[KBENCH_LINE_WORDS];
	};
};

static inline void kbench_body_atomic_inc(unsigned int n, kbench_atomic_long *v)
{
	while (n--)
		kbench_atomic_inc(v);
}

static __always_inline void kbench_tas_lock(unsigned int *l)
{
	while (kbench_xchg_acquire(l, 1))
		while (kbench_load_once(l))
			kbench_cpu_relax();
}

static inline void kbench_body_tas_lock(unsigned int n, unsigned int *l)
{
	while (n--) {
		kbench_tas_lock(l);
		kbench_store_release(l, 0);
	}
}

static inline void kbench_body_store(unsigned int n, unsigned long *w)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		kbench_store_once(w, i);
		kbench_mb();
	}
}

#endif /* _KBENCH_CONTEND_H */
