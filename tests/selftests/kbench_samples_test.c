// SPDX-License-Identifier: GPL-2.0
/*
 * kbench selftests: raw samples (SAMPLES_GET) and interleaved runs.  The
 * summary the kernel reports must be exactly what the test recomputes from
 * the samples it hands out with the userspace build of the same summary
 * code (include/kbench/summary.h, as libkbench has it).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbench/summary.h>

#include "kbench_fixture.h"

#define BIG_SAMPLES	100000

struct series {
	char name[KBENCH_NAME_MAX + 2];
	int64_t *net;
	uint32_t *flags;
	uint32_t n, cap;
	uint32_t iterations;
	bool has_iterations;
};

struct samples_dump {
	struct series s[KB_RESULTS_MAX];
	bool packed;		/* asked for packed pages */
	uint32_t pages[9];	/* packed pages per net width */
	uint32_t run_id;
	int nmsgs;
	uint32_t max_msg_len;
	const char *bad;
	char why[160];
};

static void dump_fail(struct samples_dump *d, const char *fmt, uint32_t a,
		      uint32_t b)
{
	if (d->bad)
		return;
	snprintf(d->why, sizeof(d->why), fmt, a, b);
	d->bad = d->why;
}

/* A packed page's sample count (0 and the dump failed if malformed). */
static uint32_t packed_count(struct samples_dump *d, const struct nlattr **tb)
{
	const struct nlattr *w = tb[KBENCH_A_SAMPLES_NET_WIDTH];
	const struct nlattr *f = tb[KBENCH_A_SAMPLES_FLAG_LIST];
	uint8_t width;

	if (!w || knl_len(w) != 1) {
		dump_fail(d, "packed page without a NET_WIDTH (%u, %u)", 0, 0);
		return 0;
	}
	width = *(const uint8_t *)knl_data(w);
	if ((width != 1 && width != 2 && width != 4 && width != 8) ||
	    knl_len(tb[KBENCH_A_SAMPLES_NET_PACKED]) % width ||
	    (f && (knl_len(f) % 8 || !knl_len(f)))) {
		dump_fail(d, "packed page: width %u, %u bytes", width,
			  (uint32_t)knl_len(tb[KBENCH_A_SAMPLES_NET_PACKED]));
		return 0;
	}
	return (uint32_t)knl_len(tb[KBENCH_A_SAMPLES_NET_PACKED]) / width;
}

/*
 * A packed page's @count samples into @net and @flags; its width must be
 * the fewest bytes that hold each value signed, its flag list in order
 * and within the page.
 */
static void unpack(struct samples_dump *d, const struct nlattr **tb,
		   int64_t *net, uint32_t *flags, uint32_t count)
{
	const unsigned char *p = knl_data(tb[KBENCH_A_SAMPLES_NET_PACKED]);
	const struct nlattr *f = tb[KBENCH_A_SAMPLES_FLAG_LIST];
	uint8_t width = *(const uint8_t *)knl_data(tb[KBENCH_A_SAMPLES_NET_WIDTH]);
	uint32_t i, k, prev = 0, pair[2];
	unsigned int need = 1;

	for (i = 0; i < count; i++) {
		int8_t b;
		int16_t h;
		int32_t w;

		if (width == 1) {
			memcpy(&b, p + i, 1);
			net[i] = b;
		} else if (width == 2) {
			memcpy(&h, p + 2 * i, 2);
			net[i] = h;
		} else if (width == 4) {
			memcpy(&w, p + 4 * i, 4);
			net[i] = w;
		} else {
			memcpy(&net[i], p + 8 * i, 8);
		}
		while (need < 8 && (net[i] < -(1LL << (8 * need - 1)) ||
				    net[i] >= 1LL << (8 * need - 1)))
			need *= 2;
		flags[i] = 0;
	}
	if (count && need != width)
		dump_fail(d, "a page of width %u, its values need %u", width, need);
	d->pages[width]++;
	for (k = 0; f && k < (uint32_t)knl_len(f) / 8; k++) {
		memcpy(pair, (const char *)knl_data(f) + 8 * k, 8);
		if (pair[0] >= count || (k && pair[0] <= prev) || !pair[1]) {
			dump_fail(d, "flag list: index %u (page of %u)", pair[0],
				  count);
			return;
		}
		flags[pair[0]] = pair[1];
		prev = pair[0];
	}
}

