// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: powerpc64 timebase description.
 */
#include <linux/kernel.h>
#include <asm/time.h>

#include "kbench_internal.h"

struct kbench_counter_info kbench_counter;

int kbench_counter_init(void)
{
	if (!tb_ticks_per_sec)
		return -ENODEV;

	kbench_counter.name = "timebase";
	kbench_counter.hz = tb_ticks_per_sec;
	/* The timebase runs at a fixed rate, also in idle states. */
	kbench_counter.flags = KBENCH_COUNTER_F_ORDERED |
			       KBENCH_COUNTER_F_CONSTANT |
			       KBENCH_COUNTER_F_NONSTOP;
	kbench_counter.detectors = KBENCH_SAMPLE_F_CPU_CHANGED |
				   KBENCH_SAMPLE_F_BACKWARDS |
				   KBENCH_SAMPLE_F_WINDOW;
	return 0;
}
