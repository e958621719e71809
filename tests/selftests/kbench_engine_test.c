// SPDX-License-Identifier: GPL-2.0
/*
 * kbench selftests: the shared engine where the kernel and userspace meet.
 *
 *  - kbench_measure() from a module's init (kbench_measure_example.ko):
 *    under icount exactly 6 ticks per iteration for a 6-instruction loop;
 *  - the reasonableness test: a routine whose reference call stalls every
 *    10th window gets exactly those samples flagged `reference' and
 *    excluded, in kbench_measure() and in a RUN, and the rest still give
 *    the exact count;
 *  - plain TCG: no kernel minimum below zero, and min >= median / 2, over
 *    20 runs of add_chain and of mul_chain;
 *  - `kbenchctl clocks --user': latency in counter ticks is latency in ns
 *    x the counter's Hz / 1e9 (it used to be the ns figure).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbench/bodies.h>

#include "kbench_fixture.h"

#define EXAMPLE		"kbench_measure_example"
#define EXAMPLE_KO	kb_module_path(EXAMPLE)
#define STALL_EVERY	10
#define SAMPLES		100
#define ITERS		1000
#define PLAIN_RUNS	20

static int sh(const char *cmd)
{
	int rc = system(cmd);

	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* (Re)load the example module: its init measures; 0 or insmod's status. */
static int load_example(const char *args, bool quiet)
{
	char cmd[256];

	sh("rmmod " EXAMPLE " 2>/dev/null");
	snprintf(cmd, sizeof(cmd), "insmod %s %s%s", EXAMPLE_KO, args,
		 quiet ? " 2>/dev/null" : "");
	return sh(cmd);
}

static bool param(const char *name, long long *v)
{
	char path[160];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/module/" EXAMPLE "/parameters/%s",
		 name);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%lld", v);
	fclose(f);
	return n == 1;
}

/*
 * Net ticks of N iterations of @insns instructions under icount: exact on
 * x86 (one tick per instruction); elsewhere counter_hz / 1e9 ticks per
 * instruction, within the 2 ticks a quantised span may be off by
 * (kbench_exact_test.c has the whole oracle).
 */
static void expect_net(struct __test_metadata *_metadata, const char *what,
		       uint64_t hz, long long insns, long long v)
{
#if defined(__x86_64__)
	(void)hz;
	EXPECT_EQ(insns, v) TH_LOG("%s", what);
#else
	long long e = (long long)((double)insns * (double)hz / 1e9);

	EXPECT_TRUE(v >= e - 2 && v <= e + 2)
		TH_LOG("%s: %lld, expected %lld +- 2", what, v, e);
#endif
}

TEST_F_TIMEOUT(kb, measure_from_module, 180)
{
	uint64_t hz = self->info.v[KBENCH_A_INFO_COUNTER_HZ];
	long long v, valid, excl;

	ASSERT_EQ(0, access(EXAMPLE_KO, R_OK)) TH_LOG("%s missing", EXAMPLE_KO);
	ASSERT_EQ(0, load_example("", false))
		TH_LOG("insmod " EXAMPLE ": kbench_measure() failed");
	ASSERT_TRUE(param("add_chain_valid", &valid));
	ASSERT_TRUE(param("stall_ref_valid", &v));
	ASSERT_TRUE(param("stall_ref_excluded_reference", &excl));
	/* every 10th of 100 reference calls stalled: all of those flagged */
	EXPECT_GE(excl, SAMPLES / STALL_EVERY);
	EXPECT_GE(SAMPLES, v + excl);
	if (!kb_icount()) {
		EXPECT_LE(1, valid);
		sh("rmmod " EXAMPLE);
		SKIP(return, "exact figures need --icount (kbench_icount=1)");
	}
	/* exactly those, and the others exact: 6 instructions an iteration */
	EXPECT_EQ(SAMPLES, v + excl) TH_LOG("only `reference' may exclude");
	EXPECT_EQ(SAMPLES, valid);
	EXPECT_EQ(SAMPLES / STALL_EVERY, excl);
	EXPECT_EQ(SAMPLES - SAMPLES / STALL_EVERY, v);
#if defined(__x86_64__)
	ASSERT_TRUE(param("add_chain_min_milli", &v));
	EXPECT_EQ(KBENCH_INSNS_ADD_CHAIN * 1000, v);
	ASSERT_TRUE(param("add_chain_median_milli", &v));
	EXPECT_EQ(KBENCH_INSNS_ADD_CHAIN * 1000, v);
	ASSERT_TRUE(param("stall_ref_min_milli", &v));
	EXPECT_EQ(KBENCH_INSNS_ADD_CHAIN * 1000, v);
	ASSERT_TRUE(param("stall_ref_median_milli", &v));
	EXPECT_EQ(KBENCH_INSNS_ADD_CHAIN * 1000, v);
#endif
	ASSERT_TRUE(param("stall_ref_net_min", &v));
	expect_net(_metadata, "stall_ref net min", hz,
		   KBENCH_INSNS_ADD_CHAIN * ITERS, v);
	ASSERT_TRUE(param("stall_ref_net_median", &v));
	expect_net(_metadata, "stall_ref net median", hz,
		   KBENCH_INSNS_ADD_CHAIN * ITERS, v);
	ASSERT_TRUE(param("stall_ref_net_max", &v));
	expect_net(_metadata, "stall_ref net max", hz,
		   KBENCH_INSNS_ADD_CHAIN * ITERS, v);
	EXPECT_EQ(0, sh("rmmod " EXAMPLE));
}