static int samples_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_SAMPLES_MAX + 1];
	struct samples_dump *d = arg;
	uint32_t idx, first, count, i, id;
	struct series *s;
	const char *e, *name;
	const void *data;
	int len;

	d->nmsgs++;
	if (nlh->nlmsg_len > d->max_msg_len)
		d->max_msg_len = nlh->nlmsg_len;
	e = kbench_check_msg(KBENCH_CMD_SAMPLES_GET, nlh);
	if (e) {
		if (!d->bad)
			d->bad = e;
		return 1;
	}
	data = knl_genl_attrs(nlh, &len);
	knl_parse(data, len, tb, KBENCH_A_SAMPLES_MAX);
	knl_get_u32(tb[KBENCH_A_SAMPLES_ROUTINE], &idx);
	knl_get_u32(tb[KBENCH_A_SAMPLES_FIRST], &first);
	if (knl_get_u32(tb[KBENCH_A_SAMPLES_RUN_ID], &id) && id != d->run_id)
		dump_fail(d, "message for run %u, asked for %u", id, d->run_id);
	if (idx >= KB_RESULTS_MAX) {
		dump_fail(d, "routine index %u out of range (%u)", idx,
			  KB_RESULTS_MAX);
		return 1;
	}
	s = &d->s[idx];
	if (first != s->n)
		dump_fail(d, "FIRST %u, expected %u (gap or repeat)", first, s->n);
	name = knl_get_str(tb[KBENCH_A_SAMPLES_NAME]);
	if (name) {
		if (!s->name[0])
			snprintf(s->name, sizeof(s->name), "%s", name);
		else if (strcmp(s->name, name))
			dump_fail(d, "routine %u changed its name (%u)", idx, 0);
	}
	if (knl_get_u32(tb[KBENCH_A_SAMPLES_ITERATIONS], &s->iterations))
		s->has_iterations = true;
	if (d->packed != !!tb[KBENCH_A_SAMPLES_NET_PACKED] ||
	    d->packed == !!tb[KBENCH_A_SAMPLES_NET]) {
		dump_fail(d, "packed %u asked, a page with NET_PACKED %u",
			  d->packed, !!tb[KBENCH_A_SAMPLES_NET_PACKED]);
		return 1;
	}
	count = d->packed ? packed_count(d, tb) :
			    knl_len(tb[KBENCH_A_SAMPLES_NET]) / 8;
	if (s->n + count > s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 4096;

		while (cap < s->n + count)
			cap *= 2;
		s->net = realloc(s->net, cap * sizeof(*s->net));
		s->flags = realloc(s->flags, cap * sizeof(*s->flags));
		if (!s->net || !s->flags) {
			d->bad = "out of memory";
			return 1;
		}
		s->cap = cap;
	}
	if (d->packed) {
		unpack(d, tb, s->net + s->n, s->flags + s->n, count);
		s->n += count;
		return 0;
	}
	for (i = 0; i < count; i++) {
		memcpy(&s->net[s->n + i],
		       (const char *)knl_data(tb[KBENCH_A_SAMPLES_NET]) + 8 * i, 8);
		memcpy(&s->flags[s->n + i],
		       (const char *)knl_data(tb[KBENCH_A_SAMPLES_FLAGS]) + 4 * i, 4);
	}
	s->n += count;
	return 0;
}

static void dump_free(struct samples_dump *d)
{
	int i;

	for (i = 0; i < KB_RESULTS_MAX; i++) {
		free(d->s[i].net);
		free(d->s[i].flags);
	}
	memset(d, 0, sizeof(*d));
}

