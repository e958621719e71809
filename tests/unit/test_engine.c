// SPDX-License-Identifier: GPL-2.0
/*
 * The shared engine (include/kbench/), natively: the one rounding rule, the
 * summary, the reasonableness test, the unit arithmetic of the gap (which
 * used to wrap), a whole run against a synthetic counter whose every
 * window is known in advance (probe, warm-up, rotation, limits, timeout),
 * the real window with further counters (events) on synthetic ones, and a
 * concurrent run's rendezvous and skew with two threads.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbench/engine.h>
#include <kbench/summary.h>

#include "result.h"
#include "tap.h"
#include "tests.h"

static void test_rounding(void)
{
	static const struct { long long net; unsigned int n; long long want; }
	c[] = {
		{ 6000, 1000, 6000 },	/* exact */
		{ 1, 2000, 1 },		/* 0.5 -> 1 */
		{ -1, 2000, -1 },	/* -0.5 -> -1 */
		{ 3, 2000, 2 },		/* 1.5 -> 2 */
		{ -3, 2000, -2 },	/* -1.5 -> -2 */
		{ 1, 3000, 0 },		/* 0.333 -> 0 */
		{ 2, 3000, 1 },		/* 0.667 -> 1 */
		{ -2, 3000, -1 },
		{ 12582, 4096, 3072 },	/* 3071.777 -> 3072 */
		{ 5, 0, 0 },		/* no iterations: 0 */
	};
	unsigned int i, bad = 0;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		long long got = kbench_milli_per_iter(c[i].net, c[i].n);

		if (got != c[i].want) {
			diag("milli(%lld, %u) = %lld, want %lld", c[i].net,
			     c[i].n, got, c[i].want);
			bad++;
		}
	}
	ok(!bad, "engine: milli-ticks per iteration round half away from zero");
}

static int cmp_s64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void test_sort(void)
{
	kbench_s64 v[1000], w[1000];
	unsigned int n, i, bad = 0, seed = 12345;

	for (n = 0; n <= 1000; n = n ? n * 3 + 1 : 1) {
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			v[i] = (kbench_s64)(seed % 201) - 100;
			w[i] = v[i];
		}
		kbench_sort(v, n);
		qsort(w, n, sizeof(w[0]), cmp_s64);
		bad += memcmp(v, w, n * sizeof(v[0])) != 0;
	}
	ok(!bad, "engine: kbench_sort() sorts like qsort (sizes 0..1000)");
}

static void test_summary(void)
{
	/* 8 samples: 2 flagged (one twice), values unsorted */
	kbench_s64 net[8] = { 50, -7, 30, 10, 40, 999, 20, 60 };
	unsigned int flags[8] = { 0, KBENCH_SAMPLE_F_REFERENCE, 0, 0, 0,
				  KBENCH_SAMPLE_F_NMI |
				  KBENCH_SAMPLE_F_WINDOW, 0, 0 };
	struct kbench_summary s, o;
	kbench_s64 scratch[8];
	struct kb_result r;

	kbench_summarize(&s, net, flags, 8, 20, scratch);
	ok(s.samples == 8 && s.valid == 6, "summary: 8 taken, 6 valid");
	ok(s.excluded[5] == 1 && s.excluded[2] == 1 && s.excluded[4] == 1 &&
	   s.excluded[0] == 0, "summary: excluded counted under each flag");
	/* valid: 10 20 30 40 50 60: lower median 30 */
	ok(s.min == 10 && s.median == 30 && s.max == 60 && s.sum == 210,
	   "summary: min 10, lower median 30, max 60, sum 210 (%lld %lld %lld %lld)",
	   s.min, s.median, s.max, s.sum);
	ok(s.per_iter_min_milli == 500 && s.per_iter_median_milli == 1500,
	   "summary: per iteration 0.500 and 1.500");
	ok(s.flags == KBENCH_RESULT_F_EXCLUDED, "summary: flag excluded");

	kbench_summarize(&o, net, flags, 8, 10, scratch);
	kbench_correct(&s, &o);		/* 500 - 1000 < 0: clamped */
	ok(s.corr_min_milli == 0 && s.corr_median_milli == 0 &&
	   (s.flags & KBENCH_RESULT_F_CLAMPED), "correction: clamped at 0");

	/* kbenchctl's recomputation is the same code */
	memset(&r, 0, sizeof(r));
	r.net = net;
	r.sflags = flags;
	r.n = r.cap = 8;
	kb_result_summarize(&r, 20);
	ok(r.net_min == 10 && r.net_median == 30 && r.net_max == 60 &&
	   r.per_iter_min_milli == 500 && r.per_iter_median_milli == 1500 &&
	   r.excl[KB_EXCL_REFERENCE] == 1 && r.valid == 6,
	   "kb_result_summarize() gives the engine's figures");
}

static void test_reference(void)
{
	unsigned long long min = KBENCH_U64_MAX;
	struct kbench_window w = { .net = 100, .ref = 40 };
	unsigned int f;

	f = kbench_reference_flags(&min, &w, 1);
	ok(!f && min == 40, "reference: the first clean span sets the bound");
	w.ref = 2 * 40 + KBENCH_REFERENCE_QUANTA;
	ok(!kbench_reference_flags(&min, &w, 1),
	   "reference: 2 x shortest + 2 steps is still reasonable");
	w.ref++;
	ok(kbench_reference_flags(&min, &w, 1) == KBENCH_SAMPLE_F_REFERENCE,
	   "reference: one tick more is flagged");
	w.ref = 2 * 40 + KBENCH_REFERENCE_QUANTA * 26;
	ok(!kbench_reference_flags(&min, &w, 26),
	   "reference: a counter in steps of 26 ticks allows 2 x 26 more");
	w.ref = 10;
	w.flags = KBENCH_SAMPLE_F_NMI;
	kbench_reference_flags(&min, &w, 1);
	ok(min == 40, "reference: a flagged window does not lower the bound");
	w.flags = 0;
	w.ref = 1;
	w.net = -1;
	ok(kbench_reference_flags(&min, &w, 1) == KBENCH_SAMPLE_F_REFERENCE &&
	   min == 1, "reference: a negative net is always flagged");
	min = 0;
	w.net = 5;
	w.ref = 2;
	ok(!kbench_reference_flags(&min, &w, 1),
	   "reference: a shortest span of 0 ticks allows 2 (quantisation)");

	/* a small net: an excess within 2 x shortest that is half of it */
	min = 40;
	w.net = 60;
	w.ref = 40 + KBENCH_REFERENCE_QUANTA + 30;
	ok(!kbench_reference_flags(&min, &w, 1),
	   "reference: an excess of half the net (beyond the quanta) passes");
	w.ref++;
	ok(kbench_reference_flags(&min, &w, 1) == KBENCH_SAMPLE_F_REFERENCE,
	   "reference: one tick more, within 2 x shortest, is flagged: the net is short by a third of itself");
	w.net = 0;
	w.ref = 40 + KBENCH_REFERENCE_QUANTA + 1;
	ok(kbench_reference_flags(&min, &w, 1) == KBENCH_SAMPLE_F_REFERENCE,
	   "reference: a net of 0 beside a span one tick over the quanta is flagged (the plain-TCG minimum of 0)");
	w.ref = 40 + KBENCH_REFERENCE_QUANTA;
	ok(!kbench_reference_flags(&min, &w, 1),
	   "reference: ... and passes within the quanta (icount: every clean span is the shortest)");
	w.net = 1000000;
	w.ref = 2 * 40 + KBENCH_REFERENCE_QUANTA;
	ok(!kbench_reference_flags(&min, &w, 1),
	   "reference: a large net allows the whole 2 x shortest");
}

/*
 * The machine gets slower (plain TCG once its host is loaded): every span
 * is 2.5 x the shortest of the faster windows before.  The first block
 * after the change is flagged, the base rises to the block's shortest,
 * and the windows after it pass; one long span in a block raises nothing;
 * a shorter clean span lowers the base at once.
 */
