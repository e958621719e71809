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
 * A routine may take an argument (struct kbench_arg: a size, a count)
 * that each run chooses within the routine's range, and prepare and
 * release what run() works on around every run: setup() before it, in
 * process context, and teardown() after it, whatever ended the run.
 *
 * See Documentation/kbench.rst, kmod/examples/kbench_example.c and
 * kmod/examples/kbench_measure_example.c.
 */
#ifndef _LINUX_KBENCH_H
#define _LINUX_KBENCH_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <uapi/linux/kbench.h>

/* Room for a setup's message (struct kbench_setup), with the NUL. */
#define KBENCH_SETUP_MSG_MAX	64

/**
 * struct kbench_arg - the argument a routine takes
 * @name: its unit, 1 to KBENCH_ARG_NAME_MAX printable characters ("bytes",
 *	"adds", "nodes"); NULL (and everything else 0): no argument
 * @min: the smallest value a run may ask for
 * @max: the largest; min <= def <= max
 * @def: the value of a run that asks for none
 *
 * kbench refuses a value outside [@min, @max] before setup is called
 * (-ERANGE), and any value for a routine without an argument (-EINVAL).
 */
struct kbench_arg {
	const char *name;
	u64 min, max, def;
};

/**
 * struct kbench_setup - one run's preparation of a routine (setup_ctx())
 * @arg: the run's argument: the request's, else the routine's arg.def
 *	(0 for a routine without an argument)
 * @cpu: the CPU the run measures on; setup runs there
 * @data: out: what run() and teardown() get in this run; kbench presets
 *	it to the routine's data
 * @bytes_per_iter: out: bytes per iteration for the throughput of this
 *	run (memcpy of @arg bytes: @arg); preset to the routine's
 *	bytes_per_iter
 * @msg: out, optional: why setup failed, one line without the routine's
 *	name, which kbench adds ("above the setup_bytes_max parameter");
 *	kbench hands it to the requester with the error
 * @shared: what the routine's setup_shared() stored for the whole run
 *	(every CPU of a concurrent run), NULL without one; in
 *	setup_shared() itself: NULL
 * @index: the CPU's place in a concurrent run, 0 .. @nr_cpus - 1 (0 on
 *	one CPU and in setup_shared())
 * @nr_cpus: the CPUs of the run (1 on one CPU)
 */
struct kbench_setup {
	u64 arg;
	unsigned int cpu;
	void *data;
	u32 bytes_per_iter;
	char msg[KBENCH_SETUP_MSG_MAX];
	void *shared;
	unsigned int index;
	unsigned int nr_cpus;
};

/**
 * struct kbench_routine - a piece of code kbench measures
 * @name: unique, [a-z0-9_]{1,31}
 * @desc: one line
 * @run: executes its body exactly @iterations times, irqs off (see above)
 * @data: passed to run(), unless a setup replaces it for a run
 * @bytes_per_iter: throughput: bytes per iteration, 0 = operations
 * @arg: the argument it takes; all zero: none
 * @setup: optional; before every run that measures the routine, in
 *	process context on the run's CPU, where it may sleep and allocate:
 *	prepares what run() works on for @arg (the run's argument, else
 *	@arg.def) and stores it in *@data (preset to the routine's @data).
 *	0, or -errno: the run fails with it and teardown() is not called.
 * @setup_ctx: the same with everything in @s: the argument, the CPU,
 *	bytes_per_iter for this argument and a message on failure.  At most
 *	one of @setup and @setup_ctx.
 * @teardown: optional, only with a setup: after every run whose setup
 *	returned 0 - completed, failed, aborted by a signal, by rmmod kbench
 *	or by the CPU going offline - exactly once, in process context, with
 *	the data the setup stored; on the run's CPU, except after that CPU
 *	went offline during the run: then on another online CPU (kbench
 *	never holds up a hotplug for a run, so setup and teardown may take
 *	cpus_read_lock())
 * @setup_shared: optional: once per run, before any CPU's setup, in
 *	process context (any CPU; it may sleep and allocate): prepares what
 *	every CPU of a concurrent run shares (one cache line they all
 *	write, a lock) for @s->arg and @s->nr_cpus, and stores it in
 *	@s->data (preset to the routine's @data).  Each CPU's setup_ctx()
 *	then finds it in its @s->shared; a routine without a setup gives it
 *	to run() as its data.  A run on one CPU calls it too (nr_cpus 1).
 *	0, or -errno (with @s->msg): the run fails on every CPU.
 * @teardown_shared: optional, only with @setup_shared: exactly once per
 *	run whose setup_shared() returned 0, after every CPU's teardown(),
 *	in process context, with the data setup_shared() stored.
 *
 * Runs on different CPUs at once (separate runs, or the CPUs of one
 * concurrent run) each call setup() and get their own data; a concurrent
 * run's CPUs share setup_shared()'s.  A run holds a reference on the
 * owner module from before the first setup until after the last
 * teardown.
 */
struct kbench_routine {
	const char *name;
	const char *desc;
	void (*run)(unsigned int iterations, void *data);
	void *data;
	u32 bytes_per_iter;
	struct kbench_arg arg;
	int (*setup)(u64 arg, void **data);
	int (*setup_ctx)(struct kbench_setup *s);
	void (*teardown)(void *data);
	int (*setup_shared)(struct kbench_setup *s);
	void (*teardown_shared)(void *shared);

