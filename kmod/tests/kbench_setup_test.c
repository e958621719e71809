// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_setup_test: routines for the test bed (built only there:
 * KBENCH_TEST_MODULES=m).  `setup_test` counts and steers its setups and
 * teardowns; `add_half` is a second cost line for compare sweeps.
 *
 * Routine `setup_test` takes an argument 0 .. 1000000 ("units"; run() does
 * nothing with it).  Its setup allocates alloc_bytes, may sleep sleep_ms
 * first, or fails with -fail_errno and a message; run() and teardown check
 * that they run on the CPU the setup ran on with the setup's own data.
 * Read-only counters in /sys/module/kbench_setup_test/parameters/:
 *   setups, teardowns   setups that returned 0, teardowns: equal whenever
 *                       no run is in progress
 *   failures            setups that failed on purpose
 *   mismatches          run() or teardown() saw another CPU or another
 *                       run's data (must stay 0)
 *   last_arg            the argument of the last setup
 * and knobs (0644): fail_errno (with fail_arg: only for that argument;
 * -1: any; fail_msg 0: without a message), sleep_ms, alloc_bytes.
 *
 * Routine `cache_test` creates a kmem_cache in its setup and destroys it
 * in its teardown: both take cpus_read_lock(), so a CPU offline that waited
 * for the run (under cpus_write_lock()) would deadlock with them.  Its
 * counters: cache_setups, cache_teardowns (equal when no run is in
 * progress); it does not check the CPU (after an offline its teardown runs
 * on another CPU).
 *
 * Routine `add_half` takes 1 .. 1024 "adds" and runs add_n's body with
 * arg / 2 + 8 adds: arg / 2 + 10 instructions per iteration on x86_64
 * (arg / 2 + 11 on arm64), which meets add_n's arg + 2 at 16 adds.
 *
 * Routine `shared_test` has shared data (setup_shared/teardown_shared)
 * and a setup per CPU that checks them: counters shared_setups,
 * shared_teardowns (once per run, concurrent or not: equal when no run is
 * in progress), shared_cpu_setups (one per CPU of each run) and
 * mismatches (a CPU's setup saw other shared data, an index out of range
 * or a count of CPUs other than the shared setup's).
 *
 * Routine `slow` takes 1 .. 20 "ms" (3) and mdelay()s that long an
 * iteration: over any max_window_us at N = 1 (5 iterations a window).
 *
 * Routine `rise` takes a "factor" 1 .. 100000 (1000): an iteration is one
 * pass of an empty loop, or `factor' passes during the last rise_on_ms
 * of every rise_period_ms of jiffies counted from its setup (knobs, 0644:
 * 100 and 500; a period of 0: never), so that the probe, right after the
 * setup, sees the routine's usual cost.  A routine whose cost rises many-fold for a while during a
 * run, and is the same code otherwise: with factor 1 its cost is what it
 * is outside a rise.  jiffies is read once a call, so one window sees one
 * cost.
 * Writing `reregister` registers setup_test a second time (-EEXIST in
 * reregister_err); an rmmod afterwards must complete.
 * While `hold` is set, every setup waits before it starts (`holding`
 * counts them): a setup as long as a test wants.
 *
 * On x86_64, routines `nmi_self` and `smi_self` take a "period" 0 .. 1000
 * (5): every period-th call with more than 2 iterations - the timed call
 * run(N + 2) of a window, never its reference run(2) - raises an NMI
 * (apic->send_IPI_self(NMI_VECTOR)) or an SMI (a self-IPI in SMI delivery
 * mode) on its own CPU, inside the window; 0: never.  The decision costs
 * the same instructions in every call whatever the period, so a run's
 * clean samples do not depend on it.  Any S consecutive windows of the
 * routine then hold exactly S / period such calls when period divides S:
 * the number of samples the detectors must flag, whatever the probe and
 * the warm-up took before.  The module claims the NMIs it raised (an
 * NMI_LOCAL handler) so that none is reported as unknown; `nmis_raised`,
 * `nmis_claimed` and `smis_raised` count them.
 *
 * On arm64, routine `pnmi_self` takes the same "period" and raises the
 * PMU's interrupt instead, a pseudo-NMI where the kernel has them
 * (irqchip.gicv3_pseudo_nmi=1: arm_pmu requests it with
 * request_percpu_nmi()), an IRQ taken after the window elsewhere.  Its
 * setup creates a pinned kernel counter of CPU cycles on the run's CPU,
 * 64 bits wide (attr.config1 bit 0, "long"): the PMU driver puts it on the
 * cycle counter and sets its period to 2^63, so it never overflows by
 * itself; the teardown releases it.  The raising call sets that counter's
 * bit in PMOVSSET_EL0 (bit 31 for the cycle counter, hw.idx 0; n - 1 for
 * event counter hw.idx n), which makes the overflow interrupt pending
 * (qemu: pmovsset_write() calls pmu_update_irq()); the driver's handler
 * finds the bit, updates the count and, the period not being reached,
 * reports no sample.  `pnmis_raised` counts the interrupts raised so.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kbench.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/smp.h>
#include <linux/sysfs.h>

#ifdef CONFIG_X86_64
#include <linux/cpufeature.h>
#include <linux/percpu.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/nospec-branch.h>
#define KBENCH_BODY_INDIRECT_OK	ANNOTATE_RETPOLINE_SAFE
#endif
#if defined(CONFIG_ARM64) && defined(CONFIG_HW_PERF_EVENTS)
#define KBST_PNMI
#include <linux/bits.h>
#include <linux/perf_event.h>
#include <asm/barrier.h>
#include <asm/sysreg.h>
#endif
#include <kbench/bodies.h>

static atomic_t kbst_setups = ATOMIC_INIT(0);
static atomic_t kbst_teardowns = ATOMIC_INIT(0);
static atomic_t kbst_failures = ATOMIC_INIT(0);
static atomic_t kbst_mismatches = ATOMIC_INIT(0);
static atomic64_t kbst_last_arg = ATOMIC64_INIT(0);

static int kbst_get_atomic(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops kbst_counter_ops = {
	.get = kbst_get_atomic,
};

static int kbst_get_atomic64(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld\n", (long long)atomic64_read(kp->arg));
}

static const struct kernel_param_ops kbst_counter64_ops = {
	.get = kbst_get_atomic64,
};

module_param_cb(setups, &kbst_counter_ops, &kbst_setups, 0444);
MODULE_PARM_DESC(setups, "setups that returned 0");
module_param_cb(teardowns, &kbst_counter_ops, &kbst_teardowns, 0444);
MODULE_PARM_DESC(teardowns, "teardowns");
module_param_cb(failures, &kbst_counter_ops, &kbst_failures, 0444);
MODULE_PARM_DESC(failures, "setups that failed on purpose");
module_param_cb(mismatches, &kbst_counter_ops, &kbst_mismatches, 0444);
MODULE_PARM_DESC(mismatches, "run() or teardown() with another CPU or run's data");
module_param_cb(last_arg, &kbst_counter64_ops, &kbst_last_arg, 0444);
MODULE_PARM_DESC(last_arg, "argument of the last setup");

static int kbst_fail_errno;
module_param_named(fail_errno, kbst_fail_errno, int, 0644);
MODULE_PARM_DESC(fail_errno, "setup fails with -fail_errno (0: succeeds)");
static long kbst_fail_arg = -1;
module_param_named(fail_arg, kbst_fail_arg, long, 0644);
MODULE_PARM_DESC(fail_arg, "fail only for this argument (-1: any)");
static bool kbst_fail_msg = true;
module_param_named(fail_msg, kbst_fail_msg, bool, 0644);
MODULE_PARM_DESC(fail_msg, "a failing setup says why");
static unsigned int kbst_sleep_ms;
module_param_named(sleep_ms, kbst_sleep_ms, uint, 0644);
MODULE_PARM_DESC(sleep_ms, "setup sleeps this long first");
static unsigned int kbst_alloc_bytes = 4096;
module_param_named(alloc_bytes, kbst_alloc_bytes, uint, 0644);
MODULE_PARM_DESC(alloc_bytes, "setup allocates this much (<= 16 MiB)");

/*
 * hold: while set, every setup waits (in 20 ms sleeps, 90 s at most)
 * before it does anything, counted in holding: a routine's setup as long
 * as a test wants, ended by the test, not by a clock.
 */
static bool kbst_hold;
/* a test that failed to let go: under the hung-task detector's 120 s */
#define KBST_HOLD_MAX_MS	90000
module_param_named(hold, kbst_hold, bool, 0644);
MODULE_PARM_DESC(hold, "setups wait while this is set");
static atomic_t kbst_holding = ATOMIC_INIT(0);
module_param_cb(holding, &kbst_counter_ops, &kbst_holding, 0444);
MODULE_PARM_DESC(holding, "setups waiting at hold now");

#define KBST_MAGIC	0x6b627374

struct kbst_data {
	u32 magic;
	unsigned int cpu;	/* where setup ran: the run's CPU */
	u64 arg;
	void *mem;
};

static int kbst_setup(struct kbench_setup *s)
{
	unsigned int bytes = min_t(unsigned int, READ_ONCE(kbst_alloc_bytes),
				   SZ_16M);
	int fail = READ_ONCE(kbst_fail_errno);
	long fail_arg = READ_ONCE(kbst_fail_arg);
	struct kbst_data *d;
	unsigned int i;

	if (fail > 0 && fail < MAX_ERRNO &&
	    (fail_arg < 0 || (u64)fail_arg == s->arg)) {
		atomic_inc(&kbst_failures);
		if (READ_ONCE(kbst_fail_msg))
			scnprintf(s->msg, sizeof(s->msg),
				  "failing on purpose (fail_errno=%d)", fail);
		return -fail;
	}
	if (READ_ONCE(kbst_hold)) {
		atomic_inc(&kbst_holding);
		for (i = 0; READ_ONCE(kbst_hold) && i < KBST_HOLD_MAX_MS / 20; i++)
			msleep(20);
		atomic_dec(&kbst_holding);
	}
	if (READ_ONCE(kbst_sleep_ms))
		msleep(READ_ONCE(kbst_sleep_ms));
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->mem = kvzalloc(bytes, GFP_KERNEL);
	if (!d->mem) {
		kfree(d);
		return -ENOMEM;
	}
	d->magic = KBST_MAGIC;
	d->cpu = raw_smp_processor_id();
	d->arg = s->arg;
	if (d->cpu != s->cpu)
		atomic_inc(&kbst_mismatches);
	atomic64_set(&kbst_last_arg, s->arg);
	atomic_inc(&kbst_setups);
	s->data = d;
	s->bytes_per_iter = s->arg;
	return 0;
}

static void kbst_teardown(void *data)
{
	struct kbst_data *d = data;

	if (d->magic != KBST_MAGIC || d->cpu != raw_smp_processor_id())
		atomic_inc(&kbst_mismatches);
	d->magic = 0;
	kvfree(d->mem);
	kfree(d);
	atomic_inc(&kbst_teardowns);
}

/* Irqs off: only compare and count. */
static void kbst_run(unsigned int iterations, void *data)
{
	struct kbst_data *d = data;

	if (d->magic != KBST_MAGIC || d->cpu != raw_smp_processor_id())
		atomic_inc(&kbst_mismatches);
	while (iterations--)
		asm volatile("" : : "r" (d) : "memory");
}

/*
 * slow: mdelay(arg) an iteration - a routine far too slow for any
 * max_window_us, which kbench must refuse after the probe's first step.
 */
static int kbst_slow_setup(u64 arg, void **data)
{
	*data = (void *)(unsigned long)arg;
	return 0;
}

static void kbst_slow_run(unsigned int iterations, void *data)
{
	while (iterations--)
		mdelay((unsigned long)data);
}

static unsigned int kbst_rise_period_ms = 500;
module_param_named(rise_period_ms, kbst_rise_period_ms, uint, 0644);
MODULE_PARM_DESC(rise_period_ms, "rise: a rise every this many ms (0: none)");
static unsigned int kbst_rise_on_ms = 100;
module_param_named(rise_on_ms, kbst_rise_on_ms, uint, 0644);
MODULE_PARM_DESC(rise_on_ms, "rise: the first this many ms of each period");

/* jiffies at the last setup of `rise' (the test bed runs one at a time) */
static unsigned long kbst_rise_t0;

static int kbst_rise_setup(u64 arg, void **data)
{
	WRITE_ONCE(kbst_rise_t0, jiffies);
	*data = (void *)(unsigned long)arg;
	return 0;
}

static void kbst_rise_run(unsigned int iterations, void *data)
{
	unsigned int period = READ_ONCE(kbst_rise_period_ms);
	unsigned int ms = jiffies_to_msecs(jiffies - READ_ONCE(kbst_rise_t0));
	unsigned long reps = 1, i;

	if (period && ms % period >= period - min(period, READ_ONCE(kbst_rise_on_ms)))
		reps = (unsigned long)data;
	while (iterations--)
		for (i = 0; i < reps; i++)
			asm volatile("" : : "r" (i) : "memory");
}

static atomic_t kbst_cache_setups = ATOMIC_INIT(0);
static atomic_t kbst_cache_teardowns = ATOMIC_INIT(0);
module_param_cb(cache_setups, &kbst_counter_ops, &kbst_cache_setups, 0444);
MODULE_PARM_DESC(cache_setups, "cache_test setups that returned 0");
module_param_cb(cache_teardowns, &kbst_counter_ops, &kbst_cache_teardowns,
		0444);
MODULE_PARM_DESC(cache_teardowns, "cache_test teardowns");

static int kbst_cache_setup(u64 arg, void **data)
{
	struct kmem_cache *c;

	c = kmem_cache_create("kbst_cache", 64, 0, 0, NULL);
	if (!c)
		return -ENOMEM;
	*data = c;
	atomic_inc(&kbst_cache_setups);
	return 0;
}

static void kbst_cache_teardown(void *data)
{
	kmem_cache_destroy(data);
	atomic_inc(&kbst_cache_teardowns);
}

/* Irqs off: nothing */
static void kbst_cache_run(unsigned int iterations, void *data)
{
	while (iterations--)
		asm volatile("" : : "r" (data) : "memory");
}

/* add_half: the argument travels as the data, as add_n's */
static int kbst_half_setup(u64 arg, void **data)
{
	*data = (void *)(unsigned long)(arg / 2 + 8);
	return 0;
}

/* where kernel IBT is enforced, only the ENDBR64 variant may run */
static void kbst_half_run(unsigned int iterations, void *data)
{
#ifdef CONFIG_X86_64
	if (cpu_feature_enabled(X86_FEATURE_IBT)) {
		kbench_body_add_n_endbr(iterations, (unsigned long)data);
		return;
	}
#endif
	kbench_body_add_n(iterations, (unsigned long)data);
}

static atomic_t kbst_shared_setups = ATOMIC_INIT(0);
static atomic_t kbst_shared_teardowns = ATOMIC_INIT(0);
static atomic_t kbst_shared_cpu_setups = ATOMIC_INIT(0);
module_param_cb(shared_setups, &kbst_counter_ops, &kbst_shared_setups, 0444);
MODULE_PARM_DESC(shared_setups, "shared_test setup_shared() calls that returned 0");
module_param_cb(shared_teardowns, &kbst_counter_ops, &kbst_shared_teardowns,
		0444);
MODULE_PARM_DESC(shared_teardowns, "shared_test teardown_shared() calls");
module_param_cb(shared_cpu_setups, &kbst_counter_ops, &kbst_shared_cpu_setups,
		0444);
MODULE_PARM_DESC(shared_cpu_setups, "shared_test per-CPU setups");

struct kbst_shared {
	unsigned int nr_cpus;
	atomic_t cpus;			/* per-CPU setups of this run */
};

static int kbst_shared_setup(struct kbench_setup *s)
{
	struct kbst_shared *sh;

	if (s->shared || s->index)
		atomic_inc(&kbst_mismatches);
	sh = kzalloc(sizeof(*sh), GFP_KERNEL);
	if (!sh)
		return -ENOMEM;
	sh->nr_cpus = s->nr_cpus;
	atomic_set(&sh->cpus, 0);
	s->data = sh;
	atomic_inc(&kbst_shared_setups);
	return 0;
}

static void kbst_shared_teardown(void *shared)
{
	struct kbst_shared *sh = shared;

	/* every CPU's setup ran before, exactly once each */
	if (atomic_read(&sh->cpus) > sh->nr_cpus)
		atomic_inc(&kbst_mismatches);
	kfree(sh);
	atomic_inc(&kbst_shared_teardowns);
}

static int kbst_shared_cpu_setup(struct kbench_setup *s)
{
	struct kbst_shared *sh = s->shared;

	if (!sh || s->nr_cpus != sh->nr_cpus || s->index >= s->nr_cpus)
		atomic_inc(&kbst_mismatches);
	if (sh)
		atomic_inc(&sh->cpus);
	s->data = sh;
	atomic_inc(&kbst_shared_cpu_setups);
	return 0;
}

#ifdef CONFIG_X86_64
/*
 * nmi_self, smi_self: an NMI or an SMI raised on purpose inside a window,
 * so that a test of the detectors never waits for one to land by chance.
 */
static atomic_t kbst_nmis_raised = ATOMIC_INIT(0);
static atomic_t kbst_nmis_claimed = ATOMIC_INIT(0);
static atomic_t kbst_smis_raised = ATOMIC_INIT(0);
module_param_cb(nmis_raised, &kbst_counter_ops, &kbst_nmis_raised, 0444);
MODULE_PARM_DESC(nmis_raised, "NMIs nmi_self sent to its own CPU");
module_param_cb(nmis_claimed, &kbst_counter_ops, &kbst_nmis_claimed, 0444);
MODULE_PARM_DESC(nmis_claimed, "NMIs the module's handler took as its own");
module_param_cb(smis_raised, &kbst_counter_ops, &kbst_smis_raised, 0444);
MODULE_PARM_DESC(smis_raised, "SMIs smi_self sent to its own CPU");

/* NMIs raised on this CPU and not yet taken by kbst_nmi_handler() */
static DEFINE_PER_CPU(unsigned int, kbst_nmi_pending);

struct kbst_raise {
	unsigned int period;	/* raise in every period-th timed call */
	unsigned int calls;	/* timed calls since the last one raised */
	bool smi;
};

static int kbst_raise_setup(u64 arg, void **data, bool smi)
{
	struct kbst_raise *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return -ENOMEM;
	r->period = arg;
	r->smi = smi;
	*data = r;
	return 0;
}

static int kbst_nmi_setup(u64 arg, void **data)
{
	return kbst_raise_setup(arg, data, false);
}

static int kbst_smi_setup(u64 arg, void **data)
{
	return kbst_raise_setup(arg, data, true);
}

static void kbst_raise_teardown(void *data)
{
	kfree(data);
}

/*
 * Irqs off.  Sending the IPI takes no lock: the APIC's ICR is written
 * directly.  An SMI has no helper of its own: the ICR gets the SMI
 * delivery mode with the self shorthand (the test bed's qemu takes it;
 * real hardware need not, and this module never runs there).
 */
static void kbst_raise_run(unsigned int iterations, void *data)
{
	struct kbst_raise *r = data;
	bool raise;

	/* the same instructions in every call up to the raise itself */
	r->calls += iterations > 2;
	raise = iterations > 2 && r->calls == r->period;
	if (raise) {
		r->calls = 0;
		if (r->smi) {
			atomic_inc(&kbst_smis_raised);
			apic->icr_write(APIC_DEST_SELF | APIC_DM_SMI, 0);
		} else {
			this_cpu_inc(kbst_nmi_pending);
			atomic_inc(&kbst_nmis_raised);
			apic->send_IPI_self(NMI_VECTOR);
		}
	}
	while (iterations--)
		asm volatile("" : : "r" (r) : "memory");
}

/* NMI context: take only the NMIs this CPU raised on purpose. */
static int kbst_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (!this_cpu_read(kbst_nmi_pending))
		return NMI_DONE;
	this_cpu_dec(kbst_nmi_pending);
	atomic_inc(&kbst_nmis_claimed);
	return NMI_HANDLED;
}
#endif /* CONFIG_X86_64 */

