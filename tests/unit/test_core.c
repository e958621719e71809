// SPDX-License-Identifier: GPL-2.0
/*
 * --unit core (user/model/core.c): the calibration's request, its ratio
 * from known samples, the conversion, the saved "core" object and the
 * command line's refusals.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbench/bodies.h>

#include "core.h"
#include "coreprint.h"
#include "output.h"
#include "result.h"
#include "tap.h"
#include "tests.h"

static void test_request(void)
{
	struct kb_run_req q = { 0 }, cq;
	unsigned int slot[2];
	int err;

	q.names[0] = "add_chain";
	q.n = 1;
	err = kb_core_request("run", &q, &cq, slot);
	ok(!err && cq.n == 3 && !strcmp(cq.names[1], "core_cal") &&
	   !strcmp(cq.names[2], "add_n") && !cq.nargs && slot[0] == 1 &&
	   slot[1] == 2,
	   "core: no argument: core_cal and add_n (its default) appended");

	q.names[0] = "add_n";
	err = kb_core_request("run", &q, &cq, slot);
	ok(!err && cq.n == 2 && slot[0] == 1 && slot[1] == 0,
	   "core: add_n at its default is the long chain itself");

	q.names[1] = "memcpy";
	q.n = 2;
	q.nargs = 1;
	q.args[0] = 16;
	err = kb_core_request("run", &q, &cq, slot);
	ok(!err && cq.n == 4 && cq.nargs == 4 && cq.args[0] == 16 &&
	   cq.args[1] == 16 && cq.args[2] == KBENCH_CORE_LO_ADDS &&
	   cq.args[3] == KBENCH_CORE_HI_ADDS && slot[0] == 2 && slot[1] == 3,
	   "core: one argument for all becomes one per routine, add_n at both lengths appended");

	q.names[0] = "add_n";
	q.names[1] = "add_n";
	q.nargs = 2;
	q.args[0] = KBENCH_CORE_HI_ADDS;
	q.args[1] = 7;
	err = kb_core_request("compare", &q, &cq, slot);
	ok(!err && cq.n == 3 && slot[1] == 0 && slot[0] == 2 &&
	   cq.args[2] == KBENCH_CORE_LO_ADDS,
	   "core: a routine that is one of the chains is measured once");

	q.names[0] = "add_chain";
	q.names[1] = "mul_chain";
	q.names[2] = "load_l1";
	q.n = 3;
	q.nargs = 0;
	err = kb_core_request("run", &q, &cq, slot);
	ok(err == -EINVAL, "core: three routines and two chains do not fit in a run of %d",
	   KBENCH_RUN_ROUTINES_MAX);
}

/* @n samples of @ticks_per_iter x @iters each into @res. */
static void fill(struct kb_result *res, const char *name, size_t n,
		 int64_t net)
{
	size_t i;

	snprintf(res->routine, sizeof(res->routine), "%s", name);
	for (i = 0; i < n; i++)
		kb_result_push(res, net, 0);
	res->valid = (uint32_t)n;
}

