// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: runs - the kernel's world around the shared engine
 * (include/kbench/engine.h).
 *
 * A run executes in a kthread bound to the requested CPU (its claim, its
 * thread and its end: kbench_run.c).  Each sample is one
 * window with preemption and interrupts off (the counter's window function,
 * kbench_counter_<arch>.c); between windows interrupts are on for at least
 * (100 - duty_pct)% of the time, the CPU is yielded (cond_resched()) and
 * abort requests are honoured.  Nothing inside a window allocates, sleeps,
 * locks or prints.  RUN requests (kbench_netlink.c) and kbench_measure()
 * (kbench_run.c) both come here.
 */
#include <linux/delay.h>
#include <linux/freezer.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>

#include "kbench_internal.h"

#define KBENCH_PROGRESS_NS		(250 * NSEC_PER_MSEC)
/* Gaps are slept in slices of at most this: an abort ends one early. */
#define KBENCH_GAP_SLICE_US		10000

/* The error that ends @run now: its own abort, or its group's. */
int kbench_run_aborted(struct kbench_run *run)
{
	int err = atomic_read(&run->abort);

	if (!err && run->group)
		err = atomic_read(&run->group->err);
	return err;
}

void kbench_group_abort(struct kbench_group *g, u32 index, int err)
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
int kbench_run_measure(struct kbench_run *run)
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
int kbench_finish(struct kbench_run *run)
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
int kbench_run_setup(struct kbench_run *run)
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
void kbench_run_teardown(struct kbench_run *run)
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
void kbench_group_done(struct kbench_group *g)
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