static void test_reference_rebase(void)
{
	unsigned long long min = KBENCH_U64_MAX, blk = KBENCH_U64_MAX;
	struct kbench_window w = { .net = 1000, .ref = 40 };
	unsigned int i, f, flagged = 0, blk_n = 0;

	for (i = 0; i < KBENCH_REFERENCE_BLOCK + 3; i++) {
		kbench_reference_flags(&min, &w, 1);
		kbench_reference_rebase(&min, &blk, &blk_n, &w);
	}
	ok(min == 40 && blk_n == 3, "rebase: steady spans keep the base (40, %llu)",
	   min);
	w.ref = 100;
	for (i = 0; i < 3 * KBENCH_REFERENCE_BLOCK; i++) {
		w.flags = 0;
		f = kbench_reference_flags(&min, &w, 1);
		flagged += f == KBENCH_SAMPLE_F_REFERENCE;
		kbench_reference_rebase(&min, &blk, &blk_n, &w);
	}
	ok(min == 100 && flagged == 2 * KBENCH_REFERENCE_BLOCK - 3,
	   "rebase: a slower machine flags the rest of its block and the next (%u), then its spans are the base (%llu)",
	   flagged, min);
	for (i = 0; i < KBENCH_REFERENCE_BLOCK; i++) {
		w.ref = i == 5 ? 99 : 300;
		w.flags = 0;
		kbench_reference_flags(&min, &w, 1);
		kbench_reference_rebase(&min, &blk, &blk_n, &w);
	}
	ok(min == 99, "rebase: one clean span of 99 in a block of 300s lowers the base and keeps it (%llu)",
	   min);
	w.ref = 30;
	f = kbench_reference_flags(&min, &w, 1);
	ok(!f && min == 30,
	   "rebase: a faster machine lowers the base at once (%llu)", min);
}

/* The gap arithmetic against 128-bit products (bug: it wrapped). */
static void test_units(void)
{
	static const unsigned long long lens[] = {
		0, 1, 999, 1000000, 3000000000ULL, 20000000000000ULL,
		1ULL << 40, 1ULL << 56,
	};
	static const unsigned long long hzs[] = {
		62500000, 512000000, 999999000, 3000000000ULL,
	};
	static const unsigned int duties[] = { 1, 7, 50, 99 };
	unsigned int i, j, k, bad = 0, old_wraps = 0;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (k = 0; k < sizeof(duties) / sizeof(duties[0]); k++) {
			unsigned __int128 g = (unsigned __int128)lens[i] *
					      (100 - duties[k]) / duties[k];
			unsigned long long gap = kbench_gap_ticks(lens[i],
								  duties[k]);

			if (g > KBENCH_U64_MAX ? gap != KBENCH_U64_MAX :
						 gap != (unsigned long long)g)
				bad++;
			for (j = 0; j < sizeof(hzs) / sizeof(hzs[0]); j++) {
				unsigned __int128 ns = g * KBENCH_NSEC_PER_SEC /
						       hzs[j];
				unsigned long long got =
					kbench_ticks_to_ns(gap, hzs[j]);

				if (g > KBENCH_U64_MAX)
					continue;
				if (ns > KBENCH_U64_MAX ?
				    got != KBENCH_U64_MAX :
				    got != (unsigned long long)ns) {
					diag("gap %llu ticks at %llu Hz: %llu ns",
					     gap, hzs[j], got);
					bad++;
				}
				/* what kbench_gap() computed before */
				if ((unsigned long long)g * KBENCH_NSEC_PER_SEC /
				    hzs[j] != (unsigned long long)ns)
					old_wraps++;
			}
		}
	}
	ok(!bad, "units: gap ticks and ns exact or saturated, never wrapped");
	ok(old_wraps > 0, "units: the old 64-bit product wrapped in %u of these cases",
	   old_wraps);
	/* a 20 s window flagged at duty_pct 1 on a 1 GHz counter: 33 min */
	ok(kbench_ticks_to_ns(kbench_gap_ticks(20000000000ULL, 1),
			      1000000000ULL) == 1980000000000ULL,
	   "units: a 20 s window at duty 1%% asks for a 1980 s gap");
	ok(kbench_ns_to_ticks(20000, 999999000) == 19999 &&
	   kbench_ns_to_ticks(1000000, 62500000) == 62500 &&
	   kbench_ns_to_ticks(KBENCH_U64_MAX, 3000000000ULL) == KBENCH_U64_MAX,
	   "units: ns to ticks floor, saturating");
}

/*
 * A synthetic world: each series' routine costs `per_iter' ticks an
 * iteration, the reference span is 10 ticks, and the trace records the
 * order in which series were sampled.
 */
struct fake {
	unsigned int id;
	long long per_iter;
	unsigned int calls;
	unsigned int stall_every;	/* every k-th window: ref + 500 */
	unsigned int stretch_call;	/* that window: len + 2^30 (the host) */
	unsigned int long_from;		/* windows after that many: len 2^40 */
	unsigned int jump_n;		/* N from which a window is 2^30 longer */
	unsigned int flag_all;		/* every window: these flags */
	unsigned int rise_from, rise_to; /* those windows: cost x rise */
	long long rise;
	unsigned int long_flags;	/* windows after long_from: flags */
	int long_host;			/* ... stretched by the host: len only */
	unsigned int max_n;		/* the largest N a window had */
	unsigned int host_from, host_to; /* those windows: len + 2500 */
	unsigned int host_flags;	/* ... and these flags */
	unsigned int neg_below;		/* windows at a smaller N: net -50 */
	unsigned int loop_stall_every;	/* every k-th: loop + 2^20, clean */
	unsigned int together;		/* windows at the rendezvous: cost x */
	/* ... and + cost x N^2 / contend: invisible at N = 1, then fast */
	unsigned int contend;
	unsigned long long bound;	/* windows at the rendezvous over it */
	unsigned int over;		/* ... counted */
	unsigned int nlog;		/* N of each window at the rendezvous */
	unsigned int logn[128];
};

/* the longest window taken at the rendezvous */
static unsigned long long sync_len_max;

static unsigned long long rv_read(void);

static unsigned int trace[64], ntrace;
static unsigned int checks, fail_after, long_after;

static void fake_run(unsigned int n, void *data)
{
	(void)n;
	(void)data;
}

static void fake_window(kbench_method_run_t run, void *data, unsigned int n,
			unsigned int cpu, const struct kbench_extra *x,
			struct kbench_window *w)
{
	struct fake *f = data;
	long long cost;

	(void)run;
	(void)cpu;
	f->calls++;
	if (n > f->max_n)
		f->max_n = n;
	if (ntrace < 64)
		trace[ntrace++] = f->id;
	w->flags = 0;
	w->ref = 10;
	if (f->stall_every && f->calls % f->stall_every == 0)
		w->ref += 500;
	cost = f->per_iter * n;
	/* a routine the CPUs contend on: dearer when they run together */
	if (x && x->sync && f->together)
		cost *= f->together;
	if (x && x->sync && f->contend)
		cost += cost * n * n / f->contend;
	/* several threads: the real rendezvous, on a counter of reads */
	if (x && x->sync && x->sync->rv->nr > 1)
		w->flags |= kbench_sync_wait(x->sync, rv_read);
	if (f->rise && f->calls >= f->rise_from && f->calls < f->rise_to) {
		cost *= f->rise;
		/* the reference span's two iterations cost as much more */
		w->ref += 2 * f->per_iter * (f->rise - 1);
	}
	w->net = cost - (long long)(w->ref - 10);
	if (f->rise && f->calls >= f->rise_from && f->calls < f->rise_to)
		w->net += 2 * f->per_iter * (f->rise - 1);
	w->len = (unsigned long long)cost + 20 + w->ref;
	/* plain TCG at a tiny N: the span costs more than the loop's net */
	if (n < f->neg_below)
		w->net = -50;
	if (f->loop_stall_every && f->calls % f->loop_stall_every == 0) {
		w->net = (long long)cost + (1LL << 20);
		w->len += 1ULL << 20;
	}
	w->start = 1000ULL * f->calls;
	/* the routine turned slow: its loop and its reference span */
	if ((long_after && f->calls > long_after) ||
	    (f->long_from && f->calls > f->long_from && !f->long_host)) {
		w->net = 1LL << 40;
		w->ref += 1ULL << 40;
	}
	if (long_after && f->calls > long_after)
		w->len = 1ULL << 40;
	if (f->stretch_call == f->calls)
		w->len += 1ULL << 30;
	if (f->long_from && f->calls > f->long_from)
		w->len = 1ULL << 40;
	if (f->jump_n && n >= f->jump_n)
		w->len += 1ULL << 30;
	if (f->calls >= f->host_from && f->calls <= f->host_to)
		w->len += 2500;
	w->flags |= f->flag_all;
	if (f->calls >= f->host_from && f->calls <= f->host_to)
		w->flags |= f->host_flags;
	if (f->long_from && f->calls > f->long_from)
		w->flags |= f->long_flags;
	if (x && x->sync && x->sync->rv->nr == 1 && w->len > sync_len_max)
		sync_len_max = w->len;
	if (x && x->sync) {
		f->over += f->bound && w->len > f->bound;
		if (f->nlog < 128)
			f->logn[f->nlog++] = n;
	}
}

