/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: the sampling engine, written once for kbench.ko and libkbench.
 *
 * A run takes windows of one or more series (routines) on one CPU: it
 * probes for N, warms up, then takes rounds of one window per series in
 * a balanced order (a Williams design, kbench_engine_order()), flags every
 * window and stores its net ticks.  What differs between the kernel and userspace are hooks:
 *
 *   in a counter (struct kbench_counter, one row of a world's table):
 *     read            the counter, ordered, for use between windows (the
 *                     window inlines the same read itself)
 *     irq_off/irq_on  entering and leaving a window (the kernel disables
 *                     preemption and interrupts; userspace does nothing)
 *     snap_begin/end  interference seen around the sample (CPU changed,
 *                     NMI/SMI counts)
 *     window          one sample with all of the above inlined, made by
 *                     KBENCH_DEFINE_WINDOW() from the four hooks
 *   in a further counter (a hardware event: a row with per-run state,
 *   read at the same four points as the run's counter):
 *     read_ctx        its value, inside the window
 *     check_ctx       is it counting on the run's CPU?  At both ends of
 *                     every window; a window where it is not is flagged
 *   in the run (struct kbench_engine_ops):
 *     gap             what happens between two windows
 *     check           between rounds: abort, time limit, progress
 *
 * Only world.h, method.h, steal.h and this file are included; no
 * allocation, no locking, no printing.  The samples phase writes into arrays the world
 * allocated.
 */
#ifndef _KBENCH_ENGINE_H
#define _KBENCH_ENGINE_H

#include "world.h"
#include "method.h"
#include "steal.h"

/*
 * Probe windows per series and step; their minimum rejects noise, and
 * decides whether the routine fits max_window at all: a window the host
 * stretched (a virtual CPU descheduled mid-window) is one of several.
 */
#define KBENCH_PROBE_REPEAT		3
/*
 * A probe step whose shortest window predicts the next step over
 * max_window looks again with this many times KBENCH_PROBE_REPEAT more
 * windows (at an N that fits) before it decides: a host that stretched
 * every window of the step (a vCPU descheduled for their whole span) no
 * longer stops the probe at a tiny N or refuses a fixed one.
 */
#define KBENCH_PROBE_AGAIN		2
/*
 * Windows of one series in a row longer than the limit that the engine
 * cannot shorten (fixed N, N already 1, a concurrent run): -ERANGE.
 */
#define KBENCH_LONG_WINDOWS_ABORT	3
/*
 * Adaptive N after the probe: a window over the limit that nothing else
 * explains makes the next windows aim at this percentage of the limit.
 */
#define KBENCH_ADAPT_TARGET_PCT		50
/*
 * A concurrent run's fit of N with its CPUs together
 * (kbench_engine_sync_fit()): from N = 1, each step grows N by up to the
 * ratio of the aim to the window just taken, and by at most
 * KBENCH_SYNC_FIT_GROWTH times.  A window predicts the next by scaling,
 * which holds only while the CPUs overlap as much and contend as much;
 * at N = 1 their windows barely overlap (each waits at the rendezvous
 * longer than it runs), so contention shows only as N grows, and may
 * grow faster than N (k CPUs on one line: up to k times, more with a
 * lock's queue).  A step from a short window straight to the aim would
 * leave all of that to one leap; a bounded factor lets each step see a
 * part of it before the next, and keeps the window a step misjudges
 * within the factor of one that fitted.  From 1 to 2^24 (the module's
 * limit of N) at 4 a step: 12 steps; KBENCH_SYNC_FIT_STEPS leaves room
 * for steps that grow less.
 */
#define KBENCH_SYNC_FIT_GROWTH		4
#define KBENCH_SYNC_FIT_STEPS		16
/*
 * The changes of N after the probe a run records (struct kbench_div_change,
 * the world's array): N grows back only while the log holds fewer than
 * KBENCH_DIV_LOG_GROW, and each shortening at least halves N (at most 24
 * from the largest N), so the log never overflows.
 */
#define KBENCH_DIV_LOG_MAX		64
/*
 * Long windows of one series in a row whose reference span did not get
 * longer with them (the host stretched the loop, or the span is too
 * coarse to tell) taken as the routine's all the same: a host that
 * stretches every window keeps the bound too.
 */
#define KBENCH_UNEXPLAINED_LONG		8
/*
 * How far over max_window a window's explanation (a flag of
 * KBENCH_SAMPLE_F_OUTSIDE, or a routine that did not make it) excuses it
 * with a fixed N: a window longer than this many times the bound counts
 * toward the refusal whatever its flags.  Flags explain a window; they
 * are no licence to stay long.
 */
#define KBENCH_EXCUSED_FACTOR		2
#define KBENCH_DIV_LOG_GROW		32
/*
 * Flags that name what stretched a window from outside the routine: such
 * a window is excluded; with a fixed N it counts toward a refusal only
 * when it is over KBENCH_EXCUSED_FACTOR times the bound (adaptive N is
 * shortened by every long window).  Not KBENCH_SAMPLE_F_REFERENCE: a
 * routine that really got slower lengthens its reference span T(2) too.
 */
#define KBENCH_SAMPLE_F_OUTSIDE		(KBENCH_SAMPLE_F_CPU_CHANGED |	\
					 KBENCH_SAMPLE_F_BACKWARDS |	\
					 KBENCH_SAMPLE_F_NMI |		\
					 KBENCH_SAMPLE_F_SMI |		\
					 KBENCH_SAMPLE_F_EVENT |	\
					 KBENCH_SAMPLE_F_STEAL |	\
					 KBENCH_SAMPLE_F_SKEW)
/*
 * The reasonableness test of the reference span: a span longer than
 * KBENCH_REFERENCE_FACTOR times the shortest clean one (of the latest
 * windows, see KBENCH_REFERENCE_BLOCK) plus KBENCH_REFERENCE_QUANTA steps
 * of the counter is flagged (see kbench_reference_flags()).
 */
#define KBENCH_REFERENCE_FACTOR		2
#define KBENCH_REFERENCE_QUANTA		2
/*
 * ... and a span whose excess over the shortest, beyond those quanta, is
 * more than 1/KBENCH_REFERENCE_NET_SHARE of the window's net: that net is
 * short by the excess, a third of itself or more.
 */
#define KBENCH_REFERENCE_NET_SHARE	2
/*
 * The shortest span is that of the latest windows, not of the whole run:
 * when every span of KBENCH_REFERENCE_BLOCK windows of a series in a row
 * was longer than the shortest, the shortest of them becomes the bound's
 * base (kbench_reference_rebase()).  The machine itself got slower (plain
 * TCG once its host is loaded: every span and every net twice as long
 * after the first 100 windows of a run on ppc64le), and a base kept from
 * its faster minutes flagged every later window: a run with no sample.
 */
#define KBENCH_REFERENCE_BLOCK		16
/* The counter's step: the smallest of this many changes seen ... */
#define KBENCH_QUANTUM_CHANGES		64
/* ... in at most this many reads. */
#define KBENCH_QUANTUM_READS		4096
/* Series of one run: the routines and the overhead routine. */
#define KBENCH_ENGINE_SERIES_MAX	(KBENCH_RUN_ROUTINES_MAX + 1)
/* Further counters of one run: its hardware events. */
#define KBENCH_EXTRA_MAX		KBENCH_EVENTS_MAX

/* What one window found. */
struct kbench_window {
	long long net;			/* T(N + 2) - T(2) */
	unsigned long long start;	/* t0 */
	unsigned long long len;		/* t3 - t0: the timed part */
	unsigned long long ref;		/* t1 - t0: the reference span T(2) */
	unsigned int flags;		/* enum kbench_sample_flags */
	long long xnet[KBENCH_EXTRA_MAX];	/* each further counter's net */
};

/*
 * From window @at of the samples phase on (windows counted over all
 * series in the order taken: round r's k-th window is r x series + k),
 * the windows took N / @div iterations.
 */
struct kbench_div_change {
	unsigned int at;
	unsigned int div;
};

/* A world's state across one window. */
struct kbench_guard {
	unsigned long irqflags;		/* kernel: local_irq_save() */
	unsigned long long snap[2];	/* interference counts at the start */
	struct kbench_steal_snap steal;	/* the vCPU's steal record (steal.h) */
	unsigned int cpu;		/* the CPU the window belongs to */
	unsigned int flags;		/* enum kbench_sample_flags seen */
};

struct kbench_extra;

/*
 * A concurrent run's rendezvous: the same routine measured on several
 * CPUs at once, each CPU its own engine, the windows started together.
 * Each CPU counts the windows it has taken and publishes the count in its
 * own cache line of @slot; before reading the counter at the start of a
 * window (interrupts off, in the kernel) it waits until every slot has
 * reached its own count.  It waits at most @spin_limit ticks of the
 * counter and stops waiting at once when @abort is set: the window is
 * then flagged KBENCH_SAMPLE_F_SKEW and taken anyway.  Counts only grow,
 * so a CPU that arrives late never waits for one that gave up on it: the
 * next window finds them together again.  The world allocates @slot,
 * zeroed, and bounds the time its windows may spend here (its irq-off
 * bound includes @spin_limit).
 */
struct kbench_rendezvous_slot {
	unsigned long long windows;	/* windows arrived at, this CPU */
	unsigned long long pad[15];	/* 128 bytes apart: lines not shared */
};

/* what the CPUs read of each other, never on a line (or line pair) shared */
static_assert(sizeof(struct kbench_rendezvous_slot) == 128,
	      "rendezvous slots 128 bytes apart");

struct kbench_rendezvous {
	unsigned int nr;		/* CPUs of the run: slots */
	int abort;			/* set by any: nobody waits any more */
	unsigned long long spin_limit;	/* ticks one window may wait */
	struct kbench_rendezvous_slot *slot;	/* [nr] */
};

/* One CPU's side of a rendezvous: its slot and the windows it took. */
struct kbench_sync {
	struct kbench_rendezvous *rv;
	unsigned int slot;
	unsigned long long windows;
	unsigned long long wait;	/* ticks of the last wait */
};

/*
 * Wait at @s's rendezvous (inside a window, before its first counter
 * read): 0 when every CPU arrived, KBENCH_SAMPLE_F_SKEW when the wait
 * gave up.  Nothing but loads, one release store and the counter.
 */
static __always_inline unsigned int kbench_sync_wait(struct kbench_sync *s,
						     kbench_method_read_t read)
{
	struct kbench_rendezvous *rv = s->rv;
	unsigned long long me = ++s->windows, t0 = read(), t = t0;
	unsigned int i, flags = 0;

	kbench_store_release(&rv->slot[s->slot].windows, me);
	for (i = 0; i < rv->nr && !flags; i++) {
		while (kbench_load_acquire(&rv->slot[i].windows) < me) {
			t = read();
			if (kbench_load_once(&rv->abort) ||
			    t - t0 > rv->spin_limit) {
				flags = KBENCH_SAMPLE_F_SKEW;
				break;
			}
			kbench_cpu_relax();
		}
	}
	s->wait = t - t0;
	return flags;
}

/*
 * Count the next @n windows of @s as arrived without taking them
 * (outside windows): no CPU waits at the rendezvous for this one in
 * them, and after them every CPU's count is where it would have been,
 * so the next window finds them together again.
 */
static inline void kbench_sync_skip(struct kbench_sync *s, unsigned long long n)
{
	s->windows += n;
	kbench_store_release(&s->rv->slot[s->slot].windows, s->windows);
}

typedef void (*kbench_guard_fn)(struct kbench_guard *g);
typedef void (*kbench_window_fn)(kbench_method_run_t run, void *data,
				 unsigned int n, unsigned int cpu,
				 const struct kbench_extra *x,
				 struct kbench_window *w);

/*
 * A counter: one row of a world's table, in order of preference.  A
 * world may have several rows per architecture (the kernel's CPU counter,
 * userspace's counter instruction and CLOCK_MONOTONIC_RAW): the run's
 * counter, whose window() and read() the engine calls.  A hardware event
 * is a row too, read next to the run's counter at the same four points:
 * one instance per run (a perf counter) in struct kbench_extra, read with
 * read_ctx() and checked with check_ctx().
 */
struct kbench_counter {
	const char *name;		/* "tsc", "cntvct", ... */
	const char *desc;		/* how it is read */
	unsigned long long hz;		/* ticks per second, set by probe() */
	unsigned int flags;		/* enum kbench_counter_flags */
	unsigned int detectors;		/* enum kbench_sample_flags it sets */
	kbench_method_read_t read;	/* ordered read, outside windows */
	kbench_guard_fn irq_off;	/* enter a window */
	kbench_guard_fn irq_on;		/* leave it */
	kbench_guard_fn snap_begin;	/* inside, before the sample */
	kbench_guard_fn snap_end;	/* inside, after it */
	kbench_window_fn window;	/* KBENCH_DEFINE_WINDOW() of the above */
	int (*probe)(struct kbench_counter *c);	/* usable here? 0 or -errno */
	/* a further counter: the value of instance @ctx, inside a window */
	unsigned long long (*read_ctx)(void *ctx);
	/*
	 * is instance @ctx counting on @cpu now?  0, or the sample flags of a
	 * window that began or ended while it was not; inside a window
	 */
	unsigned int (*check_ctx)(void *ctx, unsigned int cpu);
};

/*
 * The further counters of a run (its hardware events), in order, and
 * the rendezvous its windows wait at (a concurrent run; NULL: none).
 */
struct kbench_extra {
	unsigned int nr;
	const struct kbench_counter *row[KBENCH_EXTRA_MAX];
	void *ctx[KBENCH_EXTRA_MAX];	/* each one's instance */
	struct kbench_sync *sync;
};

/*
 * Read every further counter of @p (a struct kbench_extra) at @point
 * (kbench_method_sample()): in order at the start of a span, in reverse
 * at its end, so that the spans nest and the reads are the same code in
 * both timed spans.
 */
static __always_inline void kbench_extra_read(const void *p, unsigned int point,
					      unsigned long long (*xt)[4])
{
	const struct kbench_extra *x = p;
	unsigned int i;

	if (point & 1) {
		for (i = x->nr; i-- > 0;)
			xt[i][point] = x->row[i]->read_ctx(x->ctx[i]);
	} else {
		for (i = 0; i < x->nr; i++)
			xt[i][point] = x->row[i]->read_ctx(x->ctx[i]);
	}
}

/* At each end of a window: the flags of further counters not counting. */
static __always_inline unsigned int kbench_extra_check(const struct kbench_extra *x,
						       unsigned int cpu)
{
	unsigned int i, flags = 0;

	for (i = 0; i < x->nr; i++)
		flags |= x->row[i]->check_ctx(x->ctx[i], cpu);
	return flags;
}

/*
 * One window: the sample (kbench_method_sample()) between the world's
 * hooks, all inlined: the counter read is the same instructions in both
 * timed spans and costs what it costs, nothing more.  The further
 * counters @x are read at the same four points and checked at both ends,
 * inside the window; each gets the same differencing and the window's
 * flags.
 */
static __always_inline void
kbench_window(kbench_method_read_t read, kbench_guard_fn irq_off,
	      kbench_guard_fn irq_on, kbench_guard_fn snap_begin,
	      kbench_guard_fn snap_end, kbench_method_run_t run, void *data,
	      unsigned int n, unsigned int cpu, const struct kbench_extra *x,
	      struct kbench_window *w)
{
	unsigned long long t[4], xt[KBENCH_EXTRA_MAX][4];
	struct kbench_guard g;
	unsigned int i;

	g.cpu = cpu;
	g.flags = 0;
	irq_off(&g);
	if (x->sync)
		g.flags |= kbench_sync_wait(x->sync, read);
	snap_begin(&g);
	g.flags |= kbench_extra_check(x, cpu);
	kbench_method_sample(read, kbench_extra_read, x, run, n, data, t, xt);
	g.flags |= kbench_extra_check(x, cpu);
	snap_end(&g);
	irq_on(&g);

	w->flags = g.flags;
	if (kbench_method_backwards(t))
		w->flags |= KBENCH_SAMPLE_F_BACKWARDS;
	w->net = kbench_method_net(t);
	w->start = t[0];
	w->len = t[3] - t[0];
	w->ref = t[1] - t[0];
	for (i = 0; i < x->nr; i++) {
		if (kbench_method_backwards(xt[i]))
			w->flags |= KBENCH_SAMPLE_F_BACKWARDS;
		w->xnet[i] = kbench_method_net(xt[i]);
	}
}

/* A counter row's window function @fn, from its inline hooks. */
#define KBENCH_DEFINE_WINDOW(fn, read, irq_off, irq_on, snap_begin,	\
			     snap_end)					\
