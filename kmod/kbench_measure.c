// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: runs - the kernel's world around the shared engine
 * (include/kbench/engine.h).
 *
 * A run executes in a kthread bound to the requested CPU.  Each sample is one
 * window with preemption and interrupts off (the counter's window function,
 * kbench_counter_<arch>.c); between windows interrupts are on for at least
 * (100 - duty_pct)% of the time, the CPU is yielded (cond_resched()) and
 * abort requests are honoured.  Nothing inside a window allocates, sleeps,
 * locks or prints.  RUN requests (kbench_netlink.c) and kbench_measure()
 * (below) both come here.
 */
#include <linux/anon_inodes.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/freezer.h>
#include <linux/kthread.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <net/sock.h>

#include "kbench_internal.h"

#define KBENCH_PROGRESS_NS		(250 * NSEC_PER_MSEC)
/* Gaps are slept in slices of at most this: an abort ends one early. */
#define KBENCH_GAP_SLICE_US		10000

static DEFINE_SPINLOCK(kbench_cpu_lock);
static DEFINE_PER_CPU(struct kbench_run *, kbench_cpu_run);
static bool kbench_shutting_down;
static atomic_t kbench_next_id = ATOMIC_INIT(0);
static enum cpuhp_state kbench_hp_state;

/* The error that ends @run now: its own abort, or its group's. */
int kbench_run_aborted(struct kbench_run *run)
{
	int err = atomic_read(&run->abort);

	if (!err && run->group)
		err = atomic_read(&run->group->err);
	return err;
}

static void kbench_group_abort(struct kbench_group *g, u32 index, int err)
{
	if (!atomic_cmpxchg(&g->err, 0, err))
		g->cause = index;
	/* no CPU waits at the rendezvous or in agree() any more */
	WRITE_ONCE(g->rv.abort, 1);
	wake_up_all(&g->wq);
}

/**
 * kbench_run_abort() - ask @run to end within one window with @err
 * @run: a run in flight
 * @err: -errno; the first one asked for stays
 *
 * A run of a concurrent group ends the whole group: every CPU's run.
 * Any context but NMI: takes no lock but the group's wait queue's.
 */
void kbench_run_abort(struct kbench_run *run, int err)
{
	atomic_cmpxchg(&run->abort, 0, err);
	if (run->group)
		kbench_group_abort(run->group, run->group_index, err);
}

/* The kernel's side of a run in the engine (include/kbench/engine.h). */
struct kbench_world {
	struct kbench_run *run;
	u64 t_start;
	u64 next_progress;
};

/*
 * Give the CPU back after window @w: interrupts stay on until the windows'
 * share of time is at most duty_pct, and the scheduler may run anything
 * else that is waiting (cond_resched(), also an RCU quiescent state where
 * RCU is not preemptible).  The gap of a long flagged window at a low duty
 * can be long: it is slept in slices, and an abort request ends it.
 */
static void kbench_gap(struct kbench_engine *e, const struct kbench_window *w)
{
	struct kbench_world *world = e->ctx;
	/* a concurrent run's wait at the rendezvous was irq-off time too */
	u64 off = w->len + (e->extra.sync ? e->extra.sync->wait : 0);
	u64 gap = kbench_gap_ticks(off, kbench_duty_pct);
	u64 gap_ns = kbench_ticks_to_ns(gap, kbench_counter.hz);
	u64 end = w->start + w->len, us, slice;

	/* the CPU went away (kbench_cpu_offline()): no more windows */
	if (raw_smp_processor_id() != world->run->cpu)
		kbench_run_abort(world->run, -ENODEV);
	if (gap_ns > 50 * NSEC_PER_USEC) {
		for (us = gap_ns / NSEC_PER_USEC; us; us -= slice) {
			if (kbench_run_aborted(world->run))
				break;
			slice = min_t(u64, us, KBENCH_GAP_SLICE_US);
			usleep_range(slice, slice + 10);
		}
	} else {
		while (kbench_counter.read() - end < gap)
			cpu_relax();
	}
	cond_resched();
	/* suspend: the thread is frozen here, between windows */
	try_to_freeze();
}

/*
 * Between rounds: an abort request, or the run's time is up; and progress
 * notifications during the samples phase of a RUN (an in-kernel
 * kbench_measure() has no netlink port: portid 0).
 */
static int kbench_check(struct kbench_engine *e)
{
	struct kbench_world *world = e->ctx;
	struct kbench_run *run = world->run;
	int err = kbench_run_aborted(run);
	u64 now;

	if (err)
		return err;
	now = ktime_get_ns();
	if (now >= run->deadline_ns) {
		/*
		 * The other CPUs of a group see the same deadline at their
		 * next check (after the round, or the probe's or fit's step,
		 * they are in): until then none waits at the rendezvous for
		 * this one, which takes no more windows.
		 */
		if (run->group)
			WRITE_ONCE(run->group->rv.abort, 1);
		return -ETIME;
	}
	if (run->portid && e->done && e->done < e->total &&
	    now >= world->next_progress) {
		kbench_progress_notify(run, e->done, e->total,
				       now - world->t_start);
		world->next_progress = now + KBENCH_PROGRESS_NS;
	}
	return 0;
}

static const struct kbench_engine_ops kbench_engine_ops = {
	.gap = kbench_gap,
	.check = kbench_check,
};

/* The round @round of agree() is over, or the group ends. */
static bool kbench_agreed(struct kbench_run *run, u32 round)
{
	return kbench_rounds_over(&run->group->agree, round) ||
	       kbench_run_aborted(run);
}

/*
 * A concurrent run after its probe, and at each step of its fit with the
 * CPUs together (kbench_engine_sync_fit()): report this CPU's N and wait,
 * asleep with interrupts on, for every CPU of the group to report; then
 * all take the smallest.  Each call is one round (kbench_rounds_report()).
 * Any run's error or abort wakes
 * every waiter and ends the group (kbench_group_abort()): no thread
 * waits for one that will not come.
 */
static int kbench_agree(struct kbench_engine *e)
{
	struct kbench_world *world = e->ctx;
	struct kbench_run *run = world->run;
	struct kbench_group *g = run->group;
	u32 round;
	int err;

	spin_lock(&g->lock);
	round = kbench_rounds_report(&g->agree, e->iterations, g->nr);
	spin_unlock(&g->lock);
	wake_up_all(&g->wq);
	/* a kthread takes no signal: only the freezer interrupts the wait */
	do {
		err = kbench_run_aborted(run);
		if (err)
			return err;
		wait_event_freezable(g->wq, kbench_agreed(run, round));
	} while (!kbench_rounds_over(&g->agree, round));
	err = kbench_run_aborted(run);
	if (err)
		return err;
	spin_lock(&g->lock);
	e->iterations = g->agree.agreed_n;
	spin_unlock(&g->lock);
	return 0;
}

static const struct kbench_engine_ops kbench_group_ops = {
	.gap = kbench_gap,
	.check = kbench_check,
	.agree = kbench_agree,
};

/* @ticks of the run's counter in microseconds, rounded to nearest. */
static u64 kbench_ticks_to_us(u64 ticks)
{
	return DIV_ROUND_CLOSEST_ULL(kbench_ticks_to_ns(ticks,
							kbench_counter.hz),
				     NSEC_PER_USEC);
}

/*
 * Why the engine refused @run (-ERANGE), into run->msg: the routine, the
 * window measured (the shortest of the probe's, or the last long one) or
 * predicted for the requested N (the ITERATIONS attribute is named), and
 * the limit: at most NETLINK_MAX_FMTMSG_LEN (80) bytes.
 */