static int dump_samples_as(FIXTURE_DATA(kb) *self, uint32_t run_id,
			   struct samples_dump *d, struct knl_result *res,
			   bool packed)
{
	memset(d, 0, sizeof(*d));
	d->run_id = run_id;
	d->packed = packed;
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_SAMPLES_GET, KBENCH_GENL_VERSION);
	knl_put_u32(&self->req, KBENCH_A_SAMPLES_RUN_ID, run_id);
	if (packed)
		knl_put(&self->req, KBENCH_A_SAMPLES_PACKED, NULL, 0);
	return knl_transact(&self->nl, &self->req, samples_cb, d, res);
}

static int dump_samples(FIXTURE_DATA(kb) *self, uint32_t run_id,
			struct samples_dump *d, struct knl_result *res)
{
	return dump_samples_as(self, run_id, d, res, false);
}

/*
 * NLMSG_GOODSIZE of the running kernel, the size of a dump page: in
 * include/linux/netlink.h (6.1, and still in 6.12)
 *
 *	SKB_WITH_OVERHEAD(min(PAGE_SIZE, 8192))
 *	 = min(PAGE_SIZE, 8192) - SKB_DATA_ALIGN(sizeof(struct skb_shared_info))
 *
 * struct skb_shared_info (include/linux/skbuff.h) is 48 bytes of header
 * and MAX_SKB_FRAGS 16-byte frags, MAX_SKB_FRAGS = max(16, 65536 /
 * PAGE_SIZE + 1): 320 bytes with 4 KiB pages, 304 with 64 KiB ones (6.12:
 * 40 + 17 * 16 = 312 everywhere).  SKB_DATA_ALIGN rounds it up to
 * SMP_CACHE_BYTES = L1_CACHE_BYTES: 64 on x86_64 (CONFIG_X86_L1_CACHE_SHIFT
 * 6) and arm64, 128 on powerpc64.  So 4096 - 320 = 3776 on x86_64 and arm64
 * with 4 KiB pages, 8192 - 384 = 7808 on ppc64el (64 KiB pages).
 */
static long nlmsg_goodsize(void)
{
#if defined(__powerpc64__)
	const long cache_bytes = 128;
#else
	const long cache_bytes = 64;
#endif
	long page = sysconf(_SC_PAGESIZE);
	long frags = 65536 / page + 1 < 16 ? 16 : 65536 / page + 1;
	long shinfo = 48 + 16 * frags;

	shinfo = (shinfo + cache_bytes - 1) / cache_bytes * cache_bytes;
	return (page < 8192 ? page : 8192) - shinfo;
}

/*
 * Recompute @r's summary from the raw samples of @s with the engine's own
 * summary (include/kbench/summary.h, which libkbench compiles): every
 * field must be identical to the last digit, the rounding of the
 * per-iteration thousandths included (the values vary without icount).
 */