	/* private to kbench after this point */
	struct module *owner;
	struct list_head node;
	atomic_t users;			/* measurements using this routine */
	u32 flags;			/* enum kbench_routine_flags */
};

int __kbench_register_routine(struct kbench_routine *r, struct module *owner);
void kbench_unregister_routine(struct kbench_routine *r);
int __kbench_register_routines(struct kbench_routine *r, unsigned int n,
			       struct module *owner);
void kbench_unregister_routines(struct kbench_routine *r, unsigned int n);

/**
 * kbench_register_routine() - make a routine available to kbench
 * @r: the routine; must stay valid until kbench_unregister_routine()
 *
 * Return: 0, -EEXIST if the name is taken, -EINVAL for a bad name, a NULL
 * run() or an inconsistent argument, setup or teardown (see struct
 * kbench_routine).  The calling module is pinned while a measurement uses
 * @r.
 */
#define kbench_register_routine(r) __kbench_register_routine((r), THIS_MODULE)

/**
 * kbench_register_routines() - register @n routines, all or none
 * @r: an array of @n routines
 * @n: how many
 *
 * Return: 0, or the first error of kbench_register_routine(), with the
 * routines registered before it unregistered again.
 */
#define kbench_register_routines(r, n) \
	__kbench_register_routines((r), (n), THIS_MODULE)

#ifdef KBENCH_VARIANT
#include <linux/slab.h>

/*
 * A module built by the kit as a variant (make KBENCH_VARIANT=old,
 * kbench.mk): module_kbench_routines() registers each routine as
 * NAME_old, so that the variant loads beside the module built from the
 * changed code and one run compares them.  Its routines are not const.
 */
static inline void kbench_variant_names_free(struct kbench_routine *r,
					     unsigned int n)
{
	while (n--) {
		kfree(r[n].name);
		r[n].name = NULL;
	}
}

static inline int kbench_variant_names(struct kbench_routine *r,
				       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		r[i].name = kasprintf(GFP_KERNEL, "%s_" KBENCH_VARIANT,
				      r[i].name);
	for (i = 0; i < n; i++)
		if (!r[i].name)
			return -ENOMEM;
	return 0;
}
#else
static inline void kbench_variant_names_free(struct kbench_routine *r,
					     unsigned int n)
{
}

static inline int kbench_variant_names(struct kbench_routine *r,
				       unsigned int n)
{
	return 0;
}
#endif

/**
 * module_kbench_routines() - a module that only registers routines
 * @__routines: a static array of struct kbench_routine
 *
 * Defines the module's init and exit: init registers every routine of the
 * array (unwinding on failure), exit unregisters them in reverse order.
 * A module with more to do at load calls kbench_register_routines() and
 * kbench_unregister_routines() from its own init and exit instead.
 */
#define module_kbench_routines(__routines)				\
static typeof(__routines) *const __routines##_kbench = &(__routines);	\
static int __init __routines##_kbench_init(void)			\
{									\
	int err = kbench_variant_names(*__routines##_kbench,		\
				       ARRAY_SIZE(*__routines##_kbench)); \
									\
	if (!err)							\
		err = kbench_register_routines(*__routines##_kbench,	\
					       ARRAY_SIZE(*__routines##_kbench)); \
	if (err)							\
		kbench_variant_names_free(*__routines##_kbench,		\
					  ARRAY_SIZE(*__routines##_kbench)); \
	return err;							\
}									\
module_init(__routines##_kbench_init);					\
static void __exit __routines##_kbench_exit(void)			\
{									\
	kbench_unregister_routines(*__routines##_kbench,		\
				   ARRAY_SIZE(*__routines##_kbench));	\
	kbench_variant_names_free(*__routines##_kbench,			\
				  ARRAY_SIZE(*__routines##_kbench));	\
}									\
module_exit(__routines##_kbench_exit)

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
 * valid samples.  For modules that hand-roll get_cycles() loops
 * (tcrypt's cycle mode, find_bit_benchmark).
 *
 * Context: process context, may sleep: not with interrupts off, under
 * preempt_disable(), a spinlock or rcu_read_lock() (that is -EINVAL and
 * one warning, as far as the kernel can tell: see kbench.rst).  The
 * caller must not hold cpus_read_lock(): kbench_measure() takes it
 * (a recursive read of the hotplug lock deadlocks against a waiting
 * writer).  Sleeps until done.
 *
 * Return: 0; -EINVAL (bad arguments, or called from atomic context),
 * -E2BIG (above store_bytes_max), -ENOMEM, -EBUSY (a run already uses
 * this CPU: checked before anything is allocated), -ESHUTDOWN (kbench is
 * being unloaded), -ENODEV (the CPU went offline), -ERANGE (the routine's
 * window at N = 1, or at @iterations, is over max_window_us, or windows
 * kept exceeding it), -ENODATA (no valid sample: every one was flagged;
 * @res is filled all the same, its excluded_by[] counts say why),
 * -ETIME (max_run_ms reached: @res is partial if any round was taken,
 * else untouched), -EINTR (a fatal signal).
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