static void kbench_range_msg(struct kbench_run *run,
			     const struct kbench_engine *e)
{
	const char *name = run->series[e->range_series].name;

	switch (e->range) {
	case KBENCH_RANGE_SLOW:
		scnprintf(run->msg, sizeof(run->msg),
			  "routine '%s' takes %llu us a window at N=%u, over max_window_us=%u",
			  name, kbench_ticks_to_us(e->range_len), e->range_n,
			  run->u32[KBENCH_A_RUN_MAX_WINDOW_US]);
		break;
	case KBENCH_RANGE_FIXED:
		scnprintf(run->msg, sizeof(run->msg),
			  "routine '%s' would take %llu us a window, over max_window_us=%u",
			  name, kbench_ticks_to_us(e->range_want_len),
			  run->u32[KBENCH_A_RUN_MAX_WINDOW_US]);
		break;
	case KBENCH_RANGE_LONG:
		scnprintf(run->msg, sizeof(run->msg),
			  "routine '%s': windows of %llu us in a row, over max_window_us=%u",
			  name, kbench_ticks_to_us(e->range_len),
			  run->u32[KBENCH_A_RUN_MAX_WINDOW_US]);
		break;
	}
}

/* the sample flags' names by bit (include/kbench/schema.h) */
static const char *const kbench_flag_names[] = {
#define KBENCH_EXCL(bit, id, key, flag, attr) \
	[bit] = key,
#include <kbench/schema.h>
};

/*
 * A series of @run without a valid sample, into run->msg: how
 * many it took and the reason most of them were excluded for.
 */
static void kbench_no_valid_msg(struct kbench_run *run, u32 i)
{
	const struct kbench_series *s = &run->series[i];
	u32 count[ARRAY_SIZE(kbench_flag_names)] = { }, k, bit, top = 0;

	for (k = 0; k < s->eng.taken; k++)
		for (bit = 0; bit < ARRAY_SIZE(count); bit++)
			count[bit] += !!(s->eng.flags[k] & BIT(bit));
	for (bit = 1; bit < ARRAY_SIZE(count); bit++)
		if (count[bit] > count[top])
			top = bit;
	scnprintf(run->msg, sizeof(run->msg),
		  "routine '%s': none of %u samples valid (%u flagged %s)",
		  s->name, s->eng.taken, count[top], kbench_flag_names[top]);
}

/*
 * @run's bound on a window in ticks: the request's (at most the module's
 * max_window_us, kbench_run_check()), else the module's; the reply
 * echoes the one used.
 */
static u64 kbench_run_max_window(struct kbench_run *run)
{
	u32 *us = &run->u32[KBENCH_A_RUN_MAX_WINDOW_US];

	if (!*us)
		*us = kbench_max_window_us;
	return kbench_ns_to_ticks((u64)*us * NSEC_PER_USEC, kbench_counter.hz);
}

/* Take the samples of @run with the engine, on this (its) CPU. */
static int kbench_run_measure(struct kbench_run *run)
{
	struct kbench_world world = { .run = run };
	struct kbench_engine e = {
		.counter = &kbench_counter,
		.ops = &kbench_engine_ops,
		.ctx = &world,
		.nr_series = run->nr_series,
		.cpu = run->cpu,
		.samples = run->samples,
		.warmup = run->u32[KBENCH_A_RUN_WARMUP],
		.adaptive = run->adaptive,
		.iterations = run->iterations,
		.iterations_limit = KBENCH_ITERATIONS_LIMIT,
		.target = kbench_ns_to_ticks(run->target_ns, kbench_counter.hz),
		.max_window = kbench_run_max_window(run),
		.div_log = run->div_log,
	};
	struct kbench_series *s;
	u32 i;
	int err;

	if (run->group) {
		/* the rendezvous' wait and the window share max_window_us */
		e.ops = &kbench_group_ops;
		e.max_window -= run->group->rv.spin_limit;
		run->sync.rv = &run->group->rv;
		run->sync.slot = run->group_index;
		e.extra.sync = &run->sync;
	}
	for (i = 0; i < run->nr_series; i++) {
		s = &run->series[i];
		s->eng.run = s->routine->run;
		s->eng.data = s->data;
		s->eng.overhead = i == run->nr_routines;
		e.series[i] = &s->eng;
	}
	/* the events, read next to the counter (kbench_event.c) */
	e.extra.nr = run->nr_events;
	for (i = 0; i < run->nr_events; i++) {
		e.extra.row[i] = &kbench_event_row;
		e.extra.ctx[i] = run->events[i].pe;
	}
	world.t_start = ktime_get_ns();
	world.next_progress = world.t_start + KBENCH_PROGRESS_NS;
	/* a group's CPUs stop together: one deadline, from its start */
	run->deadline_ns = run->group ? run->group->deadline_ns :
			   world.t_start + (u64)kbench_max_run_ms * NSEC_PER_MSEC;

	err = kbench_engine_run(&e);
	run->window_probe = e.window_probe;
	if (err == -ERANGE)
		kbench_range_msg(run, &e);
	if (err)
		return err;
	/*
	 * A series without a valid sample: a RUN still answers (its samples
	 * and flags are the evidence, and the requester makes no figure from
	 * them); kbench_measure() fails with -ENODATA and this message.
	 */
	run->no_valid = e.no_valid;
	if (e.no_valid)
		kbench_no_valid_msg(run, e.no_valid - 1);
	run->iterations = e.iterations;
	run->iterations_min = e.iterations / e.div_max;
	run->n_changes = e.n_changes;
	run->samples_reduced = e.reduced;
	run->div_log_nr = e.div_log_nr;
	if (e.timed_out)
		run->status = KBENCH_RUN_TIMEOUT;
	run->span_cycles = e.span;
	run->routine_cycles = e.routine_ticks;
	run->window_cycles = e.window_ticks;
	run->elapsed_ns = ktime_get_ns() - world.t_start;
	return 0;
}

/* The summaries (include/kbench/summary.h) and the overhead correction. */
static int kbench_finish(struct kbench_run *run)
{
	struct kbench_series *ovh = &run->series[run->nr_routines];
	struct kbench_series *s;
	s64 *scratch;
	u32 i, x;

	/* charged with the run (kbench_run_alloc_err()): it fits */
	scratch = kvmalloc_array(max_t(u32, run->samples, 1), sizeof(*scratch),
				 GFP_KERNEL);
	if (!scratch)
		return -ENOMEM;
	for (i = 0; i < run->nr_series; i++) {
		s = &run->series[i];
		kbench_summarize(&s->sum, s->eng.net, s->eng.flags, s->eng.taken,
				 run->iterations, scratch);
		/* each event over the same valid samples, by the same code */
		for (x = 0; x < run->nr_events; x++)
			kbench_summarize(&s->xsum[x], s->eng.xnet[x],
					 s->eng.flags, s->eng.taken,
					 run->iterations, scratch);
	}
	for (i = 0; i < run->nr_routines; i++)
		kbench_correct(&run->series[i].sum, &ovh->sum);
	kvfree(scratch);
	/* a kept run does not keep the reservation */
	kbench_mem_uncharge(run->scratch_bytes);
	run->scratch_bytes = 0;
	return 0;
}

/* What a setup of series @i of @run is given (struct kbench_setup). */
static void kbench_setup_ctx(struct kbench_setup *ctx,
			     const struct kbench_run *run, u32 i)
{
	const struct kbench_series *s = &run->series[i];

	*ctx = (struct kbench_setup) {
		.arg = s->arg,
		.cpu = run->cpu,
		.data = s->routine->data,
		.bytes_per_iter = s->routine->bytes_per_iter,
		.nr_cpus = run->group ? run->group->nr : 1,
	};
}

/*
 * The end of a setup of series @i that returned @err: a failure leaves
 * the routine's message (or none) in run->msg.
 */
