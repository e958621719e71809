/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: arm64 virtual counter (CNTVCT_EL0).
 *
 * arm64 has no NMI or SMI count of its own.  Only where the kernel uses
 * pseudo-NMIs can anything interrupt a window, and then the snapshot
 * watches the CPU's interrupt count (kbench_arch_pseudo_nmi()); otherwise
 * it is empty and only the generic detectors (CPU change, backwards,
 * window, reference) apply.
 */
#ifndef _KBENCH_COUNTER_ARM64_H
#define _KBENCH_COUNTER_ARM64_H

#include <linux/compiler.h>
#include <linux/kernel_stat.h>
#include <linux/percpu.h>
#include <asm/arch_timer.h>
#include <asm/byteorder.h>
#include <asm/cpufeature.h>
#include <asm/pvclock-abi.h>

/*
 * The kernel's erratum-aware precise read.  Some timers (Freescale
 * A-008585, Hisilicon #161010101, Arm #858921, Allwinner A64) return
 * wrong CNTVCT values now and then; the arch timer driver then installs a
 * per-CPU workaround, and __arch_counter_get_cntvct_stable() reads through
 * it.  That accessor is an inline function over the per-CPU pointer
 * timer_unstable_counter_workaround, which 6.1 and 6.12 export
 * (EXPORT_SYMBOL_GPL, drivers/clocksource/arm_arch_timer.c), so a module
 * can use it: it loads the pointer, picks the workaround's read function
 * or arch_timer_read_cntvct_el0() (isb; mrs - with ECV the alternative
 * reads the self-synchronized CNTVCTSS_EL0) and calls it, then
 * arch_counter_enforce_ordering(), a fake load on the value that keeps
 * later memory accesses after the read.  The call is the same in both
 * timed spans, so it cancels like the rest of the read.
 * arch_timer_read_counter(), also exported, is a read behind an indirect
 * call too, but the clocksource's: it may be CNTPCT (a kernel at EL2) or
 * a memory-mapped counter, not the CNTVCT that userspace reads.
 */
static __always_inline u64 kbench_ctr_read(void)
{
	return __arch_counter_get_cntvct_stable();
}

/*
 * The same erratum-aware read (with its isb) without the ordering of the
 * later memory accesses, for the clocks table.
 */
static __always_inline u64 kbench_ctr_read_unordered(void)
{
	return arch_timer_reg_read_stable(cntvct_el0);
}

#define KBENCH_CLOCK_UNORDERED	"cntvct"
#define KBENCH_CLOCK_ORDERED	"cntvct_ordered"

/*
 * With irqchip.gicv3_pseudo_nmi=1 on a kernel built with
 * CONFIG_ARM64_PSEUDO_NMI, local_irq_save() does not mask IRQs in DAIF
 * but raises the GIC's priority mask (PMR): the interrupts the kernel
 * made NMIs (the PMU's for perf and the hard lockup detector, the
 * backtrace and kgdb IPIs) are still taken inside windows.  6.1 and 6.12
 * both have system_uses_irq_prio_masking() (a patched capability; a
 * constant false without the option).
 */
static __always_inline bool kbench_arch_pseudo_nmi(void)
{
	return system_uses_irq_prio_masking();
}

/*
 * local_irq_save() masks IRQ and FIQ in DAIF, or by priority (above):
 * the pseudo-NMIs are left to run, and are flagged, rather than masked
 * in DAIF too, so that the hard lockup detector and backtraces keep
 * working while a run goes on.
 */
static __always_inline void kbench_arch_irq_off(void)
{
}

/*
 * snap[0]: the CPU's count of interrupts handled, kstat.irqs_sum, which
 * pseudo-NMIs raise too (handle_percpu_devid_fasteoi_nmi() and
 * handle_fasteoi_nmi() call __kstat_incr_irqs_this_cpu() on 6.1 and
 * 6.12; kstat is exported): inside a window nothing else can raise it.
 * Read only where pseudo-NMIs are in use, so that the window costs the
 * same as before everywhere else.
 */
static __always_inline void kbench_arch_snap_begin(struct kbench_guard *g)
{
	if (kbench_arch_pseudo_nmi())
		g->snap[0] = this_cpu_read(kstat.irqs_sum);
}

static __always_inline void kbench_arch_snap_end(struct kbench_guard *g)
{
	if (kbench_arch_pseudo_nmi() &&
	    g->snap[0] != this_cpu_read(kstat.irqs_sum))
		g->flags |= KBENCH_SAMPLE_F_NMI;
}

/*
 * A field of the PV time stolen-time record: one little-endian 64-bit
 * value the host writes whole (single-copy atomic), so no version; read
 * as the kernel's para_steal_clock() reads it.
 */
static __always_inline unsigned long long
kbench_arch_steal_load(const void *rec, enum kbench_steal_field f)
{
	const struct pvclock_vcpu_stolen_time *st = rec;

	if (f == KBENCH_STEAL_VERSION)
		return 0;
	return le64_to_cpu(READ_ONCE(st->stolen_time));
}

#endif /* _KBENCH_COUNTER_ARM64_H */