#ifdef KBST_PNMI
/*
 * pnmi_self: the PMU's overflow interrupt raised on purpose inside a
 * window, a pseudo-NMI where the kernel uses them.
 */
static atomic_t kbst_pnmis_raised = ATOMIC_INIT(0);
module_param_cb(pnmis_raised, &kbst_counter_ops, &kbst_pnmis_raised, 0444);
MODULE_PARM_DESC(pnmis_raised, "PMU interrupts pnmi_self raised on its own CPU");

struct kbst_pnmi {
	unsigned int period;	/* raise in every period-th timed call */
	unsigned int calls;	/* timed calls since the last one raised */
	struct perf_event *event;	/* the cycles counter on the run's CPU */
};

static int kbst_pnmi_setup(struct kbench_setup *s)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.size = sizeof(attr),
		.pinned = 1,
		.config1 = 1,	/* 64-bit: overflows after 2^63 cycles */
	};
	struct kbst_pnmi *p;
	int err;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->period = s->arg;
	p->event = perf_event_create_kernel_counter(&attr, s->cpu, NULL,
						    NULL, NULL);
	if (IS_ERR(p->event)) {
		err = PTR_ERR(p->event);
		snprintf(s->msg, sizeof(s->msg),
			 "no cycles counter on CPU %u (%d)", s->cpu, err);
		kfree(p);
		return err;
	}
	/* pinned on its CPU: on a counter from now until its release */
	if (p->event->state != PERF_EVENT_STATE_ACTIVE || p->event->hw.idx < 0) {
		snprintf(s->msg, sizeof(s->msg),
			 "the cycles counter is not on the PMU of CPU %u", s->cpu);
		perf_event_release_kernel(p->event);
		kfree(p);
		return -EBUSY;
	}
	s->data = p;
	return 0;
}

