// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the module parameters, read by every part of the module (a file
 * of their own, at the bottom: the parts read them, and kbench_main.c,
 * which calls every part's init and exit, checks them first).
 */
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

/* Every parameter in its range: 0, or -EINVAL (logged) before any part starts. */
int kbench_params_check(void)
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
