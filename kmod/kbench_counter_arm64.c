// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: arm64 virtual counter description.
 */
#include <linux/kernel.h>
#include <asm/arch_timer.h>

#include "kbench_internal.h"

struct kbench_counter_info kbench_counter;

int kbench_counter_init(void)
{
	/*
	 * arch_timer_get_rate() is not exported to modules; CNTFRQ_EL0 is
	 * what the arch timer driver uses unless the firmware overrides it.
	 */
	u32 hz = arch_timer_get_cntfrq();

	if (!hz)
		return -ENODEV;

	kbench_counter.name = "cntvct";
	kbench_counter.hz = hz;
	/* The generic timer runs at a fixed rate, also in idle states. */
	kbench_counter.flags = KBENCH_COUNTER_F_ORDERED |
			       KBENCH_COUNTER_F_CONSTANT |
			       KBENCH_COUNTER_F_NONSTOP;
	kbench_counter.detectors = KBENCH_SAMPLE_F_CPU_CHANGED |
				   KBENCH_SAMPLE_F_BACKWARDS |
				   KBENCH_SAMPLE_F_WINDOW;
	return 0;
}
