/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: the kernel's counter table.
 *
 * Every counter is a row (struct kbench_counter, include/kbench/engine.h):
 * its name, rate, flags and detectors, an ordered read, the window's
 * irq-off/on hooks, the interference snapshot and the window function
 * built from them.  kbench_counter_<arch>.c holds the rows of one
 * architecture in order of preference; kbench_counter_init() takes the
 * first whose probe() succeeds and copies it into kbench_counter.  A
 * second counter on an architecture (a hardware event) is another row.
 *
 * Each architecture provides, in kbench_counter_<arch>.h:
 *   u64 kbench_ctr_read(void)           an ordered read of its CPU counter
 *   u64 kbench_ctr_read_unordered(void) a plain read (clocks table)
 *   KBENCH_CLOCK_UNORDERED, _ORDERED    their names in the clocks table
 *   void kbench_arch_irq_off(void)      what local_irq_save() leaves out
 *   void kbench_arch_snap_begin(g)      interference counts (irqs off)
 *   void kbench_arch_snap_end(g)        KBENCH_SAMPLE_F_* since begin
 *   u64 kbench_arch_steal_load(rec, f)  a field of the steal-time record
 * and in kbench_counter_<arch>.c the rows: kbench_counters[] and
 * kbench_nr_counters, and the steal-time record of the hypervisor:
 *   int kbench_arch_steal_probe(void)   0 where the host keeps one
 *   void *kbench_arch_steal_map(void)   this CPU's record, or NULL
 *   void kbench_arch_steal_unmap(rec)
 */
#ifndef _KBENCH_COUNTER_H
#define _KBENCH_COUNTER_H

#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/types.h>

#include <kbench/engine.h>

/* The counter in use (a copy of the first row that probed). */
extern struct kbench_counter kbench_counter;

/* This architecture's rows, in order of preference. */
extern struct kbench_counter kbench_counters[];
extern const unsigned int kbench_nr_counters;

int kbench_counter_init(void);

/*
 * The steal detector (include/kbench/steal.h): a run maps its CPU's
 * steal-time record before its windows and unmaps it after; the windows
 * of that CPU read it through this pointer (NULL: no detector).
 */
DECLARE_PER_CPU(const void *, kbench_steal_rec);
void kbench_steal_start(unsigned int cpu);
void kbench_steal_stop(unsigned int cpu);
int kbench_arch_steal_probe(void);
void *kbench_arch_steal_map(void);
void kbench_arch_steal_unmap(void *rec);

#if defined(CONFIG_X86_64)
#include "kbench_counter_x86.h"
#elif defined(CONFIG_ARM64)
#include "kbench_counter_arm64.h"
#elif defined(CONFIG_PPC64)
#include "kbench_counter_powerpc.h"
#else
#error "kbench: no counter for this architecture"
#endif

/*
 * Enter an irq-off window: no preemption, no interrupts (and, where
 * local_irq_save() only masks them in software, not even their entry).
 * Every window of kbench - samples and the clocks table - goes through
 * this pair.
 */
static __always_inline void kbench_irq_off(struct kbench_guard *g)
{
	preempt_disable();
	local_irq_save(g->irqflags);
	kbench_arch_irq_off();
}

static __always_inline void kbench_irq_on(struct kbench_guard *g)
{
	local_irq_restore(g->irqflags);
	preempt_enable();
}

/* Inside the window: still on the CPU the run is bound to? */
static __always_inline void kbench_cpu_check(struct kbench_guard *g)
{
	if (raw_smp_processor_id() != g->cpu)
		g->flags |= KBENCH_SAMPLE_F_CPU_CHANGED;
}

/*
 * The interference snapshot around a sample: CPU, the architecture's
 * counts, and the steal-time record read last before and first after it.
 */
static __always_inline void kbench_snap_begin(struct kbench_guard *g)
{
	kbench_cpu_check(g);
	kbench_arch_snap_begin(g);
	kbench_steal_begin(kbench_arch_steal_load,
			   this_cpu_read(kbench_steal_rec), &g->steal);
}

static __always_inline void kbench_snap_end(struct kbench_guard *g)
{
	g->flags |= kbench_steal_end(kbench_arch_steal_load, &g->steal);
	kbench_arch_snap_end(g);
	kbench_cpu_check(g);
}

/*
 * A row of an architecture's table: the kernel's window hooks above, an
 * ordered @read for use outside windows, the @window function made by
 * KBENCH_DEFINE_WINDOW() from the inline read and those hooks, @probe.
 */
#define KBENCH_COUNTER_ROW(_name, _desc, _read, _window, _probe) {	\
	.name = _name, .desc = _desc, .read = _read,			\
	.irq_off = kbench_irq_off, .irq_on = kbench_irq_on,		\
	.snap_begin = kbench_snap_begin, .snap_end = kbench_snap_end,	\
	.window = _window, .probe = _probe,				\
}

/* The detectors every kernel counter has. */
#define KBENCH_DETECTORS_GENERIC	(KBENCH_SAMPLE_F_CPU_CHANGED |	\
					 KBENCH_SAMPLE_F_BACKWARDS |	\
					 KBENCH_SAMPLE_F_WINDOW |	\
					 KBENCH_SAMPLE_F_REFERENCE)

/*
 * The probe's figures of a counter that ticks at a fixed @hz, also in idle
 * states, ordered by its read (arm64's generic timer, powerpc's
 * timebase): -ENODEV when @hz is 0.
 */
static inline int kbench_counter_fixed_rate(struct kbench_counter *c, u64 hz)
{
	if (!hz)
		return -ENODEV;
	c->hz = hz;
	c->flags = KBENCH_COUNTER_F_ORDERED | KBENCH_COUNTER_F_CONSTANT |
		   KBENCH_COUNTER_F_NONSTOP;
	c->detectors = KBENCH_DETECTORS_GENERIC;
	return 0;
}

#endif /* _KBENCH_COUNTER_H */