static void fn(kbench_method_run_t run, void *data, unsigned int n,	\
	       unsigned int cpu, const struct kbench_extra *x,		\
	       struct kbench_window *w)					\
{									\
	kbench_window(read, irq_off, irq_on, snap_begin, snap_end, run,	\
		      data, n, cpu, x, w);				\
}

/*
 * The reasonableness test (AIX's advice for raw timebase values: they
 * need one).  The reference span T(2) runs the same few instructions in
 * every window of a series, so the shortest clean span seen so far (the
 * warm-up's included, not the probe's) is its cost.  Something that lands in it - an
 * interrupt in userspace, the host preempting a virtual CPU, an NMI, the
 * cold caches after a sleep - makes the sample's net T(N + 2) - T(2) too
 * small, even negative, and the minimum of a run is exactly such a
 * sample.  So a window is flagged `reference' when its reference span
 * exceeds
 *
 *	KBENCH_REFERENCE_FACTOR x shortest + KBENCH_REFERENCE_QUANTA x step
 *
 * where step is the counter's quantum as the run measured it (the smallest
 * change between reads: a counter slower than the code, or one emulated
 * in coarse steps, may read an unperturbed span a step long at either
 * end), and always when its net is negative.  A span within that bound
 * still shortens the net by its excess: where the net is small (a tiny N,
 * a slow emulated counter), half the net or less is flagged too
 * (KBENCH_REFERENCE_NET_SHARE), so that no such sample becomes a
 * minimum of 0 beside a median of 42 (seen in plain TCG on a loaded
 * host).  Under icount every clean span is the shortest: nothing changes
 * there.  @ref_min: the series' shortest clean span, KBENCH_U64_MAX
 * before the first.
 */
