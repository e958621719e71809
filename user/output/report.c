// SPDX-License-Identifier: GPL-2.0
/*
 * The default report: per routine the median per iteration with its 95%
 * CI, the minimum, the figure corrected by the empty loop, what was
 * excluded and why, and the verdict; a few lines in all.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kbench.h>

#include "blockboot.h"
#include "color.h"
#include "base.h"
#include "names.h"
#include "output.h"
#include "asmprint.h"
#include "coreprint.h"
#include "report.h"
#include "runprint.h"
#include "until.h"
#include "verdict.h"

#define LABEL	"  %-10s "	/* the label column of a routine's lines */

void kb_rate_text(uint64_t hz, char *buf, size_t len)
{
	if (hz >= 1000000000)
		snprintf(buf, len, "%.3f GHz", (double)hz / 1e9);
	else if (hz >= 1000000)
		snprintf(buf, len, "%.3f MHz", (double)hz / 1e6);
	else
		snprintf(buf, len, "%llu Hz", (unsigned long long)hz);
}

void kb_report_header(const struct kb_run *r, const char *what)
{
	char rate[32];

	kb_rate_text(r->counter_hz, rate, sizeof(rate));
	if (what)
		out_text("%s", what);
	else if (r->user)
		out_text("userspace twins");
	else
		out_text("run %u", r->run_id);
	/* the counter and its rate once: the figures below are its ticks */
	out_text(" on cpu %u: %u samples x %u iterations%s, %s%s at %s\n",
		 r->cpu, r->samples, r->iterations,
		 r->adaptive ? " (adaptive)" : "",
		 r->metric[0] ? "" : "ticks of ", r->counter, rate);
	/* text only: JSON has "partial" from kb_run_print_header() */
	if (!out_json())
		kb_run_print_partial(r);
	kb_report_n_adapted(r);
	if (r->until)
		kb_until_print(r->until, r);
	kb_core_print(r);
	kb_asm_print(r);
}

/* "ticks/iter" and ns/iter of one figure, aligned (an event: no ns) */
static void figure(const struct kb_run *r, const char *label, double v)
{
	const char *per = r->per_copy ? "copy" : "iter";

	if (r->metric[0])
		out_text(LABEL "%9.3f %s/%s", label, v, kb_run_unit(r), per);
	else
		out_text(LABEL "%9.3f %s/%s %9.3f ns/%s", label, v,
			 kb_run_unit(r), per, kb_run_ns(r, v), per);
}

/*
 * The events of @res in a line: each one's median per iteration (the
 * userspace statistics, else the kernel's lower median), then IPC and
 * the effective frequency where instructions and cycles were counted.
 */
static void events_lines(const struct kb_run *r, const struct kb_result *res)
{
	struct kb_derived d;
	unsigned int x;
	char rate[32];

	if (!r->nevents)
		return;
	out_text(LABEL, "events");
	for (x = 0; x < r->nevents; x++) {
		const struct kb_ev_result *ev = &res->ev[x];
		double med = ev->have_stats && ev->st.count ? ev->st.median :
			     (double)ev->per_iter_median_milli / 1000;

		out_text("%s%s %.3f/iter", x ? ", " : "", r->events[x].name,
			 med);
	}
	out_text(" (medians)\n");
	kb_result_derived(r, res, &d);
	if (isnan(d.ipc) && isnan(d.hz))
		return;
	out_text(LABEL, "derived");
	if (!isnan(d.ipc))
		out_text("IPC %.3f", d.ipc);
	if (!isnan(d.hz)) {
		kb_rate_text((uint64_t)(d.hz + 0.5), rate, sizeof(rate));
		out_text("%seffective frequency %s", isnan(d.ipc) ? "" : ", ",
			 rate);
	}
	out_text("\n");
}

