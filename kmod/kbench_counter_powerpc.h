/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: powerpc64 timebase.
 *
 * There is no per-CPU NMI or SMI count to watch on powerpc, so the
 * snapshot is empty and only the generic detectors (CPU change, backwards,
 * window) apply; taking it hard-disables interrupts (below).
 */
#ifndef _KBENCH_COUNTER_POWERPC_H
#define _KBENCH_COUNTER_POWERPC_H

#include <linux/irqflags.h>
#include <asm/hw_irq.h>
#include <asm/time.h>

/*
 * mftb is not ordered against the instructions around it.  isync completes
 * every earlier instruction before the read and holds back every later one
 * until the read is done.
 */
static __always_inline u64 kbench_ctr_read(void)
{
	u64 tb;

	asm volatile("isync" : : : "memory");
	tb = get_tb();
	asm volatile("isync" : : : "memory");
	return tb;
}

/* The timebase without ordering, for the clocks table. */
static __always_inline u64 kbench_ctr_read_unordered(void)
{
	return get_tb();
}

#define KBENCH_CLOCK_UNORDERED	"mftb"
#define KBENCH_CLOCK_ORDERED	"mftb_ordered"

struct kbench_snap {
	u8 unused;
};

/*
 * Called first thing in every window, after local_irq_save().  On powerpc64
 * that only soft-masks interrupts: a decrementer or external interrupt
 * still enters the kernel (some 800 instructions) to be noted for later,
 * inside the timed spans.  Hard-disable them too; local_irq_restore()
 * replays whatever was held back.
 */
static __always_inline void kbench_snap_take(struct kbench_snap *s)
{
	hard_irq_disable();
}

static __always_inline u32 kbench_snap_flags(const struct kbench_snap *a,
					     const struct kbench_snap *b)
{
	return 0;
}

#endif /* _KBENCH_COUNTER_POWERPC_H */