static void kbst_pnmi_teardown(void *data)
{
	struct kbst_pnmi *p = data;

	perf_event_release_kernel(p->event);
	kfree(p);
}

/*
 * Irqs off.  The counter's overflow bit: the PMU driver's
 * ARMV8_IDX_TO_COUNTER(), (idx - 1) & 31; the isb makes the interrupt
 * pending before the loop (and ends qemu's translation block there).
 */
static void kbst_pnmi_run(unsigned int iterations, void *data)
{
	struct kbst_pnmi *p = data;
	bool raise;

	/* the same instructions in every call up to the raise itself */
	p->calls += iterations > 2;
	raise = iterations > 2 && p->calls == p->period;
	if (raise) {
		p->calls = 0;
		atomic_inc(&kbst_pnmis_raised);
		write_sysreg(BIT((p->event->hw.idx - 1) & 31), pmovsset_el0);
		isb();
	}
	while (iterations--)
		asm volatile("" : : "r" (p) : "memory");
}
#endif /* KBST_PNMI */

static struct kbench_routine kbst_routines[] = {
	{
		.name = "setup_test",
		.desc = "test bed: counts its setups and teardowns",
		.run = kbst_run,
		.arg = { .name = "units", .min = 0, .max = 1000000, .def = 1 },
		.setup_ctx = kbst_setup,
		.teardown = kbst_teardown,
	},
	{
		.name = "cache_test",
		.desc = "test bed: setup and teardown take cpus_read_lock()",
		.run = kbst_cache_run,
		.setup = kbst_cache_setup,
		.teardown = kbst_cache_teardown,
	},
	{
		.name = "add_half",
		.desc = "test bed: add_n with arg / 2 + 8 adds",
		.run = kbst_half_run,
		.arg = { .name = "adds", .min = 1, .max = KBENCH_ADD_N_MAX,
			 .def = 16 },
		.setup = kbst_half_setup,
	},
	{
		.name = "shared_test",
		.desc = "test bed: shared data once per run, checked per CPU",
		.run = kbst_cache_run,
		.setup_ctx = kbst_shared_cpu_setup,
		.setup_shared = kbst_shared_setup,
		.teardown_shared = kbst_shared_teardown,
	},
	{
		.name = "slow",
		.desc = "test bed: mdelay(arg) an iteration",
		.run = kbst_slow_run,
		.arg = { .name = "ms", .min = 1, .max = 20, .def = 3 },
		.setup = kbst_slow_setup,
	},
	{
		.name = "rise",
		.desc = "test bed: cost x factor for rise_on_ms of every rise_period_ms",
		.run = kbst_rise_run,
		.arg = { .name = "factor", .min = 1, .max = 100000, .def = 1000 },
		.setup = kbst_rise_setup,
	},
#ifdef CONFIG_X86_64
	{
		.name = "nmi_self",
		.desc = "test bed: an NMI on its own CPU every period-th timed call",
		.run = kbst_raise_run,
		.arg = { .name = "period", .min = 0, .max = 1000, .def = 5 },
		.setup = kbst_nmi_setup,
		.teardown = kbst_raise_teardown,
	},
	{
		.name = "smi_self",
		.desc = "test bed: an SMI on its own CPU every period-th timed call",
		.run = kbst_raise_run,
		.arg = { .name = "period", .min = 0, .max = 1000, .def = 5 },
		.setup = kbst_smi_setup,
		.teardown = kbst_raise_teardown,
	},
#endif
#ifdef KBST_PNMI
	{
		.name = "pnmi_self",
		.desc = "test bed: a PMU interrupt on its own CPU every period-th timed call",
		.run = kbst_pnmi_run,
		.arg = { .name = "period", .min = 0, .max = 1000, .def = 5 },
		.setup_ctx = kbst_pnmi_setup,
		.teardown = kbst_pnmi_teardown,
	},
#endif
};

