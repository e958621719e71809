// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the x86 counter table (the TSC) and detector probing.
 */
#include <linux/cpufeature.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <asm/kvm_para.h>
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

/*
 * The steal detector on x86: KVM steal time.  The guest kernel registers
 * a per-CPU struct kvm_steal_time with the host by writing its
 * guest-physical address, with KVM_MSR_ENABLED, to MSR_KVM_STEAL_TIME;
 * the host updates it each time the vCPU enters again.  The kernel's
 * readers of it (paravirt_steal_clock(), the pv_steal_clock static call,
 * kvm_steal_clock()) are not exported to modules on 6.1 or 6.12, and the
 * steal time accounted in kernel_cpustat (exported) only moves at ticks,
 * which wait for the end of an irq-off window.  So the MSR, read on the
 * run's CPU, gives the record's address, and memremap() finds it in the
 * kernel's direct map (it is RAM).  rdmsrl_safe(): without KVM steal
 * time - bare metal, qemu TCG, KVM without the feature - the MSR read
 * faults, and the detector is simply unavailable.
 */
int kbench_arch_steal_probe(void)
{
	u64 msr;

	if (rdmsrl_safe(MSR_KVM_STEAL_TIME, &msr) || !(msr & KVM_MSR_ENABLED))
		return -ENODEV;
	return 0;
}

void *kbench_arch_steal_map(void)
{
	u64 msr;

	if (rdmsrl_safe(MSR_KVM_STEAL_TIME, &msr) || !(msr & KVM_MSR_ENABLED))
		return NULL;
	return memremap(msr & KVM_STEAL_VALID_BITS,
			sizeof(struct kvm_steal_time), MEMREMAP_WB);
}

void kbench_arch_steal_unmap(void *rec)
{
	memunmap(rec);
}