static void fake_gap(struct kbench_engine *e, const struct kbench_window *w)
{
	(void)e;
	(void)w;
}

static int fake_check(struct kbench_engine *e)
{
	(void)e;
	return fail_after && ++checks >= fail_after ? -ETIME : 0;
}

static const struct kbench_engine_ops fake_ops = {
	.gap = fake_gap, .check = fake_check,
};
static unsigned long long fake_clock;

/* a counter that advances 3 ticks a read: its step is 3 */
static unsigned long long fake_read(void)
{
	return fake_clock += 3;
}

static const struct kbench_counter fake_counter = { .name = "fake",
						    .read = fake_read,
						    .window = fake_window };

struct fake_run {
	struct fake f[3];
	struct kbench_engine_series s[3];
	kbench_s64 net[3][64];
	unsigned int fl[3][64];
	unsigned int div[3][64];
	struct kbench_div_change log[KBENCH_DIV_LOG_MAX];
	struct kbench_engine e;
};

/* Three series (6, 4 and 2 ticks an iteration; the last one is the
 * overhead routine and stalls every 4th window), 16 samples, no warm-up. */
static void fake_setup(struct fake_run *r)
{
	static const struct fake f[3] = {
		{ .id = 0, .per_iter = 6 }, { .id = 1, .per_iter = 4 },
		{ .id = 2, .per_iter = 2, .stall_every = 4 } };
	unsigned int i;

	memset(r, 0, sizeof(*r));
	memcpy(r->f, f, sizeof(f));
	r->e.counter = &fake_counter;
	r->e.ops = &fake_ops;
	r->e.nr_series = 3;
	r->e.samples = 16;
	r->e.iterations_limit = 1U << 24;
	r->e.div_log = r->log;
	for (i = 0; i < 3; i++) {
		r->s[i].run = fake_run;
		r->s[i].data = &r->f[i];
		r->s[i].net = r->net[i];
		r->s[i].flags = r->fl[i];
		r->s[i].div = r->div[i];
		r->s[i].overhead = i == 2;
		r->e.series[i] = &r->s[i];
	}
	ntrace = 0;
	checks = 0;
	fail_after = 0;
	long_after = 0;
}

/* Adaptive N, aiming at 1000 ticks a window. */
static void fake_adaptive(struct fake_run *r)
{
	r->e.adaptive = 1;
	r->e.target = 1000;
}

/* The engine over @r with every window bounded to @max_window ticks. */
static int fake_run_bounded(struct fake_run *r, unsigned long long max_window)
{
	r->e.max_window = max_window;
	return kbench_engine_run(&r->e);
}

static void test_engine_run(void)
{
	static struct fake_run r;
	unsigned int i, bad = 0, flagged = 0;
	int err;

	/* adaptive: stop at the first N where the slowest net >= 1000 */
	fake_setup(&r);
	fake_adaptive(&r);
	r.e.warmup = 2;
	err = kbench_engine_run(&r.e);
	ok(!err && r.e.iterations == 256,
	   "engine: adaptive N is the first power of 2 with 6 N >= 1000 (%u)",
	   r.e.iterations);
	ok(r.s[0].taken == 16 && r.s[1].taken == 16 && r.s[2].taken == 16 &&
	   r.e.done == 48, "engine: 16 samples of each series");
	ok(r.net[0][0] == 6 * 256 && r.net[1][5] == 4 * 256,
	   "engine: net = per-iteration cost x N");
	for (i = 0; i < 16; i++)
		flagged += !!(r.fl[2][i] & KBENCH_SAMPLE_F_REFERENCE);
	ok(flagged == 4,
	   "engine: every 4th window of the stalled series flagged reference (%u of 16)",
	   flagged);
	ok(r.e.routine_ticks == 16ULL * 256 * (6 + 4),
	   "engine: routine ticks count the routines, not the overhead");
	ok(r.e.step == 3, "engine: the counter's step measured (%llu)",
	   r.e.step);

	/* fixed N = 1: the probe takes 3 windows of each series in order */
	fake_setup(&r);
	r.e.iterations = 1;
	err = kbench_engine_run(&r.e);
	for (i = 0; i < 9; i++)
		bad += trace[i] != i / 3;
	for (i = 0; i < 18; i++)
		bad += trace[9 + i] != kbench_engine_order(3, i / 3, i % 3);
	ok(!err && !bad && trace[9 + 9] == 2 && trace[9 + 10] == 1,
	   "engine: probe in order, then rounds in the balanced order (A B E, B E A, E A B, E B A, ...)");

	/* fixed N whose window would not fit: -ERANGE from the probe */
	fake_setup(&r);
	r.e.iterations = 1000;
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.window_probe,
	   "engine: a window predicted over the limit is refused by the probe");

	/* windows that turn long during the samples: -ERANGE after 3 */
	fake_setup(&r);
	r.e.iterations = 10;
	r.e.max_window = 3000;
	long_after = 20;
	err = kbench_engine_run(&r.e);
	ok(err == -ERANGE && !r.e.window_probe,
	   "engine: three long windows in a row end the run");

	/* -ETIME from check() in the samples phase: a partial result */
	fake_setup(&r);
	r.e.iterations = 1;
	fail_after = 3 + 5;	/* the probe's 3 checks, then 5 rounds */
	err = kbench_engine_run(&r.e);
	ok(!err && r.e.timed_out && r.s[0].taken == 5 && r.s[2].taken == 5,
	   "engine: a timeout in the samples phase keeps the rounds taken (%u)",
	   r.s[0].taken);
	fail_after = 0;
	long_after = 0;
}

/*
 * The window bound (issue 21): a routine too slow for max_window at N = 1
 * is refused after the probe's windows of its first step, adaptive or
 * fixed; a window the host stretched once never fails a run; long windows
 * are counted per series; a series without a valid sample is named.
 */
