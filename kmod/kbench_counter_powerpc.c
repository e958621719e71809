// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the powerpc64 counter table (the timebase).
 */
#include <linux/kernel.h>
#include <asm/time.h>

#include "kbench_internal.h"

KBENCH_DEFINE_WINDOW(kbench_timebase_window, kbench_ctr_read, kbench_irq_off,
		     kbench_irq_on, kbench_snap_begin, kbench_snap_end)

static int kbench_timebase_probe(struct kbench_counter *c)
{
	/* The timebase runs at a fixed rate, also in idle states. */
	return kbench_counter_fixed_rate(c, tb_ticks_per_sec);
}

struct kbench_counter kbench_counters[] = {
	KBENCH_COUNTER_ROW("timebase", "isync; mftb; isync", kbench_ctr_read,
			   kbench_timebase_window, kbench_timebase_probe),
};

const unsigned int kbench_nr_counters = ARRAY_SIZE(kbench_counters);

/*
 * No steal detector on powerpc yet: a shared-processor LPAR's lppaca
 * yield_count would tell when the hypervisor dispatched the vCPU again.
 */
int kbench_arch_steal_probe(void)
{
	return -ENODEV;
}

void *kbench_arch_steal_map(void)
{
	return NULL;
}

void kbench_arch_steal_unmap(void *rec)
{
}
