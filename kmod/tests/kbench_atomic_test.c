// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_atomic_test: kbench_measure() from contexts that must not sleep,
 * for the test bed only (KBENCH_TEST_MODULES=m).  Its init calls
 * kbench_measure() under preempt_disable(), a spinlock, rcu_read_lock()
 * and with interrupts off - each must return -EINVAL at once, the first
 * with kbench's one WARN_ON_ONCE - and then once from process context,
 * which must measure (0).  The results stay in read-only parameters
 * (/sys/module/kbench_atomic_test/parameters/): preempt, spin, rcu, irq,
 * process.  A context the kernel cannot see (preempt_disable() without
 * CONFIG_PREEMPT_COUNT) is not tried: its parameter reads 1.  What the
 * process-context measurement took and flagged, whatever it returned
 * (-ENODATA: every sample flagged): process_samples, process_valid and
 * process_excluded, its excluded samples by reason (struct kbench_result's
 * excluded_by[], indexed by the bit number of the sample flag).
 *
 * The warning is on purpose: load this module only in a VM boot of its
 * own, with panic_on_warn=0 (tests/selftests/kbench_atomic_test.sh).
 */
#include <linux/kbench.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static int kbat_preempt = 1, kbat_spin = 1, kbat_rcu = 1, kbat_irq = 1;
static int kbat_process = 1;
module_param_named(preempt, kbat_preempt, int, 0444);
MODULE_PARM_DESC(preempt, "kbench_measure() under preempt_disable()");
module_param_named(spin, kbat_spin, int, 0444);
MODULE_PARM_DESC(spin, "kbench_measure() under a spinlock");
module_param_named(rcu, kbat_rcu, int, 0444);
MODULE_PARM_DESC(rcu, "kbench_measure() under rcu_read_lock()");
module_param_named(irq, kbat_irq, int, 0444);
MODULE_PARM_DESC(irq, "kbench_measure() with interrupts off");
module_param_named(process, kbat_process, int, 0444);
MODULE_PARM_DESC(process, "kbench_measure() from process context");
static unsigned int kbat_samples, kbat_valid;
static unsigned int kbat_excluded[KBENCH_RESULT_REASONS];
static unsigned int kbat_nreasons = KBENCH_RESULT_REASONS;
module_param_named(process_samples, kbat_samples, uint, 0444);
MODULE_PARM_DESC(process_samples, "samples the process-context measurement took");
module_param_named(process_valid, kbat_valid, uint, 0444);
MODULE_PARM_DESC(process_valid, "of them, those without a flag");
module_param_array_named(process_excluded, kbat_excluded, uint,
			 &kbat_nreasons, 0444);
MODULE_PARM_DESC(process_excluded,
		 "its excluded samples by reason (the sample flag's bit number)");

static DEFINE_SPINLOCK(kbat_lock);

static void kbat_loop(unsigned int iterations, void *data)
{
	while (iterations--)
		asm volatile("" : : "r" (data) : "memory");
}

/*
 * 200 samples of N = 1000: what is tested here is the context, not the
 * figure, but the measurement from process context must succeed, and
 * with N = 100 it often did not in plain TCG on ppc64le: gcc makes the
 * empty loop 25 `bdnz` to itself there (4 iterations each), a net of a
 * few dozen timebase ticks, and the reasonableness test flags a sample
 * whose reference span T(2) exceeds the shortest by two counter steps
 * plus half the net (KBENCH_REFERENCE_NET_SHARE): emulated mftb reads
 * vary more than that, so 164-200 of the 200 samples were flagged
 * `reference' and all of them (-ENODATA) in 6 of 30 tries with a busy
 * loop on the host and 11 of 30 without.  At N = 1000 none of 20 tries
 * was, with 188-200 samples valid; x86_64's loop (sub, jae per
 * iteration at ~2.6 GHz) kept all 200 at N = 100.  The parameter
 * `iterations' sets N (for such sweeps).
 */
static unsigned int kbat_iterations = 1000;
module_param_named(iterations, kbat_iterations, uint, 0444);
MODULE_PARM_DESC(iterations, "N of each measurement (default 1000)");

static int kbat_measure(struct kbench_result *res)
{
	return kbench_measure(kbat_loop, kbat_iterations, NULL, 200, res);
}

static int __init kbat_init(void)
{
	struct kbench_result res = {};
	unsigned long flags;
	unsigned int i;

	if (IS_ENABLED(CONFIG_PREEMPT_COUNT)) {
		preempt_disable();
		kbat_preempt = kbat_measure(&res);
		preempt_enable();
	}
	if (IS_ENABLED(CONFIG_PREEMPT_COUNT) || IS_ENABLED(CONFIG_PREEMPT_RT)) {
		spin_lock(&kbat_lock);
		kbat_spin = kbat_measure(&res);
		spin_unlock(&kbat_lock);
	}
	if (IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		rcu_read_lock();
		kbat_rcu = kbat_measure(&res);
		rcu_read_unlock();
	}
	local_irq_save(flags);
	kbat_irq = kbat_measure(&res);
	local_irq_restore(flags);
	memset(&res, 0, sizeof(res));
	kbat_process = kbat_measure(&res);
	kbat_samples = res.samples;
	kbat_valid = res.valid;
	for (i = 0; i < KBENCH_RESULT_REASONS; i++)
		kbat_excluded[i] = res.excluded_by[i];
	return 0;
}

static void __exit kbat_exit(void)
{
}

module_init(kbat_init);
module_exit(kbat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench test bed: kbench_measure() from atomic context");