static void test_engine_bound(void)
{
	static struct fake_run r;
	unsigned int i, bad = 0;
	int err;

	/* 5000 ticks an iteration: 5030 a window at N = 1, limit 3000 */
	fake_setup(&r);
	r.f[0].per_iter = 5000;
	fake_adaptive(&r);
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_SLOW &&
	   r.e.window_probe && r.e.range_series == 0 && r.e.range_n == 1 &&
	   r.e.range_len == 5030 && r.e.range_net == 5000,
	   "bound: adaptive, a routine over max_window at N = 1 is refused (range %u, series %u, N %u, len %llu)",
	   r.e.range, r.e.range_series, r.e.range_n, r.e.range_len);
	ok(ntrace == KBENCH_PROBE_REPEAT && r.f[0].calls == KBENCH_PROBE_REPEAT &&
	   r.f[1].calls == 0 && r.e.done == 0,
	   "bound: ... after its %u probe windows, nothing else (%u windows)",
	   KBENCH_PROBE_REPEAT, ntrace);

	/* the same with fixed N = 1 (was never checked) and N = 1000 */
	fake_setup(&r);
	r.f[1].per_iter = 5000;
	r.e.iterations = 1;
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_SLOW &&
	   r.e.range_series == 1 && r.f[1].calls == KBENCH_PROBE_REPEAT &&
	   r.f[2].calls == 0,
	   "bound: fixed N = 1, the second series too slow: refused after its %u probe windows (%u)",
	   KBENCH_PROBE_REPEAT, r.f[1].calls);
	fake_setup(&r);
	r.f[0].per_iter = 5000;
	r.e.iterations = 1000;
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_SLOW &&
	   r.f[0].calls == KBENCH_PROBE_REPEAT,
	   "bound: fixed N = 1000, too slow at N = 1: refused by the first step");

	/* fixed N predicted over the limit: the window at N is named */
	fake_setup(&r);
	r.e.iterations = 1000;
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_FIXED &&
	   r.e.range_series == 0 && r.e.range_want_n == 1000 &&
	   r.e.range_want_len > 3000 && r.e.range_len <= 3000 &&
	   r.e.range_n < 1000 && r.e.done == 0,
	   "bound: fixed N = 1000 refused from the prediction (measured %llu at N %u, predicted %llu at N %u)",
	   r.e.range_len, r.e.range_n, r.e.range_want_len, r.e.range_want_n);
	for (i = 0; i < 3; i++)
		bad += r.f[i].calls % KBENCH_PROBE_REPEAT != 0;
	ok(!bad, "bound: ... with no window but the probe's");

	/* fixed N whose prediction missed at N = 64: refused as FIXED */
	fake_setup(&r);
	r.f[1].jump_n = 64;
	r.e.iterations = 1000;
	err = fake_run_bounded(&r, 1U << 20);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_FIXED &&
	   r.e.range_series == 1 && r.e.range_n == 64 &&
	   r.e.range_want_n == 1000 && r.e.range_want_len > 1U << 30 &&
	   r.e.done == 0,
	   "bound: fixed N, a step over the limit after a prediction that fit: refused, the window at N named (%llu)",
	   r.e.range_want_len);

	/* one probe window stretched by the host (2^30 ticks): no refusal */
	fake_setup(&r);
	r.f[0].stretch_call = 2;
	r.f[2].stretch_call = 1;
	fake_adaptive(&r);
	err = fake_run_bounded(&r, 3000);
	ok(!err && r.e.iterations == 256 && r.s[0].taken == 16,
	   "bound: a probe window stretched once does not fail the run (N %u, err %d)",
	   r.e.iterations, err);
	fake_setup(&r);
	r.f[0].stretch_call = 2;
	r.e.iterations = 100;
	err = fake_run_bounded(&r, 3000);
	ok(!err && r.s[0].taken == 16,
	   "bound: ... nor a fixed-N run (err %d)", err);
	/* and one in the samples phase: flagged, the run goes on */
	fake_setup(&r);
	r.f[0].stretch_call = 40;
	r.e.iterations = 100;
	err = fake_run_bounded(&r, 3000);
	for (i = 0, bad = 0; i < 16; i++)
		bad += !!(r.fl[0][i] & KBENCH_SAMPLE_F_WINDOW);
	ok(!err && r.s[0].taken == 16 && bad == 1 && r.s[0].valid == 15,
	   "bound: a sample stretched once is flagged window, the run goes on (%u flagged)",
	   bad);

	/*
	 * One routine and the overhead routine: the routine's windows turn
	 * long; the overhead's in between no longer reset the count.
	 */
	fake_setup(&r);
	r.e.nr_series = 2;
	r.s[1].overhead = 1;
	r.f[0].long_from = 3 + 2 + 4;	/* probe, warm-up, 4 samples */
	r.e.iterations = 1;		/* a probe of one step */
	r.e.warmup = 2;
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_LONG &&
	   !r.e.window_probe && r.e.range_series == 0 &&
	   r.f[0].calls == 3 + 2 + 4 + KBENCH_LONG_WINDOWS_ABORT,
	   "bound: %u long windows of one series in a row end the run, interleaved with short ones (%u windows)",
	   KBENCH_LONG_WINDOWS_ABORT, r.f[0].calls);
	/* ... and in the warm-up too */
	fake_setup(&r);
	r.f[1].long_from = 3;
	r.e.iterations = 1;
	r.e.warmup = 10;
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_LONG &&
	   r.e.range_series == 1 && r.e.done == 0 &&
	   r.f[1].calls == 3 + KBENCH_LONG_WINDOWS_ABORT,
	   "bound: ... counted in the warm-up too (%u windows)", r.f[1].calls);

	/* adaptive: a step whose windows all exceed it goes back one step */
	fake_setup(&r);
	r.f[1].jump_n = 64;
	fake_adaptive(&r);
	err = fake_run_bounded(&r, 1U << 20);
	ok(!err && r.e.iterations == 32 && r.s[1].taken == 16,
	   "bound: adaptive, the prediction missed at N = 64: N = 32 (%u)",
	   r.e.iterations);

	/* a series none of whose samples is valid is named */
	fake_setup(&r);
	r.f[1].flag_all = KBENCH_SAMPLE_F_NMI;
	r.e.iterations = 10;
	err = kbench_engine_run(&r.e);
	ok(!err && r.e.no_valid == 2 && r.s[0].valid == 16 &&
	   r.s[1].valid == 0, "bound: a series without a valid sample is named (%u)",
	   r.e.no_valid);
	fake_setup(&r);
	r.e.iterations = 10;
	err = kbench_engine_run(&r.e);
	ok(!err && !r.e.no_valid, "bound: ... and none when all have some");
}

/*
 * The real window (kbench_window()) with synthetic hooks: a clock whose
 * read costs 1 tick, two events whose reads cost 1 count of every event
 * and 2 ticks, a routine of 5 ticks, 3 and 7 counts an iteration.  Every
 * read cancels: the nets are exactly the routine's.
 */
static unsigned long long w_clock, w_ev[2];
static unsigned int w_order[8], w_nreads, w_bad_event, w_backwards;

static unsigned long long w_read(void)
{
	return w_clock += 1;
}

static void w_run(unsigned int n, void *data)
{
	(void)data;
	w_clock += 5ULL * n;
	w_ev[0] += 3ULL * n;
	w_ev[1] += 7ULL * n;
}

static unsigned long long w_ev_read(void *ctx)
{
	unsigned long long *c = ctx, v;

	if (w_nreads < 8)
		w_order[w_nreads] = (unsigned int)(c - w_ev);
	w_nreads++;
	w_clock += 2;
	w_ev[0]++;
	w_ev[1]++;
	v = *c;
	/* the second event goes backwards once, at its last read */
	if (w_backwards && c == &w_ev[1] && w_nreads == 7)
		v = 0;
	return v;
}

static unsigned int w_ev_check(void *ctx, unsigned int cpu)
{
	(void)cpu;
	return w_bad_event && ctx == &w_ev[1] ? KBENCH_SAMPLE_F_EVENT : 0;
}

static void w_guard(struct kbench_guard *g)
{
	(void)g;
}

KBENCH_DEFINE_WINDOW(w_window, w_read, w_guard, w_guard, w_guard, w_guard)

static const struct kbench_counter w_event_row = {
	.name = "fake_event", .read_ctx = w_ev_read, .check_ctx = w_ev_check,
};

static const struct kbench_counter w_counter = {
	.name = "fake_clock", .read = w_read, .window = w_window,
};

static void w_extra(struct kbench_extra *x)
{
	memset(x, 0, sizeof(*x));
	x->nr = 2;
	x->row[0] = &w_event_row;
	x->row[1] = &w_event_row;
	x->ctx[0] = &w_ev[0];
	x->ctx[1] = &w_ev[1];
}

static void test_window_extra(void)
{
	static const unsigned int order[8] = { 0, 1, 1, 0, 0, 1, 1, 0 };
	struct kbench_engine_series s = { 0 };
	static kbench_s64 net[8], xnet[2][8];
	static unsigned int fl[8];
	struct kbench_extra x;
	struct kbench_window w;
	struct kbench_engine e;
	unsigned int i, bad = 0;

	w_extra(&x);
	w_nreads = 0;
	w_window(w_run, NULL, 10, 0, &x, &w);
	ok(w.net == 50 && w.xnet[0] == 30 && w.xnet[1] == 70 && !w.flags,
	   "window: events get their own T(N+2) - T(2), their reads cancel (net %lld, %lld, %lld)",
	   w.net, w.xnet[0], w.xnet[1]);
	ok(w_nreads == 8 && !memcmp(w_order, order, sizeof(order)),
	   "window: events read after the counter at a span's start, before it (reversed) at its end");
	ok(w.ref == 2 * 5 + 2 * 2 * 2 + 1,
	   "window: the counter's reference span holds the event reads (%llu)",
	   w.ref);

	w_bad_event = 1;
	w_window(w_run, NULL, 10, 0, &x, &w);
	ok(w.flags == KBENCH_SAMPLE_F_EVENT,
	   "window: an event not counting flags the window `event'");
	w_bad_event = 0;
	w_nreads = 0;
	w_backwards = 1;
	w_window(w_run, NULL, 10, 0, &x, &w);
	ok(w.flags & KBENCH_SAMPLE_F_BACKWARDS,
	   "window: an event read going backwards flags the window `backwards'");
	w_backwards = 0;

	x.nr = 0;
	w_nreads = 0;
	w_window(w_run, NULL, 10, 0, &x, &w);
	ok(w.net == 50 && !w_nreads && !w.flags,
	   "window: without events nothing else is read");

	/* the engine stores each event's net next to the counter's */
	memset(&e, 0, sizeof(e));
	w_extra(&e.extra);
	s.run = w_run;
	s.net = net;
	s.flags = fl;
	s.xnet[0] = xnet[0];
	s.xnet[1] = xnet[1];
	e.counter = &w_counter;
	e.ops = &fake_ops;
	e.series[0] = &s;
	e.nr_series = 1;
	e.samples = 8;
	e.iterations = 100;
	e.iterations_limit = 1U << 24;
	ok(!kbench_engine_run(&e) && s.taken == 8,
	   "engine: a run with two events takes its 8 samples");
	for (i = 0; i < 8; i++)
		bad += net[i] != 500 || xnet[0][i] != 300 ||
		       xnet[1][i] != 700 || fl[i];
	ok(!bad, "engine: every sample has the counter's and each event's net");
}