static inline unsigned int kbench_reference_flags(unsigned long long *ref_min,
						  const struct kbench_window *w,
						  unsigned long long step)
{
	unsigned long long min, excess, quanta = KBENCH_REFERENCE_QUANTA * step;

	if (!w->flags && w->ref < *ref_min)
		*ref_min = w->ref;
	min = *ref_min;
	if (w->net < 0)
		return KBENCH_SAMPLE_F_REFERENCE;
	if (min == KBENCH_U64_MAX || w->ref <= min)
		return 0;
	excess = w->ref - min;
	if (excess > (KBENCH_REFERENCE_FACTOR - 1) * min + quanta)
		return KBENCH_SAMPLE_F_REFERENCE;
	if (excess > quanta &&
	    (excess - quanta) * KBENCH_REFERENCE_NET_SHARE >
	    (unsigned long long)w->net)
		return KBENCH_SAMPLE_F_REFERENCE;
	return 0;
}

/*
 * After each window @w of series @s, flagged or not: every
 * KBENCH_REFERENCE_BLOCK windows, a block whose shortest span is longer
 * than the series' shortest raises that to it (see KBENCH_REFERENCE_BLOCK):
 * at most two blocks of windows are flagged when the machine slows down.
 * A shorter clean span lowers it at once (kbench_reference_flags()).
 * Under icount every span is the same: nothing changes there.
 */
static inline void kbench_reference_rebase(unsigned long long *ref_min,
					   unsigned long long *blk_min,
					   unsigned int *blk_n,
					   const struct kbench_window *w)
{
	if (w->ref < *blk_min)
		*blk_min = w->ref;
	if (++*blk_n < KBENCH_REFERENCE_BLOCK)
		return;
	if (*ref_min != KBENCH_U64_MAX && *blk_min > *ref_min)
		*ref_min = *blk_min;
	*blk_min = KBENCH_U64_MAX;
	*blk_n = 0;
}

/*
 * The counter's quantum: the smallest change between two of its reads in
 * a tight loop (kbench_method_resolution()), at least 1.  Interference
 * only lengthens steps, so the minimum is robust outside windows.
 */
static inline unsigned long long kbench_counter_step(kbench_method_read_t read)
{
	struct kbench_method_res res;

	kbench_method_resolution(read, KBENCH_QUANTUM_CHANGES,
				 KBENCH_QUANTUM_READS, &res);
	return res.min ? res.min : 1;
}

/* @ns nanoseconds in ticks of a @hz counter; saturates, never wraps. */
static inline unsigned long long kbench_ns_to_ticks(unsigned long long ns,
						    unsigned long long hz)
{
	unsigned long long sec = ns / KBENCH_NSEC_PER_SEC;

	if (hz && sec > KBENCH_U64_MAX / hz)
		return KBENCH_U64_MAX;
	/* the second product stays below hz x 1e9: fine below 18 GHz */
	return sec * hz + ns % KBENCH_NSEC_PER_SEC * hz / KBENCH_NSEC_PER_SEC;
}

/* @ticks of a @hz counter in nanoseconds; saturates, never wraps. */
static inline unsigned long long kbench_ticks_to_ns(unsigned long long ticks,
						    unsigned long long hz)
{
	unsigned long long sec;

	if (!hz)
		return 0;
	sec = ticks / hz;
	if (sec > KBENCH_U64_MAX / KBENCH_NSEC_PER_SEC - 1)
		return KBENCH_U64_MAX;
	return sec * KBENCH_NSEC_PER_SEC +
	       ticks % hz * KBENCH_NSEC_PER_SEC / hz;
}

/*
 * Ticks to keep interrupts on after a window of @len ticks so that windows
 * take at most @duty_pct percent of the time: @len x (100 - @duty_pct) /
 * @duty_pct, computed without the product (which wraps for long windows
 * at a low duty), saturating.
 */
static inline unsigned long long kbench_gap_ticks(unsigned long long len,
						  unsigned int duty_pct)
{
	unsigned long long on, q;

	if (!duty_pct || duty_pct >= 100)
		return 0;
	on = 100 - duty_pct;
	q = len / duty_pct;
	if (q > (KBENCH_U64_MAX - on) / on)
		return KBENCH_U64_MAX;
	return q * on + len % duty_pct * on / duty_pct;
}

