// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: exact timing of kernel routines.
 *
 * Runs registered routines on a chosen CPU with preemption and interrupts
 * off, reads the CPU counter directly and reports net cycles per iteration
 * over the "kbench" generic netlink family.  See Documentation/kbench.rst.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "kbench_internal.h"

unsigned int kbench_max_samples = KBENCH_SAMPLES_LIMIT;
unsigned int kbench_max_window_us = 1000;
unsigned int kbench_max_run_ms = 60000;
unsigned int kbench_duty_pct = 50;
unsigned int kbench_runs_kept = 8;
unsigned long kbench_store_bytes_max = 256UL << 20;
unsigned long kbench_setup_bytes_max = 256UL << 20;

module_param_named(max_samples, kbench_max_samples, uint, 0444);
MODULE_PARM_DESC(max_samples, "most samples per routine and run (<= 1000000)");
module_param_named(max_window_us, kbench_max_window_us, uint, 0444);
MODULE_PARM_DESC(max_window_us, "longest irq-off window in us (<= 20000)");
module_param_named(max_run_ms, kbench_max_run_ms, uint, 0444);
MODULE_PARM_DESC(max_run_ms, "longest run in ms; then a partial result");
module_param_named(duty_pct, kbench_duty_pct, uint, 0444);
MODULE_PARM_DESC(duty_pct, "largest share of time with irqs off, percent (1-100)");
module_param_named(runs_kept, kbench_runs_kept, uint, 0444);
MODULE_PARM_DESC(runs_kept, "completed runs kept for SAMPLES_GET (>= 1)");
module_param_named(store_bytes_max, kbench_store_bytes_max, ulong, 0444);
MODULE_PARM_DESC(store_bytes_max,
		 "memory budget of every run (in flight, kept, read by dumps) in bytes");
module_param_named(setup_bytes_max, kbench_setup_bytes_max, ulong, 0444);
MODULE_PARM_DESC(setup_bytes_max,
		 "memory the built-in routines' setups may hold at once, in bytes");

static int kbench_check_params(void)
{
	if (kbench_max_samples < 1 || kbench_max_samples > KBENCH_SAMPLES_LIMIT ||
	    kbench_max_window_us < 1 ||
	    kbench_max_window_us > KBENCH_WINDOW_US_LIMIT ||
	    kbench_max_run_ms < 1 || kbench_max_run_ms > KBENCH_RUN_MS_LIMIT ||
	    kbench_duty_pct < 1 || kbench_duty_pct > 100 ||
	    kbench_runs_kept < 1 || kbench_store_bytes_max < PAGE_SIZE ||
	    kbench_setup_bytes_max < PAGE_SIZE ||
	    kbench_setup_bytes_max > LONG_MAX) {
		pr_err("kbench: module parameter out of range\n");
		return -EINVAL;
	}
	return 0;
}

static int __init kbench_init(void)
{
	int err;

	err = kbench_check_params();
	if (err)
		return err;
	err = kbench_counter_init();
	if (err) {
		pr_err("kbench: no usable CPU counter\n");
		return err;
	}
	kbench_env_init();
	err = kbench_builtin_init();
	if (err)
		return err;
	err = kbench_measure_init();
	if (err)
		goto out_builtin;
	err = kbench_netlink_init();
	if (err)
		goto out_measure;
	return 0;

out_measure:
	kbench_measure_exit();
out_builtin:
	kbench_builtin_exit();
	return err;
}

static void __exit kbench_exit(void)
{
	/*
	 * Runs in progress end within one window, send their answers and
	 * their threads exit; new ones are refused.
	 */
	kbench_abort_all(-ESHUTDOWN);
	/* Waits for every op in flight (genetlink's cb_lock). */
	kbench_netlink_exit();
	kbench_measure_exit();
	kbench_store_exit();
	kbench_builtin_exit();
}

module_init(kbench_init);
module_exit(kbench_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("kbench developers");
MODULE_DESCRIPTION("Exact timing of kernel routines with interrupts off");
MODULE_VERSION(KBENCH_VERSION);
MODULE_ALIAS_GENL_FAMILY(KBENCH_GENL_NAME);