static int kbench_setup_end(struct kbench_run *run, u32 i,
			    struct kbench_setup *ctx, int err)
{
	/* a positive return is a bug of the routine's: still a failure */
	if (WARN_ON_ONCE(err > 0))
		err = -EINVAL;
	if (err) {
		run->setup_failed = i + 1;
		ctx->msg[sizeof(ctx->msg) - 1] = '\0';
		strscpy(run->msg, ctx->msg, sizeof(run->msg));
	}
	return err;
}

/*
 * One routine's setup, on the run's CPU before its first window.  A
 * failure leaves the routine's message (or none) in run->msg.
 */
static int kbench_series_setup(struct kbench_run *run, u32 i)
{
	struct kbench_series *s = &run->series[i];
	const struct kbench_routine *r = s->routine;
	struct kbench_setup ctx;
	int err;

	/* without a setup, run() gets the shared data, if any */
	s->data = r->setup_shared ? s->shared : r->data;
	if (!r->setup && !r->setup_ctx)
		return 0;
	kbench_setup_ctx(&ctx, run, i);
	ctx.shared = s->shared;
	ctx.index = run->group ? run->group_index : 0;
	if (r->setup_ctx) {
		err = r->setup_ctx(&ctx);
	} else {
		err = r->setup(ctx.arg, &ctx.data);
		ctx.msg[0] = '\0';
	}
	err = kbench_setup_end(run, i, &ctx, err);
	if (err)
		return err;
	s->data = ctx.data;
	s->bytes_per_iter = ctx.bytes_per_iter;
	s->set_up = true;
	return 0;
}

/*
 * One routine's setup_shared(), once for the whole run: by @run, the
 * run on one CPU or the first of a concurrent group.  A failure leaves
 * the routine's message in run->msg, as kbench_series_setup().
 */
static int kbench_series_setup_shared(struct kbench_run *run, u32 i)
{
	struct kbench_series *s = &run->series[i];
	const struct kbench_routine *r = s->routine;
	struct kbench_setup ctx;
	int err;

	if (!r->setup_shared)
		return 0;
	kbench_setup_ctx(&ctx, run, i);
	err = kbench_setup_end(run, i, &ctx, r->setup_shared(&ctx));
	if (err)
		return err;
	s->shared = ctx.data;
	s->bytes_per_iter = ctx.bytes_per_iter;
	s->shared_up = true;
	return 0;
}

/*
 * Tear down, in reverse order, what a setup of each series of @run set
 * up: its own data (@shared false) or the shared data.
 */
static void kbench_run_teardown_each(struct kbench_run *run, bool shared)
{
	void (*teardown)(void *data);
	struct kbench_series *s;
	bool *up;
	void **data;
	u32 i;

	for (i = run->nr_series; i-- > 0;) {
		s = &run->series[i];
		up = shared ? &s->shared_up : &s->set_up;
		if (!*up)
			continue;
		data = shared ? &s->shared : &s->data;
		teardown = shared ? s->routine->teardown_shared :
				    s->routine->teardown;
		if (teardown)
			teardown(*data);
		*up = false;
		*data = NULL;
	}
}

/* Exactly once for every setup_shared() of @run that returned 0. */
static void kbench_run_teardown_shared(struct kbench_run *run)
{
	kbench_run_teardown_each(run, true);
}

/* The shared data of @run's group are set up, or the group ends. */
static bool kbench_shared_ready(struct kbench_run *run)
{
	/* pairs with the release in kbench_run_setup_shared(): the data */
	return smp_load_acquire(&run->group->shared_ready) ||
	       kbench_run_aborted(run);
}

/*
 * The shared data of every routine of @run: set up by the run itself on
 * one CPU and by the first CPU's run of a group, which the others wait
 * for (asleep, abortable) and then share.
 */
static int kbench_run_setup_shared(struct kbench_run *run)
{
	struct kbench_group *g = run->group;
	u32 i;
	int err;

	if (!g || !run->group_index) {
		for (i = 0; i < run->nr_series; i++) {
			err = kbench_run_aborted(run);
			if (!err)
				err = kbench_series_setup_shared(run, i);
			if (err)
				return err;
		}
		if (g) {
			/* series[].shared written before: the others read them */
			smp_store_release(&g->shared_ready, true);
			wake_up_all(&g->wq);
		}
		return 0;
	}
	do {
		err = kbench_run_aborted(run);
		if (err)
			return err;
		wait_event_freezable(g->wq, kbench_shared_ready(run));
	/* pairs with the release above: run[0]'s series[].shared */
	} while (!smp_load_acquire(&g->shared_ready));
	for (i = 0; i < run->nr_series; i++) {
		run->series[i].shared = g->run[0]->series[i].shared;
		if (run->series[i].routine->setup_shared)
			run->series[i].bytes_per_iter =
				g->run[0]->series[i].bytes_per_iter;
	}
	return kbench_run_aborted(run);
}

/*
 * Set up every routine of @run, in order, after their shared data; stop
 * at the first failure (or an abort: rmmod, a signal, the CPU going
 * offline).  What was set up is torn down by kbench_run_teardown() (and
 * the shared data by the run itself or its group's last thread) in every
 * case.
 */
static int kbench_run_setup(struct kbench_run *run)
{
	u32 i;
	int err;

	err = kbench_run_setup_shared(run);
	if (err)
		return err;
	for (i = 0; i < run->nr_series; i++) {
		err = kbench_run_aborted(run);
		if (!err)
			err = kbench_series_setup(run, i);
		if (err)
			return err;
	}
	return 0;
}

/* Exactly once for every setup that returned 0, whatever ended the run. */
static void kbench_run_teardown(struct kbench_run *run)
{
	kbench_run_teardown_each(run, false);
	/* a group's shared data: once all its CPUs are done (group_done) */
	if (!run->group)
		kbench_run_teardown_shared(run);
}

static int kbench_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The largest and the median of @n values of @v, sorted in place. */
static void kbench_u64_stats(u64 *v, u32 n, u64 *max, u64 *median)
{
	*max = 0;
	*median = 0;
	if (!n)
		return;
	sort(v, n, sizeof(*v), kbench_u64_cmp, NULL);
	*max = v[n - 1];
	*median = v[n / 2];
}

/**
 * kbench_group_skew_bytes() - the scratch memory of a group's start skew
 * @nr: CPUs
 * @nr_series: series of each CPU's run
 * @samples: samples of each
 *
 * Charged to the budget before the group starts, with its runs, so that a
 * group that fits finishes: the skew and each CPU's lateness over every
 * sample of every series (~80 MB at 5M samples).
 *
 * Return: bytes.
 */
u64 kbench_group_skew_bytes(u32 nr, u32 nr_series, u32 samples)
{
	return 2ULL * max(nr_series * samples, 1U) * sizeof(u64) +
	       (u64)nr * (sizeof(struct kbench_engine) + sizeof(void *));
}

/*
 * The start skew of each sample of each series of group @g (the samples
 * every CPU took), flagged over g->skew_bound on every CPU
 * (kbench_engine_skew()); the skew's and each CPU's lateness' largest and
 * median values.  Before the summaries, which leave the flagged out.
 */