/* One series of a run: a routine and where its samples go. */
struct kbench_engine_series {
	kbench_method_run_t run;
	void *data;
	kbench_s64 *net;		/* [samples] net ticks, time order */
	unsigned int *flags;		/* [samples] enum kbench_sample_flags */
	kbench_s64 *xnet[KBENCH_EXTRA_MAX];	/* [samples] each event's */
	unsigned long long *start;	/* [samples] t0 of each; NULL: not kept */
	/*
	 * [samples] the divisor of N each was taken at (N / divisor
	 * iterations; its net and events' stored times the divisor, see
	 * kbench_engine_run()); NULL: not kept
	 */
	unsigned int *div;
	unsigned int taken;		/* samples stored */
	unsigned int valid;		/* of them without a flag */
	unsigned int long_windows;	/* over max_window in a row, now */
	unsigned long long ref_min;	/* shortest clean reference span */
	unsigned long long ref_blk_min;	/* shortest span of the block now */
	unsigned int ref_blk_n;		/* windows in that block */
	int overhead;			/* not counted in routine_ticks */
	struct kbench_window last;	/* its latest window (adaptive N) */
	long long clean_net;		/* its latest clean window's net ... */
	unsigned int clean_n;		/* ... at this N (0: none yet) */
	unsigned int odd_long;		/* long, the span not, in a row */
};

/* Forget @s's reference base: its next clean span sets it again. */
static inline void kbench_series_reference_reset(struct kbench_engine_series *s)
{
	s->ref_min = KBENCH_U64_MAX;
	s->ref_blk_min = KBENCH_U64_MAX;
	s->ref_blk_n = 0;
}

struct kbench_engine;

/* The world's side of a run, called between windows only. */
struct kbench_engine_ops {
	/* after every window @w: give the CPU back as the world does */
	void (*gap)(struct kbench_engine *e, const struct kbench_window *w);
	/*
	 * between rounds: 0 to go on, or -errno to stop; -ETIME during the
	 * samples phase ends the run with the rounds taken (timed_out)
	 */
	int (*check)(struct kbench_engine *e);
	/*
	 * a concurrent run, after the probe (its windows do not wait at the
	 * rendezvous, each CPU probes on its own): agree with the other CPUs
	 * on e->iterations, the smallest every CPU proposes, so that every
	 * CPU takes the same windows in the same order; 0, or -errno to
	 * stop.  Called again at each step of kbench_engine_sync_fit(): each
	 * call is one round that every CPU joins.  NULL: a run on one CPU.
	 */
	int (*agree)(struct kbench_engine *e);
};

/* A run: the world fills the request part, kbench_engine_run() the rest. */
struct kbench_engine {
	const struct kbench_counter *counter;
	struct kbench_extra extra;	/* further counters: events (nr 0: none) */
	const struct kbench_engine_ops *ops;
	void *ctx;			/* the world's, for its hooks */
	struct kbench_engine_series *series[KBENCH_ENGINE_SERIES_MAX];
	unsigned int nr_series;
	unsigned int cpu;
	unsigned int samples;		/* rounds, after the warm-up */
	unsigned int warmup;		/* rounds taken and discarded */
	int adaptive;			/* choose N (else: iterations) */
	unsigned int iterations;	/* N; set when adaptive */
	unsigned int iterations_limit;	/* the largest N the probe tries */
	unsigned long long target;	/* adaptive: net ticks to reach */
	unsigned long long max_window;	/* longest window in ticks, 0: none */

	/* results */
	unsigned long long step;	/* the counter's quantum, in ticks */
	/*
	 * Adaptive N after the probe: windows are taken at iterations / div
	 * iterations, div a divisor of iterations (1: the probe's N); the
	 * largest divisor used, how often N changed, the samples stored at a
	 * divisor above 1
	 */
	unsigned int div;
	unsigned int div_max;
	unsigned int n_changes;
	unsigned int reduced;
	/* the probe's longest window (of the shortest per series) at N */
	unsigned long long probe_len;
	/* the changes of N, the world's [KBENCH_DIV_LOG_MAX] (NULL: none kept) */
	struct kbench_div_change *div_log;
	unsigned int div_log_nr;
	int sampling;			/* in the samples phase */
	unsigned int done, total;	/* windows of the samples phase */
	unsigned long long span;	/* first sample's start to last's end */
	unsigned long long routine_ticks;	/* positive nets, routines */
	unsigned long long window_ticks;	/* all timed parts */
	int timed_out;			/* the samples phase ended early */
	int window_probe;		/* -ERANGE came from the probe */
	/*
	 * -ERANGE: why (enum kbench_range), the series at fault, the N and
	 * window (ticks) measured - the shortest of the probe step, or the
	 * last of the long ones - with its net, and the N and window predicted
	 * for the requested N (KBENCH_RANGE_FIXED)
	 */
	unsigned int range;
	unsigned int range_series;
	unsigned int range_n;
	unsigned long long range_len;
	long long range_net;
	unsigned int range_want_n;
	unsigned long long range_want_len;
	/* series + 1 of the first series without a valid sample, 0: none */
	unsigned int no_valid;
};

/*
 * After a concurrent run of @nr engines (one per CPU, the same series):
 * the start skew of sample @j of series @k - the latest start minus the
 * earliest - with the sample flagged KBENCH_SAMPLE_F_SKEW on every CPU
 * where it is over @bound ticks (0: no bound).  The series must keep
 * their starts, and every engine must have sample @j.
 */
