// SPDX-License-Identifier: GPL-2.0
/*
 * kbench selftests: exactness under qemu -icount shift=0,sleep=off, where one
 * counter tick is one guest instruction.  A routine's net cycles per
 * iteration must equal its instruction count (kmod/kbench_bodies.h) exactly
 * and repeat bit-for-bit.  Skipped without icount (kbench_icount=1 on the
 * kernel command line).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbench_fixture.h"
#include "../../kmod/kbench_bodies.h"

#define ITERS	1000
#define SAMPLES	100

/*
 * The oracle "one tick = one instruction" holds for the x86 TSC under
 * icount; arm64's CNTVCT ticks every 16 instructions there.
 */
#if defined(__x86_64__)
#define NEED_ICOUNT() do {						\
	if (!kb_icount())						\
		SKIP(return, "needs --icount (kbench_icount=1)");	\
} while (0)
#else
#define NEED_ICOUNT() SKIP(return, "instruction-exact oracle is x86-only")
#endif

/* One routine's summary: every sample exactly @insns per iteration. */
static void check_exact(struct __test_metadata *_metadata,
			const struct kb_result *r, const char *name,
			int64_t insns, int64_t corr, uint32_t samples,
			uint32_t iters)
{
	int64_t net = insns * iters;
	int i;

	EXPECT_STREQ(name, r->routine);
	for (i = KBENCH_A_RESULT_SAMPLES; i <= KBENCH_A_RESULT_FLAGS; i++) {
		if (corr < 0 && i >= KBENCH_A_RESULT_CORR_MIN_MILLI)
			break;	/* the overhead routine is not corrected */
		EXPECT_TRUE(r->has[i]) TH_LOG("%s: result attribute %d missing",
					      name, i);
	}
	EXPECT_EQ(samples, KB_RES(r, SAMPLES));
	EXPECT_EQ(samples, KB_RES(r, VALID));
	EXPECT_EQ(0, KB_RES(r, EXCL_CPU));
	EXPECT_EQ(0, KB_RES(r, EXCL_BACKWARDS));
	EXPECT_EQ(0, KB_RES(r, EXCL_NMI));
	EXPECT_EQ(0, KB_RES(r, EXCL_SMI));
	EXPECT_EQ(0, KB_RES(r, EXCL_WINDOW));
	EXPECT_EQ(net, KB_RES(r, NET_MIN)) TH_LOG("%s net min", name);
	EXPECT_EQ(net, KB_RES(r, NET_MEDIAN)) TH_LOG("%s net median", name);
	EXPECT_EQ(net, KB_RES(r, NET_MAX)) TH_LOG("%s net max", name);
	EXPECT_EQ(net * samples, KB_RES(r, NET_SUM)) TH_LOG("%s net sum", name);
	EXPECT_EQ(insns * 1000, KB_RES(r, PER_ITER_MIN_MILLI))
		TH_LOG("%s per-iteration min", name);
	EXPECT_EQ(insns * 1000, KB_RES(r, PER_ITER_MEDIAN_MILLI))
		TH_LOG("%s per-iteration median", name);
	if (corr >= 0) {
		EXPECT_EQ(corr * 1000, KB_RES(r, CORR_MIN_MILLI))
			TH_LOG("%s corrected min", name);
		EXPECT_EQ(corr * 1000, KB_RES(r, CORR_MEDIAN_MILLI))
			TH_LOG("%s corrected median", name);
		EXPECT_EQ(0, KB_RES(r, FLAGS)) TH_LOG("%s flags", name);
	}
}

static int run_one(FIXTURE_DATA(kb) *self, const char *routine,
		   uint32_t iters, struct kb_run *run, struct knl_result *res)
{
	struct kb_run_args a = {
		.routines = { routine }, .nroutines = 1, .has_cpu = true,
		.cpu = 0, .samples = SAMPLES, .iterations = iters,
	};

	return kb_run(&self->nl, &self->req, self->fam.id, &a, run, res);
}

