// SPDX-License-Identifier: GPL-2.0
/*
 * The steal detector (include/kbench/steal.h), natively: the version
 * protocol on scripted reads of a record (torn, odd, never settling), the
 * flag of a window, and whole runs through the engine's own window
 * (kbench_window() with snapshot hooks like the kernel's) over a fake
 * KVM steal-time record that a "host" updates inside chosen windows: those
 * samples, and only those, are flagged steal and excluded.
 *
 * The real record cannot be exercised here or under qemu TCG (no KVM steal
 * time: the MSR faults and the module reports the detector unavailable).
 */
#include <stdint.h>
#include <string.h>

#include <kbench/engine.h>
#include <kbench/summary.h>

#include "tap.h"
#include "tests.h"

/* A scripted record: each load returns the next value of its field. */
struct script {
	unsigned long long version[16], steal[16];
	unsigned int nv, ns, loads;
};

static unsigned long long script_load(const void *rec, enum kbench_steal_field f)
{
	struct script *s = (struct script *)rec;

	s->loads++;
	if (f == KBENCH_STEAL_VERSION)
		return s->version[s->nv < 15 ? s->nv++ : 15];
	return s->steal[s->ns < 15 ? s->ns++ : 15];
}

/* Records whose loads are scripted, each read until it settles. */
static const struct {
	const char *what;
	unsigned long long version[4], steal[2];
	unsigned long long want_version, want_steal;
	unsigned int want_loads;	/* 0: not checked */
} settling_reads[] = {
	{ "a settled record is read in 3 loads (version, steal, version)",
	  { 4, 4 }, { 1000 }, 4, 1000, 3 },
	/* the host is writing: version odd, then done */
	{ "an odd version is read again; the second try gives 6, 1500",
	  { 5, 5, 6, 6 }, { 1000, 1500 }, 6, 1500, 6 },
	/* torn: the version changed between the two reads */
	{ "two different versions around the read: read again",
	  { 4, 6, 6, 6 }, { 1000, 1500 }, 6, 1500, 0 },
};

static void test_protocol(void)
{
	struct kbench_steal_snap a, b;
	struct script s;
	unsigned int k;

	for (k = 0; k < sizeof(settling_reads) / sizeof(settling_reads[0]); k++) {
		memset(&s, 0, sizeof(s));
		memcpy(s.version, settling_reads[k].version, sizeof(settling_reads[k].version));
		memcpy(s.steal, settling_reads[k].steal, sizeof(settling_reads[k].steal));
		kbench_steal_read(script_load, &s, &a);
		ok(a.ok && a.version == settling_reads[k].want_version &&
		   a.steal == settling_reads[k].want_steal &&
		   (!settling_reads[k].want_loads || s.loads == settling_reads[k].want_loads),
		   "steal: %s", settling_reads[k].what);
	}

	/* never settles: bounded, not ok */
	memset(&s, 0, sizeof(s));
	{
		unsigned int i;

		for (i = 0; i < 16; i++)
			s.version[i] = 7;
	}
	kbench_steal_read(script_load, &s, &a);
	ok(!a.ok && s.loads == 3 * KBENCH_STEAL_TRIES,
	   "steal: a record that stays odd gives up after %d tries (%u loads)",
	   KBENCH_STEAL_TRIES, s.loads);

	/* the flag: a start @a and an end @b, the end changed as each row says */
	{
		static const struct {
			unsigned long long steal, version;
			int a_ok, b_ok;
			unsigned int want;
			const char *what;
		} rows[] = {
			{ 1000, 4, 1, 1, 0, "the same record at both ends: no flag" },
			{ 1001, 4, 1, 1, KBENCH_SAMPLE_F_STEAL, "steal time grew: flagged" },
			{ 1000, 6, 1, 1, KBENCH_SAMPLE_F_STEAL,
			  "the record was rewritten (version) with no steal: flagged" },
			{ 1000, 4, 1, 0, KBENCH_SAMPLE_F_STEAL,
			  "an end that could not be read: flagged" },
			{ 1000, 4, 0, 1, KBENCH_SAMPLE_F_STEAL,
			  "a start that could not be read: flagged" },
		};
		unsigned int i;

		for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			memset(&a, 0, sizeof(a));
			a.rec = &s;
			a.ok = rows[i].a_ok;
			a.version = 4;
			a.steal = 1000;
			b = a;
			b.ok = rows[i].b_ok;
			b.version = rows[i].version;
			b.steal = rows[i].steal;
			ok(kbench_steal_flags(&a, &b) == rows[i].want, "steal: %s",
			   rows[i].what);
		}
	}
	a.rec = NULL;
	ok(!kbench_steal_flags(&a, &b), "steal: no record: never flagged");
}