static int kbench_group_skew(struct kbench_group *g)
{
	u32 nr_series = g->run[0]->nr_series, taken[KBENCH_SERIES_MAX];
	struct kbench_engine **e, *eng;
	u32 c, k, j, n, total = 0;
	u64 *skew = NULL, *lo = NULL, t;
	int err = -ENOMEM;

	for (k = 0; k < nr_series; k++) {
		taken[k] = g->run[0]->series[k].eng.taken;
		for (c = 1; c < g->nr; c++)
			taken[k] = min(taken[k], g->run[c]->series[k].eng.taken);
		total += taken[k];
	}
	/* charged when the group was made (kbench_group_skew_bytes()) */
	eng = kcalloc(g->nr, sizeof(*eng), GFP_KERNEL);
	e = kcalloc(g->nr, sizeof(*e), GFP_KERNEL);
	if (!eng || !e)
		goto out;
	skew = kvmalloc_array(max(total, 1U), sizeof(*skew), GFP_KERNEL);
	lo = kvmalloc_array(max(total, 1U), sizeof(*lo), GFP_KERNEL);
	if (!skew || !lo)
		goto out;
	for (c = 0; c < g->nr; c++) {
		e[c] = &eng[c];
		for (k = 0; k < nr_series; k++)
			eng[c].series[k] = &g->run[c]->series[k].eng;
	}
	n = 0;
	g->skew_flagged = 0;
	for (k = 0; k < nr_series; k++) {
		for (j = 0; j < taken[k]; j++, n++) {
			skew[n] = kbench_engine_skew(e, g->nr, k, j,
						     g->skew_bound);
			g->skew_flagged += skew[n] > g->skew_bound;
			lo[n] = U64_MAX;
			for (c = 0; c < g->nr; c++)
				lo[n] = min(lo[n], eng[c].series[k]->start[j]);
		}
	}
	kbench_u64_stats(skew, total, &g->skew_max, &g->skew_median);
	for (c = 0; c < g->nr; c++) {
		n = 0;
		for (k = 0; k < nr_series; k++) {
			for (j = 0; j < taken[k]; j++, n++) {
				t = eng[c].series[k]->start[j];
				skew[n] = t - lo[n];
			}
		}
		kbench_u64_stats(skew, total, &g->late_max[c],
				 &g->late_median[c]);
	}
	err = 0;
out:
	kvfree(lo);
	kvfree(skew);
	kfree(e);
	kfree(eng);
	return err;
}

/*
 * The end of a thread of group @g: the last one computes the skew, the
 * summaries of every CPU's run, and calls g->complete (the reply and the
 * ack); then every run of the group is finished and the group lets go of
 * its runs.
 */
static void kbench_group_done(struct kbench_group *g)
{
	struct kbench_run *run;
	int err;
	u32 i;

	if (!atomic_dec_and_test(&g->remaining))
		return;
	/* every CPU has torn its own setups down */
	kbench_run_teardown_shared(g->run[0]);
	err = atomic_read(&g->err);
	/* a CPU's own error that did not end the group (-ECANCELED) still fails it */
	for (i = 0; i < g->nr && !err; i++)
		if (g->run[i]->err) {
			kbench_group_abort(g, i, g->run[i]->err);
			err = atomic_read(&g->err);
		}
	if (!err)
		err = kbench_group_skew(g);
	for (i = 0; i < g->nr && !err; i++)
		err = kbench_finish(g->run[i]);
	kbench_mem_uncharge(g->scratch_bytes);
	g->scratch_bytes = 0;
	if (err)
		kbench_group_abort(g, 0, err);
	err = atomic_read(&g->err);
	for (i = 0; i < g->nr; i++) {
		run = g->run[i];
		if (!run->err)
			run->err = err;
	}
	if (g->complete)
		g->complete(g);
	kvfree(g->rv.slot);
	g->rv.slot = NULL;
	for (i = 0; i < g->nr; i++)
		complete_all(&g->run[i]->finished);
	complete_all(&g->finished);
	for (i = 0; i < g->nr; i++) {
		run = g->run[i];
		g->run[i] = NULL;
		kbench_run_put(run);
	}
	kbench_group_put(g);
}

/**
 * kbench_group_alloc() - a concurrent run's group of @nr CPUs
 * @nr: 1 to KBENCH_CPUS_MAX
 *
 * The caller fills g->run[] (each run with its group reference and
 * index) and the rendezvous' spin limit and skew bound, then calls
 * kbench_group_start().  The reference returned is the group's own,
 * dropped when its last thread is done, or by the caller
 * (kbench_group_put()) if the group never starts.
 *
 * Return: the group, or NULL.
 */
struct kbench_group *kbench_group_alloc(u32 nr)
{
	struct kbench_group *g;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return NULL;
	g->rv.slot = kvcalloc(nr, sizeof(*g->rv.slot), GFP_KERNEL);
	if (!g->rv.slot) {
		kfree(g);
		return NULL;
	}
	kref_init(&g->ref);
	g->nr = nr;
	g->rv.nr = nr;
	atomic_set(&g->err, 0);
	spin_lock_init(&g->lock);
	init_waitqueue_head(&g->wq);
	g->agree.min_n = KBENCH_ROUNDS_NONE;
	init_completion(&g->finished);
	return g;
}

/*
 * A run's thread, from before its CPU is claimed until it has exited:
 * kept in kbench_inflight, which owns it, so that module exit and the
 * release of the requester's socket find every run of every group and
 * wait until its thread is past the last instruction of module text it
 * runs.  It is added to the list under kbench_cpu_lock in the same
 * section that checks kbench_shutting_down and claims the CPU, before
 * the thread exists: kbench_abort_all() cannot miss it.  Small: the run
 * itself (its samples) is the thread's until it ends, then its
 * requester's, the store's or nobody's.
 */
struct kbench_thread {
	struct list_head node;		/* in kbench_inflight */
	refcount_t ref;			/* the list's, and each waiter's */
	/* the thread's last act, or its creator's when it failed */
	struct completion done;
	/*
	 * The thread's reference, NULL (under kbench_cpu_lock) once it let
	 * go: read under the lock, the run is alive.
	 */
	struct kbench_run *run;
	u32 run_id;			/* its id, for as long as the thread lives */
	/*
	 * The requester whose socket's release ends the run: the socket
	 * itself (held), not only its port, which netlink_release() frees
	 * before the release notifier runs: another socket may bind it and
	 * send a RUN in between.
	 */
	struct sock *sk;
	const struct net *net;
	u32 portid;
	bool waited;			/* by that release already */
	struct list_head wait_node;	/* in that release's kbench_closed */
};

/*
 * The threads of runs in flight, and of runs that ended since the last
 * reap: at most one run per CPU is in flight (kbench_cpu_run).
 */
static LIST_HEAD(kbench_inflight);

static void kbench_thread_put(struct kbench_thread *t)
{
	if (!refcount_dec_and_test(&t->ref))
		return;
	if (t->sk)
		sock_put(t->sk);
	kfree(t);
}

/* A thread entry for @run; @lead holds the request (a group's run[0]). */
static struct kbench_thread *kbench_thread_alloc(struct kbench_run *run,
						 struct kbench_run *lead)
{
	struct kbench_thread *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	refcount_set(&t->ref, 1);
	init_completion(&t->done);
	t->run = run;
	t->run_id = run->id;
	if (lead->requester) {
		t->sk = lead->requester;
		sock_hold(t->sk);
		t->net = sock_net(t->sk);
		t->portid = lead->portid;
	}
	return t;
}

/* Claimed under kbench_cpu_lock: in the list, with the thread's reference */
static void kbench_thread_own(struct kbench_thread *t)
{
	lockdep_assert_held(&kbench_cpu_lock);
	kref_get(&t->run->ref);
	list_add_tail(&t->node, &kbench_inflight);
}

/*
 * A thread that will never run (its creation failed, or it was stopped
 * before it ran): its CPU free, the thread's reference dropped, done
 * for whoever waits; the list still owns the entry.
 */
static void kbench_thread_abandon(struct kbench_thread *t)
{
	struct kbench_run *run;

	spin_lock(&kbench_cpu_lock);
	run = t->run;
	t->run = NULL;
	per_cpu(kbench_cpu_run, run->cpu) = NULL;
	spin_unlock(&kbench_cpu_lock);
	kbench_run_put(run);
	complete_all(&t->done);
}

