// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the x86 counter table (the TSC) and detector probing.
 */
#include <linux/kernel.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include "kbench_internal.h"

bool kbench_smi_available;

KBENCH_DEFINE_WINDOW(kbench_tsc_window, kbench_ctr_read, kbench_irq_off,
		     kbench_irq_on, kbench_snap_begin, kbench_snap_end)

static int kbench_tsc_probe(struct kbench_counter *c)
{
	u64 smi;

	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz)
		return -ENODEV;

	c->hz = (u64)tsc_khz * 1000;
	c->flags = KBENCH_COUNTER_F_ORDERED;
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		c->flags |= KBENCH_COUNTER_F_CONSTANT;
	if (boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		c->flags |= KBENCH_COUNTER_F_NONSTOP;
	if (boot_cpu_has(X86_FEATURE_TSC_RELIABLE))
		c->flags |= KBENCH_COUNTER_F_RELIABLE;

	/* MSR_SMI_COUNT exists on Intel since Nehalem; qemu may fault it. */
	kbench_smi_available = !rdmsrl_safe(MSR_SMI_COUNT, &smi);

	c->detectors = KBENCH_DETECTORS_GENERIC | KBENCH_SAMPLE_F_NMI;
	if (kbench_smi_available)
		c->detectors |= KBENCH_SAMPLE_F_SMI;
	return 0;
}

struct kbench_counter kbench_counters[] = {
	KBENCH_COUNTER_ROW("tsc", "rdtsc_ordered()", kbench_ctr_read,
			   kbench_tsc_window, kbench_tsc_probe),
};

const unsigned int kbench_nr_counters = ARRAY_SIZE(kbench_counters);