/* The rendezvous with a counter that ticks once per read, two threads. */
static unsigned long long rv_clock;

static unsigned long long rv_read(void)
{
	return __atomic_add_fetch(&rv_clock, 1, __ATOMIC_RELAXED);
}

struct rv_thread {
	struct kbench_sync sync;
	unsigned int windows;		/* to take */
	unsigned int flagged;		/* of them SKEW */
};

static void *rv_main(void *p)
{
	struct rv_thread *t = p;
	unsigned int i;

	for (i = 0; i < t->windows; i++)
		if (kbench_sync_wait(&t->sync, rv_read))
			t->flagged++;
	return NULL;
}

static int agree_calls;

static int fake_agree(struct kbench_engine *e)
{
	agree_calls++;
	e->iterations = 3;
	return 0;
}

static void test_rendezvous(void)
{
	static struct kbench_rendezvous_slot slot[2];
	struct kbench_rendezvous rv = { .nr = 2, .slot = slot,
					.spin_limit = 1ULL << 40 };
	static const struct kbench_engine_ops agree_ops = {
		.gap = fake_gap, .check = fake_check, .agree = fake_agree,
	};
	struct rv_thread t[2];
	pthread_t th[2];
	static struct fake_run r[2];
	struct kbench_engine *e[2] = { &r[0].e, &r[1].e };
	static unsigned long long start[2][3][16];
	unsigned long long skew, skews = 0;
	unsigned int i, k, valid0;
	int err;

	memset(t, 0, sizeof(t));
	for (i = 0; i < 2; i++) {
		t[i].sync.rv = &rv;
		t[i].sync.slot = i;
		t[i].windows = 2000;
		pthread_create(&th[i], NULL, rv_main, &t[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	ok(!t[0].flagged && !t[1].flagged && slot[0].windows == 2000 &&
	   slot[1].windows == 2000,
	   "rendezvous: 2 threads x 2000 windows meet at each, none flagged (%u, %u)",
	   t[0].flagged, t[1].flagged);

	/* the other CPU never comes: each wait gives up after its limit */
	rv.spin_limit = 1000;
	t[0].windows = 5;
	t[0].flagged = 0;
	rv_main(&t[0]);
	ok(t[0].flagged == 5 && t[0].sync.wait > 1000 &&
	   t[0].sync.wait < 1000 + 16,
	   "rendezvous: alone, each of 5 windows waits its limit and is flagged skew (%u, last wait %llu ticks)",
	   t[0].flagged, t[0].sync.wait);
	/* the late one finds the other ahead: no wait at all */
	t[1].windows = 5;
	t[1].flagged = 0;
	rv_main(&t[1]);
	ok(!t[1].flagged && t[1].sync.wait == 0,
	   "rendezvous: the late CPU never waits for one that gave up on it");
	rv.abort = 1;
	t[1].windows = 1;
	rv.spin_limit = 1ULL << 40;
	rv_main(&t[1]);
	ok(t[1].flagged == 1 && t[1].sync.wait <= 2,
	   "rendezvous: abort ends a wait at once, flagged (wait %llu ticks)",
	   t[1].sync.wait);

	/* two engines: agree() sets N, starts kept, skew over a bound flagged */
	for (i = 0; i < 2; i++) {
		fake_setup(&r[i]);
		r[i].e.ops = &agree_ops;
		for (k = 0; k < 3; k++)
			r[i].s[k].start = start[i][k];
	}
	agree_calls = 0;
	err = kbench_engine_run(&r[0].e) | kbench_engine_run(&r[1].e);
	ok(!err && agree_calls == 2 && r[0].e.iterations == 3 &&
	   r[1].e.iterations == 3,
	   "engine: agree() after the probe sets the N every CPU takes (N %u)",
	   r[0].e.iterations);
	/* the fake counter's starts: 1000 per window; shift CPU 1 by 5 */
	for (i = 0; i < 16; i++)
		start[1][0][i] += i == 7 ? 500 : 5;
	valid0 = r[0].s[0].valid;
	for (i = 0; i < 16; i++) {
		skew = kbench_engine_skew(e, 2, 0, i, 100);
		skews += skew;
	}
	ok(skews == 15 * 5 + 500 && r[0].s[0].valid == valid0 - 1 &&
	   (r[0].s[0].flags[7] & KBENCH_SAMPLE_F_SKEW) &&
	   (r[1].s[0].flags[7] & KBENCH_SAMPLE_F_SKEW) &&
	   !(r[0].s[0].flags[6] & KBENCH_SAMPLE_F_SKEW),
	   "engine: skew per sample is latest minus earliest start; over the bound flagged on every CPU (sum %llu)",
	   skews);
}

/* One CPU's agree(): its own N is the smallest; counts the rounds. */
static int one_agree(struct kbench_engine *e)
{
	(void)e;
	agree_calls++;
	return 0;
}

/*
 * agree() where another CPU proposes 0 for the fixed N 256 in the fit
 * (the rounds after the first, which follows the probe)
 */
static int fixed_refused_agree(struct kbench_engine *e)
{
	if (agree_calls++ && e->iterations == 256)
		e->iterations = 0;
	return 0;
}

/*
 * The fit of a concurrent run's N with its windows started together
 * (kbench_engine_sync_fit()): a routine whose windows cost 8 times more
 * at the rendezvous than in the probe, where each CPU ran alone.
 */
static void test_sync_fit(void)
{
	static const struct kbench_engine_ops ops = {
		.gap = fake_gap, .check = fake_check, .agree = one_agree,
	};
	static const struct kbench_engine_ops refused_ops = {
		.gap = fake_gap, .check = fake_check,
		.agree = fixed_refused_agree,
	};
	static struct kbench_rendezvous_slot slot[1];
	struct kbench_rendezvous rv = { .nr = 1, .slot = slot };
	struct kbench_sync sync = { .rv = &rv };
	static struct fake_run r;
	unsigned int i, probe_n;
	int err;

	/* alone N = 256 (6 x 256 ticks >= the target 1000), windows ~1600 */
	fake_setup(&r);
	fake_adaptive(&r);
	r.e.ops = &fake_ops;
	err = fake_run_bounded(&r, 4000);
	probe_n = r.e.iterations;
	ok(!err && probe_n == 256, "sync fit: alone, the probe's N is 256 (%u)",
	   probe_n);

	/* no contention: the fit keeps the probe's N */
	fake_setup(&r);
	fake_adaptive(&r);
	r.e.ops = &ops;
	r.e.extra.sync = &sync;
	sync_len_max = 0;
	agree_calls = 0;
	err = fake_run_bounded(&r, 4000);
	ok(!err && r.e.iterations == probe_n && agree_calls >= 2 &&
	   r.s[0].taken == 16 && sync_len_max <= 4000,
	   "sync fit: windows as dear together as alone keep the probe's N (%u, %u rounds of agree, longest window together %llu)",
	   r.e.iterations, agree_calls, sync_len_max);

	/* 8 times dearer together: every window of N 256 would be ~12300 */
	fake_setup(&r);
	fake_adaptive(&r);
	r.e.ops = &ops;
	r.e.extra.sync = &sync;
	for (i = 0; i < 3; i++)
		r.f[i].together = 8;
	sync_len_max = 0;
	err = fake_run_bounded(&r, 4000);
	ok(!err && r.e.iterations < probe_n && r.s[0].taken == 16 &&
	   r.s[0].valid == 16 && sync_len_max <= 2000,
	   "sync fit: 8x dearer together: N cut to %u, no window together over the aim (longest %llu of 2000; the bound 4000), 16 valid samples",
	   r.e.iterations, sync_len_max);

	/* fixed N 256, 8 times dearer together: refused before its windows */
	fake_setup(&r);
	r.e.ops = &ops;
	r.e.extra.sync = &sync;
	r.e.iterations = 256;
	for (i = 0; i < 3; i++)
		r.f[i].together = 8;
	sync_len_max = 0;
	err = fake_run_bounded(&r, 4000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_FIXED &&
	   r.e.range_want_n == 256 && !r.s[0].taken && sync_len_max <= 4000,
	   "sync fit: a fixed N whose windows together would pass max_window is refused (fixed, N %u, predicted %llu ticks), no window over the bound (%llu)",
	   r.e.range_want_n, r.e.range_want_len, sync_len_max);

	/*
	 * fixed N 256, as dear together as alone here, another CPU over the
	 * bound (agree() takes its 0): this one stops without a refusal of
	 * its own, -ECANCELED, which does not end the group: the other's
	 * refusal does
	 */
	fake_setup(&r);
	r.e.ops = &refused_ops;
	r.e.extra.sync = &sync;
	r.e.iterations = 256;
	agree_calls = 0;
	err = fake_run_bounded(&r, 4000);
	ok(err == -ECANCELED && r.e.range == KBENCH_RANGE_NONE &&
	   !r.s[0].taken,
	   "sync fit: a fixed N this CPU predicts within the bound, another CPU not: stops with -ECANCELED (%d), no refusal of its own (range %d)",
	   err, r.e.range);

	/* dearer together than the bound at N = 1: refused as slow */
	fake_setup(&r);
	fake_adaptive(&r);
	r.e.ops = &ops;
	r.e.extra.sync = &sync;
	r.f[0].together = 1000;
	err = fake_run_bounded(&r, 4000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_SLOW &&
	   r.e.range_n == 1 && r.e.range_series == 0,
	   "sync fit: over max_window together at N = 1: refused as slow (series %u, window %llu)",
	   r.e.range_series, r.e.range_len);
}

/*
 * Over the windows at the rendezvous of the series of @r: how many were
 * over their bound, whether N grew by at most KBENCH_SYNC_FIT_GROWTH from
 * one window to the next (@grow: the largest such factor, rounded up),
 * and how many windows were at N @at.
 */
static unsigned int fit_over(const struct fake_run *r, unsigned int *grow,
			     unsigned int at, unsigned int *at_n)
{
	unsigned int i, j, over = 0, g;

	*grow = 1;
	*at_n = 0;
	for (i = 0; i < r->e.nr_series; i++) {
		over += r->f[i].over;
		for (j = 0; j < r->f[i].nlog; j++) {
			*at_n += r->f[i].logn[j] == at;
			if (!j)
				continue;
			g = (r->f[i].logn[j] + r->f[i].logn[j - 1] - 1) /
			    r->f[i].logn[j - 1];
			if (g > *grow)
				*grow = g;
		}
	}
	return over;
}

/*
 * A routine whose cost together grows with N^2 (6 N + 6 N^3 / 256
 * ticks, series 0): at N = 1 as dear as alone, ~6550 at N = 64.  A fit
 * that leaps from N = 1 to the aim's N (55) takes every window of that
 * step over the bound 4000; growing N at most KBENCH_SYNC_FIT_GROWTH
 * times a step, it meets the bound at N = 64, stops that step at its
 * first window and goes back to N = 16 (~220 ticks).
 */
static void test_sync_fit_contend(void)
{
	static const struct kbench_engine_ops ops = {
		.gap = fake_gap, .check = fake_check, .agree = one_agree,
	};
	static struct kbench_rendezvous_slot slot[1];
	struct kbench_rendezvous rv = { .nr = 1, .slot = slot };
	struct kbench_sync sync = { .rv = &rv };
	static struct fake_run r;
	unsigned int i, j, over, grow, at_n, valid, wide, sc;
	int err;

	fake_setup(&r);
	fake_adaptive(&r);
	r.e.ops = &ops;
	r.e.extra.sync = &sync;
	for (i = 0; i < 3; i++) {
		r.f[i].contend = 256;
		r.f[i].bound = 4000;
	}
	err = fake_run_bounded(&r, 4000);
	over = fit_over(&r, &grow, 64, &at_n);
	/* the overhead series' every 4th window stalls: 12 valid of 16 */
	valid = r.s[0].valid + r.s[1].valid + r.s[2].valid;
	wide = 0;
	for (i = 0; i < 3; i++)
		for (j = 0; j < r.s[i].taken; j++)
			wide += !!(r.fl[i][j] & KBENCH_SAMPLE_F_WINDOW);
	ok(!err && r.e.iterations == 16 && valid == 44 && !wide,
	   "sync fit: cost growing with N^2 together, invisible at N = 1: N %u, %u of 48 samples valid, %u over the bound (%d)",
	   r.e.iterations, valid, wide, err);
	ok(over == 1 && at_n == 1,
	   "sync fit: one window over the bound in all (%u), the step at N = 64 stopped at its first (%u windows there)",
	   over, at_n);
	ok(grow <= KBENCH_SYNC_FIT_GROWTH,
	   "sync fit: N grows at most %u times a step (at most %u times seen)",
	   KBENCH_SYNC_FIT_GROWTH, grow);

	/* a fixed N of 64: refused from that window, naming series and N */
	fake_setup(&r);
	r.e.ops = &ops;
	r.e.extra.sync = &sync;
	r.e.iterations = 64;
	for (i = 0; i < 3; i++) {
		r.f[i].contend = 256;
		r.f[i].bound = 4000;
	}
	err = fake_run_bounded(&r, 4000);
	over = fit_over(&r, &grow, 64, &at_n);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_FIXED &&
	   r.e.range_series == 0 && r.e.range_n == 64 &&
	   r.e.range_len > 4000 && r.e.range_want_n == 64 && !r.s[0].taken &&
	   over == KBENCH_LONG_WINDOWS_ABORT && grow <= KBENCH_SYNC_FIT_GROWTH,
	   "sync fit: fixed N 64, over the bound together: refused (fixed, series %u, N %u, window %llu) after a window over it at each of its looks (%u), no samples",
	   r.e.range_series, r.e.range_n, r.e.range_len, over);

	/*
	 * a fixed N of 64 that fits, one window of the fit past N = 1
	 * stretched by the host: it looks again, and keeps N
	 */
	for (sc = 2; sc < 64; sc++) {
		fake_setup(&r);
		r.e.ops = &ops;
		r.e.extra.sync = &sync;
		r.e.iterations = 64;
		for (i = 0; i < 3; i++)
			r.f[i].bound = 4000;
		r.f[0].stretch_call = sc;
		err = fake_run_bounded(&r, 4000);
		over = fit_over(&r, &grow, 64, &at_n);
		if (over)
			break;
	}
	ok(over == 1 && !err && r.e.iterations == 64 && r.s[0].taken,
	   "sync fit: fixed N 64, one window of the fit stretched by the host (call %u): looked again, kept N %u (%d)",
	   sc, r.e.iterations, err);
}

/* agree() of two threads, each one engine: kbench_rounds under a mutex */
static pthread_mutex_t pair_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pair_cond = PTHREAD_COND_INITIALIZER;
static struct kbench_rounds pair_rounds;
static unsigned int pair_calls[2];

static int pair_agree(struct kbench_engine *e)
{
	unsigned int round;

	pthread_mutex_lock(&pair_lock);
	pair_calls[e->cpu]++;
	round = kbench_rounds_report(&pair_rounds, e->iterations, 2);
	pthread_cond_broadcast(&pair_cond);
	while (!kbench_rounds_over(&pair_rounds, round))
		pthread_cond_wait(&pair_cond, &pair_lock);
	e->iterations = pair_rounds.agreed_n;
	pthread_mutex_unlock(&pair_lock);
	return 0;
}

struct pair_cpu {
	struct fake_run r;
	int err;
};

static void *pair_main(void *p)
{
	struct pair_cpu *c = p;

	c->err = fake_run_bounded(&c->r, 4000);
	return NULL;
}

/*
 * Two CPUs, each its own engine, one rendezvous and one agree(): CPU 0's
 * routine as test_sync_fit_contend()'s, CPU 1's as dear together as
 * alone.  CPU 0 stops the step at N = 64 at its first window; CPU 1
 * takes all of its windows there without waiting for the ones CPU 0
 * left, both join the same rounds, and their windows meet again after.
 */
static void test_sync_fit_pair(void)
{
	static const struct kbench_engine_ops ops = {
		.gap = fake_gap, .check = fake_check, .agree = pair_agree,
	};
	static struct kbench_rendezvous_slot slot[2];
	/* a wait that gives up is a lost rendezvous here, not a slow host */
	struct kbench_rendezvous rv = { .nr = 2, .slot = slot,
					.spin_limit = 1ULL << 32 };
	static struct kbench_sync sync[2];
	static struct pair_cpu c[2];
	unsigned int i, k, over0, over1, grow, at_n, skew = 0, valid = 0;
	unsigned int wide = 0;
	pthread_t th[2];
	int fixed;

	for (fixed = 0; fixed < 2; fixed++) {
		memset(slot, 0, sizeof(slot));
		memset(&pair_rounds, 0, sizeof(pair_rounds));
		pair_rounds.min_n = KBENCH_ROUNDS_NONE;
		rv.abort = 0;
		for (i = 0; i < 2; i++) {
			fake_setup(&c[i].r);
			if (fixed)
				c[i].r.e.iterations = 64;
			else
				fake_adaptive(&c[i].r);
			c[i].r.e.ops = &ops;
			c[i].r.e.cpu = i;
			sync[i] = (struct kbench_sync){ .rv = &rv, .slot = i };
			c[i].r.e.extra.sync = &sync[i];
			for (k = 0; k < 3; k++) {
				c[i].r.f[k].contend = i ? 0 : 256;
				c[i].r.f[k].bound = 4000;
			}
			pair_calls[i] = 0;
		}
		ntrace = 64;	/* the trace is one thread's */
		for (i = 0; i < 2; i++)
			pthread_create(&th[i], NULL, pair_main, &c[i]);
		for (i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		over0 = fit_over(&c[0].r, &grow, 64, &at_n);
		over1 = fit_over(&c[1].r, &grow, 64, &at_n);
		if (fixed) {
			ok(c[0].err == -ERANGE &&
			   c[0].r.e.range == KBENCH_RANGE_FIXED &&
			   c[0].r.e.range_series == 0 &&
			   c[0].r.e.range_n == 64 && c[1].err == -ECANCELED &&
			   c[1].r.e.range == KBENCH_RANGE_NONE &&
			   pair_calls[0] == pair_calls[1] &&
			   slot[0].windows == slot[1].windows &&
			   over0 == KBENCH_LONG_WINDOWS_ABORT,
			   "sync fit, 2 CPUs, fixed N 64: CPU 0 refuses (series %u, N %u, window %llu), CPU 1 stops with -ECANCELED (%d), %u and %u rounds of agree, %llu and %llu windows",
			   c[0].r.e.range_series, c[0].r.e.range_n,
			   c[0].r.e.range_len, c[1].err, pair_calls[0],
			   pair_calls[1], slot[0].windows, slot[1].windows);
			continue;
		}
		for (i = 0; i < 2; i++)
			for (k = 0; k < 3; k++) {
				valid += c[i].r.s[k].valid;
				for (at_n = 0; at_n < c[i].r.s[k].taken; at_n++) {
					skew += !!(c[i].r.fl[k][at_n] &
						   KBENCH_SAMPLE_F_SKEW);
					wide += !!(c[i].r.fl[k][at_n] &
						   KBENCH_SAMPLE_F_WINDOW);
				}
			}
		ok(!c[0].err && !c[1].err && c[0].r.e.iterations == 16 &&
		   c[1].r.e.iterations == 16 && pair_calls[0] == pair_calls[1] &&
		   slot[0].windows == slot[1].windows,
		   "sync fit, 2 CPUs: both at N %u and %u, %u and %u rounds of agree, %llu and %llu windows at the rendezvous",
		   c[0].r.e.iterations, c[1].r.e.iterations, pair_calls[0],
		   pair_calls[1], slot[0].windows, slot[1].windows);
		/* the overhead series' every 4th window stalls: 88 valid */
		ok(over0 == 1 && !over1 && valid == 88 && !skew && !wide,
		   "sync fit, 2 CPUs: one window over the bound in the fit (CPU 0: %u, CPU 1: %u), none in the samples (%u), %u of 96 samples valid, %u met no one",
		   over0, over1, wide, valid, skew);
	}
}

/* Adaptive N toward 1000 ticks, windows of at most 3000 (N 256 here). */
/*
 * Adaptive N after the probe: a routine whose cost rises 100-fold for a
 * while shortens N at once (one window over the limit), its samples stay
 * per-iteration values at the probe's N, and N comes back afterwards;
 * windows stretched from outside (NMI) change nothing; fixed N is still
 * refused by windows that N cannot shorten.
 */
static void test_engine_adapt(void)
{
	static struct fake_run r;
	unsigned int i, k, longs = 0, bad = 0, rise = 0, reduced = 0;
	int err;

	ok(kbench_div_at_least(256, 103) == 128 &&
	   kbench_div_at_least(50, 3) == 5 && kbench_div_at_least(7, 2) == 7 &&
	   kbench_div_at_least(7, 100) == 7 && kbench_div_at_most(256, 64) == 64 &&
	   kbench_div_at_most(50, 9) == 5 && kbench_div_at_most(7, 3) == 1,
	   "adapt: divisors of N at least / at most a factor");

	/* 6 ticks an iteration, x100 for series 0's windows 40..55 */
	fake_setup(&r);
	r.f[0].rise = 100;
	r.f[0].rise_from = 40;
	r.f[0].rise_to = 56;
	fake_adaptive(&r);
	r.e.samples = 60;
	err = fake_run_bounded(&r, 3000);
	for (i = 0; i < 60; i++) {
		longs += !!(r.fl[0][i] & KBENCH_SAMPLE_F_WINDOW);
		reduced += r.div[0][i] > 1;
		/* in the rise the reference span is long too: flagged */
		if (r.net[0][i] == 600 * 256 &&
		    !(r.fl[0][i] & ~KBENCH_SAMPLE_F_REFERENCE))
			rise++;
		else if (r.fl[0][i])
			continue;
		else if (r.net[0][i] != 6 * 256)
			bad++;
		bad += r.net[1][i] != 4 * 256;
	}
	ok(!err && r.e.iterations == 256 && r.s[0].taken == 60,
	   "adapt: the run goes on through a 100-fold rise (err %d, N %u)",
	   err, r.e.iterations);
	ok(longs == 1, "adapt: one window over the limit for the rise (%u)",
	   longs);
	ok(r.e.div_max == 128 && r.f[0].max_n == 256 && r.e.n_changes >= 2 &&
	   r.e.div == 1,
	   "adapt: N 256 -> 2 at once, back to 256 after (largest divisor %u, %u changes, now %u)",
	   r.e.div_max, r.e.n_changes, r.e.div);
	ok(!bad && rise == 15 && reduced > 15 && r.e.reduced >= reduced,
	   "adapt: every sample is the cost of 256 iterations, exactly, the rise's too (%u off, %u in the rise, %u reduced)",
	   bad, rise, reduced);
	for (i = 0, bad = 0; i < 60; i++)
		for (k = 0; k < 3; k++)
			bad += kbench_div_of(r.log, r.e.div_log_nr, 3, k, i) !=
			       r.div[k][i];
	ok(!bad && r.e.div_log_nr == r.e.n_changes,
	   "adapt: the log of changes gives every sample's divisor (%u wrong, %u logged)",
	   bad, r.e.div_log_nr);

	/*
	 * The bound first, whatever stretched a window: NMIs that make every
	 * window after the probe far over the bound (`perf record -a' and a
	 * routine that slowed down) shorten adaptive N at the first, and at
	 * N = 1, still far over, refuse the run; never a window over the
	 * bound after the first at the N that was too large.
	 */
	fake_setup(&r);
	r.f[0].long_from = 30;
	r.f[0].long_flags = KBENCH_SAMPLE_F_NMI;
	fake_adaptive(&r);
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_LONG &&
	   r.e.range_n == 1 && r.e.div_max == 256 && r.e.n_changes == 1 &&
	   r.f[0].calls == 30 + 1 + KBENCH_LONG_WINDOWS_ABORT,
	   "adapt: windows NMIs stretch far over the bound shorten N at the first, then refuse at N = 1 (err %d, %u changes, %u windows)",
	   err, r.e.n_changes, r.f[0].calls);
	fake_setup(&r);
	r.f[0].long_from = 15;	/* after the probe: N 1, 2, 4, 8, 10 */
	r.f[0].long_flags = KBENCH_SAMPLE_F_STEAL;
	r.e.iterations = 10;
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_LONG &&
	   r.f[0].calls == 15 + KBENCH_LONG_WINDOWS_ABORT,
	   "adapt: fixed N, windows far over the bound refuse the run though the host's steal explains them (err %d, %u windows)",
	   err, r.f[0].calls);
	/* ... while within KBENCH_EXCUSED_FACTOR times the bound it excuses */
	fake_setup(&r);
	r.f[0].host_from = 30;
	r.f[0].host_to = 1000;
	r.f[0].host_flags = KBENCH_SAMPLE_F_STEAL;
	r.e.iterations = 256;
	err = fake_run_bounded(&r, 3000);
	for (i = 0, longs = 0; i < 16; i++)
		longs += !!(r.fl[0][i] & KBENCH_SAMPLE_F_WINDOW);
	ok(!err && r.s[0].taken == 16 && longs >= 10,
	   "adapt: fixed N, windows the host's steal stretched to under %u times the bound are excused (err %d, %u over the bound)",
	   KBENCH_EXCUSED_FACTOR, err, longs);
	/* ... and so are unflagged ones the routine did not make */
	fake_setup(&r);
	r.f[0].host_from = 30;
	r.f[0].host_to = 30 + KBENCH_UNEXPLAINED_LONG - 2;
	r.e.iterations = 256;
	err = fake_run_bounded(&r, 3000);
	ok(!err && r.s[0].taken == 16,
	   "adapt: fixed N, %u windows in a row the host stretched to under %u times the bound are excused (err %d)",
	   KBENCH_UNEXPLAINED_LONG - 1, KBENCH_EXCUSED_FACTOR, err);

	/* the host stretches the loop (len, not net or span): N shortened */
	fake_setup(&r);
	r.f[0].long_from = 27 + 10;	/* the probe to N 256, 10 samples */
	r.f[0].long_host = 1;
	fake_adaptive(&r);
	r.e.samples = 16;
	err = fake_run_bounded(&r, 3000);
	ok(r.e.div_max == 256 && r.s[0].valid == 10 &&
	   r.f[0].calls == 27 + 10 + 1 + KBENCH_LONG_WINDOWS_ABORT &&
	   err == -ERANGE,
	   "adapt: a window the host stretched far over the bound shortens N at once, and at N = 1 they refuse (err %d, largest divisor %u, %u windows)",
	   err, r.e.div_max, r.f[0].calls);
	/* ... and a window it stretched once: N shortened, then back */
	fake_setup(&r);
	r.f[0].host_from = 27 + 4;
	r.f[0].host_to = 27 + 4;
	fake_adaptive(&r);
	r.e.samples = 40;
	err = fake_run_bounded(&r, 3000);
	ok(!err && r.e.div_max > 1 && r.e.n_changes >= 2 && r.e.div == 1,
	   "adapt: one window the host stretched over the bound shortens N, which grows back (err %d, largest divisor %u, %u changes)",
	   err, r.e.div_max, r.e.n_changes);

	/*
	 * The host stretches the first sampled window before any clean one
	 * (the routine's, for all kbench can tell: N 256 -> 1), and below
	 * N 256 every window's net is negative (plain TCG, ppc64le): every
	 * window flagged `reference', and N must still grow back.
	 */
	fake_setup(&r);
	r.f[0].stretch_call = 27 + 1;
	for (k = 0; k < 3; k++)
		r.f[k].neg_below = 256;
	fake_adaptive(&r);
	r.e.samples = 40;
	err = fake_run_bounded(&r, 3000);
	for (i = 0, bad = 0, k = 0; i < 40; i++) {
		k += !r.fl[0][i];
		bad += !r.fl[0][i] && r.net[0][i] != 6 * 256;
	}
	ok(!err && r.e.div_max == 256 && r.e.div == 1 && k >= 30 && !bad,
	   "adapt: N cut to 1 by a host stall grows back though every window at a small N is flagged (largest divisor %u, now %u, %u valid, %u off)",
	   r.e.div_max, r.e.div, k, bad);

	/*
	 * The probe at a tiny N where every net is negative (flagged) but
	 * that of the one window of each step the host stretched inside its
	 * loop, unflagged: that net is no measure of N's cost.
	 */
	fake_setup(&r);
	for (k = 0; k < 3; k++) {
		r.f[k].neg_below = 16;
		r.f[k].loop_stall_every = KBENCH_PROBE_REPEAT;
	}
	fake_adaptive(&r);
	err = fake_run_bounded(&r, 1ULL << 40);
	ok(!err && r.e.iterations >= 128,
	   "adapt: a clean window the host stretched does not end the probe at a tiny N whose other nets are negative (err %d, N %u)",
	   err, r.e.iterations);

	/* adaptive at N = 1 whose windows turn long: refused as before */
	fake_setup(&r);
	r.f[0].per_iter = 1000;
	r.f[0].long_from = 3 + 2;
	r.e.adaptive = 1;
	r.e.target = 100;
	err = fake_run_bounded(&r, 3000);
	ok(err == -ERANGE && r.e.range == KBENCH_RANGE_LONG &&
	   r.e.range_n == 1,
	   "adapt: N already 1, long windows refuse the run (err %d, range %u)",
	   err, r.e.range);
}

/*
 * The probe looks again before a host-stretched step decides: series 0
 * (6 ticks an iteration) has all three windows at N = 64 (calls 19-21)
 * 2500 ticks longer, which predicts N = 128 over the 3000 of the bound.
 */
static void test_probe_again(void)
{
	static struct fake_run r;
	int err;

	fake_setup(&r);
	fake_adaptive(&r);
	err = fake_run_bounded(&r, 3000);
	ok(!err && r.e.iterations == 256,
	   "probe: adaptive N = %u undisturbed (256)", r.e.iterations);

	fake_setup(&r);
	fake_adaptive(&r);
	r.f[0].host_from = 19;
	r.f[0].host_to = 21;
	err = fake_run_bounded(&r, 3000);
	ok(!err && r.e.iterations == 256,
	   "probe: a step the host stretched whole looks again and goes on to N = %u (256, not 64)",
	   r.e.iterations);

	fake_setup(&r);
	r.f[0].host_from = 19;
	r.f[0].host_to = 21;
	r.e.iterations = 256;
	err = fake_run_bounded(&r, 3000);
	ok(!err && r.e.iterations == 256 && r.e.done == r.e.total,
	   "probe: fixed N = 256 is no longer refused for that step (err %d)",
	   err);

	/* stretched through the looks again too: the step decides as before */
	fake_setup(&r);
	fake_adaptive(&r);
	r.f[0].host_from = 19;
	r.f[0].host_to = 21 + KBENCH_PROBE_AGAIN * KBENCH_PROBE_REPEAT;
	err = fake_run_bounded(&r, 3000);
	ok(!err && r.e.iterations == 64 &&
	   r.f[0].calls > 21 + KBENCH_PROBE_AGAIN * KBENCH_PROBE_REPEAT,
	   "probe: stretched through every look, the step stops the probe (N = %u)",
	   r.e.iterations);
}

/*
 * The balanced order: over a cycle of rounds every series is first as
 * often, and every ordered pair of series is adjacent within a round as
 * often as every other; each round is a permutation; pos inverts order.
 */
static void test_engine_order(void)
{
	unsigned int nr, r, k, a, b, bad = 0;

	for (nr = 2; nr <= KBENCH_ENGINE_SERIES_MAX; nr++) {
		unsigned int rows = nr % 2 ? 2 * nr : nr;
		unsigned int first[KBENCH_ENGINE_SERIES_MAX] = { 0 };
		unsigned int pair[KBENCH_ENGINE_SERIES_MAX][KBENCH_ENGINE_SERIES_MAX] = { { 0 } };

		for (r = 0; r < rows; r++) {
			unsigned int seen = 0;

			first[kbench_engine_order(nr, r, 0)]++;
			for (k = 0; k < nr; k++) {
				a = kbench_engine_order(nr, r, k);
				seen |= 1U << a;
				bad += kbench_engine_pos(nr, r, a) != k;
				if (k + 1 < nr)
					pair[a][kbench_engine_order(nr, r, k + 1)]++;
			}
			bad += seen != (1U << nr) - 1;
		}
		for (a = 0; a < nr; a++) {
			bad += first[a] != rows / nr;
			for (b = 0; b < nr; b++)
				if (a != b)
					bad += pair[a][b] != rows / nr;
		}
	}
	ok(!bad, "order: Williams designs for 2..%u series: permutations, each first and each ordered pair adjacent equally often (%u off)",
	   KBENCH_ENGINE_SERIES_MAX, bad);
}

void test_engine(void)
{
	test_rounding();
	test_sort();
	test_summary();
	test_reference();
	test_reference_rebase();
	test_units();
	test_engine_run();
	test_engine_bound();
	test_engine_order();
	test_engine_adapt();
	test_probe_again();
	test_window_extra();
	test_rendezvous();
	test_sync_fit();
	test_sync_fit_contend();
	test_sync_fit_pair();
}