static int kbench_run_thread(void *arg)
{
	struct kbench_thread *t = arg;
	struct kbench_run *run = t->run;
	int err;

	/* the freezer stops the thread between windows (kbench_gap()) */
	set_freezable();
	if (run->group && run->group_index)
		kbench_fault_delay(KBENCH_FAULT_GROUP_LATE, run);
	err = kbench_run_setup(run);
	if (!err) {
		kbench_steal_start(run->cpu);
		err = kbench_run_measure(run);
		kbench_steal_stop(run->cpu);
	}
	/*
	 * The other CPUs stop now, not after this one's teardown; but a CPU
	 * that stopped for another (-ECANCELED: kbench_engine_sync_fit())
	 * leaves the group's error, and its explanation, to that other.
	 */
	if (run->group && err && err != -ECANCELED)
		kbench_group_abort(run->group, run->group_index, err);
	kbench_run_teardown(run);
	/* a group's last thread summarizes, after the skew */
	if (!run->group && !err)
		err = kbench_finish(run);
	run->err = err;
	if (run->group && run->group_index)
		kbench_fault_delay(KBENCH_FAULT_GROUP_END, run);

	/*
	 * Free before the reply: the requester may start the next run.
	 * Whoever must wait for the answer (socket release, module exit)
	 * finds the thread through kbench_inflight, not through the slot.
	 */
	spin_lock(&kbench_cpu_lock);
	per_cpu(kbench_cpu_run, run->cpu) = NULL;
	spin_unlock(&kbench_cpu_lock);
	if (run->group) {
		kbench_group_done(run->group);
	} else {
		if (run->complete)
			run->complete(run);
		complete_all(&run->finished);
	}
	spin_lock(&kbench_cpu_lock);
	t->run = NULL;
	spin_unlock(&kbench_cpu_lock);
	kbench_run_put(run);

	/*
	 * Never return into module text that rmmod may free: module exit
	 * waits for done of every thread in kbench_inflight, and
	 * kthread_complete_and_exit() completes it in the kernel's own
	 * text, from where the thread exits without coming back here.
	 */
	kthread_complete_and_exit(&t->done, 0);
}

/*
 * Wait, in @state, until @t's thread has exited.  The thread's last act
 * is a complete() (kthread_complete_and_exit()), which one wait consumes:
 * every waiter leaves it completed for good, for the others, for
 * completion_done() and for kbench_reap().
 */
static void kbench_thread_wait(struct kbench_thread *t, unsigned int state)
{
	wait_for_completion_state(&t->done, state);
	complete_all(&t->done);
}

/* Forget the threads that have exited and that nobody waits for. */
static void kbench_reap(void)
{
	struct kbench_thread *t, *tmp;
	LIST_HEAD(done);

	spin_lock(&kbench_cpu_lock);
	list_for_each_entry_safe(t, tmp, &kbench_inflight, node)
		if (completion_done(&t->done))
			list_move(&t->node, &done);
	spin_unlock(&kbench_cpu_lock);
	list_for_each_entry_safe(t, tmp, &done, node)
		kbench_thread_put(t);
}

/*
 * @run's CPU has a run: -EBUSY, or -EAGAIN when that run was asked to
 * end and is ending (its teardown, a routine's, may take a while):
 * run->ending names it, for the requester to retry.  Under
 * kbench_cpu_lock, which keeps the CPU's run alive.
 */
static int kbench_cpu_busy(struct kbench_run *run)
{
	struct kbench_run *there = per_cpu(kbench_cpu_run, run->cpu);

	lockdep_assert_held(&kbench_cpu_lock);
	if (!kbench_run_aborted(there))
		return -EBUSY;
	run->ending = there->id;
	return -EAGAIN;
}

/*
 * Claim @run's CPU and own its thread entry @t, unless kbench is being
 * unloaded or the CPU is busy: one section under kbench_cpu_lock.
 */
static int kbench_run_claim(struct kbench_run *run, struct kbench_thread *t)
{
	int err = 0;

	spin_lock(&kbench_cpu_lock);
	if (kbench_shutting_down) {
		err = -ESHUTDOWN;
	} else if (per_cpu(kbench_cpu_run, run->cpu)) {
		err = kbench_cpu_busy(run);
	} else {
		per_cpu(kbench_cpu_run, run->cpu) = run;
		kbench_thread_own(t);
	}
	spin_unlock(&kbench_cpu_lock);
	return err;
}

/**
 * kbench_run_start() - start a prepared run on its CPU
 * @run: from kbench_run_alloc(), with routines and parameters set
 *
 * Returns once the run's thread exists: the run goes on without the
 * caller, ends with run->err set, calls run->complete (if any) and
 * completes run->finished.  The caller's reference stays the caller's.
 *
 * Return: 0 or -errno (-ENODEV: CPU offline, -EBUSY: a run already uses
 * the CPU, -EAGAIN: a run that is ending does (run->ending), -ESHUTDOWN:
 * kbench is being unloaded, -EINTR: the caller has a fatal signal
 * pending, -ENOMEM).
 */
int kbench_run_start(struct kbench_run *run)
{
	struct kbench_thread *t;
	struct task_struct *task;
	int err;

	kbench_reap();
	t = kbench_thread_alloc(run, run);
	if (!t)
		return -ENOMEM;
	cpus_read_lock();
	err = cpu_online(run->cpu) ? kbench_run_claim(run, t) : -ENODEV;
	if (err)
		goto out_free_thread;
	kbench_fault_delay(KBENCH_FAULT_START, run);

	task = kthread_create_on_cpu(kbench_run_thread, t, run->cpu,
				     "kbench/%u");
	if (IS_ERR(task)) {
		/* the list owns t now: kbench_reap() frees it */
		kbench_thread_abandon(t);
		cpus_read_unlock();
		return PTR_ERR(task);
	}
	wake_up_process(task);
	cpus_read_unlock();
	return 0;

out_free_thread:
	cpus_read_unlock();
	kbench_thread_put(t);
	return err;
}

/**
 * kbench_group_start() - start every run of a concurrent group at once
 * @g: from kbench_group_alloc(), its runs prepared
 * @bad: out, on -ENODEV, -EBUSY or -EAGAIN: the index of the CPU at fault
 *
 * All or nothing: every CPU is checked and claimed, and every thread
 * created, before any thread runs; on failure nothing has started and
 * the caller still owns the group.  On success the group's threads own
 * it: the last one calls g->complete and drops the group's reference.
 *
 * Return: 0 or -errno (-ENODEV: a CPU offline, -EBUSY: a run already uses
 * a CPU, -EAGAIN: a run that is ending does (its run's ending),
 * -ESHUTDOWN: kbench is being unloaded, -EINTR: the caller has a fatal
 * signal pending, -ENOMEM).
 */
