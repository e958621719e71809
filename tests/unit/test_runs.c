// SPDX-License-Identifier: GPL-2.0
/*
 * Replicated runs (run --runs R, model/replic.c, results/diff.c): the t
 * distribution, the interval over runs on synthetic saved files with a
 * known between-run spread (seeded, deterministic: no timing is asserted
 * anywhere), files of one run as before, files of today's format, and
 * what a reader that does not know "replicate" makes of a replicated file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "diffprint.h"
#include "output.h"
#include "replic.h"
#include "resfile.h"
#include "stats.h"
#include "tap.h"
#include "tests.h"
#include "resfix.h"

/* A standard normal draw (Box-Muller) from @rng. */
static double normal(struct kb_rng *rng)
{
	double u = ((double)(kb_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(kb_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * A file of @r replicated runs (replicate keys; none when @r is 1) of
 * routine "foo", 200 samples of 1000 iterations each: per iteration
 * @per_iter x exp(N(0, @between)) per run (the run's effect) x (1 +
 * N(0, @within)) per sample, written and parsed back through the format.
 */
static void make_reps(struct kb_resfile *rf, unsigned int r, double per_iter,
		      double between, double within, uint64_t seed,
		      bool replicate_keys)
{
	static const char *const names[] = { "foo" };
	static const int64_t one[] = { 1 };
	struct kb_saved_run *s = calloc(r, sizeof(*s));
	struct kb_run *runs = calloc(r, sizeof(*runs));
	struct kb_rng rng;
	struct kb_meta m;
	char err[256], *buf;
	unsigned int i;
	size_t len, k;

	make_meta(&m);
	kb_rng_seed(&rng, seed * 7919 + 17);
	for (i = 0; i < r; i++) {
		struct kb_result *res;
		double eff = per_iter * exp(between * normal(&rng));

		make_run(&runs[i], 1, names, one, 200, 1000, 2);
		res = &runs[i].res[0];
		for (k = 0; k < res->n; k++)
			res->net[k] = llround(eff * (1 + within * normal(&rng)) *
					      1000);
		kb_result_summarize(res, 1000);
		kb_saved_run_init(&s[i], &runs[i], NULL);
		s[i].has_replicate = replicate_keys && r > 1;
		s[i].replicate = i;
	}
	buf = write_mem(&m, s, r, &len);
	if (parse(buf, len, rf, err, sizeof(err)))
		diag("%s", err);
	free(buf);
	for (i = 0; i < r; i++)
		kb_run_free(&runs[i]);
	free(runs);
	free(s);
}

/* The diff of @a and @b: its first row's verdict, the row itself. */
static int diff_verdict(struct kb_resfile *a, struct kb_resfile *b,
			const struct kb_diff_opts *o, struct kb_diff_row *row)
{
	struct kb_diff d;
	int v = -1;

	if (kb_diff_compute(&d, "old.json", a, "new.json", b, o) || !d.nrows) {
		kb_diff_free(&d);
		return -1;
	}
	v = d.rows[0].verdict;
	if (row)
		*row = d.rows[0];
	kb_diff_free(&d);
	return v;
}

static void test_t_distribution(void)
{
	/*
	 * the tables' t(0.975, 4) 2.776, t(0.975, 8) 2.306, t(0.8, 8) 0.889;
	 * the CDFs by Simpson's rule on the density (200000 intervals, in
	 * Python), and the quantiles checked the same way
	 */
	ok(close_to(kb_t_quantile(0.975, 4), 2.776445105198, 1e-9) &&
	   close_to(kb_t_quantile(0.975, 8), 2.306004135204, 1e-9) &&
	   close_to(kb_t_quantile(0.8, 8), 0.888889517767, 1e-9) &&
	   close_to(kb_t_quantile(0.025, 3.5), -2.940088637983, 1e-9) &&
	   close_to(kb_t_cdf(2.0, 10), 0.9633059826146273, 1e-9) &&
	   close_to(kb_t_cdf(-1.0, 2.5), 0.20203051363913893, 1e-9),
	   "Student's t: quantiles and CDF as the tables and a numerical integration (df 2.5 to 10)");
}

/*
 * The interval over runs on exact values: three runs a side of 100 and
 * 101, 102, 103 against 110, 111, 112: the change and its Welch t bounds
 * by hand.
 */
static void test_interval_exact(void)
{
	static const double a[] = { 100, 101, 102 }, b[] = { 110, 111, 112 };
	static const double c[] = { 7, 7, 7 }, e[] = { 8, 8, 8 };
	struct kb_runs_ci ci = { .threshold_pct = 0 };
	double la = (log(100) + log(101) + log(102)) / 3;
	double lb = (log(110) + log(111) + log(112)) / 3, va = 0, vb = 0, se;
	unsigned int i;
	int rc;

	for (i = 0; i < 3; i++) {
		va += (log(a[i]) - la) * (log(a[i]) - la) / 2;
		vb += (log(b[i]) - lb) * (log(b[i]) - lb) / 2;
	}
	se = sqrt(va / 3 + vb / 3);
	rc = kb_runs_interval(a, 3, b, 3, &ci);
	ok(!rc &&
	   close_to(ci.est_pct, expm1(lb - la) * 100, 1e-12) &&
	   close_to(ci.se, se, 1e-12) &&
	   close_to(ci.lo_pct, expm1(lb - la - kb_t_quantile(0.975, ci.df) * se) * 100, 1e-9) &&
	   ci.df > 3.9 && ci.df <= 4 && ci.p < 0.05 &&
	   close_to(ci.spread_a_pct, sqrt(va) * 100, 1e-12),
	   "interval over runs: Welch t of the mean log medians (est %.3f%%, %.3f..%.3f, df %.2f)",
	   ci.est_pct, ci.lo_pct, ci.hi_pct, ci.df);
	ok(!kb_runs_interval(c, 3, e, 3, &ci) && ci.lo_pct == ci.hi_pct &&
	   close_to(ci.est_pct, 100.0 / 7, 1e-12) && ci.p == 0 &&
	   ci.spread_pct == 0,
	   "runs that agree exactly (icount): +14.29%%, an interval of width 0, p 0");
	ok(kb_runs_interval(a, 2, b, 1, &ci) == -EINVAL &&
	   kb_runs_interval(c, 3, (const double[]){ 8, 0, 8 }, 3, &ci) == -EINVAL,
	   "interval over runs: fewer than 2 runs or a median of 0 is refused");
	/* paired runs (compare --runs): a one-sample t over ln(b / a) */
	{
		static const double pa[] = { 100, 104, 98 }, pb[] = { 101, 105.04, 98.98 };
		struct kb_runs_ci pc = { .threshold_pct = 0 };

		rc = kb_runs_paired(pa, pb, 3, &pc);
		ok(!rc && close_to(pc.est_pct, 1.0, 1e-9) && pc.df == 2 &&
		   pc.spread_pct < 1e-9 && pc.lo_pct > 0.999 && pc.hi_pct < 1.001 &&
		   pc.spread_a_pct > 2,
		   "paired runs: a change of +1%% in every run is +1%% with no spread of the change, whatever the runs' own spread (%.2f%%)",
		   pc.spread_a_pct);
	}
	/* p tests what the interval decides, at a threshold */
	ci.threshold_pct = 9;
	kb_runs_interval(a, 3, b, 3, &ci);
	ok((ci.p <= 0.05) == (ci.lo_pct > 9 || ci.hi_pct < -9),
	   "p <= 0.05 exactly when the interval clears the threshold (p %.4f, %.2f..%.2f, T 9%%)",
	   ci.p, ci.lo_pct, ci.hi_pct);
}

/*
 * Synthetic saved files, 5 runs each, between-run spread 0.25% and 1%
 * within-run noise: A/A at --threshold 0 changed in at most 1 of 20 seeds;
 * +1% regressed in at least 18 of 20 at --threshold 0.  At the default
 * threshold (2%, declared) and 0.5% between runs, decided by the estimate
 * rule (significant, the estimate beyond 2%): A/A "no change" (the whole
 * interval inside +-2%) in at least 18 of 20 (20 of 20, 100 of 100); +3%
 * regressed in at least 18 of 20 at 5 runs a side (20 of 20, 100 of 100;
 * the whole-interval rule called it in 15 of 20) and at 8 runs a side;
 * +1% (under the threshold) never regressed, +1.5% in 14 of 100 (at most
 * 15: the estimate's noise across 2%, the price of the rule; the whole
 * interval never called it).  Seeds 1-20 as before, 21-100 more.
 */
static void test_synthetic(void)
{
	struct kb_diff_opts o0, od;
	struct kb_diff_row row;
	unsigned int s, aa = 0, up0 = 0, aad = 0, up3 = 0, up3r8 = 0, repl = 0;
	unsigned int aad100 = 0, up3_100 = 0, up1_100 = 0, up15_100 = 0;
	unsigned int up3_est = 0, up3_whole = 0;
	double spread = 0;

	kb_diff_opts_init(&o0);
	o0.threshold = 0;
	o0.has_threshold = true;
	kb_diff_opts_init(&od);
	for (s = 1; s <= 100; s++) {
		struct kb_resfile a, b, c;
		int v;

		if (s <= 20) {
			make_reps(&a, 5, 100, 0.0025, 0.01, 2 * s, true);
			make_reps(&b, 5, 100, 0.0025, 0.01, 2 * s + 1, true);
			make_reps(&c, 5, 101, 0.0025, 0.01, 2 * s + 1, true);
			v = diff_verdict(&a, &b, &o0, &row);
			aa += v == KB_ROW_REGRESSED || v == KB_ROW_IMPROVED;
			repl += row.replicated && row.c.runs_a == 5 &&
				row.c.runs_b == 5;
			spread += row.c.spread_pct / 20;
			up0 += diff_verdict(&a, &c, &o0, NULL) == KB_ROW_REGRESSED;
			kb_resfile_free(&a);
			kb_resfile_free(&b);
			kb_resfile_free(&c);
		}
		make_reps(&a, 5, 100, 0.005, 0.01, 100 + 2 * s, true);
		make_reps(&b, 5, 100, 0.005, 0.01, 101 + 2 * s, true);
		make_reps(&c, 5, 103, 0.005, 0.01, 101 + 2 * s, true);
		v = diff_verdict(&a, &b, &od, &row);
		aad100 += v == KB_ROW_NO_CHANGE && !row.c.inconclusive;
		aad += s <= 20 && v == KB_ROW_NO_CHANGE && !row.c.inconclusive;
		v = diff_verdict(&a, &c, &od, &row);
		up3_100 += v == KB_ROW_REGRESSED;
		up3 += s <= 20 && v == KB_ROW_REGRESSED;
		up3_est += v == KB_ROW_REGRESSED && row.c.by_estimate;
		up3_whole += row.c.ci_lo_pct > 2;
		kb_resfile_free(&b);
		kb_resfile_free(&c);
		make_reps(&b, 5, 101, 0.005, 0.01, 101 + 2 * s, true);
		make_reps(&c, 5, 101.5, 0.005, 0.01, 101 + 2 * s, true);
		up1_100 += diff_verdict(&a, &b, &od, NULL) == KB_ROW_REGRESSED;
		up15_100 += diff_verdict(&a, &c, &od, NULL) == KB_ROW_REGRESSED;
		kb_resfile_free(&a);
		kb_resfile_free(&b);
		kb_resfile_free(&c);
		if (s > 20)
			continue;
		make_reps(&a, 8, 100, 0.005, 0.01, 300 + 2 * s, true);
		make_reps(&c, 8, 103, 0.005, 0.01, 301 + 2 * s, true);
		up3r8 += diff_verdict(&a, &c, &od, NULL) == KB_ROW_REGRESSED;
		kb_resfile_free(&a);
		kb_resfile_free(&c);
	}
	ok(repl == 20, "5 runs a side: compared between runs in %u of 20", repl);
	ok(spread > 0.15 && spread < 0.4,
	   "between-run spread measured %.3f%% on average (drawn 0.25%%, plus each run's median error)",
	   spread);
	ok(aa <= 1, "A/A, 5 runs a side, spread 0.25%%, --threshold 0: changed in %u of 20 seeds (at most 1)",
	   aa);
	ok(up0 >= 18, "+1%%, 5 runs a side, --threshold 0: regressed in %u of 20 seeds (at least 18)",
	   up0);
	ok(aad >= 18 && aad100 >= 95,
	   "A/A, 5 runs a side, 0.5%% between runs, default threshold (2%%): no change in %u of 20 seeds (at least 18), %u of 100 (at least 95)",
	   aad, aad100);
	ok(up3 >= 18 && up3_100 >= 95,
	   "+3%%, 5 runs a side, 0.5%% between runs, default threshold: regressed in %u of 20 seeds (at least 18), %u of 100 (at least 95; %u by the estimate with the interval reaching inside 2%%, the whole interval beyond 2%% in %u)",
	   up3, up3_100, up3_est, up3_whole);
	ok(up3r8 >= 18, "+3%%, 8 runs a side, 0.5%% between runs, default threshold: regressed in %u of 20 seeds (at least 18)",
	   up3r8);
	ok(up1_100 == 0 && up15_100 <= 15,
	   "under the threshold, 5 runs a side: +1%% regressed in %u of 100 (never), +1.5%% in %u of 100 (at most 15: the price of the estimate rule)",
	   up1_100, up15_100);
}

/* The estimate rule by hand (stats.h, kb_compare_decide_estimate()). */
static void test_estimate_rule(void)
{
	static const struct {
		double est, lo, hi;
		enum kb_verdict v;
		bool inconclusive, by_estimate;
	} cases[] = {
		{ 3.0, 2.3, 3.7, KB_VERDICT_SLOWER, false, false },
		{ 3.0, 1.5, 4.5, KB_VERDICT_SLOWER, false, true },
		{ -3.0, -4.5, -1.5, KB_VERDICT_FASTER, false, true },
		{ 3.0, -0.5, 6.5, KB_VERDICT_EQUAL, true, false },
		{ 1.5, 0.5, 2.5, KB_VERDICT_EQUAL, true, false },
		{ 0.5, -0.9, 1.9, KB_VERDICT_EQUAL, false, false },
	};
	unsigned int i, good = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kb_compare c = { .threshold_pct = 2,
					.rel_median_pct = cases[i].est,
					.ci_lo_pct = cases[i].lo,
					.ci_hi_pct = cases[i].hi };

		kb_compare_decide_estimate(&c);
		if (c.verdict == cases[i].v && c.estimate_rule &&
		    c.inconclusive == cases[i].inconclusive &&
		    c.by_estimate == cases[i].by_estimate)
			good++;
		else
			diag("case %u: verdict %d inconclusive %d by_estimate %d",
			     i, c.verdict, c.inconclusive, c.by_estimate);
	}
	ok(good == i, "estimate rule at 2%%: significant and beyond by the estimate is called, said so when the CI reaches inside; not significant, or within but reaching across, inconclusive; the whole CI inside, no change (%u of %u)",
	   good, i);
	{
		struct kb_compare c = { .threshold_pct = 0, .rel_median_pct = 0.4,
					.ci_lo_pct = 0.1, .ci_hi_pct = 0.7 };
		struct kb_compare d = c;

		kb_compare_decide_estimate(&c);
		kb_compare_decide(&d);
		ok(c.verdict == d.verdict && c.verdict == KB_VERDICT_SLOWER &&
		   !c.by_estimate,
		   "estimate rule at threshold 0: decides as the whole-CI rule");
	}
}

/* What the reports say, and files of one run, mixed, and old readers. */
static void test_reports(void)
{
	struct kb_resfile a, b, one1, one2, flat;
	struct kb_diff_opts o;
	struct kb_diff_row row;
	char *t, path[512], err[512];
	int rc;

	kb_diff_opts_init(&o);
	make_reps(&a, 5, 100, 0.0025, 0.01, 3, true);
	make_reps(&b, 5, 104, 0.0025, 0.01, 4, true);
	rc = unit_diff_text(&a, &b, &o, false, &t);
	if (!ok(rc == 1 && strstr(t, "foo: 5 and 5 runs, between-run spread ") &&
		strstr(t, "threshold 2.00%; these runs resolve a change of ") &&
		strstr(t, "regressed") && !strstr(t, "single runs") &&
		strstr(t, "(noise threshold 2%, 95% t interval over the runs)"),
		"diff of replicated files, +4%%: the spread between runs stated as what the runs resolve, the declared threshold 2%%, regressed, exit 1"))
		diag("%s", t);
	if (!ok(strstr(t, "\n  regressed +") &&
		strstr(t, "%, significant; beyond the 2% threshold "),
		"replicated: a line says why the call (significant, beyond the threshold by the whole interval or by its estimate)"))
		diag("%s", t);
	free(t);
	rc = unit_diff_text(&a, &b, &o, true, &t);
	ok(strstr(t, "\"old_runs\": 5") && strstr(t, "\"between_run_spread_pct\": 0.") &&
	   strstr(t, "\"threshold_is_spread\": false") &&
	   strstr(t, "\"threshold_pct\": 2") &&
	   strstr(t, "\"resolvable_change_pct\": ") &&
	   !strstr(t, "\"resolvable_change_pct\": null") &&
	   strstr(t, "\"verdict_basis\": \"Welch t interval over the runs") &&
	   strstr(t, "\"decision_rule\": \"significant, estimate beyond the threshold\"") &&
	   strstr(t, "\"called_by_estimate\": "),
	   "JSON: old_runs, between_run_spread_pct, threshold_is_spread false, resolvable_change_pct, the basis, the decision rule");
	free(t);
	/* at threshold 0 a CI that holds 0 is "no significant difference" */
	o.threshold = 0;
	o.has_threshold = true;
	rc = unit_diff_text(&a, &a, &o, false, &t);
	ok(rc == 0 && strstr(t, "no significant difference") && !strstr(t, "no change  ") ,
	   "--threshold 0, the same runs: 'no significant difference' (text)");
	free(t);
	rc = unit_diff_text(&a, &a, &o, true, &t);
	ok(rc == 0 && strstr(t, "\"verdict\": \"no significant difference\""),
	   "--threshold 0: 'no significant difference' (JSON)");
	free(t);
	kb_diff_opts_init(&o);
	/* a small change at a large spread: inconclusive, what would resolve it */
	kb_resfile_free(&b);
	make_reps(&b, 3, 100.8, 0.01, 0.01, 5, true);
	kb_resfile_free(&a);
	make_reps(&a, 3, 100, 0.01, 0.01, 6, true);
	o.threshold = 0.5;
	o.has_threshold = true;
	rc = diff_verdict(&a, &b, &o, &row);
	rc = unit_diff_text(&a, &b, &o, false, &t);
	if (!ok(row.c.inconclusive && isfinite(row.resolvable_pct) &&
		row.resolvable_pct > 0.5 &&
		strstr(t, "; these runs resolve a change of "),
		"inconclusive between runs: the smallest change they resolve is stated (%.2f%%)",
		row.resolvable_pct))
		diag("%s", t);
	free(t);
	kb_diff_opts_init(&o);

	/* files of one run: as before */
	make_reps(&one1, 1, 100, 0.0025, 0.01, 7, true);
	make_reps(&one2, 1, 100, 0.0025, 0.01, 8, true);
	rc = diff_verdict(&one1, &one2, &o, &row);
	ok(rc == KB_ROW_NO_CHANGE && !row.replicated && row.c.runs_a == 1 &&
	   isnan(row.c.spread_pct) &&
	   !strcmp(row.c.basis, "block bootstrap within each run"),
	   "files of one run: the block bootstrap within each, no spread (null)");
	rc = unit_diff_text(&one1, &one2, &o, false, &t);
	ok(rc == 0 && strstr(t, "run-to-run noise unseen (--runs 3 or more on each side measures it)"),
	   "files of one run: says that run-to-run noise is unseen");
	free(t);
	rc = unit_diff_text(&one1, &one2, &o, true, &t);
	ok(strstr(t, "\"decision_rule\": \"whole CI beyond the threshold\"") &&
	   strstr(t, "\"called_by_estimate\": false"),
	   "files of one run: decided by the whole interval (JSON decision_rule)");
	free(t);
	/* 3 runs against 1: a prediction interval over the 3 */
	rc = unit_diff_text(&a, &one1, &o, false, &t);
	if (!ok(strstr(t, "foo: 3 and 1 runs, between-run spread ") &&
		strstr(t, "(one side a single run: a prediction interval)"),
		"3 runs against 1: all runs used, a prediction interval, said so"))
		diag("%s", t);
	free(t);
	diff_verdict(&a, &one1, &o, &row);
	ok(row.replicated && row.predicted && row.c.runs_a == 3 && row.c.runs_b == 1 &&
	   row.df == 2 && isfinite(row.c.spread_pct),
	   "3 runs against 1: old_runs 3, new_runs 1, 2 degrees of freedom, the old side's spread");
	{
		static const double m[] = { 100, 101, 102 };
		struct kb_runs_ci ci = { .threshold_pct = 0 };
		double mean = (log(100) + log(101) + log(102)) / 3, v = 0;
		unsigned int i;

		for (i = 0; i < 3; i++)
			v += (log(m[i]) - mean) * (log(m[i]) - mean) / 2;
		ok(!kb_runs_predict(m, 3, 105, true, &ci) &&
		   close_to(ci.se, sqrt(v * (1 + 1.0 / 3)), 1e-12) && ci.df == 2 &&
		   close_to(ci.est_pct, expm1(log(105) - mean) * 100, 1e-9) &&
		   close_to(ci.hi_pct, expm1(log(105) - mean + kb_t_quantile(0.975, 2) * ci.se) * 100, 1e-9),
		   "prediction interval by hand: 105 against 100, 101, 102: se s sqrt(1 + 1/3), t(2)");
	}
	/* 2 runs a side: both used, Welch over 2 and 2 */
	{
		struct kb_resfile t2a, t2b;

		make_reps(&t2a, 2, 100, 0.0025, 0.01, 11, true);
		make_reps(&t2b, 2, 100, 0.0025, 0.01, 12, true);
		diff_verdict(&t2a, &t2b, &o, &row);
		ok(row.replicated && !row.predicted && row.c.runs_a == 2 &&
		   row.c.runs_b == 2,
		   "2 runs a side: both runs of each used (Welch t over 2 and 2)");
		kb_resfile_free(&t2a);
		kb_resfile_free(&t2b);
	}
	/*
	 * A reader that does not know "replicate" (kbenchctl before it) sees
	 * R runs of the same routine: it compares the first and notes the
	 * others, as for any routine twice in a file
	 */
	make_reps(&flat, 3, 100, 0.01, 0.01, 6, false);
	o.full = true;
	rc = unit_diff_text(&flat, &b, &o, false, &t);
	if (!ok(strstr(t, "note: foo appears more than once in old.json: compared the first") &&
		strstr(t, "3 runs in old") == NULL,
		"replicated runs without their key (a reader that ignores it): the first run compared, the rest noted"))
		diag("%s", t);
	free(t);
	kb_resfile_free(&flat);
	kb_resfile_free(&a);
	kb_resfile_free(&b);
	kb_resfile_free(&one1);
	kb_resfile_free(&one2);

	/* today's format, written by kbenchctl before --runs */
	snprintf(path, sizeof(path), "%s/result-v2.json", fixtures_dir);
	rc = kb_resfile_load(path, &a, err, sizeof(err));
	if (!ok(rc == 0 && a.nruns == 1 && !a.runs[0].has_replicate &&
		a.runs[0].run.nres == 1 && a.runs[0].run.res[0].n == 40,
		"result-v2.json (written before --runs): loads, 1 run, 40 samples"))
		diag("%s", err);
	if (!rc) {
		rc = unit_diff_text(&a, &a, &o, false, &t);
		ok(rc == 0 && strstr(t, "+0.00%") && strstr(t, "no change"),
		   "result-v2.json against itself: +0.00%%, no change");
		free(t);
		kb_resfile_free(&a);
	}
}

void test_runs(void)
{
	test_t_distribution();
	test_interval_exact();
	test_synthetic();
	test_estimate_rule();
	test_reports();
}
