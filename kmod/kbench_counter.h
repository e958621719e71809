/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: the CPU counter, one small interface over a per-arch file.
 *
 * Each architecture provides, in kbench_counter_<arch>.h:
 *   u64 kbench_ctr_read(void)           an ordered read of the counter
 *   u64 kbench_ctr_read_unordered(void) a plain read (clocks table)
 *   KBENCH_CLOCK_UNORDERED, _ORDERED    their names in the clocks table
 *   struct kbench_snap                  per-CPU interference counts
 *   void kbench_snap_take(snap)         read them (irqs off)
 *   u32 kbench_snap_flags(a, b)         KBENCH_SAMPLE_F_* between a and b
 * and in kbench_counter_<arch>.c: kbench_counter_init().
 */
#ifndef _KBENCH_COUNTER_H
#define _KBENCH_COUNTER_H

#include <linux/types.h>

struct kbench_counter_info {
	const char *name;	/* "tsc", "cntvct", "timebase" */
	u64 hz;			/* ticks per second */
	u32 flags;		/* enum kbench_counter_flags */
	u32 detectors;		/* enum kbench_sample_flags available */
};

extern struct kbench_counter_info kbench_counter;

int kbench_counter_init(void);

#if defined(CONFIG_X86_64)
#include "kbench_counter_x86.h"
#elif defined(CONFIG_ARM64)
#include "kbench_counter_arm64.h"
#elif defined(CONFIG_PPC64)
#include "kbench_counter_powerpc.h"
#else
#error "kbench: no counter for this architecture"
#endif

#endif /* _KBENCH_COUNTER_H */