static void check_summary(struct __test_metadata *_metadata,
			  const struct series *s, const struct kb_result *r,
			  uint32_t iterations)
{
	struct kbench_summary sum;
	kbench_s64 *scratch;
	uint32_t i;

	EXPECT_EQ(KB_RES(r, SAMPLES), s->n) TH_LOG("%s", r->routine);
	if (s->name[0])
		EXPECT_STREQ(r->routine, s->name);
	if (s->has_iterations)
		EXPECT_EQ(iterations, s->iterations);
	for (i = 0; i < s->n; i++)
		EXPECT_EQ(0, s->flags[i] & ~(KBENCH_SAMPLE_F_STEAL * 2u - 1))
			TH_LOG("unknown sample flag");
	scratch = malloc(sizeof(*scratch) * (s->n + 1));
	ASSERT_NE(NULL, scratch);
	kbench_summarize(&sum, s->net, s->flags, s->n, iterations, scratch);
	free(scratch);
	EXPECT_EQ(sum.samples, KB_RES(r, SAMPLES));
	EXPECT_EQ(sum.valid, KB_RES(r, VALID)) TH_LOG("%s valid", r->routine);
	EXPECT_EQ(sum.excluded[0], KB_RES(r, EXCL_CPU));
	EXPECT_EQ(sum.excluded[1], KB_RES(r, EXCL_BACKWARDS));
	EXPECT_EQ(sum.excluded[2], KB_RES(r, EXCL_NMI));
	EXPECT_EQ(sum.excluded[3], KB_RES(r, EXCL_SMI));
	EXPECT_EQ(sum.excluded[4], KB_RES(r, EXCL_WINDOW));
	EXPECT_TRUE(r->has[KBENCH_A_RESULT_EXCL_REFERENCE]);
	EXPECT_EQ(sum.excluded[5], KB_RES(r, EXCL_REFERENCE));
	/* each count under its own bit: event 6, steal 7 */
	EXPECT_EQ(sum.excluded[6], KB_RES(r, EXCL_EVENT));
	EXPECT_TRUE(r->has[KBENCH_A_RESULT_EXCL_STEAL]);
	EXPECT_EQ(sum.excluded[7], KB_RES(r, EXCL_STEAL));
	/* A bound kthread never changes CPU; the TSC never runs backwards. */
	EXPECT_EQ(0, sum.excluded[0]);
	EXPECT_EQ(0, sum.excluded[1]);
	EXPECT_EQ(sum.min, KB_RES(r, NET_MIN)) TH_LOG("%s min", r->routine);
	EXPECT_EQ(sum.median, KB_RES(r, NET_MEDIAN))
		TH_LOG("%s lower median", r->routine);
	EXPECT_EQ(sum.max, KB_RES(r, NET_MAX)) TH_LOG("%s max", r->routine);
	EXPECT_EQ(sum.sum, KB_RES(r, NET_SUM)) TH_LOG("%s sum", r->routine);
	EXPECT_EQ(sum.per_iter_min_milli, KB_RES(r, PER_ITER_MIN_MILLI))
		TH_LOG("%s per-iteration min", r->routine);
	EXPECT_EQ(sum.per_iter_median_milli, KB_RES(r, PER_ITER_MEDIAN_MILLI))
		TH_LOG("%s per-iteration median", r->routine);
	/* the flags but the overhead correction's (not recomputed here) */
	EXPECT_EQ(sum.flags, KB_RES(r, FLAGS) & ~KBENCH_RESULT_F_CLAMPED);
	/* a negative net is always flagged: no minimum below zero */
	if (sum.valid)
		EXPECT_LE(0, KB_RES(r, NET_MIN)) TH_LOG("%s", r->routine);
}

/* The corrected figures: the summaries' difference, clamped at 0. */
static void check_corrected(struct __test_metadata *_metadata,
			    const struct kb_result *r,
			    const struct kb_result *ovh)
{
	struct kbench_summary s = { 0 }, o = { 0 };

	s.per_iter_min_milli = KB_RES(r, PER_ITER_MIN_MILLI);
	s.per_iter_median_milli = KB_RES(r, PER_ITER_MEDIAN_MILLI);
	o.per_iter_min_milli = KB_RES(ovh, PER_ITER_MIN_MILLI);
	o.per_iter_median_milli = KB_RES(ovh, PER_ITER_MEDIAN_MILLI);
	kbench_correct(&s, &o);
	EXPECT_EQ(s.corr_min_milli, KB_RES(r, CORR_MIN_MILLI));
	EXPECT_EQ(s.corr_median_milli, KB_RES(r, CORR_MEDIAN_MILLI));
	EXPECT_EQ(s.flags & KBENCH_RESULT_F_CLAMPED,
		  KB_RES(r, FLAGS) & KBENCH_RESULT_F_CLAMPED);
}

