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
 * CONFIG_PREEMPT_COUNT) is not tried: its parameter reads 1.
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

static DEFINE_SPINLOCK(kbat_lock);

static void kbat_loop(unsigned int iterations, void *data)
{
	while (iterations--)
		asm volatile("" : : "r" (data) : "memory");
}

/*
 * 200 samples: in plain TCG on a loaded host the reasonableness test
 * flagged all of 10 (ppc64le: -ENODATA, no valid sample), and what is
 * tested here is the context, not the figure.
 */
static int kbat_measure(void)
{
	struct kbench_result res;

	return kbench_measure(kbat_loop, 100, NULL, 200, &res);
}

static int __init kbat_init(void)
{
	unsigned long flags;

	if (IS_ENABLED(CONFIG_PREEMPT_COUNT)) {
		preempt_disable();
		kbat_preempt = kbat_measure();
		preempt_enable();
	}
	if (IS_ENABLED(CONFIG_PREEMPT_COUNT) || IS_ENABLED(CONFIG_PREEMPT_RT)) {
		spin_lock(&kbat_lock);
		kbat_spin = kbat_measure();
		spin_unlock(&kbat_lock);
	}
	if (IS_ENABLED(CONFIG_PREEMPT_RCU)) {
		rcu_read_lock();
		kbat_rcu = kbat_measure();
		rcu_read_unlock();
	}
	local_irq_save(flags);
	kbat_irq = kbat_measure();
	local_irq_restore(flags);
	kbat_process = kbat_measure();
	return 0;
}

static void __exit kbat_exit(void)
{
}

module_init(kbat_init);
module_exit(kbat_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench test bed: kbench_measure() from atomic context");