static void excluded_line(const struct kb_result *res)
{
	uint32_t excl = res->samples - res->valid;
	unsigned int i, k = 0;

	out_text(LABEL "%u valid, ", "samples", res->valid);
	if (excl)
		out_text("%s", kb_color(out_file(), KB_WARN));
	out_text("%u excluded", excl);
	for (i = 0; i < KB_EXCL_N; i++)
		if (res->excl[i])
			out_text("%s%s %u", k++ ? ", " : " (", kb_excl_key[i],
				 res->excl[i]);
	out_text("%s%s\n", k ? ")" : "", excl ? kb_color_end(out_file()) : "");
}

static void verdict_line(const struct kb_run *r, const struct kb_result *res)
{
	struct kb_stability v;
	unsigned int i;

	kb_result_stability(r, res, &v);
	out_text(LABEL "%s%s%s", "verdict",
		 kb_color(out_file(), v.stable ? KB_GOOD : KB_BAD),
		 v.stable ? "stable" : "UNSTABLE", kb_color_end(out_file()));
	if (v.nreasons)
		out_text(": %s", kb_color(out_file(), KB_WARN));
	for (i = 0; i < v.nreasons; i++)
		out_text("%s%s", i ? "; " : "", v.reason[i]);
	out_text("%s\n", v.nreasons ? kb_color_end(out_file()) : "");
}

/*
 * Each series of @r without a valid sample, on @f (stderr) with the
 * reasons its samples were excluded for: true if there is one (no figure
 * can be made from nothing: the run failed).
 */
bool kb_report_no_valid(const struct kb_run *r, FILE *f)
{
	const struct kb_result *res;
	unsigned int i, k, x;
	bool any = false;

	for (i = 0; i <= r->nres; i++) {
		res = i < r->nres ? &r->res[i] : &r->overhead;
		if ((i == r->nres && !r->has_overhead) || res->valid)
			continue;
		fprintf(f, "%s: routine '%s'%s: none of %u samples valid",
			prog, res->routine, i == r->nres ? " (overhead)" : "",
			res->samples);
		for (x = 0, k = 0; x < KB_EXCL_N; x++)
			if (res->excl[x])
				fprintf(f, "%s%s %u", k++ ? ", " : " (",
					kb_excl_key[x], res->excl[x]);
		fprintf(f, "%s", k ? ")" : "");
		/* N tells a routine too fast for the counter from a slow one */
		if (r->iterations && r->n_changes && r->iterations_min &&
		    r->iterations_min < r->iterations)
			fprintf(f, " at N = %u to %u", r->iterations_min,
				r->iterations);
		else if (r->iterations)
			fprintf(f, " at N = %u", r->iterations);
		fprintf(f, ": no figure\n");
		any = true;
	}
	return any;
}

void kb_report_result(const struct kb_run *r, const struct kb_result *res)
{
	const struct kb_stats *s = &res->st;

	/* one spelling of a routine with its argument everywhere: NAME:ARG */
	out_text("%s", res->routine);
	if (res->has_arg)
		out_text(":%llu", (unsigned long long)res->arg);
	out_text("\n");
	if (!res->valid) {
		/* never a median from nothing */
		out_text(LABEL "none: no valid sample\n", "median");
	} else if (res->have_stats && s->count) {
		figure(r, "median", s->median);
		out_text("   95%% CI [%.3f, %.3f]\n", s->ci_lo, s->ci_hi);
		figure(r, "min", s->min);
		out_text("\n");
	} else {
		/* no samples: the kernel's summary (lower median, no CI) */
		figure(r, "median", kb_result_milli(res, res->per_iter_median_milli));
		out_text("   (kernel summary)\n");
		figure(r, "min", kb_result_milli(res, res->per_iter_min_milli));
		out_text("\n");
	}
	/* the overhead routine corrected by itself is 0 */
	if (res->valid && res->has_corr && res != &r->overhead &&
	    !(r->has_overhead && !strcmp(res->routine, r->overhead.routine))) {
		figure(r, "corrected", kb_result_milli(res, res->corr_median_milli));
		out_text("   (the median minus the %s loop)\n",
			 r->has_overhead ? r->overhead.routine : "empty");
	}
	events_lines(r, res);
	excluded_line(res);
	if (res->have_stats)
		verdict_line(r, res);
}