TEST_F_TIMEOUT(kb, samples_get_100k, 600)
{
	struct kb_run_args a = {
		.routines = { "add_chain" }, .nroutines = 1, .has_cpu = true,
		.cpu = 0, .samples = BIG_SAMPLES, .iterations = 10,
	};
	static struct samples_dump d, d2;
	struct knl_result res;
	struct kb_run run;
	uint32_t id;
	int i;

	ASSERT_GE(self->info.v[KBENCH_A_INFO_MAX_SAMPLES], BIG_SAMPLES);
	self->nl.timeout_ms = 550000;
	ASSERT_EQ(0, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res))
		TH_LOG("RUN 100k: %s", res.msg);
	ASSERT_EQ(NULL, run.bad) TH_LOG("RUN reply: %s", run.bad);
	ASSERT_EQ(1, run.nresults);
	ASSERT_TRUE(run.has_overhead);
	ASSERT_TRUE(run.has[KBENCH_A_RUN_ID]);
	EXPECT_EQ(KBENCH_RUN_COMPLETE, run.v[KBENCH_A_RUN_STATUS]);
	EXPECT_EQ(BIG_SAMPLES, KB_RES(&run.result[0], SAMPLES));
	EXPECT_EQ(BIG_SAMPLES, KB_RES(&run.overhead, SAMPLES));
	id = run.v[KBENCH_A_RUN_ID];

	self->nl.timeout_ms = 60000;
	ASSERT_EQ(0, dump_samples(self, id, &d, &res));
	ASSERT_EQ(0, res.err) TH_LOG("SAMPLES_GET: %s", res.msg);
	ASSERT_EQ(NULL, d.bad) TH_LOG("SAMPLES_GET: %s", d.bad);
	EXPECT_FALSE(res.dump_interrupted);
	EXPECT_EQ(BIG_SAMPLES, d.s[0].n);
	EXPECT_EQ(BIG_SAMPLES, d.s[1].n);
	for (i = 2; i < KB_RESULTS_MAX; i++)
		EXPECT_EQ(0, d.s[i].n);
	/* Pages of at most NLMSG_GOODSIZE (kmod: KBENCH_SAMPLES_PER_MSG). */
	EXPECT_LE(d.max_msg_len, nlmsg_goodsize())
		TH_LOG("page size %ld: NLMSG_GOODSIZE %ld", sysconf(_SC_PAGESIZE),
		       nlmsg_goodsize());
	check_summary(_metadata, &d.s[0], &run.result[0], 10);
	check_summary(_metadata, &d.s[1], &run.overhead, 10);
	check_corrected(_metadata, &run.result[0], &run.overhead);

	/* A second dump of the same run hands out the same samples. */
	ASSERT_EQ(0, dump_samples(self, id, &d2, &res));
	ASSERT_EQ(0, res.err);
	ASSERT_EQ(NULL, d2.bad);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(d.s[i].n, d2.s[i].n);
		EXPECT_EQ(0, memcmp(d.s[i].net, d2.s[i].net, d.s[i].n * 8));
		EXPECT_EQ(0, memcmp(d.s[i].flags, d2.s[i].flags, d.s[i].n * 4));
	}
	dump_free(&d2);

	/*
	 * Packed pages (PACKED): the same samples and flags, each page at
	 * the narrowest width for its values (samples_cb checks), fewer
	 * messages.  add_chain at 10 iterations: about 60 ticks, 1 byte.
	 */
	ASSERT_EQ(0, dump_samples_as(self, id, &d2, &res, true));
	ASSERT_EQ(0, res.err) TH_LOG("SAMPLES_GET packed: %s", res.msg);
	ASSERT_EQ(NULL, d2.bad) TH_LOG("SAMPLES_GET packed: %s", d2.bad);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(d.s[i].n, d2.s[i].n);
		EXPECT_EQ(0, memcmp(d.s[i].net, d2.s[i].net, d.s[i].n * 8));
		EXPECT_EQ(0, memcmp(d.s[i].flags, d2.s[i].flags, d.s[i].n * 4));
	}
	EXPECT_LT(d2.nmsgs, d.nmsgs);
	TH_LOG("packed: %d pages (unpacked %d), of widths 1/2/4/8: %u/%u/%u/%u",
	       d2.nmsgs, d.nmsgs, d2.pages[1], d2.pages[2], d2.pages[4],
	       d2.pages[8]);
	if (kb_icount()) {
		/* under icount every value is small: every page 1 byte */
		EXPECT_LT(0, d2.pages[1]);
		EXPECT_EQ(0, d2.pages[2] + d2.pages[4] + d2.pages[8]);
	}
	dump_free(&d);
	dump_free(&d2);
}

