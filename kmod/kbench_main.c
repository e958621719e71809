// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: exact timing of kernel routines.
 *
 * Runs registered routines on a chosen CPU with preemption and interrupts
 * off, reads the CPU counter directly and reports net cycles per iteration
 * over the "kbench" generic netlink family.  See Documentation/kbench.rst.
 */
#include <linux/module.h>

#include "kbench_internal.h"

static int __init kbench_init(void)
{
	int err;

	err = kbench_params_check();
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
