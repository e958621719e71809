// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: choose the counter - the first row of this architecture's table
 * (kbench_counter_<arch>.c) that works here.
 */
#include <linux/kernel.h>

#include "kbench_internal.h"

struct kbench_counter kbench_counter;

int kbench_counter_init(void)
{
	unsigned int i;
	int err = -ENODEV;

	for (i = 0; i < kbench_nr_counters; i++) {
		err = kbench_counters[i].probe(&kbench_counters[i]);
		if (!err) {
			kbench_counter = kbench_counters[i];
			return 0;
		}
	}
	return err;
}
