// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the built-in routines.
 *
 * Instructions per iteration (what -icount shift=0 reports exactly):
 *   empty      2   the loop alone (dec; jnz): the overhead routine
 *   add_chain  6   4 dependent adds + loop
 *   mul_chain  6   4 dependent imuls + loop
 *   load_l1    6   4 dependent loads through a 512-byte ring + loop
 *   ktime_get  -   one ktime_get_ns() per iteration (clocksource dependent)
 *   rdtsc      -   one ordered counter read per iteration (compiler loop)
 * The first four share their bodies with kbenchctl's userspace twins
 * (include/kbench/bodies.h).
 */
#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>

#include <kbench/bodies.h>

#include "kbench_internal.h"

static void *kbench_l1_ring[KBENCH_L1_RING_WORDS] ____cacheline_aligned;

static void kbench_run_empty(unsigned int n, void *data)
{
	kbench_body_empty(n);
}

static void kbench_run_add_chain(unsigned int n, void *data)
{
	kbench_body_add_chain(n);
}

static void kbench_run_mul_chain(unsigned int n, void *data)
{
	kbench_body_mul_chain(n);
}

static void kbench_run_load_l1(unsigned int n, void *data)
{
	kbench_body_load_l1(n, data);
}

static void kbench_run_ktime_get(unsigned int n, void *data)
{
	while (n--)
		(void)ktime_get_ns();
}

static void kbench_run_rdtsc(unsigned int n, void *data)
{
	while (n--)
		(void)kbench_ctr_read();
}

struct kbench_routine kbench_builtin_empty = {
	.name = "empty",
	.desc = "the loop alone: 2 instructions per iteration (overhead)",
	.run = kbench_run_empty,
	.flags = KBENCH_ROUTINE_F_USER_TWIN,
};

static struct kbench_routine kbench_builtins[] = {
	{
		.name = "add_chain",
		.desc = "4 dependent register adds: 6 instructions per iteration",
		.run = kbench_run_add_chain,
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
	},
	{
		.name = "mul_chain",
		.desc = "4 dependent multiplies: 6 instructions per iteration",
		.run = kbench_run_mul_chain,
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
	},
	{
		.name = "load_l1",
		.desc = "4 dependent loads in an L1-resident ring: 6 instructions per iteration",
		.run = kbench_run_load_l1,
		.data = kbench_l1_ring,
		.bytes_per_iter = 4 * sizeof(void *),
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
	},
	{
		.name = "ktime_get",
		.desc = "one ktime_get_ns() per iteration",
		.run = kbench_run_ktime_get,
	},
	{
		.name = "rdtsc",
		.desc = "one ordered counter read per iteration",
		.run = kbench_run_rdtsc,
	},
};

int kbench_builtin_init(void)
{
	int i, err;

	kbench_body_load_l1_ring_init(kbench_l1_ring);

	err = kbench_register_routine(&kbench_builtin_empty);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(kbench_builtins); i++) {
		err = kbench_register_routine(&kbench_builtins[i]);
		if (err)
			goto out_unregister;
	}
	return 0;

out_unregister:
	while (--i >= 0)
		kbench_unregister_routine(&kbench_builtins[i]);
	kbench_unregister_routine(&kbench_builtin_empty);
	return err;
}

void kbench_builtin_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(kbench_builtins) - 1; i >= 0; i--)
		kbench_unregister_routine(&kbench_builtins[i]);
	kbench_unregister_routine(&kbench_builtin_empty);
}
