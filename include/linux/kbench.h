/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: in-kernel API for modules that register routines to be timed
 * (kbench_register_routine()) or time them themselves (kbench_measure()).
 *
 * A routine executes its body exactly @iterations times.  kbench calls it
 * with interrupts and preemption disabled, so run() must not sleep, take
 * sleeping locks, allocate or print.  Fixed costs (the call, loop set-up)
 * cancel out: kbench times run(2) and run(N + 2) and keeps the difference.
 *
 * See Documentation/kbench.rst, kmod/examples/kbench_example.c and
 * kmod/examples/kbench_measure_example.c.
 */
#ifndef _LINUX_KBENCH_H
#define _LINUX_KBENCH_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <uapi/linux/kbench.h>

struct kbench_routine {
	const char *name;		/* unique, [a-z0-9_]{1,31} */
	const char *desc;		/* one line */
	void (*run)(unsigned int iterations, void *data);
	void *data;			/* passed to run() */
	u32 bytes_per_iter;		/* throughput: bytes per iteration, 0 = ops */

	/* private to kbench after this point */
	struct module *owner;
	struct list_head node;
	atomic_t users;			/* measurements using this routine */
	u32 flags;			/* enum kbench_routine_flags */
};

int __kbench_register_routine(struct kbench_routine *r, struct module *owner);
void kbench_unregister_routine(struct kbench_routine *r);

/**
 * kbench_register_routine() - make a routine available to kbench
 * @r: the routine; must stay valid until kbench_unregister_routine()
 *
 * Return: 0, -EEXIST if the name is taken, -EINVAL for a bad name or a NULL
 * run().  The calling module is pinned while a measurement uses @r.
 */
#define kbench_register_routine(r) __kbench_register_routine((r), THIS_MODULE)

/* Excluded samples are counted by reason: one slot per sample flag bit. */
#define KBENCH_RESULT_REASONS	16

/**
 * struct kbench_result - what kbench_measure() measured
 * @samples: samples taken (fewer than asked only with -ETIME)
 * @valid: samples without a flag: the figures below are over these
 * @excluded: @samples - @valid
 * @excluded_by: excluded samples by reason, indexed by the bit number of
 *	the flag: excluded_by[ilog2(KBENCH_SAMPLE_F_REFERENCE)] (enum
 *	kbench_sample_flags); a sample with two flags counts under both
 * @net_min: smallest net counter ticks of a sample, T(N + 2) - T(2)
 * @net_median: lower median of the net ticks
 * @net_max: largest net ticks
 * @net_sum: sum of the net ticks (the exact mean is @net_sum / @valid)
 * @per_iter_min_milli: @net_min per iteration in thousandths of a tick,
 *	rounded half away from zero (6000 means 6.000 ticks)
 * @per_iter_median_milli: the same of @net_median
 * @corr_min_milli: @per_iter_min_milli minus that of the empty loop
 *	measured interleaved (the overhead routine), clamped at 0
 * @corr_median_milli: the same of the medians
 * @flags: enum kbench_result_flags
 * @iterations: N, the iterations per sample (chosen when 0 was passed)
 * @cpu: the CPU measured on
 * @status: enum kbench_run_status
 * @counter_hz: ticks per second of the counter
 * @counter: its name ("tsc", "cntvct", "timebase")
 * @elapsed_ns: how long the measurement took
 *
 * The structure only grows: fields are appended, never moved.
 */
struct kbench_result {
	u32 samples;
	u32 valid;
	u32 excluded;
	u32 excluded_by[KBENCH_RESULT_REASONS];
	s64 net_min;
	s64 net_median;
	s64 net_max;
	s64 net_sum;
	s64 per_iter_min_milli;
	s64 per_iter_median_milli;
	s64 corr_min_milli;
	s64 corr_median_milli;
	u32 flags;
	u32 iterations;
	u32 cpu;
	u32 status;
	u64 counter_hz;
	const char *counter;
	u64 elapsed_ns;
};

/* The size of the first struct kbench_result: the least __kbench_measure() takes. */
#define KBENCH_RESULT_SIZE_V1	(offsetof(struct kbench_result, elapsed_ns) + \
				 sizeof(u64))

int __kbench_measure(void (*run)(unsigned int iterations, void *data),
		     unsigned int iterations, void *data, unsigned int samples,
		     struct kbench_result *res, size_t res_size);

/**
 * kbench_measure() - time a routine on this CPU, the way a RUN does
 * @run: executes its body exactly @iterations times (see above)
 * @iterations: N per sample; 0 chooses N (the adaptive rule of a RUN)
 * @data: passed to @run
 * @samples: samples to take, 1 .. the max_samples module parameter
 * @res: filled on success (and with the partial result on -ETIME)
 *
 * Measures @run on the CPU the caller runs on, with the windows, gaps,
 * sample flags, limits and abort rules of a RUN: the `empty` overhead
 * routine is interleaved, @res holds the exact integer summary of the
 * valid samples.  Process context; sleeps until done.  For modules that
 * hand-roll get_cycles() loops (tcrypt's cycle mode, find_bit_benchmark).
 *
 * Return: 0; -EINVAL (bad arguments), -E2BIG (above store_bytes_max),
 * -ENOMEM, -EBUSY (a run already uses this CPU), -ENODEV (the CPU went
 * offline), -ERANGE (a window would exceed max_window_us, or kept doing
 * so), -ETIME (max_run_ms reached: @res is partial if any round was
 * taken, else untouched), -EINTR (a fatal signal).
 */
static inline int kbench_measure(void (*run)(unsigned int iterations,
					     void *data),
				 unsigned int iterations, void *data,
				 unsigned int samples,
				 struct kbench_result *res)
{
	return __kbench_measure(run, iterations, data, samples, res,
				sizeof(*res));
}

#endif /* _LINUX_KBENCH_H */