void kb_report_run(const struct kb_run *r, unsigned int flags)
{
	unsigned int i;

	if (r->has_env)
		kb_env_print(&r->env, KB_ENV_VIEW_WARNINGS);
	kb_report_header(r, NULL);
	for (i = 0; i < r->nres; i++) {
		out_text("\n");
		kb_report_result(r, &r->res[i]);
		kb_result_print_extras(r, &r->res[i], flags);
	}
}

/* A side without valid samples cannot be compared: say which and why. */
static bool no_samples(const struct kb_result *res, const char *where)
{
	if (res->st.count)
		return false;
	fprintf(stderr, "%s: nothing to compare: %s%s has no valid samples (%zu fetched; -v shows what was excluded and why)\n",
		prog, res->routine, where, res->n);
	return true;
}

/* Slower is red; equal and faster are green. */
static const char *verdict_color(const struct kb_compare *c)
{
	return kb_color(out_file(), c->verdict == KB_VERDICT_SLOWER ? KB_BAD :
							      KB_GOOD);
}

/*
 * Comparison of b against a, printed: in full (-v; JSON "comparison") or
 * the difference of the medians and the verdict, last.
 */
int kb_compare_compute(const struct kb_run *r, const struct kb_result *a,
		       const struct kb_result *b, double threshold,
		       uint64_t seed, struct kb_compare *c, double *u)
{
	const struct kb_stats *sa = &a->st, *sb = &b->st;
	double *xa, *xb;
	int err;

	memset(c, 0, sizeof(*c));
	c->threshold_pct = threshold;
	c->spread_pct = NAN;
	*u = NAN;
	if (no_samples(a, "") || no_samples(b, ""))
		return -ENODATA;
	/* one run: sample i of a and of b were taken in round i */
	xa = kb_series_of(a->net, a->sflags, a->n, r->iterations);
	xb = kb_series_of(b->net, b->sflags, b->n, r->iterations);
	err = xa && xb ? kb_compare_series(xa, a->n, xb, b->n, a->n == b->n,
					   seed, c) : -ENOMEM;
	free(xa);
	free(xb);
	if (err == -ENOMEM ||
	    kb_mann_whitney_sorted(a->sorted, sa->count, b->sorted,
				   sb->count, u, &c->mw_p)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -ENOMEM;
	}
	/* the medians of the report (a median <= 0 has no relative change) */
	c->rel_median_pct = (sb->median - sa->median) / sa->median * 100;
	kb_compare_decide(c);
	return 0;
}

/*
 * A routine as reports name it: "add_n:64" when @other is the same routine
 * at another argument (compare add_n:64 add_n:128), else its name.
 */
static void kb_result_label(const struct kb_result *res,
			    const struct kb_result *other, char *buf, size_t len)
{
	if (res->has_arg && other && other->has_arg &&
	    !strcmp(res->routine, other->routine))
		snprintf(buf, len, "%s:%llu", res->routine,
			 (unsigned long long)res->arg);
	else
		snprintf(buf, len, "%s", res->routine);
}