static void test_extract(void)
{
	struct kb_run r;
	unsigned int slot[2] = { 1, 2 };
	size_t i;
	int err;

	/* under icount: LO + 2 and HI + 2 instructions an iteration, exactly */
	memset(&r, 0, sizeof(r));
	r.iterations = 1000;
	fill(&r.res[0], "add_chain", 100, 6000);
	fill(&r.res[1], "core_cal", 100, (KBENCH_CORE_LO_ADDS + 2) * 1000);
	fill(&r.res[2], "add_n", 100, (KBENCH_CORE_HI_ADDS + 2) * 1000);
	r.res[1].sflags[5] = KBENCH_SAMPLE_F_NMI;
	r.res[2].net[5] = 1;	/* flagged in its round's partner: unused */
	r.nres = 3;
	err = kb_core_extract(&r, slot, 1);
	ok(!err && r.core.have && r.core.ratio == 1.0 && r.core.ci_lo == 1.0 &&
	   r.core.ci_hi == 1.0 && r.core.rounds == 99 && r.nres == 1 &&
	   !r.res[1].net,
	   "core: chains of exact instruction counts give exactly 1 tick per add, CI [1, 1], 99 rounds (one flagged), the chains out of the run");
	kb_run_analyze(&r);
	kb_core_apply(&r);
	ok(r.core.on && r.res[0].st.median == 6.0 &&
	   !strcmp(kb_run_unit(&r), "core cycles"),
	   "core: at 1 tick a cycle the figures stay (6 core cycles), the unit says so");
	kb_run_free(&r);

	/* a counter at 3/4 of the core clock: ratio 0.75 */
	memset(&r, 0, sizeof(r));
	r.iterations = 4;
	r.counter_hz = 3000000000ULL;
	fill(&r.res[0], "mul_chain", 50, 36);	/* 9 ticks = 12 cycles */
	fill(&r.res[1], "core_cal", 50, KBENCH_CORE_LO_ADDS * 3);
	fill(&r.res[2], "add_n", 50, KBENCH_CORE_HI_ADDS * 3);
	r.nres = 3;
	err = kb_core_extract(&r, slot, 1);
	kb_run_analyze(&r);
	kb_core_apply(&r);
	kb_core_apply(&r);	/* once only */
	ok(!err && r.core.ratio == 0.75 && r.res[0].st.median == 12.0 &&
	   close_to(kb_run_ns(&r, 12.0), 3.0, 1e-12),
	   "core: 9 ticks at 0.75 ticks a cycle are 12 core cycles, still 3 ns");
	kb_run_free(&r);

	/*
	 * arm64 under icount: the long chain's window rounds to whole CNTVCT
	 * ticks, so a round is the ratio or one step (1 / (32 N)) over it,
	 * here in stretches of 9 (a phase that follows the code run before):
	 * the interval's end is the order-statistic one widened by the
	 * factor the run reports, exactly
	 */
	memset(&r, 0, sizeof(r));
	r.iterations = 1000;
	fill(&r.res[0], "core_cal", 100, 2187);
	fill(&r.res[1], "add_n", 100, 4187);
	for (i = 0; i < 100; i++)
		if ((i / 9) % 2)
			r.res[1].net[i]++;
	r.nres = 2;
	slot[0] = 0;
	slot[1] = 1;
	err = kb_core_extract(&r, slot, 0);
	ok(!err && r.core.ratio == 2000.0 / 32000 &&
	   r.core.ci_lo == r.core.ratio && r.core.ci_widen > 1 &&
	   close_to(r.core.ci_hi, r.core.ratio + r.core.ci_widen / 32000, 1e-15),
	   "core: rounds one step apart in stretches: CI [%.8f, %.8f] = the ratio and one step (1/32000) widened by the reported %.3f",
	   r.core.ci_lo, r.core.ci_hi, r.core.ci_widen);
	kb_run_free(&r);

	/* no round with both valid: refused, not a ratio from nothing */
	memset(&r, 0, sizeof(r));
	r.iterations = 1;
	fill(&r.res[0], "core_cal", 3, 32);
	fill(&r.res[1], "add_n", 3, 64);
	r.res[0].sflags[0] = r.res[0].sflags[1] = r.res[0].sflags[2] = 1;
	r.res[0].valid = 0;
	r.nres = 2;
	slot[0] = 0;
	slot[1] = 1;
	err = kb_core_extract(&r, slot, 0);
	ok(err == -ENODATA && !r.core.have,
	   "core: a calibration without a valid round gives no ratio");
	kb_run_free(&r);
}

/* With the PMU's cycles counted too: both figures and how far they agree. */
static void test_pmu_agreement(void)
{
	struct kb_run r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	unsigned int slot[2] = { 1, 2 };
	size_t i;

	memset(&r, 0, sizeof(r));
	r.iterations = 10;
	r.counter_hz = 1000000000ULL;
	snprintf(r.counter, sizeof(r.counter), "tsc");
	fill(&r.res[0], "mul_chain", 20, 60);		/* 6 ticks: 12 cycles */
	fill(&r.res[1], "core_cal", 20, KBENCH_CORE_LO_ADDS * 5);
	fill(&r.res[2], "add_n", 20, KBENCH_CORE_HI_ADDS * 5);
	r.nres = 3;
	r.nevents = 1;
	snprintf(r.events[0].name, sizeof(r.events[0].name), "cycles");
	r.events[0].type = PERF_TYPE_HARDWARE;
	r.events[0].config = PERF_COUNT_HW_CPU_CYCLES;
	for (i = 0; i < 20; i++)
		kb_result_push_event(&r.res[0], 0, 125);	/* 12.5 a iteration */
	kb_core_extract(&r, slot, 1);
	kb_run_analyze(&r);
	kb_core_apply(&r);
	f = open_memstream(&buf, &len);
	out_init(f, true);
	kb_core_print(&r);
	out_finish();
	fclose(f);
	out_init(stdout, false);
	ok(buf && strstr(buf, "\"ticks_per_cycle\": 0.5") &&
	   strstr(buf, "\"pmu_agreement\"") &&
	   strstr(buf, "\"calibrated_cycles\": 12") &&
	   strstr(buf, "\"pmu_cycles\": 12.5") && strstr(buf, "\"diff_pct\": -4"),
	   "core: with --events cycles, the calibrated and the PMU's figures side by side, -4%% apart");
	if (buf && !strstr(buf, "\"diff_pct\": -4"))
		diag("%s", buf);
	free(buf);
	kb_run_free(&r);
}