static void check_run(struct __test_metadata *_metadata,
		      const struct kb_run *run, uint32_t iters)
{
	ASSERT_EQ(NULL, run->bad) TH_LOG("RUN reply: %s", run->bad);
	EXPECT_EQ(1, run->nmsgs);
	EXPECT_STREQ("tsc", run->counter);	/* x86 only, see NEED_ICOUNT */
	EXPECT_GT(run->v[KBENCH_A_RUN_COUNTER_HZ], 0);
	EXPECT_TRUE(run->has[KBENCH_A_RUN_ID]);
	EXPECT_EQ(0, run->v[KBENCH_A_RUN_CPU]);
	EXPECT_EQ(SAMPLES, run->v[KBENCH_A_RUN_SAMPLES]);
	EXPECT_EQ(iters, run->v[KBENCH_A_RUN_ITERATIONS]);
	EXPECT_EQ(0, run->v[KBENCH_A_RUN_ADAPTIVE]);
	EXPECT_TRUE(run->has[KBENCH_A_RUN_STATUS]);
	EXPECT_EQ(KBENCH_RUN_COMPLETE, run->v[KBENCH_A_RUN_STATUS]);
	EXPECT_GT(run->v[KBENCH_A_RUN_ELAPSED_NS], 0);
	ASSERT_TRUE(run->has_overhead) TH_LOG("no OVERHEAD nest");
}

struct exact_case {
	const char *name;
	int64_t insns, corr;
};

static const struct exact_case cases[] = {
	{ "empty", KBENCH_INSNS_EMPTY, 0 },
	{ "add_chain", KBENCH_INSNS_ADD_CHAIN,
	  KBENCH_INSNS_ADD_CHAIN - KBENCH_INSNS_EMPTY },
	{ "mul_chain", KBENCH_INSNS_MUL_CHAIN,
	  KBENCH_INSNS_MUL_CHAIN - KBENCH_INSNS_EMPTY },
	{ "load_l1", KBENCH_INSNS_LOAD_L1,
	  KBENCH_INSNS_LOAD_L1 - KBENCH_INSNS_EMPTY },
};

TEST_F_TIMEOUT(kb, add_chain_exact, 120)
{
	struct knl_result res;
	struct kb_run run;

	NEED_ICOUNT();
	ASSERT_EQ(0, run_one(self, "add_chain", ITERS, &run, &res))
		TH_LOG("RUN add_chain: %s", res.msg);
	check_run(_metadata, &run, ITERS);
	ASSERT_EQ(1, run.nresults);
	/* 6 instructions per iteration: 6000 milli-cycles, 6000 per sample. */
	check_exact(_metadata, &run.result[0], "add_chain", 6, 4, SAMPLES, ITERS);
	/* The overhead routine is `empty`: 2 per iteration. */
	check_exact(_metadata, &run.overhead, "empty", 2, -1, SAMPLES, ITERS);
	EXPECT_EQ(4000, KB_RES(&run.result[0], CORR_MIN_MILLI));
	EXPECT_EQ(4000, KB_RES(&run.result[0], CORR_MEDIAN_MILLI));
}

TEST_F_TIMEOUT(kb, builtins_exact, 240)
{
	struct knl_result res;
	struct kb_run run;
	unsigned int i;

	NEED_ICOUNT();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, run_one(self, cases[i].name, ITERS, &run, &res))
			TH_LOG("RUN %s: %s", cases[i].name, res.msg);
		check_run(_metadata, &run, ITERS);
		ASSERT_EQ(1, run.nresults);
		check_exact(_metadata, &run.result[0], cases[i].name,
			    cases[i].insns, cases[i].corr, SAMPLES, ITERS);
		check_exact(_metadata, &run.overhead, "empty",
			    KBENCH_INSNS_EMPTY, -1, SAMPLES, ITERS);
		/* empty - empty is exactly 0: nothing to clamp. */
		EXPECT_FALSE(KB_RES(&run.result[0], FLAGS) & KBENCH_RESULT_F_CLAMPED);
	}
}