/*
 * A fake KVM record and a host that "preempts" the vCPU in the windows
 * listed in preempt_in[]: it bumps the version twice and adds to steal,
 * as record_steal_time() does on the next entry.
 */
struct fake_record {
	unsigned long long steal;
	unsigned int version;
};

static struct fake_record rec;
static const void *rec_ptr;		/* NULL: no record (like a NULL per-CPU) */
static unsigned long long clock_now;
static unsigned int windows, preempt_in[8], npreempt, rewrite_in;

static unsigned long long rec_load(const void *r, enum kbench_steal_field f)
{
	const volatile struct fake_record *fr = r;

	return f == KBENCH_STEAL_VERSION ? fr->version : fr->steal;
}

/* the kernel's snapshot hooks (kmod/kbench_counter.h), steal only */
static __always_inline void fake_snap_begin(struct kbench_guard *g)
{
	kbench_steal_begin(rec_load, rec_ptr, &g->steal);
}

static __always_inline void fake_snap_end(struct kbench_guard *g)
{
	g->flags |= kbench_steal_end(rec_load, &g->steal);
}

static __always_inline void fake_irq(struct kbench_guard *g)
{
	(void)g;
}

static unsigned long long fake_read(void)
{
	return clock_now += 10;
}

/* the routine: the host may preempt the vCPU while it runs */
static void fake_routine(unsigned int n, void *data)
{
	unsigned int i;

	(void)data;
	clock_now += n;
	if (n <= 2)
		return;		/* the reference span T(2) */
	windows++;
	if (rewrite_in && windows == rewrite_in) {
		rec.version += 2;	/* back from userspace, no time lost */
		return;
	}
	for (i = 0; i < npreempt; i++) {
		if (windows == preempt_in[i]) {
			rec.version += 2;
			rec.steal += 123456;
		}
	}
}

KBENCH_DEFINE_WINDOW(fake_window, fake_read, fake_irq, fake_irq,
		     fake_snap_begin, fake_snap_end)

static void no_gap(struct kbench_engine *e, const struct kbench_window *w)
{
	(void)e;
	(void)w;
}

static int no_check(struct kbench_engine *e)
{
	(void)e;
	return 0;
}

static const struct kbench_engine_ops ops = { .gap = no_gap, .check = no_check };
static const struct kbench_counter counter = {
	.name = "fake", .read = fake_read, .window = fake_window,
};

static void test_flagging(void)
{
	static kbench_s64 net[20], scratch[20];
	static unsigned int fl[20];
	struct kbench_engine_series s = {
		.run = fake_routine, .net = net, .flags = fl,
	};
	struct kbench_engine e = {
		.counter = &counter, .ops = &ops, .nr_series = 1,
		.samples = 20, .iterations = 100,
	};
	struct kbench_summary sum;
	unsigned int i, bad = 0, probe;
	int err;

	e.series[0] = &s;
	/* how many windows the probe takes before the samples */
	memset(&rec, 0, sizeof(rec));
	rec_ptr = &rec;
	windows = 0;
	npreempt = 0;
	rewrite_in = 0;
	err = kbench_engine_run(&e);
	probe = windows - 20;
	bad = 0;
	for (i = 0; i < 20; i++)
		bad += fl[i] != 0;
	ok(!err && !bad && probe == 24,
	   "steal: a quiet host: no sample flagged (after %u probe windows)", probe);

	/* preempt samples 3 and 11, rewrite the record in sample 7 */
	windows = 0;
	npreempt = 2;
	preempt_in[0] = probe + 3;
	preempt_in[1] = probe + 11;
	rewrite_in = probe + 7;
	err = kbench_engine_run(&e);
	bad = 0;
	for (i = 0; i < 20; i++) {
		bool want = i + 1 == 3 || i + 1 == 7 || i + 1 == 11;

		bad += !!(fl[i] & KBENCH_SAMPLE_F_STEAL) != want;
	}
	ok(!err && s.taken == 20 && !bad,
	   "steal: through the engine's window, exactly samples 3, 7 and 11 flagged");
	kbench_summarize(&sum, net, fl, s.taken, e.iterations, scratch);
	ok(sum.valid == 17 && sum.excluded[7] == 3 &&
	   (sum.flags & KBENCH_RESULT_F_EXCLUDED),
	   "steal: the summary excludes them and counts 3 under bit 7 (%u)",
	   sum.excluded[7]);

	/* no record on this CPU: nothing flagged, whatever the host does */
	rec_ptr = NULL;
	windows = 0;
	err = kbench_engine_run(&e);
	bad = 0;
	for (i = 0; i < 20; i++)
		bad += !!(fl[i] & KBENCH_SAMPLE_F_STEAL);
	ok(!err && !bad, "steal: without a record no sample is flagged steal");
	npreempt = 0;
	rewrite_in = 0;
}

void test_steal(void)
{
	test_protocol();
	test_flagging();
}