int kb_report_compare(const struct kb_run *r, const struct kb_result *a,
		      const struct kb_result *b, double threshold,
		      uint64_t seed, bool full, const struct kb_compare *seq)
{
	const struct kb_stats *sa = &a->st, *sb = &b->st;
	char text[512], la[KB_LABEL_MAX], lb[KB_LABEL_MAX];
	const char *per = r->per_copy ? "copy" : "iter";
	struct kb_compare c;
	double u, d;
	int err;

	err = kb_compare_compute(r, a, b, threshold, seed, &c, &u);
	if (err)
		return err;
	if (seq) {
		c.ci_lo_pct = seq->ci_lo_pct;
		c.ci_hi_pct = seq->ci_hi_pct;
		c.p = seq->p;
		c.basis = seq->basis;
		c.block = seq->block;
		c.sequential = true;
		kb_compare_decide(&c);
	}
	kb_result_label(a, b, la, sizeof(la));
	kb_result_label(b, a, lb, sizeof(lb));
	kb_compare_text(&c, la, lb, text, sizeof(text));
	if (!full) {
		d = sb->median - sa->median;
		if (r->metric[0])
			out_text("%s - %s: %+.3f %s/%s (medians)\n",
				 lb, la, d, kb_run_unit(r), per);
		else
			out_text("%s - %s: %+.3f %s/%s = %+.3f ns/%s (medians)\n",
				 lb, la, d, kb_run_unit(r), per, kb_run_ns(r, d), per);
		out_text("%s%s%s\n", verdict_color(&c), text,
			 kb_color_end(out_file()));
		return 0;
	}

	out_text("\ncomparison (%s - %s, %s/iter):\n", lb, la, kb_run_unit(r));
	out_open_object("comparison");
	out_string("a", NULL, a->routine);
	out_string("b", NULL, b->routine);
	if (a->has_arg)
		out_uint("a_arg", NULL, a->arg);
	if (b->has_arg)
		out_uint("b_arg", NULL, b->arg);
	d = sb->median - sa->median;
	out_double("median_diff_cycles", "  median diff  %+12.3f", d);
	out_text(" %s", kb_run_unit(r));
	out_double("median_diff_ns", " %+12.3f ns", kb_run_ns(r, d));
	out_double("median_rel_diff_pct", " %+8.3f%%", c.rel_median_pct);
	out_double("median_ratio", ", ratio %.4f\n", sb->median / sa->median);
	d = sb->mean - sa->mean;
	out_double("mean_diff_cycles", "  mean diff    %+12.3f", d);
	out_text(" %s", kb_run_unit(r));
	out_double("mean_diff_ns", " %+12.3f ns", kb_run_ns(r, d));
	out_double("mean_rel_diff_pct", " %+8.3f%%\n", d / sa->mean * 100);
	out_string("ci_method", "  95%% CI of the relative median diff (%s)",
		   seq ? "anytime" : "bootstrap");
	out_double("rel_diff_ci95_lo_pct", ": %+.3f%%", c.ci_lo_pct);
	out_double("rel_diff_ci95_hi_pct", " .. %+.3f%%", c.ci_hi_pct);
	out_uint("bootstrap_resamples", " (%llu resamples", KB_BOOTSTRAP_RESAMPLES);
	out_uint("seed", ", seed %llu)\n", seed);
	out_string("verdict_basis", "  from: %s", c.basis ? c.basis : "-");
	out_double("block_length", ", blocks of %.1f rounds", c.block);
	out_text("; run-to-run noise is unseen in one run\n");
	out_double("z", "  Z = %.3f", kb_z(sa, sb));
	out_double("mann_whitney_u", ", Mann-Whitney U = %.1f", u);
	out_double("mann_whitney_p", " (p %.3g, stochastic order: an extra)", c.mw_p);
	out_double("p_value", ", p = %.3g", c.p);
	out_double("p_threshold_pct", " (H0: |change| <= %g%%, from the same resamples: p <= 0.05 exactly when a change is called)\n",
		   threshold);
	out_double("threshold_pct", "  threshold %g%%", threshold);
	out_string("verdict", ", verdict %s", kb_compare_call_name(&c));
	out_bool("inconclusive", " (inconclusive: %s", c.inconclusive);
	out_bool("below_threshold", "; significant but not called: %s)\n",
		 c.below_threshold);
	if (c.inconclusive)
		out_double("resolve_halfwidth_pct", NULL, c.resolve_halfwidth_pct);
	out_text("%s", verdict_color(&c));
	out_string("verdict_text", "%s", text);
	out_text("%s\n", kb_color_end(out_file()));
	out_close_object();
	return 0;
}

