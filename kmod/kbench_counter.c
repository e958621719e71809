// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: choose the counter - the first row of this architecture's table
 * (kbench_counter_<arch>.c) that works here - and the steal detector.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>

#include "kbench_internal.h"

struct kbench_counter kbench_counter;
DEFINE_PER_CPU(const void *, kbench_steal_rec);

int kbench_counter_init(void)
{
	unsigned int i;
	int err = -ENODEV;

	for (i = 0; i < kbench_nr_counters; i++) {
		err = kbench_counters[i].probe(&kbench_counters[i]);
		if (!err) {
			kbench_counter = kbench_counters[i];
			/* the windows' snapshot reads the record (counter.h) */
			if (!kbench_arch_steal_probe())
				kbench_counter.detectors |= KBENCH_SAMPLE_F_STEAL;
			return 0;
		}
	}
	return err;
}

/**
 * kbench_steal_start() - map @cpu's steal-time record for its windows
 * @cpu: the run's CPU; called there (the run's bound kthread), before
 *	 the windows: the record's address is per virtual CPU
 *
 * Maps nothing where the detector is unavailable, or when the record
 * cannot be found or mapped (the run then has no steal flags).
 */
void kbench_steal_start(unsigned int cpu)
{
	if (!(kbench_counter.detectors & KBENCH_SAMPLE_F_STEAL))
		return;
	per_cpu(kbench_steal_rec, cpu) = kbench_arch_steal_map();
}

/**
 * kbench_steal_stop() - unmap what kbench_steal_start() mapped
 * @cpu: the run's CPU, after its last window
 */
void kbench_steal_stop(unsigned int cpu)
{
	void *rec = (void *)per_cpu(kbench_steal_rec, cpu);

	per_cpu(kbench_steal_rec, cpu) = NULL;
	if (rec)
		kbench_arch_steal_unmap(rec);
}