int kbench_group_start(struct kbench_group *g, u32 *bad)
{
	struct kbench_thread *t[KBENCH_CPUS_MAX] = { };
	struct task_struct *task[KBENCH_CPUS_MAX];
	u32 i, made = 0;
	int err = 0;

	kbench_reap();
	for (i = 0; i < g->nr; i++) {
		t[i] = kbench_thread_alloc(g->run[i], g->run[0]);
		if (!t[i]) {
			err = -ENOMEM;
			goto out_free_threads;
		}
	}
	cpus_read_lock();
	for (i = 0; i < g->nr; i++) {
		if (!cpu_online(g->run[i]->cpu)) {
			*bad = i;
			err = -ENODEV;
			goto out_unlock_cpus;
		}
	}
	spin_lock(&kbench_cpu_lock);
	if (kbench_shutting_down)
		err = -ESHUTDOWN;
	for (i = 0; i < g->nr && !err; i++) {
		if (per_cpu(kbench_cpu_run, g->run[i]->cpu)) {
			*bad = i;
			err = kbench_cpu_busy(g->run[i]);
		}
	}
	for (i = 0; i < g->nr && !err; i++) {
		per_cpu(kbench_cpu_run, g->run[i]->cpu) = g->run[i];
		kbench_thread_own(t[i]);
	}
	spin_unlock(&kbench_cpu_lock);
	if (err)
		goto out_unlock_cpus;
	kbench_fault_delay(KBENCH_FAULT_START, g->run[0]);

	for (made = 0; made < g->nr; made++) {
		task[made] = kthread_create_on_cpu(kbench_run_thread, t[made],
						   g->run[made]->cpu,
						   "kbench/%u");
		if (IS_ERR(task[made])) {
			err = PTR_ERR(task[made]);
			goto out_stop;
		}
	}
	atomic_set(&g->remaining, g->nr);
	g->deadline_ns = ktime_get_ns() + (u64)kbench_max_run_ms * NSEC_PER_MSEC;
	for (i = 0; i < g->nr; i++)
		wake_up_process(task[i]);
	cpus_read_unlock();
	return 0;

out_stop:
	/* never woken: kthread_stop() ends them before kbench_run_thread() */
	for (i = 0; i < made; i++)
		kthread_stop(task[i]);
	/* the list owns the entries: kbench_reap() frees them */
	for (i = 0; i < g->nr; i++)
		kbench_thread_abandon(t[i]);
	cpus_read_unlock();
	return err;

out_unlock_cpus:
	cpus_read_unlock();
out_free_threads:
	for (i = 0; i < g->nr; i++)
		if (t[i])
			kbench_thread_put(t[i]);
	return err;
}

/**
 * kbench_run_execute() - measure a prepared run on its CPU and wait for it
 * @run: from kbench_run_alloc(), with routines and parameters set
 *
 * Sleeps until the run ends, in a wait the freezer passes (the run's
 * thread freezes between windows too).  A fatal signal aborts the run
 * within one window.
 *
 * Return: 0 or -errno (-ENODEV: CPU offline, -EBUSY: a run already uses
 * the CPU, -ERANGE: a window would exceed max_window_us, -EINTR).
 */
int kbench_run_execute(struct kbench_run *run)
{
	int err;

	err = kbench_run_start(run);
	/* kbench_measure()'s callers know a busy CPU as -EBUSY */
	if (err == -EAGAIN)
		err = -EBUSY;
	if (err)
		return err;
	if (wait_for_completion_state(&run->finished,
				      TASK_KILLABLE | TASK_FREEZABLE)) {
		atomic_cmpxchg(&run->abort, 0, -EINTR);
		wait_for_completion(&run->finished);
	}
	return run->err;
}

/*
 * Runs on @cpu as it goes offline, under cpus_write_lock(): its run, if
 * any, is asked to end (-ENODEV) and not waited for.  Its thread may be
 * in a routine's setup or teardown, which may take cpus_read_lock():
 * waiting here would deadlock.  The thread is not a per-CPU kthread for
 * the scheduler, so once the CPU is inactive it moves to another online
 * CPU, where it ends the round it is in (the engine flags those windows:
 * the CPU changed) and tears the routines down.
 */
static int kbench_cpu_offline(unsigned int cpu)
{
	struct kbench_run *run;

	spin_lock(&kbench_cpu_lock);
	run = per_cpu(kbench_cpu_run, cpu);
	if (run)
		kbench_run_abort(run, -ENODEV);
	spin_unlock(&kbench_cpu_lock);
	return 0;
}

/*
 * The threads of a closed socket's runs, each with a reference, waited
 * for after the socket's release (kbench_closed_fops) by the task that
 * released it.
 */
struct kbench_closed {
	struct list_head threads;	/* kbench_thread.wait_node */
};

/*
 * Drop the references to @threads, waiting first (@wait) until each
 * thread has exited.
 */
static void kbench_closed_put(struct list_head *threads, bool wait)
{
	struct kbench_thread *t, *tmp;

	list_for_each_entry_safe(t, tmp, threads, wait_node) {
		if (wait)
			kbench_thread_wait(t, TASK_UNINTERRUPTIBLE |
					   TASK_FREEZABLE);
		list_del(&t->wait_node);
		kbench_thread_put(t);
	}
}

/*
 * The last reference to the file gone: __fput() calls this in the
 * releasing task's task_work, with no lock held, and drops the module
 * reference the file holds (fops owner) after it returns, in the
 * kernel's text.
 */
static int kbench_closed_fop_release(struct inode *inode, struct file *file)
{
	struct kbench_closed *c = file->private_data;

	kbench_closed_put(&c->threads, true);
	kfree(c);
	return 0;
}

static const struct file_operations kbench_closed_fops = {
	.owner = THIS_MODULE,
	.release = kbench_closed_fop_release,
};

/*
 * Whether @t's run was requested from port @portid of @net: by that
 * socket, or by one that had the port before it.
 */
static bool kbench_thread_of(const struct kbench_thread *t,
			     const struct net *net, u32 portid)
{
	return t->sk && t->portid == portid && net_eq(t->net, net);
}

/*
 * The socket of @portid was released (its process closed it or died):
 * every run it requested, every CPU's run of a group, ends within one
 * window and sends it nothing more (kbench_answer() cannot reach a
 * released socket).  The threads are found through kbench_inflight,
 * which holds them until they exit, not through the CPU slots, which
 * they free before the end.  A run is matched by its requester's
 * socket, not by the port alone: netlink_release() removes the port
 * before sock_orphan() and the notifier, so another socket (autobind
 * tries the process id first) may own @portid and have sent a RUN of its
 * own by now.  The released socket is the one of that port that is dead
 * (SOCK_DEAD, set by sock_orphan()); a live one is another's.
 *
 * Called by the NETLINK_URELEASE notifier, inside the read side of
 * netlink's notifier chain: it must not wait there for a routine's setup
 * or teardown.  The wait goes to the releasing task, after the socket's
 * release: a file that only this function holds, whose release waits for
 * the threads, is put with fput(), which in a task queues its __fput()
 * as task_work -- run after the socket's own __fput() returns, before
 * close() returns or the exiting process is reaped, so that once its
 * process is gone so are its runs, and the CPUs are free.  The file
 * holds a reference to the module until then (rmmod meanwhile: "in
 * use").  Nobody waits when a kernel thread released the socket (a
 * worker's delayed __fput(): kbench's own thread held the file when its
 * process closed it) or when the file cannot be made (no memory, the
 * file limit; kbench being unloaded, whose exit waits for every run):
 * the runs end on their own, within one window and their teardown.
 */
void kbench_abort_requester(const struct net *net, u32 portid)
{
	struct kbench_closed *c;
	struct kbench_thread *t;
	struct file *file;
	LIST_HEAD(threads);
	bool mine = false;

	/* the test bed widens the window in which the port can be reused */
	spin_lock(&kbench_cpu_lock);
	list_for_each_entry(t, &kbench_inflight, node)
		mine |= kbench_thread_of(t, net, portid);
	spin_unlock(&kbench_cpu_lock);
	if (mine)
		kbench_fault_delay(KBENCH_FAULT_RELEASE, NULL);

	spin_lock(&kbench_cpu_lock);
	list_for_each_entry(t, &kbench_inflight, node) {
		if (t->waited || !kbench_thread_of(t, net, portid) ||
		    !sock_flag(t->sk, SOCK_DEAD) || completion_done(&t->done))
			continue;
		t->waited = true;
		if (t->run) {
			WRITE_ONCE(t->run->requester_gone, true);
			kbench_run_abort(t->run, -ECONNRESET);
		}
		refcount_inc(&t->ref);
		list_add_tail(&t->wait_node, &threads);
	}
	spin_unlock(&kbench_cpu_lock);
	if (list_empty(&threads))
		return;

	c = current->flags & PF_KTHREAD ? NULL :
	    kmalloc(sizeof(*c), GFP_KERNEL);
	if (c) {
		INIT_LIST_HEAD(&c->threads);
		list_splice_init(&threads, &c->threads);
		file = anon_inode_getfile("[kbench-closed]",
					  &kbench_closed_fops, c, O_RDONLY);
		if (!IS_ERR(file)) {
			fput(file);
			return;
		}
		list_splice_init(&c->threads, &threads);
		kfree(c);
	}
	kbench_closed_put(&threads, false);
}