TEST_F_TIMEOUT(kb, other_iteration_counts, 240)
{
	static const uint32_t iters[] = { 1, 10, 100, 10000 };
	struct knl_result res;
	struct kb_run run;
	unsigned int i;

	NEED_ICOUNT();
	for (i = 0; i < sizeof(iters) / sizeof(iters[0]); i++) {
		ASSERT_EQ(0, run_one(self, "add_chain", iters[i], &run, &res))
			TH_LOG("RUN add_chain x%u: %s", iters[i], res.msg);
		check_run(_metadata, &run, iters[i]);
		ASSERT_EQ(1, run.nresults);
		check_exact(_metadata, &run.result[0], "add_chain", 6, 4,
			    SAMPLES, iters[i]);
	}
}

static void expect_same_result(struct __test_metadata *_metadata,
			       const struct kb_result *a,
			       const struct kb_result *b, int run)
{
	int i;

	EXPECT_STREQ(a->routine, b->routine);
	for (i = 1; i <= KBENCH_A_RESULT_MAX; i++) {
		EXPECT_EQ(a->has[i], b->has[i]);
		EXPECT_EQ(a->v[i], b->v[i])
			TH_LOG("run %d differs in result attribute %d", run, i);
	}
}

TEST_F_TIMEOUT(kb, repeatable, 180)
{
	struct knl_result res;
	struct kb_run first, run;
	int i;

	NEED_ICOUNT();
	ASSERT_EQ(0, run_one(self, "add_chain", ITERS, &first, &res));
	ASSERT_EQ(1, first.nresults);
	for (i = 2; i <= 3; i++) {
		ASSERT_EQ(0, run_one(self, "add_chain", ITERS, &run, &res));
		ASSERT_EQ(1, run.nresults);
		expect_same_result(_metadata, &first.result[0], &run.result[0], i);
		expect_same_result(_metadata, &first.overhead, &run.overhead, i);
		EXPECT_NE(first.v[KBENCH_A_RUN_ID], run.v[KBENCH_A_RUN_ID]);
	}
}

TEST_F_TIMEOUT(kb, interleaved_exact, 180)
{
	struct kb_run_args a = {
		.routines = { "add_chain", "mul_chain", "empty", "load_l1" },
		.nroutines = 4, .has_cpu = true, .cpu = 0,
		.samples = SAMPLES, .iterations = ITERS,
	};
	struct knl_result res;
	struct kb_run run;

	NEED_ICOUNT();
	ASSERT_EQ(0, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res))
		TH_LOG("RUN: %s", res.msg);
	check_run(_metadata, &run, ITERS);
	ASSERT_EQ(4, run.nresults);
	check_exact(_metadata, &run.result[0], "add_chain", 6, 4, SAMPLES, ITERS);
	check_exact(_metadata, &run.result[1], "mul_chain", 6, 4, SAMPLES, ITERS);
	check_exact(_metadata, &run.result[2], "empty", 2, 0, SAMPLES, ITERS);
	check_exact(_metadata, &run.result[3], "load_l1", 6, 4, SAMPLES, ITERS);
	check_exact(_metadata, &run.overhead, "empty", 2, -1, SAMPLES, ITERS);
}

