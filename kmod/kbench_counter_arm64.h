/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: arm64 virtual counter (CNTVCT_EL0).
 *
 * There is no per-CPU NMI or SMI count to watch on arm64, so the snapshot
 * is empty and only the generic detectors (CPU change, backwards, window)
 * apply.
 */
#ifndef _KBENCH_COUNTER_ARM64_H
#define _KBENCH_COUNTER_ARM64_H

#include <asm/arch_timer.h>
#include <asm/sysreg.h>

/*
 * The kernel's precise read: isb first, so the read is not taken before
 * earlier instructions; then arch_counter_enforce_ordering(), a fake load
 * that depends on the value, so later memory accesses wait for the read.
 * With ECV the alternative reads the self-synchronized CNTVCTSS_EL0.
 */
static __always_inline u64 kbench_ctr_read(void)
{
	return __arch_counter_get_cntvct();
}

/* The counter without ordering, for the clocks table. */
static __always_inline u64 kbench_ctr_read_unordered(void)
{
	return read_sysreg(cntvct_el0);
}

#define KBENCH_CLOCK_UNORDERED	"cntvct"
#define KBENCH_CLOCK_ORDERED	"cntvct_ordered"

struct kbench_snap {
	u8 unused;
};

static __always_inline void kbench_snap_take(struct kbench_snap *s)
{
}

static __always_inline u32 kbench_snap_flags(const struct kbench_snap *a,
					     const struct kbench_snap *b)
{
	return 0;
}

#endif /* _KBENCH_COUNTER_ARM64_H */
