// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: x86 TSC description and detector probing.
 */
#include <linux/kernel.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include "kbench_internal.h"

struct kbench_counter_info kbench_counter;
bool kbench_smi_available;

int kbench_counter_init(void)
{
	u64 smi;

	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz)
		return -ENODEV;

	kbench_counter.name = "tsc";
	kbench_counter.hz = (u64)tsc_khz * 1000;
	kbench_counter.flags = KBENCH_COUNTER_F_ORDERED;
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		kbench_counter.flags |= KBENCH_COUNTER_F_CONSTANT;
	if (boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		kbench_counter.flags |= KBENCH_COUNTER_F_NONSTOP;
	if (boot_cpu_has(X86_FEATURE_TSC_RELIABLE))
		kbench_counter.flags |= KBENCH_COUNTER_F_RELIABLE;

	/* MSR_SMI_COUNT exists on Intel since Nehalem; qemu may fault it. */
	kbench_smi_available = !rdmsrl_safe(MSR_SMI_COUNT, &smi);

	kbench_counter.detectors = KBENCH_SAMPLE_F_CPU_CHANGED |
				   KBENCH_SAMPLE_F_BACKWARDS |
				   KBENCH_SAMPLE_F_NMI |
				   KBENCH_SAMPLE_F_WINDOW;
	if (kbench_smi_available)
		kbench_counter.detectors |= KBENCH_SAMPLE_F_SMI;
	return 0;
}