/*
 * reregister (write-only): register setup_test once more - it is
 * registered - and keep what that returned in reregister_err (-EEXIST);
 * written while a run uses setup_test, a later rmmod must still finish.
 */
static atomic_t kbst_reregister_err = ATOMIC_INIT(0);

static int kbst_reregister(const char *val, const struct kernel_param *kp)
{
	atomic_set(&kbst_reregister_err,
		   kbench_register_routine(&kbst_routines[0]));
	return 0;
}

static const struct kernel_param_ops kbst_reregister_ops = {
	.set = kbst_reregister,
};

module_param_cb(reregister, &kbst_reregister_ops, NULL, 0200);
MODULE_PARM_DESC(reregister, "register setup_test again (it is registered)");
module_param_cb(reregister_err, &kbst_counter_ops, &kbst_reregister_err, 0444);
MODULE_PARM_DESC(reregister_err, "what the last reregister returned");

static int __init kbst_init(void)
{
	int err;

#ifdef CONFIG_X86_64
	err = register_nmi_handler(NMI_LOCAL, kbst_nmi_handler, 0,
				   "kbench_setup_test");
	if (err)
		return err;
#endif
	err = kbench_register_routines(kbst_routines, ARRAY_SIZE(kbst_routines));
#ifdef CONFIG_X86_64
	if (err)
		unregister_nmi_handler(NMI_LOCAL, "kbench_setup_test");
#endif
	return err;
}
module_init(kbst_init);

static void __exit kbst_exit(void)
{
	kbench_unregister_routines(kbst_routines, ARRAY_SIZE(kbst_routines));
#ifdef CONFIG_X86_64
	unregister_nmi_handler(NMI_LOCAL, "kbench_setup_test");
#endif
}
module_exit(kbst_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench test bed: a routine that counts its setups and teardowns");