TEST_F_TIMEOUT(kb, interleaved_counts, 300)
{
	struct kb_run_args a = {
		.routines = { "add_chain", "mul_chain" }, .nroutines = 2,
		.has_cpu = true, .cpu = 0, .samples = 500, .iterations = 100,
	};
	static struct samples_dump d;
	struct knl_result res;
	struct kb_run run;
	int i;

	ASSERT_EQ(0, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res))
		TH_LOG("RUN: %s", res.msg);
	ASSERT_EQ(NULL, run.bad);
	ASSERT_EQ(2, run.nresults);
	ASSERT_TRUE(run.has_overhead);
	EXPECT_STREQ("add_chain", run.result[0].routine);
	EXPECT_STREQ("mul_chain", run.result[1].routine);
	EXPECT_STREQ("empty", run.overhead.routine);
	EXPECT_EQ(500, KB_RES(&run.result[0], SAMPLES));
	EXPECT_EQ(KB_RES(&run.result[0], SAMPLES), KB_RES(&run.result[1], SAMPLES));
	EXPECT_EQ(KB_RES(&run.result[0], SAMPLES), KB_RES(&run.overhead, SAMPLES));
	for (i = 0; i < 2; i++) {
		if (run.result[i].has[KBENCH_A_RESULT_INDEX])
			EXPECT_EQ(i, KB_RES(&run.result[i], INDEX));
		EXPECT_LE(KB_RES(&run.result[i], VALID),
			  KB_RES(&run.result[i], SAMPLES));
	}
	if (run.overhead.has[KBENCH_A_RESULT_INDEX])
		EXPECT_EQ(2, KB_RES(&run.overhead, INDEX));

	ASSERT_EQ(0, dump_samples(self, run.v[KBENCH_A_RUN_ID], &d, &res));
	ASSERT_EQ(0, res.err) TH_LOG("SAMPLES_GET: %s", res.msg);
	ASSERT_EQ(NULL, d.bad) TH_LOG("%s", d.bad);
	EXPECT_EQ(500, d.s[0].n);
	EXPECT_EQ(500, d.s[1].n);
	EXPECT_EQ(500, d.s[2].n);
	check_summary(_metadata, &d.s[0], &run.result[0], 100);
	check_summary(_metadata, &d.s[1], &run.result[1], 100);
	check_summary(_metadata, &d.s[2], &run.overhead, 100);
	check_corrected(_metadata, &run.result[0], &run.overhead);
	check_corrected(_metadata, &run.result[1], &run.overhead);
	dump_free(&d);
}

TEST_F_TIMEOUT(kb, store_keeps_last_runs, 300)
{
	uint32_t kept = self->info.v[KBENCH_A_INFO_RUNS_KEPT];
	struct kb_run_args a = {
		.routines = { "empty" }, .nroutines = 1, .has_cpu = true,
		.cpu = 0, .samples = 5, .iterations = 10,
	};
	static struct samples_dump d;
	struct knl_result res;
	uint32_t ids[64], i;
	struct kb_run run;

	ASSERT_GE(kept, 1);
	ASSERT_LT(kept, 63);
	for (i = 0; i < kept + 1; i++) {
		ASSERT_EQ(0, kb_run(&self->nl, &self->req, self->fam.id, &a,
				    &run, &res)) TH_LOG("RUN: %s", res.msg);
		ids[i] = run.v[KBENCH_A_RUN_ID];
		if (i)
			EXPECT_NE(ids[i - 1], ids[i]);
	}
	/* The oldest is gone, the last `kept` are there. */
	ASSERT_EQ(0, dump_samples(self, ids[0], &d, &res));
	EXPECT_EQ(ENOENT, res.err);
	dump_free(&d);
	for (i = 1; i < kept + 1; i++) {
		ASSERT_EQ(0, dump_samples(self, ids[i], &d, &res));
		EXPECT_EQ(0, res.err) TH_LOG("run %u (#%u): %s", ids[i], i, res.msg);
		EXPECT_EQ(5, d.s[0].n);
		dump_free(&d);
	}
}

TEST_HARNESS_MAIN
