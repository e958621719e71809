/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: x86 TSC and the NMI/SMI interference counts.
 */
#ifndef _KBENCH_COUNTER_X86_H
#define _KBENCH_COUNTER_X86_H

#include <linux/percpu.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#include <uapi/linux/kbench.h>

extern bool kbench_smi_available;

struct kbench_snap {
	unsigned int nmi;
	u64 smi;
};

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

static __always_inline void kbench_snap_take(struct kbench_snap *s)
{
	s->nmi = this_cpu_read(irq_stat.__nmi_count);
	s->smi = 0;
	if (kbench_smi_available && rdmsrl_safe(MSR_SMI_COUNT, &s->smi))
		s->smi = 0;
}

static __always_inline u32 kbench_snap_flags(const struct kbench_snap *a,
					     const struct kbench_snap *b)
{
	u32 flags = 0;

	if (a->nmi != b->nmi)
		flags |= KBENCH_SAMPLE_F_NMI;
	if (a->smi != b->smi)
		flags |= KBENCH_SAMPLE_F_SMI;
	return flags;
}

#endif /* _KBENCH_COUNTER_X86_H */