static void expect_cli(const char *args, int code, const char *needle)
{
	char cmd[1024], *out = NULL;
	int rc;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", kbenchctl_bin, args);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == code && strstr(out, needle), "kbenchctl %s -> exit %d, says: %s",
		args, code, needle))
		diag("exit %d:\n%s", rc, out);
	free(out);
}

static void test_core_cli(void)
{
	char path[] = "/tmp/kbench-core-XXXXXX.json", cmd[2048], *out = NULL;
	int fd, rc;

	expect_cli("run add_chain mul_chain load_l1 --user --unit core", 2,
		   "kbenchctl run: --unit core measures its calibration (2 chains of adds) in the run: at most 2 routines besides it");
	expect_cli("compare add_chain --kernel-vs-user --unit core", 2,
		   "--unit core calibrates within one run on one CPU: not with --kernel-vs-user");
	expect_cli("run add_chain --user --unit core --precision 5", 2,
		   "--unit core calibrates within one run on one CPU");
	expect_cli("run add_chain --user --unit cycles", 2,
		   "kbenchctl run: --unit cycles: want ticks or core");

	/* a run in core cycles saves its calibration and loads it back */
	fd = mkstemps(path, 5);
	if (fd >= 0)
		close(fd);
	snprintf(cmd, sizeof(cmd),
		 "%s --json run add_chain --user --unit core --samples 200 --save %s 2>/dev/null | grep -c -e '\"unit\": \"core cycles\"' -e '\"ticks_per_cycle\"'",
		 kbenchctl_bin, path);
	rc = unit_cmd_out(cmd, &out);
	ok(rc == 0 && atoi(out) == 2,
	   "core: --json names the unit and the calibration's ratio");
	free(out);
	snprintf(cmd, sizeof(cmd),
		 "grep -c -e '\"ticks_per_cycle\"' -e '\"ticks_per_cycle_ci95_widening\"' -e '\"lo_adds\": %d' -e '\"hi_adds\": %d' %s && %s diff --check %s",
		 KBENCH_CORE_LO_ADDS, KBENCH_CORE_HI_ADDS, path, kbenchctl_bin,
		 path);
	rc = unit_cmd_out(cmd, &out);
	ok(rc == 0 && atoi(out) == 4 && strstr(out, ": ok, 1 run"),
	   "core: the saved result carries \"core\" (ratio, its interval's widening, chains) and loads");
	free(out);
	/* diff: both with a calibration compare core cycles; one: ticks */
	snprintf(cmd, sizeof(cmd),
		 "%s run add_chain --user --unit core --samples 100 --save %s.b >/dev/null 2>&1 && %s run add_chain --user --samples 100 --save %s.t >/dev/null 2>&1 && %s diff %s %s.b -v 2>&1 | grep -c 'both results carry a core-cycle calibration (--unit core): comparing core cycles' && %s diff %s.t %s -v 2>&1 | grep -c 'only the new result carries a core-cycle calibration: comparing counter ticks'",
		 kbenchctl_bin, path, kbenchctl_bin, path, kbenchctl_bin, path,
		 path, kbenchctl_bin, path, path);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == 0 && !strcmp(out, "1\n1\n"),
		"core: diff compares core cycles when both results carry the calibration, else ticks, and says which"))
		diag("exit %d: %s", rc, out);
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -f %s.b %s.t", path, path);
	rc = unit_cmd_out(cmd, &out);
	free(out);
	/* a "core" that is no calibration is refused by name */
	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/\"ticks_per_cycle\": [0-9.e+-]*/\"ticks_per_cycle\": 0/' %s && %s diff --check %s 2>&1",
		 path, kbenchctl_bin, path);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == 2 && strstr(out, "runs[0].core: not a calibration"),
		"core: a saved ratio of 0 is refused, naming runs[0].core"))
		diag("exit %d: %s", rc, out);
	free(out);
	unlink(path);
}

void test_core(void)
{
	test_request();
	test_extract();
	test_pmu_agreement();
	test_core_cli();
}
