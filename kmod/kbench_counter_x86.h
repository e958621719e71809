/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: x86 TSC and the NMI/SMI interference counts.
 */
#ifndef _KBENCH_COUNTER_X86_H
#define _KBENCH_COUNTER_X86_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <asm/barrier.h>
#include <asm/hardirq.h>
#include <asm/kvm_para.h>
#include <asm/msr.h>

extern bool kbench_smi_available;

/* rdtsc_ordered(): lfence/rdtscp so the read is not moved around the code. */
static __always_inline u64 kbench_ctr_read(void)
{
	return rdtsc_ordered();
}

/* The counter without ordering, for the clocks table. */
static __always_inline u64 kbench_ctr_read_unordered(void)
{
	return rdtsc();
}

#define KBENCH_CLOCK_UNORDERED	"rdtsc"
#define KBENCH_CLOCK_ORDERED	"rdtsc_ordered"

/* local_irq_save() disables interrupts in hardware: nothing to add. */
static __always_inline void kbench_arch_irq_off(void)
{
}

/* snap[0]: the CPU's NMI count, snap[1]: MSR_SMI_COUNT (where readable). */
static __always_inline void kbench_arch_snap_begin(struct kbench_guard *g)
{
	g->snap[0] = this_cpu_read(irq_stat.__nmi_count);
	g->snap[1] = 0;
	if (kbench_smi_available && rdmsrl_safe(MSR_SMI_COUNT, &g->snap[1]))
		g->snap[1] = 0;
}

static __always_inline void kbench_arch_snap_end(struct kbench_guard *g)
{
	u64 smi = 0;

	if (g->snap[0] != this_cpu_read(irq_stat.__nmi_count))
		g->flags |= KBENCH_SAMPLE_F_NMI;
	if (kbench_smi_available && rdmsrl_safe(MSR_SMI_COUNT, &smi))
		smi = 0;
	if (g->snap[1] != smi)
		g->flags |= KBENCH_SAMPLE_F_SMI;
}

/*
 * A field of the KVM steal-time record (struct kvm_steal_time), read as the
 * kernel's own kvm_steal_clock() reads it: READ_ONCE, then virt_rmb().
 */
static __always_inline unsigned long long
kbench_arch_steal_load(const void *rec, enum kbench_steal_field f)
{
	const struct kvm_steal_time *st = rec;
	unsigned long long v;

	v = f == KBENCH_STEAL_VERSION ? READ_ONCE(st->version) :
					READ_ONCE(st->steal);
	/* the record's next field is read after this one: see steal.h */
	virt_rmb();
	return v;
}

#endif /* _KBENCH_COUNTER_X86_H */
