/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: powerpc64 timebase.
 *
 * There is no per-CPU NMI or SMI count to watch on powerpc, so the
 * snapshot is empty and only the generic detectors (CPU change, backwards,
 * window, reference) apply.
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

/*
 * On powerpc64 local_irq_save() only masks interrupts in software: a
 * decrementer or external interrupt still enters the kernel (some 800
 * instructions) to be noted for later, inside whatever is being timed.
 * Hard-disable them too; local_irq_restore() replays what was held back.
 * Part of kbench_irq_off(), so every window has it: the samples' and the
 * clocks table's alike.
 */
static __always_inline void kbench_arch_irq_off(void)
{
	hard_irq_disable();
}

static __always_inline void kbench_arch_snap_begin(struct kbench_guard *g)
{
}

static __always_inline void kbench_arch_snap_end(struct kbench_guard *g)
{
}

/* No steal-time record on powerpc (kbench_arch_steal_probe() says so). */
static __always_inline unsigned long long
kbench_arch_steal_load(const void *rec, enum kbench_steal_field f)
{
	return 0;
}

#endif /* _KBENCH_COUNTER_POWERPC_H */
