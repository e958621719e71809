// SPDX-License-Identifier: GPL-2.0
/*
 * user/diff.c: the verdicts of `kbenchctl diff` on synthetic samples,
 * --metric, and the bootstrap on large samples.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kbench.h>
#include <linux/perf_event.h>

#include <kbench/summary.h>

#include "b64.h"
#include "diff.h"
#include "diffprint.h"
#include "base.h"
#include "opts.h"
#include "output.h"
#include "resfile.h"
#include "runopts.h"
#include "stats.h"
#include "tap.h"
#include "tests.h"
#include "resfix.h"

static void load_run_events(struct kb_resfile *rf, const char *const *names,
			    const int64_t *per, unsigned int nres, uint64_t seed,
			    const char *arch, const int64_t *insns)
{
	struct kb_saved_run s;
	struct kb_meta m;
	struct kb_run r;
	char err[256], *buf;
	size_t len;

	make_meta(&m);
	snprintf(m.arch, sizeof(m.arch), "%s", arch);
	make_run(&r, nres, names, per, 200, 1000, seed);
	if (insns)
		add_events(&r, insns);
	kb_saved_run_init(&s, &r, NULL);
	buf = write_mem(&m, &s, 1, &len);
	if (parse(buf, len, rf, err, sizeof(err)))
		diag("%s", err);
	free(buf);
	kb_run_free(&r);
}

static void load_run(struct kb_resfile *rf, const char *const *names,
		     const int64_t *per, unsigned int nres, uint64_t seed,
		     const char *arch)
{
	load_run_events(rf, names, per, nres, seed, arch, NULL);
}

/* The --match row of the option table on @arg, quietly. */
static int match_row(struct kb_diff_opts *o, const char *arg)
{
	const struct kb_opt *row;
	int err, saved, null = open("/dev/null", O_WRONLY);

	for (row = kb_run_table; strcmp(row->name, "match"); row++)
		;
	fflush(stderr);
	saved = dup(2);
	dup2(null, 2);
	close(null);
	err = row->parse(row, arg, o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return err;
}

static void test_diff(void)
{
	static const char *const one[] = { "kbench_diff_test" };
	static const char *const two[] = { "kbench_diff_test", "foo" };
	static const char *const other[] = { "kbench_diff_test", "bar" };
	static const int64_t p7[] = { 7, 5 }, p8[] = { 8, 5 }, p6[] = { 6, 5 };
	struct kb_resfile a, b, c;
	struct kb_diff_opts o;
	char *t;
	int rc;

	kb_diff_opts_init(&o);
	load_run(&a, one, p7, 1, 2, "x86_64");
	load_run(&b, one, p8, 1, 4, "x86_64");
	rc = unit_diff_text(&a, &b, &o, false, &t);
	if (!ok(rc == 0 && strstr(t, "+14.29%") &&
		strstr(t, "regressed (single runs)") &&
		strstr(t, "+14.29% .. +14.29%") && strstr(t, "1 regressed") &&
		strstr(t, "1 change between single runs, not an exit 1: run-to-run noise unseen") &&
		strstr(t, "--trust-single"),
		"diff 7 -> 8 cycles/iter of single runs: +14.29%% regressed (single runs), exit 0, saying why and what would make it count"))
		diag("%s", t);
	free(t);
	o.bisect = true;
	rc = unit_diff_text(&a, &b, &o, true, &t);
	if (!ok(rc == 125 && strstr(t, "\"single_runs\": true") &&
		strstr(t, "\"single_run_changes\": 1") && strstr(t, "\"exit_status\": 125"),
		"--bisect: a change between single runs is 125 (git bisect's skip), in JSON too"))
		diag("%s", t);
	free(t);
	o.bisect = false;
	o.trust_single = true;
	rc = unit_diff_text(&a, &b, &o, false, &t);
	if (!ok(rc == 1 && strstr(t, "regressed") && !strstr(t, "between single runs"),
		"--trust-single: 7 -> 8 between single runs regressed, exit 1"))
		diag("%s", t);
	free(t);
	rc = unit_diff_text(&a, &a, &o, false, &t);
	ok(rc == 0 && strstr(t, "+0.00%") && strstr(t, "no change"),
	   "diff of a result with itself: no change, exit 0");
	free(t);
	rc = unit_diff_text(&b, &a, &o, false, &t);
	ok(rc == 0 && strstr(t, "-12.50%") && strstr(t, "improved"),
	   "diff 8 -> 7: -12.50%% improved, exit 0 (--fail-on regressed)");
	free(t);
	o.fail_on = KB_DIFF_FAIL_CHANGED;
	rc = unit_diff_text(&b, &a, &o, false, &t);
	ok(rc == 1, "--fail-on changed --trust-single: an improvement exits 1");
	free(t);
	o.fail_on = KB_DIFF_FAIL_REGRESSED;
	o.trust_single = false;
	o.threshold = 20;
	rc = unit_diff_text(&a, &b, &o, true, &t);
	ok(rc == 0 && strstr(t, "\"verdict\": \"no change\"") &&
	   strstr(t, "\"below_threshold\": true") &&
	   strstr(t, "\"exit_status\": 0"),
	   "--threshold 20: +14.29%% is below it: no change (JSON)");
	free(t);
	o.threshold = KB_DIFF_DEFAULT_THRESHOLD;
	kb_resfile_free(&b);

	/* noisy samples, the same distribution: no change */
	load_run(&b, one, p7, 1, 5, "x86_64");
	kb_resfile_free(&a);
	load_run(&a, one, p7, 1, 7, "x86_64");
	rc = unit_diff_text(&a, &b, &o, false, &t);
	ok(rc == 0 && strstr(t, "no change"), "two noisy samples of one distribution: no change");
	free(t);
	kb_resfile_free(&a);
	kb_resfile_free(&b);

	load_run(&a, two, p7, 2, 2, "x86_64");
	load_run(&b, other, p6, 2, 2, "aarch64");
	rc = unit_diff_text(&a, &b, &o, false, &t);
	if (!ok(rc == 0 && strstr(t, "only in old: foo") && strstr(t, "only in new: bar") &&
		strstr(t, "warning: architecture differs: x86_64, aarch64") &&
		strstr(t, "improved"),
		"routines on one side are listed; an architecture change is a warning"))
		diag("%s", t);
	free(t);
	o.full = true;
	rc = unit_diff_text(&a, &b, &o, false, &t);
	ok(strstr(t, "old: old.json (") && strstr(t, "      p  verdict\n") &&
	   strstr(t, "block-bootstrap CI of the median change and its p;"),
	   "-v: the files, the p column and the method of the verdict");
	free(t);
	o.full = false;
	ok(!match_row(&o, "foo=bar") && match_row(&o, "foo") == -EINVAL &&
	   match_row(&o, "=bar") == -EINVAL && match_row(&o, "a=b=c") == -EINVAL,
	   "--match: OLD=NEW, nothing else");
	rc = unit_diff_text(&a, &b, &o, true, &t);
	ok(strstr(t, "\"new_routine\": \"bar\"") && strstr(t, "\"only_old\": []"),
	   "--match foo=bar compares foo with bar");
	free(t);
	o.nmatch = 0;
	o.markdown = true;
	rc = unit_diff_text(&a, &b, &o, false, &t);
	ok(strstr(t, "| routine | old/iter | new/iter | change | 95% CI | p | verdict |") &&
	   strstr(t, "| `kbench_diff_test` | 7.000 ticks | 6.000 ticks | -14.29% | -14.29% .. -14.29% | < 0.001 | improved (single runs) |"),
	   "--markdown: a table to paste");
	free(t);
	o.markdown = false;
	load_run(&c, other + 1, p7, 1, 2, "x86_64");
	rc = unit_diff_text(&a, &c, &o, false, &t);
	ok(rc == 2, "nothing in common: exit 2");
	free(t);
	kb_resfile_free(&a);
	kb_resfile_free(&b);
	kb_resfile_free(&c);
}

/* diff --metric EVENT: the event's counts are compared, not the cycles. */
static void test_diff_metric(void)
{
	static const char *const one[] = { "foo" };
	static const int64_t p7[] = { 7 }, i6[] = { 6 }, i7[] = { 7 };
	struct kb_resfile a, b, c;
	struct kb_diff_opts o;
	char *t;
	int rc;

	kb_diff_opts_init(&o);
	load_run_events(&a, one, p7, 1, 2, "x86_64", i6);
	load_run_events(&b, one, p7, 1, 2, "x86_64", i7);
	load_run(&c, one, p7, 1, 2, "x86_64");
	rc = unit_diff_text(&a, &b, &o, false, &t);
	ok(rc == 0 && strstr(t, "no change"),
	   "--metric: without it the cycles are compared (the same: no change)");
	free(t);
	o.metric = "instructions";
	o.trust_single = true;
	rc = unit_diff_text(&a, &b, &o, false, &t);
	if (!ok(rc == 1 && strstr(t, "old instructions/iter") &&
		strstr(t, "6.000 ") && strstr(t, "+16.67%") &&
		strstr(t, "regressed"),
		"--metric instructions: 6 -> 7 instructions/iter regressed, exit 1"))
		diag("%s", t);
	free(t);
	rc = unit_diff_text(&a, &b, &o, true, &t);
	ok(strstr(t, "\"metric\": \"instructions\"") &&
	   strstr(t, "\"compared_in\": \"instructions\"") &&
	   strstr(t, "\"old_median_ns\": null"),
	   "--metric instructions --json: what was compared, no ns");
	free(t);
	rc = unit_diff_text(&a, &c, &o, false, &t);
	ok(rc == 0 && strstr(t, "the event was not counted in the new result") &&
	   strstr(t, "1 not compared"),
	   "--metric: a result without the event is not compared, and says why");
	free(t);
	o.metric = "branch-misses";
	rc = unit_diff_text(&a, &b, &o, false, &t);
	ok(rc == 0 && strstr(t, "the event was not counted in the old result"),
	   "--metric of an event neither counted: not compared");
	free(t);
	kb_resfile_free(&a);
	kb_resfile_free(&b);
	kb_resfile_free(&c);
}

void test_write_event_results(const char *old_path, const char *new_path)
{
	static const char *const one[] = { "foo" };
	static const int64_t p7[] = { 7 }, i6[] = { 6 }, i7[] = { 7 };
	const char *path[2] = { old_path, new_path };
	const int64_t *ins[2] = { i6, i7 };
	struct kb_saved_run s;
	struct kb_meta m;
	struct kb_run r;
	unsigned int i;
	FILE *f;

	make_meta(&m);
	for (i = 0; i < 2; i++) {
		make_run(&r, 1, one, p7, 200, 1000, 2);
		add_events(&r, ins[i]);
		kb_saved_run_init(&s, &r, NULL);
		f = fopen(path[i], "w");
		if (f) {
			kb_resfile_write(f, &m, &s, 1);
			fclose(f);
		}
		kb_run_free(&r);
	}
}

/* kb_run_use_metric(): the event takes the counter's place. */
static void test_use_metric(void)
{
	static const char *const one[] = { "foo" };
	static const int64_t p7[] = { 7 }, i6[] = { 6, 2 };
	struct kb_run r;
	size_t i;
	bool same = true;

	make_run(&r, 1, one, p7, 20, 100, 2);
	add_events(&r, i6);
	kb_run_use_metric(&r, "instructions");
	kb_run_analyze(&r);
	for (i = 0; i < r.res[0].n; i++)
		same &= r.res[0].net[i] == 600;
	ok(same && r.res[0].per_iter_median_milli == 6000 &&
	   r.res[0].st.median == 6 && !strcmp(kb_run_unit(&r), "instructions") &&
	   isnan(kb_run_ns(&r, 6)) && !r.nevents && !r.metric_missing,
	   "use_metric: the event's samples, summary and statistics in the counter's place; no ns");
	kb_run_free(&r);
	make_run(&r, 1, one, p7, 20, 100, 2);
	kb_run_use_metric(&r, "instructions");
	kb_run_analyze(&r);
	ok(r.metric_missing && !r.res[0].st.count,
	   "use_metric: a run without the event has no samples of it");
	kb_run_free(&r);
}

/* The O(1) order-statistic resample against the counting one. */
static void test_bootstrap_large(void)
{
	struct kb_rng rng;
	size_t n = KB_BOOTSTRAP_COUNTING_MAX, i;
	double *a = malloc((n + 1) * sizeof(*a)), *b = malloc((n + 1) * sizeof(*b));
	double lo1, hi1, lo2, hi2, u, p;

	kb_rng_seed(&rng, 99);
	for (i = 0; i <= n; i++) {
		a[i] = 100 + (double)kb_rng_below(&rng, 1000) / 100;
		b[i] = 101 + (double)kb_rng_below(&rng, 1000) / 100;
	}
	qsort(a, n + 1, sizeof(*a), kb_cmp_double);
	qsort(b, n + 1, sizeof(*b), kb_cmp_double);
	/* n values: counting method; n + 1: order statistics */
	kb_bootstrap_rel_median_ci(a, n, b, n, 2000, 1, &lo1, &hi1);
	kb_bootstrap_rel_median_ci(a, n + 1, b, n + 1, 2000, 1, &lo2, &hi2);
	u = (kb_median_sorted(b, n + 1) / kb_median_sorted(a, n + 1) - 1) * 100;
	ok(fabs(lo1 - lo2) < 0.05 && fabs(hi1 - hi2) < 0.05 && lo2 <= u && u <= hi2,
	   "bootstrap above %d values (order statistics) agrees with counting: %.3f..%.3f vs %.3f..%.3f",
	   KB_BOOTSTRAP_COUNTING_MAX, lo2, hi2, lo1, hi1);
	kb_mann_whitney_sorted(a, n, b, n, &u, &p);
	kb_mann_whitney_sorted(b, n, a, n, &lo1, &hi1);
	ok(close_to(u, (double)n * (double)n - lo1, 1e-12) && close_to(p, hi1, 1e-12),
	   "Mann-Whitney: the two sides swapped, U is na nb - U and p the same");
	free(a);
	free(b);
}

void test_diff_all(void)
{
	test_diff();
	test_diff_metric();
	test_use_metric();
	test_bootstrap_large();
}