/* kbench_measure()'s own checks: a bad request fails the module's init. */
TEST_F_TIMEOUT(kb, measure_bad_arguments, 60)
{
	char args[64];

	EXPECT_NE(0, load_example("samples=0", true));
	snprintf(args, sizeof(args), "iterations=%llu",
		 (unsigned long long)self->info.v[KBENCH_A_INFO_MAX_ITERATIONS] +
		 1);
	EXPECT_NE(0, load_example(args, true));
	EXPECT_NE(0, sh("grep -q '^" EXAMPLE " ' /proc/modules"));
}

/* SAMPLES_GET of one routine's series; returns how many samples. */
struct flags_dump {
	uint32_t flags[SAMPLES];
	int64_t net[SAMPLES];
	uint32_t n;
};

static int flags_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_SAMPLES_MAX + 1];
	struct flags_dump *d = arg;
	uint32_t idx = 1, count, i;
	const void *data;
	int len;

	data = knl_genl_attrs(nlh, &len);
	knl_parse(data, len, tb, KBENCH_A_SAMPLES_MAX);
	if (!knl_get_u32(tb[KBENCH_A_SAMPLES_ROUTINE], &idx) || idx ||
	    !tb[KBENCH_A_SAMPLES_NET] || !tb[KBENCH_A_SAMPLES_FLAGS])
		return 0;
	count = knl_len(tb[KBENCH_A_SAMPLES_FLAGS]) / 4;
	for (i = 0; i < count && d->n < SAMPLES; i++, d->n++) {
		memcpy(&d->flags[d->n],
		       (const char *)knl_data(tb[KBENCH_A_SAMPLES_FLAGS]) + 4 * i,
		       4);
		memcpy(&d->net[d->n],
		       (const char *)knl_data(tb[KBENCH_A_SAMPLES_NET]) + 8 * i,
		       8);
	}
	return 0;
}

