// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_measure_example: how a module times its own code with
 * kbench_measure(), and a routine that shows the reasonableness test.
 *
 *   insmod kbench_measure_example.ko [iterations=1000] [samples=100]
 *   dmesg | grep kbench_measure_example
 *
 * At load it measures, on the CPU insmod runs on:
 *
 *   add_chain  4 dependent adds and the loop: 6 instructions per
 *              iteration (the body of kbench's built-in add_chain)
 *   stall_ref  the same loop, but the reference call of every 10th window
 *              (the call with 2 iterations, T(2)) first runs 1000
 *              iterations of the empty loop: exactly one sample in 10 is
 *              flagged `reference' and excluded, and the others still
 *              give 6 instructions per iteration
 *
 * and prints what kbench_measure() reported.  The figures also stay in
 * /sys/module/kbench_measure_example/parameters/ (read-only) for the
 * selftests, which check them against the instruction counts under
 * qemu -icount.  stall_ref is registered as a routine too, so a RUN shows
 * the same: kbenchctl run stall_ref --iterations 1000 --samples 100.
 */
#include <linux/kbench.h>
#include <linux/log2.h>
#include <linux/module.h>

#include <kbench/bodies.h>

/* Every STALL_EVERY-th window's reference call stalls ... */
#define KBENCH_MX_STALL_EVERY	10
/* ... for this many iterations of the empty loop (2 instructions each). */
#define KBENCH_MX_STALL_ITERS	1000
/* struct kbench_result counts excluded samples by flag bit. */
#define KBENCH_MX_REFERENCE	ilog2(KBENCH_SAMPLE_F_REFERENCE)

static unsigned int iterations = 1000;
module_param(iterations, uint, 0444);
MODULE_PARM_DESC(iterations, "iterations per sample (0: adaptive)");
static unsigned int samples = 100;
module_param(samples, uint, 0444);
MODULE_PARM_DESC(samples, "samples per measurement");

/* Results, read-only: what kbench_measure() returned at load. */
static long add_chain_min_milli, add_chain_median_milli;
static unsigned int add_chain_valid;
static long stall_ref_net_min, stall_ref_net_median, stall_ref_net_max;
static long stall_ref_min_milli, stall_ref_median_milli;
static unsigned int stall_ref_valid, stall_ref_excluded_reference;
module_param(add_chain_min_milli, long, 0444);
module_param(add_chain_median_milli, long, 0444);
module_param(add_chain_valid, uint, 0444);
module_param(stall_ref_net_min, long, 0444);
module_param(stall_ref_net_median, long, 0444);
module_param(stall_ref_net_max, long, 0444);
module_param(stall_ref_min_milli, long, 0444);
module_param(stall_ref_median_milli, long, 0444);
module_param(stall_ref_valid, uint, 0444);
module_param(stall_ref_excluded_reference, uint, 0444);

static void kbench_mx_add_chain(unsigned int n, void *data)
{
	kbench_body_add_chain(n);
}

static unsigned int kbench_mx_calls;

/*
 * A window calls a routine twice, T(2) then T(N + 2), so the reference
 * calls are the odd-numbered ones: call 2w - 1 is window w's.  Both calls
 * take the same path (count, compare, no stall), so it cancels in the
 * net; only the stalled reference calls differ.
 */
static void kbench_mx_stall_ref(unsigned int n, void *data)
{
	if (++kbench_mx_calls % (2 * KBENCH_MX_STALL_EVERY) ==
	    2 * KBENCH_MX_STALL_EVERY - 1)
		kbench_body_empty(KBENCH_MX_STALL_ITERS);
	kbench_body_add_chain(n);
}

static struct kbench_routine kbench_mx_routine = {
	.name = "stall_ref",
	.desc = "add_chain; every 10th window's T(2) call stalls (reference test)",
	.run = kbench_mx_stall_ref,
};

static void kbench_mx_report(const char *name, const struct kbench_result *r)
{
	pr_info("kbench_measure_example: %s: min %lld.%03lld, median %lld.%03lld %s ticks per iteration, %u of %u samples valid, %u excluded by the reference test (N = %u)\n",
		name, r->per_iter_min_milli / 1000,
		r->per_iter_min_milli % 1000, r->per_iter_median_milli / 1000,
		r->per_iter_median_milli % 1000, r->counter, r->valid,
		r->samples, r->excluded_by[KBENCH_MX_REFERENCE], r->iterations);
}

static int __init kbench_mx_init(void)
{
	struct kbench_result res;
	int err;

	err = kbench_measure(kbench_mx_add_chain, iterations, NULL, samples,
			     &res);
	if (err)
		return err;
	kbench_mx_report("add_chain", &res);
	add_chain_min_milli = res.per_iter_min_milli;
	add_chain_median_milli = res.per_iter_median_milli;
	add_chain_valid = res.valid;

	kbench_mx_calls = 0;
	err = kbench_measure(kbench_mx_stall_ref, iterations, NULL, samples,
			     &res);
	if (err)
		return err;
	kbench_mx_report("stall_ref", &res);
	stall_ref_net_min = res.net_min;
	stall_ref_net_median = res.net_median;
	stall_ref_net_max = res.net_max;
	stall_ref_min_milli = res.per_iter_min_milli;
	stall_ref_median_milli = res.per_iter_median_milli;
	stall_ref_valid = res.valid;
	stall_ref_excluded_reference = res.excluded_by[KBENCH_MX_REFERENCE];

	return kbench_register_routine(&kbench_mx_routine);
}

static void __exit kbench_mx_exit(void)
{
	kbench_unregister_routine(&kbench_mx_routine);
}

module_init(kbench_mx_init);
module_exit(kbench_mx_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("kbench developers");
MODULE_DESCRIPTION("kbench_measure() example: time a loop from a module's init");