static inline unsigned long long kbench_engine_skew(struct kbench_engine *const *e,
						    unsigned int nr, unsigned int k,
						    unsigned int j,
						    unsigned long long bound)
{
	unsigned long long lo = KBENCH_U64_MAX, hi = 0, t, skew;
	struct kbench_engine_series *s;
	unsigned int c;

	for (c = 0; c < nr; c++) {
		t = e[c]->series[k]->start[j];
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	skew = nr ? hi - lo : 0;
	if (!bound || skew <= bound)
		return skew;
	for (c = 0; c < nr; c++) {
		s = e[c]->series[k];
		if (!s->flags[j])
			s->valid--;
		s->flags[j] |= KBENCH_SAMPLE_F_SKEW;
	}
	return skew;
}

/* Why kbench_engine_run() returned -ERANGE. */
enum kbench_range {
	KBENCH_RANGE_NONE,
	/* the probe: the shortest of a step's windows was over the limit */
	KBENCH_RANGE_SLOW,
	/* fixed N: the window predicted for it is over the limit */
	KBENCH_RANGE_FIXED,
	/* KBENCH_LONG_WINDOWS_ABORT windows of one series in a row over it */
	KBENCH_RANGE_LONG,
};

/* Refuse the run (-ERANGE) for @why, at series @i, N @n, window @len. */
static inline int kbench_engine_refuse(struct kbench_engine *e,
				       unsigned int why, unsigned int i,
				       unsigned int n, unsigned long long len,
				       long long net)
{
	e->range = why;
	e->range_series = i;
	e->range_n = n;
	e->range_len = len;
	e->range_net = net;
	e->window_probe = why != KBENCH_RANGE_LONG;
	return -ERANGE;
}

/*
 * The window predicted at @to iterations from one of @fixed ticks plus a
 * loop of @net ticks at @n: @fixed + @net x @to / @n, saturating.
 */
static inline unsigned long long kbench_window_at(unsigned long long fixed,
						  unsigned long long net,
						  unsigned int n,
						  unsigned int to)
{
	unsigned long long loop;

	if (!n)
		return KBENCH_U64_MAX;
	if (to && net > KBENCH_U64_MAX / to)
		loop = net / n * to;	/* precise enough for a refusal */
	else
		loop = net * to / n;
	return loop > KBENCH_U64_MAX - fixed ? KBENCH_U64_MAX : fixed + loop;
}

/* One window of @s with @n iterations, flagged, then the gap. */
static inline void kbench_engine_take(struct kbench_engine *e,
				      struct kbench_engine_series *s,
				      unsigned int n, struct kbench_window *w)
{
	e->counter->window(s->run, s->data, n, e->cpu, &e->extra, w);
	if (e->max_window && w->len > e->max_window)
		w->flags |= KBENCH_SAMPLE_F_WINDOW;
	w->flags |= kbench_reference_flags(&s->ref_min, w, e->step);
	kbench_reference_rebase(&s->ref_min, &s->ref_blk_min, &s->ref_blk_n, w);
	e->ops->gap(e, w);
}

/*
 * Refuse a fixed N of @want (KBENCH_RANGE_FIXED): the window predicted for
 * it from series @i's shortest, @len ticks with a net of @net (>= 0) at @n.
 */
static inline int kbench_engine_refuse_fixed(struct kbench_engine *e,
					     unsigned int i, unsigned int n,
					     unsigned long long len,
					     long long net, unsigned int want)
{
	unsigned long long loop = (unsigned long long)net;

	e->range_want_n = want;
	e->range_want_len = kbench_window_at(len > loop ? len - loop : 0, loop,
					     n, want);
	return kbench_engine_refuse(e, KBENCH_RANGE_FIXED, i, n, len, net);
}

/* The minima of a probe step's windows of one series. */
struct kbench_probe_min {
	long long clean;		/* shortest net of a clean window */
	long long any;			/* shortest net of any window */
	unsigned long long len;		/* shortest window */
};

/* KBENCH_PROBE_REPEAT more windows of @s at @n into @m. */
static inline void kbench_engine_probe_look(struct kbench_engine *e,
					    struct kbench_engine_series *s,
					    unsigned int n,
					    struct kbench_probe_min *m)
{
	struct kbench_window w;
	unsigned int k;

	for (k = 0; k < KBENCH_PROBE_REPEAT; k++) {
		kbench_engine_take(e, s, n, &w);
		if (!w.flags && w.net < m->clean)
			m->clean = w.net;
		if (w.net < m->any)
			m->any = w.net;
		if (w.len < m->len)
			m->len = w.len;
	}
}

/*
 * The net of a probe step: the clean windows' shortest, else any's, >= 0,
 * and never more than the step's shortest window, which holds it.  Where
 * a tiny N makes the net negative (plain TCG: the span costs more than
 * two iterations), the reasonableness test flags every window but one
 * the host stretched inside its loop: that one was "clean", its net
 * thousands of times the routine's, and the probe stopped at N = 2 (a
 * run on ppc64le whose 200 samples were all flagged).
 */
static inline long long kbench_probe_net(const struct kbench_probe_min *m)
{
	long long net = m->clean != KBENCH_S64_MAX ? m->clean : m->any;

	if (net < 0)
		return 0;
	if (m->len < (unsigned long long)net)
		net = (long long)m->len;
	return net;
}

/*
 * Find N: double it from 1 and take the minimum of a few windows per step
 * (clean windows only, when there are any).  The shortest window of a
 * step is the routine's own cost at that N: a window the host stretched
 * is one of several, so it never decides.  When even that is over
 * max_window, the run is refused (-ERANGE, KBENCH_RANGE_SLOW) then and
 * there - after at most KBENCH_PROBE_REPEAT long windows - unless an
 * adaptive probe can go back to the last N that fitted (a fixed N above
 * 1 is then refused as KBENCH_RANGE_FIXED: the prediction missed).  Fixed
 * N: stop at N; reject the run (KBENCH_RANGE_FIXED) as soon as the window
 * predicted for the next step would exceed max_window, so no window of
 * the run after the probe's first step is ever predicted over the limit.
 * Adaptive N: stop when the slowest series' net reaches the target, or at
 * the limit, or when the next step would not fit.  A step that predicts
 * the next over max_window looks again first (KBENCH_PROBE_AGAIN): its
 * windows fit, and a host that stretched all of them is not the routine.
 */
static inline int kbench_engine_probe(struct kbench_engine *e)
{
	unsigned int limit = e->adaptive ? e->iterations_limit :
					   e->iterations;
	unsigned int n = 1, prev = 0, next, i, again;
	unsigned long long step_len = 0, prev_len = 0;
	int err;

	for (;;) {
		unsigned long long over = 0;
		unsigned int over_series = 0;
		long long slowest = 0, over_net = 0;

		next = n >= limit ? n : n > limit / 2 ? limit : 2 * n;
		for (i = 0; i < e->nr_series; i++) {
			struct kbench_probe_min m = {
				KBENCH_S64_MAX, KBENCH_S64_MAX, KBENCH_U64_MAX
			};
			unsigned long long fixed, want;
			long long net;

			kbench_engine_probe_look(e, e->series[i], n, &m);
			err = e->ops->check(e);
			if (err)
				return err;
			net = kbench_probe_net(&m);
			if (e->max_window && m.len > e->max_window) {
				/* adaptive: the prediction missed, the last N that fit */
				if (e->adaptive && prev) {
					e->iterations = prev;
					e->probe_len = prev_len;
					return 0;
				}
				/* fixed N: the prediction missed on the way */
				if (n > 1)
					return kbench_engine_refuse_fixed(e, i, n,
									  m.len, net,
									  limit);
				return kbench_engine_refuse(e, KBENCH_RANGE_SLOW,
							    i, n, m.len, net);
			}
			for (again = 0;; again++) {
				/* the fixed part of the window plus the loop scaled */
				fixed = m.len > (unsigned long long)net ?
					m.len - (unsigned long long)net : 0;
				want = kbench_window_at(fixed,
							(unsigned long long)net,
							n, next);
				/* no look again where it cannot change N */
				if (!e->max_window || want <= e->max_window ||
				    n == next || again == KBENCH_PROBE_AGAIN ||
				    (e->adaptive &&
				     (unsigned long long)net >= e->target))
					break;
				kbench_engine_probe_look(e, e->series[i], n, &m);
				err = e->ops->check(e);
				if (err)
					return err;
				net = kbench_probe_net(&m);
			}
			if (net > slowest)
				slowest = net;
			if (m.len > step_len)
				step_len = m.len;
			if (e->max_window && want > e->max_window && !over) {
				over = m.len;
				over_net = net;
				over_series = i;
			}
		}
		if (e->adaptive) {
			if ((unsigned long long)slowest >= e->target ||
			    n >= limit || over)
				break;
		} else {
			if (n >= limit)
				break;
			if (over)
				return kbench_engine_refuse_fixed(e, over_series,
								  n, over,
								  over_net,
								  limit);
		}
		prev = n;
		prev_len = step_len;
		step_len = 0;
		n = next;
	}
	e->iterations = n;
	e->probe_len = step_len;
	return 0;
}

/*
 * Divisors of @n, the probe's N: adaptive N after the probe takes windows
 * of @n / d iterations only, so that a sample's net times d is the net of
 * @n iterations exactly and every sample of a series stays one series of
 * per-iteration values.  The smallest divisor of @n at least @want (@n
 * when none is below it), and the largest at most @want (at least 1).
 */
static inline unsigned int kbench_div_at_least(unsigned int n,
					       unsigned long long want)
{
	unsigned int d;

	if (want >= n)
		return n ? n : 1;
	for (d = want > 1 ? (unsigned int)want : 1; n % d; d++)
		;
	return d;
}

static inline unsigned int kbench_div_at_most(unsigned int n, unsigned int want)
{
	unsigned int d;

	for (d = want > 1 ? want : 1; d > 1 && n % d; d--)
		;
	return d;
}

/*
 * N / @div from the next window on: counted, and logged with the window
 * it applies from (a later change for the same window replaces it).
 */
static inline void kbench_engine_set_div(struct kbench_engine *e,
					 unsigned int div, unsigned int at)
{
	struct kbench_div_change *last;

	e->div = div;
	if (div > e->div_max)
		e->div_max = div;
	e->n_changes++;
	if (!e->div_log)
		return;
	last = e->div_log_nr ? &e->div_log[e->div_log_nr - 1] : NULL;
	if (last && last->at == at)
		last->div = div;
	else if (e->div_log_nr < KBENCH_DIV_LOG_MAX)
		e->div_log[e->div_log_nr++] = (struct kbench_div_change){ at, div };
}

/* The windows adaptive N aims at after a long one: a part of the limit. */
static inline unsigned long long kbench_engine_aim(const struct kbench_engine *e)
{
	return e->max_window / 100 * KBENCH_ADAPT_TARGET_PCT +
	       e->max_window % 100 * KBENCH_ADAPT_TARGET_PCT / 100;
}

/* Can @e change N after the probe?  Not fixed N, not a concurrent run. */
static inline int kbench_engine_adapts(const struct kbench_engine *e)
{
	return e->adaptive && e->max_window && !e->ops->agree &&
	       !e->extra.sync;
}

/*
 * Did the routine make long window @w (@n iterations) of @s, or something
 * else?  A routine that got slower runs its reference span T(2), two of
 * its iterations, slower too: by 2 x (net / n - c0), c0 the cost an
 * iteration had in its latest clean window.  A host that stalls the vCPU
 * inside the loop leaves the span alone; one that stalls it inside the
 * span leaves the loop's net as it was (and the reasonableness test flags
 * the span).  So: the routine's when the loop shows a higher cost and
 * the span rose by at least a quarter of what that predicts; when there
 * is nothing to compare with yet, the routine's (the bound first).
 */
static inline int kbench_engine_own(const struct kbench_engine_series *s,
				    const struct kbench_window *w,
				    unsigned int n)
{
	long long rise2;
	unsigned long long excess;

	if (!s->clean_n || !n || s->ref_min == KBENCH_U64_MAX ||
	    s->clean_net < 0)
		return 1;
	if (w->net <= 0)
		return 0;
	/* 2 x (net / n - clean_net / clean_n), over n x clean_n */
	rise2 = 2 * (w->net * (long long)s->clean_n -
		     s->clean_net * (long long)n);
	if (rise2 <= 0)
		return 0;
	rise2 /= (long long)n * s->clean_n;
	excess = w->ref > s->ref_min ? w->ref - s->ref_min : 0;
	return excess * 4 >= (unsigned long long)rise2;
}

/*
 * After window @w of series @k, taken at N / e->div iterations, over
 * max_window (flagged KBENCH_SAMPLE_F_WINDOW, so excluded), the bound
 * first, whatever stretched it:
 * - adaptive N above 1: the next windows take fewer iterations, N / d
 *   with d a divisor of N, so that a window of the length just seen comes
 *   to at most kbench_engine_aim(), whether the routine got slower or an
 *   NMI, an SMI, the host's steal or a perf event stretched it (an NMI
 *   every 250 us under `perf record -a' is no reason to keep windows
 *   long); the run goes on, and kbench_engine_grow() brings N back when
 *   windows are short again;
 * - otherwise (fixed N, N / d already 1, a concurrent run, whose CPUs keep
 *   one N): a window that something outside the routine stretched
 *   (KBENCH_SAMPLE_F_OUTSIDE) or that nothing flagged but the routine did
 *   not make (kbench_engine_own(), fewer than KBENCH_UNEXPLAINED_LONG
 *   times in a row) is excused while it is at most KBENCH_EXCUSED_FACTOR
 *   times the bound; any other counts, and the
 *   KBENCH_LONG_WINDOWS_ABORT-th such window of that series in a row is
 *   -ERANGE (KBENCH_RANGE_LONG).  Counted per series: the other series'
 *   windows in between (the overhead routine's are short) do not reset
 *   it.
 */
static inline int kbench_engine_long(struct kbench_engine *e, unsigned int k,
				     const struct kbench_window *w)
{
	struct kbench_engine_series *s = e->series[k];
	unsigned long long aim, want;
	unsigned int n = e->iterations / e->div;

	if (!(w->flags & KBENCH_SAMPLE_F_WINDOW)) {
		s->long_windows = 0;
		s->odd_long = 0;
		return 0;
	}
	if (kbench_engine_adapts(e) && n > 1) {
		s->odd_long = 0;
		aim = kbench_engine_aim(e);
		/* the divisor that scales the window just seen to the aim */
		want = aim ? (w->len + aim - 1) / aim : w->len;
		if (want < 2)
			want = 2;
		if (want > e->iterations)
			want = e->iterations;
		want *= e->div;
		/* the window just taken is sample e->done, when sampling */
		kbench_engine_set_div(e, kbench_div_at_least(e->iterations, want),
				      e->done + !!e->sampling);
		s->long_windows = 0;
		return 0;
	}
	if (w->len / KBENCH_EXCUSED_FACTOR <= e->max_window &&
	    ((w->flags & KBENCH_SAMPLE_F_OUTSIDE) ||
	     (!kbench_engine_own(s, w, n) &&
	      ++s->odd_long < KBENCH_UNEXPLAINED_LONG)))
		return 0;
	s->odd_long = 0;
	if (++s->long_windows < KBENCH_LONG_WINDOWS_ABORT)
		return 0;
	return kbench_engine_refuse(e, KBENCH_RANGE_LONG, k,
				    e->iterations / e->div, w->len, w->net);
}

/*
 * After a round at a reduced N: back toward the probe's N, one halving
 * of the divisor at a time, when every series' latest window was clean
 * (or flagged only by the reasonableness test) and predicts
 * (kbench_window_at()) a window at the larger N within
 * kbench_engine_aim(), or within the probe's own window at N and a
 * quarter more (which the probe found to fit).  A routine still slow
 * keeps the small N; one fast again is back at the probe's N in
 * log2(divisor) rounds.
 */
static inline void kbench_engine_grow(struct kbench_engine *e)
{
	unsigned int n = e->iterations / e->div, div, to, k;
	unsigned long long aim = kbench_engine_aim(e), net;

	if (e->probe_len + e->probe_len / 4 > aim)
		aim = e->probe_len + e->probe_len / 4;
	if (aim > e->max_window)
		aim = e->max_window;
	const struct kbench_window *w;

	if (e->div <= 1 ||
	    (e->div_log && e->div_log_nr >= KBENCH_DIV_LOG_GROW))
		return;
	div = kbench_div_at_most(e->iterations, e->div / 2);
	to = e->iterations / div;
	for (k = 0; k < e->nr_series; k++) {
		w = &e->series[k]->last;
		if (w->flags & ~KBENCH_SAMPLE_F_REFERENCE)
			return;
		/*
		 * A reference span something landed in leaves the net too
		 * small, even negative: the whole window scales with N
		 * instead (an upper bound).  Waiting for a clean window
		 * there kept N small for good: at a tiny N, a net that
		 * plain TCG makes negative in every window flags them all
		 * (ppc64le on a loaded host, after a host stall had cut N
		 * 40-fold: 200 of 200 samples flagged, a run with none).
		 */
		net = w->flags || w->net < 0 ? w->len :
		      (unsigned long long)w->net;
		if (kbench_window_at(w->len > net ? w->len - net : 0, net, n,
				     to) > aim)
			return;
	}
	kbench_engine_set_div(e, div, e->done);
}

/* @v times @d, saturating: a net of N / @d iterations as one of N. */
static inline long long kbench_scale_net(long long v, unsigned int d)
{
	if (d <= 1)
		return v;
	if (v > KBENCH_S64_MAX / d)
		return KBENCH_S64_MAX;
	if (v < -KBENCH_S64_MAX / d)
		return -KBENCH_S64_MAX;
	return v * d;
}

/*
 * The order of the series within round @r of a run of @nr series: the
 * series at position @k.  A Williams design (E. J. Williams, "Experimental
 * designs balanced for the estimation of residual effects of treatments",
 * Aust. J. Sci. Res. 1949): row i of a Latin square whose first row is
 * 0, 1, nr-1, 2, nr-2, ..., each entry plus i mod nr; for an odd nr the
 * mirror of every row follows (2 nr rows).  Over a whole cycle of rows
 * every series comes first equally often and every series follows every
 * other one equally often (once for an even nr, twice for an odd one), so
 * carry-over from the window before (caches, the branch predictors, the
 * gap) is balanced between routines: a plain rotation (A B E, B E A, E A B)
 * puts B right after A in two rounds of three and A after B in one.
 */
static inline unsigned int kbench_engine_order(unsigned int nr, unsigned int r,
					       unsigned int k)
{
	unsigned int rows, row, first;

	if (nr < 2)
		return 0;
	rows = nr % 2 ? 2 * nr : nr;
	row = r % rows;
	if (row >= nr)
		k = nr - 1 - k;
	first = k % 2 ? (k + 1) / 2 : (nr - k / 2) % nr;
	return (first + row % nr) % nr;
}

/* The position of series @x in round @r (kbench_engine_order()'s inverse). */
static inline unsigned int kbench_engine_pos(unsigned int nr, unsigned int r,
					     unsigned int x)
{
	unsigned int k;

	for (k = 0; k + 1 < nr; k++)
		if (kbench_engine_order(nr, r, k) == x)
			break;
	return k;
}

/* Window of series @k at the N in use, judged: 0 or -ERANGE. */
static inline int kbench_engine_round_take(struct kbench_engine *e,
					   unsigned int k,
					   struct kbench_window *w)
{
	struct kbench_engine_series *s = e->series[k];
	unsigned int n = e->iterations / e->div;

	kbench_engine_take(e, s, n, w);
	s->last = *w;
	if (!w->flags) {
		s->clean_net = w->net;
		s->clean_n = n;
	}
	return kbench_engine_long(e, k, w);
}

/*
 * agree() in rounds: the part every world shares (each adds its own lock
 * and wait).  Every CPU reports its N in the open round; the last of @nr
 * to report closes it, keeping the smallest as the round's N and opening
 * the next.  The next cannot close, and so cannot overwrite the kept N,
 * before every CPU has reported in it, after reading this one's.  Zeroed,
 * with min_n at KBENCH_ROUNDS_NONE, before the first round.
 */
#define KBENCH_ROUNDS_NONE		(~0U)

struct kbench_rounds {
	unsigned int arrived;		/* reported in the open round */
	unsigned int min_n;		/* their smallest N */
	unsigned int round;		/* the open round, read without the lock */
	unsigned int agreed_n;		/* the last closed round's N */
};

/* Report @n, under the world's lock: the round it went into. */
static inline unsigned int kbench_rounds_report(struct kbench_rounds *r,
						unsigned int n,
						unsigned int nr)
{
	unsigned int round = r->round;

	if (n < r->min_n)
		r->min_n = n;
	if (++r->arrived == nr) {
		r->agreed_n = r->min_n;
		r->min_n = KBENCH_ROUNDS_NONE;
		r->arrived = 0;
		kbench_store_once(&r->round, round + 1);
	}
	return round;
}

/* Is @round over?  Without the world's lock. */
static inline int kbench_rounds_over(const struct kbench_rounds *r,
				     unsigned int round)
{
	return kbench_load_once(&r->round) != round;
}

/*
 * A concurrent run after agree(): each CPU probed alone, but a routine
 * the CPUs contend on (a shared cache line, a lock) costs more when they
 * run together - k CPUs on one line, about k times more - so windows of
 * the agreed N started together could all pass max_window.  N is fitted
 * again with the windows started together (at the rendezvous): from
 * N = 1, KBENCH_PROBE_REPEAT windows per series at n on every CPU.  Per
 * series the shortest window where the CPUs met counts (one whose wait
 * gave up, flagged skew, may have run alone: a CPU still waking from
 * agree()'s sleep is late to the first), as in the probe, so that a
 * window the host stretched never decides; the longest series decides.
 * Each CPU proposes the largest N whose window, scaled from that one
 * (len x to / n, the fixed part scaled too: an overestimate), stays
 * within kbench_engine_aim(), at most KBENCH_SYNC_FIT_GROWTH times n and
 * at most the probe's N; agree() takes the smallest proposal, which
 * every CPU then uses, so all take the same windows in the same order.
 * It stops when N no longer grows (at the probe's N at the latest, whose
 * windows it takes too: a routine whose cost grows faster than N passes
 * any prediction by scaling); after KBENCH_SYNC_FIT_STEPS steps it keeps
 * the last N whose windows it took.
 *
 * The bound first: past N = 1, a CPU stops a step at its first window
 * over max_window (kbench_sync_skip() counts the step's other windows as
 * arrived, so nobody waits for them), and proposes the N of the step
 * before, whose windows all fitted on every CPU; every CPU still joins
 * the step's round, takes that N or less, and the fit ends there on all
 * of them.  So with adaptive N the fit takes at most one window over the
 * bound per CPU after N = 1, and no N it keeps had one.  A fixed N, which
 * the fall back would refuse, first looks again at the same N: every CPU
 * takes another step there (agree() gives them all the same N), and the
 * CPU falls back only after KBENCH_LONG_WINDOWS_ABORT steps in a row
 * with a window over the bound, one each - the samples' rule for a fixed
 * N - so that one window the host stretched does not refuse a run.  At N = 1 (no smaller N) the
 * shortest of the step's windows decides, as in the probe: a routine
 * whose window at N = 1 is over max_window with its CPUs together is
 * refused as too slow (KBENCH_RANGE_SLOW), before any window of its
 * samples.
 *
 * A fixed N is kept where every CPU predicts its window within
 * max_window, and refused (-ERANGE, KBENCH_RANGE_FIXED, with its
 * prediction) by each CPU that does not - a CPU whose window at a
 * smaller N was already over the bound predicts from that window; the
 * others stop with -ECANCELED, which does not end the group (the
 * refusing CPU ends it), so that the answer names the CPU that refused,
 * its series and its numbers.
 */
static inline int kbench_engine_sync_fit(struct kbench_engine *e)
{
	unsigned long long met[KBENCH_ENGINE_SERIES_MAX];
	unsigned long long any[KBENCH_ENGINE_SERIES_MAX];
	unsigned int windows = KBENCH_PROBE_REPEAT * e->nr_series;
	unsigned int cap = e->iterations, n = 1, mn = 1, prev = 1, to, i, k;
	unsigned long long len = 0, one, want, aim = kbench_engine_aim(e);
	unsigned int at = 0, step, looks = 0, stay = 0;
	struct kbench_window w;
	int over, err;

	for (step = 0; step < KBENCH_SYNC_FIT_STEPS; step++) {
		over = 0;
		for (i = 0; i < e->nr_series; i++) {
			met[i] = KBENCH_U64_MAX;
			any[i] = KBENCH_U64_MAX;
		}
		for (k = 0; k < windows; k++) {
			i = k % e->nr_series;
			kbench_engine_take(e, e->series[i], n, &w);
			if (!(w.flags & KBENCH_SAMPLE_F_SKEW) && w.len < met[i])
				met[i] = w.len;
			if (w.len < any[i])
				any[i] = w.len;
			/* past N = 1: no more windows at this N */
			if (n > 1 && w.len > e->max_window) {
				over = 1;
				at = i;
				len = w.len;
				kbench_sync_skip(e->extra.sync, windows - k - 1);
				break;
			}
		}
		err = e->ops->check(e);
		if (err)
			return err;
		mn = n;
		if (over) {
			/*
			 * back to the N before, which fitted; a round all
			 * join.  A fixed N, which that would refuse, looks
			 * again at this N first: a window the host stretched
			 * (nothing flags it under TCG) is not the routine's,
			 * KBENCH_LONG_WINDOWS_ABORT in a row are
			 */
			looks++;
			e->iterations = !e->adaptive &&
					looks < KBENCH_LONG_WINDOWS_ABORT ? n : prev;
		} else {
			looks = 0;
			len = 0;
			for (i = 0; i < e->nr_series; i++) {
				one = met[i] != KBENCH_U64_MAX ? met[i] : any[i];
				if (one > len) {
					len = one;
					at = i;
				}
			}
			if (len > e->max_window && n == 1)
				return kbench_engine_refuse(e, KBENCH_RANGE_SLOW,
							    at, 1, len,
							    (long long)len);
			if (!len)
				len = 1;
			/*
			 * n x aim / len without overflow: aim is half the
			 * module's window limit in ticks (< 2^32), n < 2^32
			 */
			want = aim / len * n + aim % len * n / len;
			if (want > (unsigned long long)n * KBENCH_SYNC_FIT_GROWTH)
				want = (unsigned long long)n * KBENCH_SYNC_FIT_GROWTH;
			to = want >= cap ? cap : want ? (unsigned int)want : 1;
			e->iterations = to;
		}
		err = e->ops->agree(e);
		if (err)
			return err;
		to = e->iterations;
		/* the probe's N too is taken together before it is kept */
		if (to < n)
			break;
		/*
		 * N stays: done, but for a fixed N, where a CPU may be
		 * looking again (every CPU sees the same N, so all stay or
		 * stop alike)
		 */
		if (to == n) {
			if (e->adaptive || ++stay >= KBENCH_LONG_WINDOWS_ABORT)
				break;
			continue;
		}
		stay = 0;
		prev = n;
		n = to;
	}
	/* out of steps: the last N whose windows were taken, on every CPU */
	if (step == KBENCH_SYNC_FIT_STEPS)
		e->iterations = n;
	if (e->adaptive || e->iterations >= cap)
		return 0;
	/* a fixed N: kept where every CPU predicts it within the bound */
	want = kbench_window_at(0, len, mn, cap);
	e->iterations = want <= e->max_window ? cap : 0;
	err = e->ops->agree(e);
	if (err)
		return err;
	if (e->iterations >= cap)
		return 0;
	/* a CPU that predicted it within the bound stops for the one that did not */
	if (want <= e->max_window)
		return -ECANCELED;
	return kbench_engine_refuse_fixed(e, at, mn, len, (long long)len, cap);
}

/*
 * Run @e: measure the counter's step, probe, warm-up, then @e->samples
 * rounds of one window per series in the balanced order of
 * kbench_engine_order(), so that no series always follows the gap or the
 * same other series.  Adaptive N keeps the window bound after the probe too
 * (kbench_engine_long(), kbench_engine_grow()): a window taken at N / d
 * iterations is stored with its net (and its events') times d, the net of
 * N iterations, and d in the series' div[] when kept - exact, since d
 * divides N - so that every statistic of a series sees per-iteration
 * values at the probe's N.  0, or -errno: -ERANGE (a window over the
 * limit: the probe's shortest, one predicted by the probe, or
 * KBENCH_LONG_WINDOWS_ABORT of one series in a row that N cannot shorten,
 * warm-up included; @e->range says which), or what check() returned.  A
 * series left without a valid sample is named in @e->no_valid: the world
 * fails the run or reports it, never a figure from nothing.
 */
static inline int kbench_engine_run(struct kbench_engine *e)
{
	unsigned int nr = e->nr_series, r, k, x, d;
	unsigned long long first = 0, last = 0;
	struct kbench_engine_series *s;
	struct kbench_sync *sync;
	struct kbench_window w;
	int err;

	for (k = 0; k < nr; k++) {
		e->series[k]->taken = 0;
		e->series[k]->valid = 0;
		e->series[k]->long_windows = 0;
		kbench_series_reference_reset(e->series[k]);
		e->series[k]->clean_n = 0;
		e->series[k]->odd_long = 0;
	}
	e->done = 0;
	e->total = e->samples * nr;
	e->span = 0;
	e->routine_ticks = 0;
	e->window_ticks = 0;
	e->timed_out = 0;
	e->window_probe = 0;
	e->range = KBENCH_RANGE_NONE;
	e->range_want_n = 0;
	e->range_want_len = 0;
	e->no_valid = 0;
	e->div = 1;
	e->div_max = 1;
	e->n_changes = 0;
	e->reduced = 0;
	e->div_log_nr = 0;
	e->sampling = 0;
	e->step = kbench_counter_step(e->counter->read);

	/* each CPU of a concurrent run probes on its own, then they agree */
	sync = e->extra.sync;
	e->extra.sync = NULL;
	err = kbench_engine_probe(e);
	e->extra.sync = sync;
	if (!err && e->ops->agree)
		err = e->ops->agree(e);
	/* and with the windows started together, where they are */
	if (!err && e->ops->agree && e->extra.sync && e->max_window)
		err = kbench_engine_sync_fit(e);
	if (err)
		return err;
	/*
	 * The probe's spans are no baseline: its windows follow one another
	 * with the short gaps of short windows, and under a hypervisor (plain
	 * TCG on a loaded host: 5 of 8 runs of 5 ms windows) the spans of the
	 * run's windows, each after its gap, were all longer than twice the
	 * probe's shortest: every sample flagged.
	 */
	for (k = 0; k < nr; k++)
		kbench_series_reference_reset(e->series[k]);

	for (r = 0; r < e->warmup; r++) {
		for (k = 0; k < nr; k++) {
			err = kbench_engine_round_take(e,
						       kbench_engine_order(nr, r, k),
						       &w);
			if (err)
				return err;
		}
		kbench_engine_grow(e);
		err = e->ops->check(e);
		if (err)
			return err;
	}

	e->sampling = 1;
	for (r = 0; r < e->samples; r++) {
		for (k = 0; k < nr; k++) {
			x = kbench_engine_order(nr, r, k);
			s = e->series[x];
			d = e->div;
			err = kbench_engine_round_take(e, x, &w);
			if (err)
				return err;
			s->net[s->taken] = kbench_scale_net(w.net, d);
			s->flags[s->taken] = w.flags;
			if (s->start)
				s->start[s->taken] = w.start;
			if (s->div)
				s->div[s->taken] = d;
			for (x = 0; x < e->extra.nr; x++)
				s->xnet[x][s->taken] = kbench_scale_net(w.xnet[x], d);
			s->taken++;
			s->valid += !w.flags;
			e->reduced += d > 1;
			if (!e->done++)
				first = w.start;
			last = w.start + w.len;
			e->window_ticks += w.len;
			if (!s->overhead && w.net > 0)
				e->routine_ticks += (unsigned long long)w.net;
		}
		kbench_engine_grow(e);
		err = e->ops->check(e);
		if (err == -ETIME) {
			/* a partial result: every series has r + 1 samples */
			e->timed_out = 1;
			break;
		}
		if (err)
			return err;
	}
	e->span = last - first;
	for (k = 0; k < nr && !e->no_valid; k++)
		if (!e->series[k]->valid)
			e->no_valid = k + 1;
	return 0;
}

/*
 * The divisor of N that sample @j of series @x of a run of @nr series
 * took, from the run's log of changes (@log, @n entries): the last change
 * at or before the window the sample was, round @j's window at the
 * series' position (kbench_engine_pos()).
 */
static inline unsigned int kbench_div_of(const struct kbench_div_change *log,
					 unsigned int n, unsigned int nr,
					 unsigned int x, unsigned int j)
{
	unsigned long long g = (unsigned long long)j * nr +
			       kbench_engine_pos(nr, j, x);
	unsigned int i, div = 1;

	for (i = 0; i < n && log[i].at <= g; i++)
		div = log[i].div;
	return div;
}

#endif /* _KBENCH_ENGINE_H */