TEST_F_TIMEOUT(kb, stall_ref_run, 180)
{
	uint64_t hz = self->info.v[KBENCH_A_INFO_COUNTER_HZ];
	struct kb_run_args a = {
		.routines = { "stall_ref" }, .nroutines = 1, .has_cpu = true,
		.cpu = 0, .samples = SAMPLES, .iterations = ITERS,
	};
	static struct flags_dump d;
	uint32_t i, o, nref, phase = STALL_EVERY;
	struct knl_result res;
	struct kb_run run;
	bool every;

	ASSERT_EQ(0, load_example("", false));
	ASSERT_EQ(0, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res))
		TH_LOG("RUN stall_ref: %s", res.msg);
	ASSERT_EQ(1, run.nresults);
	memset(&d, 0, sizeof(d));
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_SAMPLES_GET, KBENCH_GENL_VERSION);
	knl_put_u32(&self->req, KBENCH_A_SAMPLES_RUN_ID,
		    run.v[KBENCH_A_RUN_ID]);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, flags_cb, &d, &res));
	ASSERT_EQ(0, res.err) TH_LOG("SAMPLES_GET: %s", res.msg);
	sh("rmmod " EXAMPLE);
	ASSERT_EQ(SAMPLES, d.n);

	/* the stalled windows: one residue class mod 10, all flagged */
	for (o = 0; o < STALL_EVERY && phase == STALL_EVERY; o++) {
		every = true;
		for (i = o; i < SAMPLES; i += STALL_EVERY)
			every &= !!(d.flags[i] & KBENCH_SAMPLE_F_REFERENCE);
		if (every)
			phase = o;
	}
	EXPECT_NE(STALL_EVERY, phase) TH_LOG("no 1-in-10 run of reference flags");
	for (nref = 0, i = 0; i < SAMPLES; i++)
		nref += !!(d.flags[i] & KBENCH_SAMPLE_F_REFERENCE);
	EXPECT_EQ(nref, KB_RES(&run.result[0], EXCL_REFERENCE));
	if (!kb_icount())
		SKIP(return, "exact figures need --icount (kbench_icount=1)");
	/* under icount: exactly those, and every other sample exact */
	EXPECT_EQ(SAMPLES - KB_RES(&run.result[0], VALID),
		  KB_RES(&run.result[0], EXCL_REFERENCE))
		TH_LOG("only `reference' may exclude");
	EXPECT_EQ(SAMPLES / STALL_EVERY, nref);
	EXPECT_EQ(SAMPLES - SAMPLES / STALL_EVERY,
		  KB_RES(&run.result[0], VALID));
	for (i = 0; i < SAMPLES; i++)
		if (!d.flags[i])
			expect_net(_metadata, "stall_ref sample", hz,
				   KBENCH_INSNS_ADD_CHAIN * ITERS, d.net[i]);
	expect_net(_metadata, "stall_ref min", hz,
		   KBENCH_INSNS_ADD_CHAIN * ITERS,
		   KB_RES(&run.result[0], NET_MIN));
	expect_net(_metadata, "stall_ref median", hz,
		   KBENCH_INSNS_ADD_CHAIN * ITERS,
		   KB_RES(&run.result[0], NET_MEDIAN));
}

/*
 * Plain TCG is host time: the host preempts the virtual CPU, and a
 * sample whose reference span was stretched had a net too small, even
 * negative.  The reasonableness test excludes those (a span over twice
 * the shortest, or one whose excess is half the net): no minimum of 0 or
 * below where the median is above 0.  On x86_64 also none below half
 * the median where a sample spans 1000 ticks or more; arm64 and
 * ppc64le TCG run the same loop at speeds that vary more than 2x with
 * the host's load (min/median down to 56% on arm64 with every reference
 * span reasonable), so there the ratio is only reported.
 */