/*
 * A thread whose run was asked to end (its requester's socket released,
 * its CPU gone offline, a group's error) and still holds its memory and
 * CPU: within one window, its teardown and its answer; or a thread past
 * its answer (t->run NULL) that has not yet let go of the run: its
 * requester may already send the next RUN, and until the thread's
 * reference is dropped the run's memory is neither free nor evictable.
 * With a reference, or NULL.  *@id: its run's.
 */
static struct kbench_thread *kbench_find_ending(u32 *id)
{
	struct kbench_thread *t, *found = NULL;

	spin_lock(&kbench_cpu_lock);
	list_for_each_entry(t, &kbench_inflight, node) {
		if (completion_done(&t->done) ||
		    (t->run && !kbench_run_aborted(t->run)))
			continue;
		refcount_inc(&t->ref);
		*id = t->run_id;
		found = t;
		break;
	}
	spin_unlock(&kbench_cpu_lock);
	return found;
}

/**
 * kbench_wait_dying() - wait for a run that is ending to give its memory back
 *
 * kbench_measure() only: a caller that the budget would refuse waits for
 * a run that is ending (kbench_find_ending()) rather than fail.  Never
 * from a netlink handler, which holds genetlink's cb_lock: a RUN is
 * refused instead, with the ending run named (kbench_mem_charge()).  Only
 * threads of runs already aborted are waited for, each once.  Process
 * context, no lock held.
 *
 * Return: true when it waited for one (charge again), false when there
 * is none or a fatal signal ended the wait.
 */
bool kbench_wait_dying(void)
{
	struct kbench_thread *found;
	u32 id;
	int err;

	found = kbench_find_ending(&id);
	if (!found)
		return false;
	err = wait_for_completion_killable(&found->done);
	/* the thread's complete() is consumed by one wait: leave it done */
	if (!err)
		complete_all(&found->done);
	kbench_thread_put(found);
	return !err;
}

/**
 * kbench_mem_charge() - charge @bytes to the budget, or name a run that ends
 * @bytes: what a new run or scratch memory needs
 * @in_use: out, on -E2BIG or -EAGAIN: what the budget holds
 * @ending: NULL: wait for runs that are ending (kbench_measure());
 *	else out, on -EAGAIN: the id of a run that is ending
 *
 * kbench_mem_try_charge(); when it refuses and a run is ending, whose
 * memory comes back when its thread exits: with @ending (a netlink
 * handler, under genetlink's cb_lock, where nothing may wait) -EAGAIN and
 * that run's id, for the requester to retry; without, waits for it
 * (kbench_wait_dying()) and tries again.  Process context, no lock held.
 *
 * Return: 0, -EAGAIN (@ending only), or -E2BIG when nothing that is
 * ending would make room.
 */
int kbench_mem_charge(u64 bytes, u64 *in_use, u32 *ending)
{
	struct kbench_thread *t;
	int err;

	for (;;) {
		err = kbench_mem_try_charge(bytes, in_use);
		if (err != -E2BIG)
			return err;
		if (!ending) {
			if (!kbench_wait_dying())
				return err;
			continue;
		}
		t = kbench_find_ending(ending);
		if (!t)
			return err;
		kbench_thread_put(t);
		return -EAGAIN;
	}
}

/*
 * Module exit: refuse new runs, end the running ones within one window
 * and wait until each thread has exited (its answer sent), those whose
 * start is still creating them included: they were put on the list in
 * the section that checked kbench_shutting_down.
 */
void kbench_abort_all(int err)
{
	struct kbench_thread *t, *tmp;
	LIST_HEAD(all);

	spin_lock(&kbench_cpu_lock);
	kbench_shutting_down = true;
	list_for_each_entry(t, &kbench_inflight, node)
		if (t->run)
			kbench_run_abort(t->run, err);
	list_splice_init(&kbench_inflight, &all);
	spin_unlock(&kbench_cpu_lock);
	list_for_each_entry_safe(t, tmp, &all, node) {
		kbench_thread_wait(t, TASK_UNINTERRUPTIBLE);
		list_del(&t->node);
		kbench_thread_put(t);
	}
}

/*
 * Bytes a run keeps: of @nr_routines routines (and the overhead routine),
 * @nr_events events and @samples each, a net, flags and each event's net
 * per sample of each series.
 */
u64 kbench_run_bytes(u32 nr_routines, u32 nr_events, u32 samples)
{
	return sizeof(struct kbench_run) +
	       (u64)(nr_routines + 1) * samples *
	       (sizeof(s64) + sizeof(u32) + (u64)nr_events * sizeof(s64));
}

/*
 * What a run is charged while in flight: what it keeps, and the scratch
 * of its summaries (kbench_finish()), reserved so that a run that fits
 * finishes.
 */
u64 kbench_run_charge(u32 nr_routines, u32 nr_events, u32 samples)
{
	return kbench_run_bytes(nr_routines, nr_events, samples) +
	       (u64)samples * sizeof(s64);
}

/*
 * A run of @nr_routines routines, @nr_events events and @samples samples,
 * charged to the memory budget (kbench_mem_charge(), @ending as there).
 * ERR_PTR(-E2BIG) over the budget (*@in_use: what the budget holds),
 * ERR_PTR(-EAGAIN) when a run that is ending (*@ending) holds what it
 * needs, ERR_PTR(-ENOMEM).
 */
struct kbench_run *kbench_run_alloc_err(u32 nr_routines, u32 nr_events,
					u32 samples, u64 *in_use, u32 *ending)
{
	u64 bytes = kbench_run_charge(nr_routines, nr_events, samples);
	struct kbench_run *run;
	u32 i, x;
	int err;

	err = kbench_mem_charge(bytes, in_use, ending);
	if (err)
		return ERR_PTR(err);
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run) {
		kbench_mem_uncharge(bytes);
		return ERR_PTR(-ENOMEM);
	}
	run->charged = true;
	kref_init(&run->ref);
	INIT_LIST_HEAD(&run->node);
	init_completion(&run->finished);
	atomic_set(&run->abort, 0);
	run->nr_routines = nr_routines;
	run->nr_series = nr_routines + 1;
	run->nr_events = nr_events;
	run->samples = samples;
	run->mem_bytes = kbench_run_bytes(nr_routines, nr_events, samples);
	run->scratch_bytes = bytes - run->mem_bytes;
	do {
		run->id = atomic_inc_return(&kbench_next_id);
	} while (!run->id);

	for (i = 0; i < run->nr_series; i++) {
		struct kbench_series *s = &run->series[i];

		s->eng.net = kvmalloc_array(samples, sizeof(*s->eng.net),
					    GFP_KERNEL);
		s->eng.flags = kvcalloc(samples, sizeof(*s->eng.flags),
					GFP_KERNEL);
		if (!s->eng.net || !s->eng.flags)
			goto out_free;
		for (x = 0; x < nr_events; x++) {
			s->eng.xnet[x] = kvmalloc_array(samples,
							sizeof(*s->eng.xnet[x]),
							GFP_KERNEL);
			if (!s->eng.xnet[x])
				goto out_free;
		}
	}
	return run;