TEST_F_TIMEOUT(kb, adaptive_deterministic, 180)
{
	struct kb_run_args a = {
		.routines = { "add_chain" }, .nroutines = 1, .has_cpu = true,
		.cpu = 0, .samples = SAMPLES,
	};
	struct knl_result res;
	struct kb_run r1, r2;
	uint64_t n;

	NEED_ICOUNT();
	ASSERT_EQ(0, kb_run(&self->nl, &self->req, self->fam.id, &a, &r1, &res))
		TH_LOG("adaptive RUN: %s", res.msg);
	ASSERT_EQ(0, kb_run(&self->nl, &self->req, self->fam.id, &a, &r2, &res));
	EXPECT_EQ(1, r1.v[KBENCH_A_RUN_ADAPTIVE]);
	n = r1.v[KBENCH_A_RUN_ITERATIONS];
	EXPECT_GT(n, 0);
	EXPECT_EQ(n, r2.v[KBENCH_A_RUN_ITERATIONS]);
	ASSERT_EQ(1, r1.nresults);
	ASSERT_EQ(1, r2.nresults);
	check_exact(_metadata, &r1.result[0], "add_chain", 6, 4, SAMPLES, n);
	expect_same_result(_metadata, &r1.result[0], &r2.result[0], 2);
}

TEST_F_TIMEOUT(kb, window_too_long, 60)
{
	uint64_t hz = self->info.v[KBENCH_A_INFO_COUNTER_HZ];
	uint64_t max_iter = self->info.v[KBENCH_A_INFO_MAX_ITERATIONS];
	uint64_t window_us = self->info.v[KBENCH_A_INFO_MAX_WINDOW_US];
	struct kb_run_args a = {
		.routines = { "add_chain" }, .nroutines = 1, .has_cpu = true,
		.cpu = 0, .samples = 10,
	};
	struct knl_result res;
	struct kb_run run;

	NEED_ICOUNT();
	ASSERT_GT(hz, 0);
	/* Under icount the window's length is known exactly in advance. */
	if (6 * max_iter * 1000000 / hz <= 2 * window_us)
		SKIP(return, "max_iterations fits in max_window_us here");
	a.iterations = max_iter;
	EXPECT_EQ(ERANGE, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res));
	EXPECT_TRUE(res.has_msg);
	EXPECT_EQ(0, run.nmsgs);
}

/* kbenchctl run add_chain --json: "net_cycles_per_iter": {"min": 6, "median": 6} */
static bool json_number(const char *obj, const char *key, double *v)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(obj, pat);
	if (!p)
		return false;
	p += strlen(pat);
	while (*p == ' ' || *p == ':' || *p == '\n' || *p == '\t')
		p++;
	return sscanf(p, "%lf", v) == 1;
}

TEST_F_TIMEOUT(kb, kbenchctl_json, 180)
{
	const char *ctl = getenv("KBENCHCTL") ?: "/usr/bin/kbenchctl";
	static char out[1 << 16];
	char cmd[512], *obj, *end;
	double min = -1, median = -1;
	size_t n = 0, got;
	FILE *f;

	NEED_ICOUNT();
	ASSERT_EQ(0, access(ctl, X_OK)) TH_LOG("%s not found", ctl);
	snprintf(cmd, sizeof(cmd), "%s run add_chain --json", ctl);
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	while ((got = fread(out + n, 1, sizeof(out) - 1 - n, f)) > 0)
		n += got;
	out[n] = '\0';
	ASSERT_EQ(0, pclose(f)) TH_LOG("kbenchctl failed: %s", out);
	obj = strstr(out, "\"net_cycles_per_iter\"");
	ASSERT_NE(NULL, obj) TH_LOG("no net_cycles_per_iter in: %s", out);
	obj = strchr(obj, '{');
	ASSERT_NE(NULL, obj);
	end = strchr(obj, '}');
	ASSERT_NE(NULL, end);
	*end = '\0';
	ASSERT_TRUE(json_number(obj, "min", &min)) TH_LOG("%s", obj);
	ASSERT_TRUE(json_number(obj, "median", &median)) TH_LOG("%s", obj);
	EXPECT_EQ(KBENCH_INSNS_ADD_CHAIN * 1.0, min);
	EXPECT_EQ(KBENCH_INSNS_ADD_CHAIN * 1.0, median);
}

TEST_HARNESS_MAIN