/*
 * Kernel vs userspace report.  Inflation is per sample (an interrupt adds
 * its cost to one window, whatever N is): user net - kernel median net.
 */
int kb_report_kvu(const struct kb_run *k, const struct kb_run *u, bool full)
{
	const struct kb_result *kr = &k->res[0], *ur = &u->res[0];
	const struct kb_stats *ks = &kr->st, *us = &ur->st;
	double n = k->iterations ? k->iterations : 1;
	double kmed = ks->median * n, kmax = ks->max * n;
	double infl_med, infl_p99, infl_max;
	size_t inflated = 0, i;

	if (no_samples(kr, " in the kernel") || no_samples(ur, " in userspace"))
		return -ENODATA;
	for (i = 0; i < us->count; i++)
		if (ur->sorted[i] * n > kmax)
			inflated++;
	infl_med = us->median * n - kmed;
	infl_p99 = us->p99 * n - kmed;
	infl_max = us->max * n - kmed;
	if (!full) {
		out_text("userspace samples above the kernel's max: %s%zu of %zu (%.2f%%)%s; inflation per sample (user - kernel median): median %+.1f, p99 %+.1f, max %+.1f %s\n",
			 kb_color(out_file(), inflated ? KB_WARN : KB_GOOD),
			 inflated, (size_t)us->count,
			 (double)inflated / (double)us->count * 100,
			 kb_color_end(out_file()), infl_med, infl_p99, infl_max,
			 kb_run_unit(k));
		return 0;
	}

	out_text("\nkernel vs userspace (%s, cpu %u, %u iterations per sample):\n",
		 kr->routine, k->cpu, k->iterations);
	out_open_object("kernel_vs_user");
	out_open_object("kernel_baseline");
	out_double("min_cycles_per_iter", "  kernel baseline (irqs off): min %.3f",
		   ks->min);
	out_double("median_cycles_per_iter", ", median %.3f", ks->median);
	out_double("max_cycles_per_iter", ", max %.3f", ks->max);
	out_text(" %s/iter\n  (net %s per sample:", kb_run_unit(k), kb_run_unit(k));
	out_double("min_net_cycles", " min %.0f", ks->min * n);
	out_double("median_net_cycles", ", median %.0f", kmed);
	out_double("max_net_cycles", ", max %.0f)\n", kmax);
	out_close_object();
	out_open_object("user");
	out_double("min_cycles_per_iter", "  userspace:                  min %.3f",
		   us->min);
	out_double("median_cycles_per_iter", ", median %.3f", us->median);
	out_double("p99_cycles_per_iter", ", p99 %.3f", us->p99);
	out_double("max_cycles_per_iter", ", max %.3f", us->max);
	out_text(" %s/iter\n", kb_run_unit(k));
	out_close_object();
	out_uint("inflated", "  inflated above the kernel max: %llu", inflated);
	out_uint("user_samples", " of %llu", us->count);
	out_double("inflated_pct", " (%.2f%%)\n",
		   (double)inflated / (double)us->count * 100);
	out_open_object("inflation");
	out_text("  inflation per sample (user - kernel median):\n");
	out_double("median_cycles", "    median %12.1f", infl_med);
	out_text(" %s", kb_run_unit(k));
	out_double("median_ns", " %12.1f ns\n", kb_run_ns(k, infl_med));
	out_double("p99_cycles", "    p99    %12.1f", infl_p99);
	out_text(" %s", kb_run_unit(k));
	out_double("p99_ns", " %12.1f ns\n", kb_run_ns(k, infl_p99));
	out_double("max_cycles", "    max    %12.1f", infl_max);
	out_text(" %s", kb_run_unit(k));
	out_double("max_ns", " %12.1f ns\n", kb_run_ns(k, infl_max));
	out_close_object();
	out_close_object();
	return 0;
}