out_free:
	kbench_run_put(run);
	return ERR_PTR(-ENOMEM);
}

/* kbench_run_alloc_err() for kbench_measure(): NULL on any failure */
struct kbench_run *kbench_run_alloc(u32 nr_routines, u32 nr_events,
				    u32 samples)
{
	struct kbench_run *run;
	u64 in_use;

	run = kbench_run_alloc_err(nr_routines, nr_events, samples, &in_use,
				   NULL);
	return IS_ERR(run) ? NULL : run;
}

/**
 * kbench_run_alloc_starts() - keep each sample's start (a concurrent run)
 * @run: from kbench_run_alloc_err()
 * @in_use: out, on -E2BIG: what the budget holds
 * @ending: as kbench_mem_charge()'s
 *
 * Charges a u64 per sample of each series to the memory budget, in the
 * run's mem_bytes.
 *
 * Return: 0, -E2BIG over store_bytes_max, -EAGAIN (a run that is ending,
 * *@ending, holds what it needs), or -ENOMEM.
 */
int kbench_run_alloc_starts(struct kbench_run *run, u64 *in_use, u32 *ending)
{
	u64 bytes = (u64)run->nr_series * run->samples * sizeof(u64);
	u32 i;
	int err;

	err = kbench_mem_charge(bytes, in_use, ending);
	if (err)
		return err;
	run->mem_bytes += bytes;
	for (i = 0; i < run->nr_series; i++) {
		run->series[i].eng.start =
			kvmalloc_array(run->samples,
				       sizeof(*run->series[i].eng.start),
				       GFP_KERNEL);
		if (!run->series[i].eng.start)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Fill @res from the routine's series @s of @run: everything but the
 * counter and the timing, which the caller adds.
 */
static void kbench_result_fill(struct kbench_result *res,
			       const struct kbench_run *run,
			       const struct kbench_series *s)
{
	const struct kbench_summary *sum = &s->sum;
	u32 bit;

	res->samples = sum->samples;
	res->valid = sum->valid;
	res->excluded = sum->samples - sum->valid;
	BUILD_BUG_ON(KBENCH_RESULT_REASONS != KBENCH_SUMMARY_REASONS);
	for (bit = 0; bit < KBENCH_RESULT_REASONS; bit++)
		res->excluded_by[bit] = sum->excluded[bit];
	res->net_min = sum->min;
	res->net_median = sum->median;
	res->net_max = sum->max;
	res->net_sum = sum->sum;
	res->per_iter_min_milli = sum->per_iter_min_milli;
	res->per_iter_median_milli = sum->per_iter_median_milli;
	res->corr_min_milli = sum->corr_min_milli;
	res->corr_median_milli = sum->corr_median_milli;
	res->flags = sum->flags;
	res->iterations = run->iterations;
	res->cpu = run->cpu;
	res->status = run->status;
	res->elapsed_ns = run->elapsed_ns;
}

/*
 * Is the caller in a context that must not sleep?  A debugging check, as
 * might_sleep()'s, not a choice of behaviour: each test is reliable where
 * it can see something at all.  irqs_disabled() everywhere; a non-zero
 * preempt_count() (in_atomic()) is interrupt or softirq context
 * everywhere, and preempt_disable() or a held spinlock only with
 * CONFIG_PREEMPT_COUNT (Debian's 6.1 and 6.12 have it through
 * PREEMPT_DYNAMIC, 6.12-rt and the debug kernel through PREEMPT);
 * rcu_preempt_depth() sees rcu_read_lock() under PREEMPT_RCU, and with it
 * a spinlock_t on PREEMPT_RT, whose spin_lock() leaves preemption on but
 * enters an RCU read-side section.  preemptible() is not used: it is
 * always 0 without CONFIG_PREEMPT_COUNT (and without CONFIG_PREEMPTION).
 */
static bool kbench_caller_atomic(void)
{
	return irqs_disabled() || preempt_count() || rcu_preempt_depth();
}

/* -EBUSY or -ESHUTDOWN if @cpu cannot take a run now, before allocating. */
static int kbench_cpu_slot_check(unsigned int cpu)
{
	int err = 0;

	spin_lock(&kbench_cpu_lock);
	if (kbench_shutting_down)
		err = -ESHUTDOWN;
	else if (per_cpu(kbench_cpu_run, cpu))
		err = -EBUSY;
	spin_unlock(&kbench_cpu_lock);
	return err;
}

/**
 * __kbench_measure() - kbench_measure() with the size of the caller's result
 * @run: the routine
 * @iterations: N per sample, 0: adaptive
 * @data: passed to @run
 * @samples: samples to take
 * @res: the result
 * @res_size: sizeof(*@res) where the caller was compiled: a newer kbench.ko
 *	fills only what the caller knows, an older one zeroes what it does not
 *	know
 *
 * See kbench_measure() in include/linux/kbench.h.
 *
 * Context: process context; not from atomic context (-EINVAL and one
 * WARN_ON_ONCE), not with cpus_read_lock() held (taken here).
 *
 * Return: 0, or -errno.
 */
int __kbench_measure(void (*run)(unsigned int iterations, void *data),
		     unsigned int iterations, void *data, unsigned int samples,
		     struct kbench_result *res, size_t res_size)
{
	struct kbench_routine routine = {
		.name = "kbench_measure",
		.run = run,
		.data = data,
	};
	struct kbench_result out = { };
	struct kbench_run *r;
	unsigned int cpu;
	int err;

	/* before might_sleep(), which would only complain and go on */
	if (WARN_ON_ONCE(kbench_caller_atomic()))
		return -EINVAL;
	might_sleep();
	if (!run || !res || res_size < KBENCH_RESULT_SIZE_V1 ||
	    iterations > KBENCH_ITERATIONS_LIMIT || !samples ||
	    samples > kbench_max_samples)
		return -EINVAL;
	if (kbench_run_charge(1, 0, samples) > kbench_store_bytes_max)
		return -E2BIG;
	cpu = raw_smp_processor_id();
	err = kbench_cpu_slot_check(cpu);
	if (err)
		return err;
	r = kbench_run_alloc(1, 0, samples);
	if (!r)
		return -ENOMEM;
	r->cpu = cpu;
	r->adaptive = !iterations;
	r->iterations = iterations;
	r->target_ns = min(KBENCH_TARGET_NS_DEFAULT,
			   kbench_max_window_us * 1000);
	r->u32[KBENCH_A_RUN_WARMUP] = KBENCH_WARMUP_DEFAULT;
	/* neither can go away: the caller's module holds kbench.ko */
	r->series[0].routine = &routine;
	r->series[1].routine = &kbench_builtin_empty;
	strscpy(r->series[0].name, routine.name, sizeof(r->series[0].name));
	strscpy(r->series[1].name, kbench_builtin_empty.name,
		sizeof(r->series[1].name));

	err = kbench_run_execute(r);
	if (!err) {
		kbench_result_fill(&out, r, &r->series[0]);
		out.counter = kbench_counter.name;
		out.counter_hz = kbench_counter.hz;
		if (r->no_valid)
			err = -ENODATA;		/* no figure from nothing */
		else if (r->status == KBENCH_RUN_TIMEOUT)
			err = -ETIME;
		memset(res, 0, res_size);
		memcpy(res, &out, min(res_size, sizeof(out)));
	}
	r->series[0].routine = NULL;
	r->series[1].routine = NULL;
	kbench_run_put(r);
	return err;
}
EXPORT_SYMBOL_GPL(__kbench_measure);

int kbench_measure_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "kbench:online",
					NULL, kbench_cpu_offline);
	if (ret < 0)
		return ret;
	kbench_hp_state = ret;
	return 0;
}

void kbench_measure_exit(void)
{
	cpuhp_remove_state_nocalls(kbench_hp_state);
}