TEST_F_TIMEOUT(kb, plain_no_negative_min, 600)
{
	static const char *const routines[] = { "add_chain", "mul_chain" };
	struct kb_run_args a = {
		.nroutines = 1, .has_cpu = true, .cpu = 0, .samples = 1000,
	};
	long long min, med, excl, worst_min, worst_med, reduced;
	struct knl_result res;
	struct kb_run run;
	unsigned int r, k;

	if (kb_icount())
		SKIP(return, "plain TCG only (icount has no host noise)");
	for (k = 0; k < 2; k++) {
		a.routines[0] = routines[k];
		worst_min = 1;
		worst_med = 1;
		excl = 0;
		for (r = 0; r < PLAIN_RUNS; r++) {
			ASSERT_EQ(0, kb_run(&self->nl, &self->req,
					    self->fam.id, &a, &run, &res))
				TH_LOG("RUN %s: %s", routines[k], res.msg);
			min = KB_RES(&run.result[0], NET_MIN);
			med = KB_RES(&run.result[0], NET_MEDIAN);
			excl += KB_RES(&run.result[0], EXCL_REFERENCE);
			reduced = run.v[KBENCH_A_RUN_SAMPLES_REDUCED];
			EXPECT_GE(min, 0) TH_LOG("%s run %u: min %lld",
						 routines[k], r, min);
			/*
			 * A sample at a reduced N (windows over the bound
			 * shortened it, host stalls included) may span a
			 * few iterations, where TCG's counter steps (26
			 * ticks here) leave a net of 0: seen on the debug
			 * kernel beside other suites (min 0, median 70434,
			 * 1210 samples at a reduced N).  Never below 0.
			 */
			if (med > 0 && !reduced)
				EXPECT_GT(min, 0)
					TH_LOG("%s run %u: min %lld, median %lld",
					       routines[k], r, min, med);
#if defined(__x86_64__)
			/*
			 * Only where a sample spans many counter steps: a
			 * loaded host once stretched all of a probe step's
			 * windows and the probe stopped at a tiny N (median
			 * net 49 ticks, before the probe looked again), where
			 * one step of host noise is the whole loop.  Nor where
			 * windows ran at a reduced N: every window over the
			 * bound shortens adaptive N, whatever stretched it, and
			 * a sample at N / d is scaled by d, its host noise with
			 * it.  Reported either way.
			 */
			if (med >= 1000 && !reduced) {
				EXPECT_GE(2 * min, med)
					TH_LOG("%s run %u: min %lld, median %lld",
					       routines[k], r, min, med);
			} else {
				printf("# %s run %u: median net %lld ticks, %lld samples at a reduced N: the ratio only reported\n",
				       routines[k], r, med, reduced);
			}
#endif
			if (med > 0 && min * worst_med < worst_min * med) {
				worst_min = min;
				worst_med = med;
			}
		}
		printf("# %s: %d runs of 1000 samples: lowest min/median %lld/%lld (%lld%%),",
		       routines[k], PLAIN_RUNS, worst_min, worst_med,
		       worst_min * 100 / worst_med);
		printf(" %lld samples excluded by the reference test\n", excl);
	}
}

TEST_F_TIMEOUT(kb, user_clock_latency_ticks, 180)
{
	static const char *const clocks[] = {
		"CLOCK_MONOTONIC_RAW", "CLOCK_MONOTONIC", "CLOCK_REALTIME",
	};
	const char *ctl = kb_kbenchctl();
	static char out[1 << 17];
	/*
	 * The bug this guards against scaled the clock's nanoseconds by the
	 * counter's Hz (ticks == ns: a factor of 2.6 on x86, 16 on arm64).
	 * Under icount both sides advance with instructions and agree to
	 * rounding.  Under plain TCG the counter and the clock are two
	 * host-timed sources, and the counter's Hz is a calibration: CI saw
	 * CLOCK_REALTIME 2.2% away from ns x Hz there, and 11.5% on ppc64le
	 * with suites running side by side (the two latencies are measured
	 * at different moments of a loaded host).  50% still catches the
	 * bug: its smallest factor is 1 / 0.512 = 1.95 (ppc64le's timebase).
	 */
	double tol = kb_icount() ? 0.01 : 0.50;
	double cyc, ns, hz, want;
	char cmd[256], pat[64], *obj, *end;
	unsigned int i;

	if (access(ctl, X_OK))
		SKIP(return, "kbenchctl not found (%s)", ctl);
	snprintf(cmd, sizeof(cmd), "%s --json clocks --user", ctl);
	ASSERT_EQ(0, kb_cmd_output(cmd, out, sizeof(out)))
		TH_LOG("kbenchctl failed: %s", out);
	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		snprintf(pat, sizeof(pat), "\"%s\"", clocks[i]);
		obj = strstr(out, pat);
		ASSERT_NE(NULL, obj) TH_LOG("no %s in: %s", clocks[i], out);
		end = strchr(obj, '}');
		ASSERT_NE(NULL, end);
		ASSERT_TRUE(kb_json_number(obj, end, "latency_cycles", &cyc));
		ASSERT_TRUE(kb_json_number(obj, end, "latency_ns", &ns));
		ASSERT_TRUE(kb_json_number(obj, end, "counter_hz", &hz));
		want = ns * hz / 1e9;
		EXPECT_TRUE(cyc >= want * (1 - tol) && cyc <= want * (1 + tol))
			TH_LOG("%s: %.2f ticks, %.2f ns x %.0f Hz = %.2f ticks (tolerance %.0f%%)",
			       clocks[i], cyc, ns, hz, want, tol * 100);
	}
}

TEST_HARNESS_MAIN
