// SPDX-License-Identifier: GPL-2.0
/*
 * Sweeps: run and compare over the values of --arg, one run per value,
 * each a run of every requested routine interleaved as always.  The
 * report is a table with a row per value (streamed as the runs end), or
 * JSON {"sweep": [runs...], "fit": {...}}, CSV, an SVG line plot; the
 * complexity fit (fit.h) is of each routine's corrected median.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "diff.h"
#include "diffprint.h"
#include "fit.h"
#include "cmd.h"
#include "measure.h"
#include "output.h"
#include "report.h"
#include "resfile.h"
#include "core.h"
#include "result.h"
#include "runopts.h"
#include "runprint.h"
#include "svg.h"
#include "sweep.h"

struct sweep {
	const struct subcommand *sc;
	struct kb_run_opts *o;
	struct kb_run *runs;		/* [o->sweep.n] */
	unsigned int nruns;		/* measured */
	const char *unit;		/* the argument's unit ("adds") */
	bool bytes;			/* ... is "bytes": 4K, 1M */
	bool compare;
	bool stream;			/* the table, a row as each run ends */
	bool timeout;			/* a run was cut short by max_run_ms */
	int stop;			/* -errno of the run that failed */
};

/* The figures of a result, per iteration: the kernel's when no samples. */
static double res_median(const struct kb_result *res)
{
	return res->have_stats && res->st.count ? res->st.median :
	       kb_result_milli(res, res->per_iter_median_milli);
}

static double res_min(const struct kb_result *res)
{
	return res->have_stats && res->st.count ? res->st.min :
	       kb_result_milli(res, res->per_iter_min_milli);
}

/* The fit's quantity: the median minus the empty loop's (exact integers). */
static double res_corrected(const struct kb_result *res)
{
	return res->has_corr ? kb_result_milli(res, res->corr_median_milli) :
	       res_median(res);
}

static uint64_t run_arg(const struct sweep *w, unsigned int i, unsigned int k)
{
	const struct kb_result *res = &w->runs[i].res[k];

	return res->has_arg ? res->arg : w->o->sweep.v[i];
}

/* --- the table ----------------------------------------------------------- */

static const char *kind_text(const struct kb_sweep *sw)
{
	switch (sw->kind) {
	case KB_SWEEP_GEOM:
		return "geometric";
	case KB_SWEEP_ARITH:
		return "arithmetic";
	default:
		return "list";
	}
}

static void table_header(const struct sweep *w, const struct kb_run *first)
{
	const struct kb_run_opts *o = w->o;
	char rate[32];
	unsigned int k;

	kb_rate_text(first->counter_hz, rate, sizeof(rate));
	out_text("%s", w->compare ? "compare " : "sweep of ");
	for (k = 0; k < o->q.n; k++)
		out_text("%s%s", k ? (w->compare ? " and " : ", ") : "",
			 o->q.names[k]);
	out_text(" over %s %s (%u values, %s): %s cpu %u, %u samples x %s iterations, %s at %s\n",
		 w->unit, o->sweep.spec, o->sweep.n, kind_text(&o->sweep),
		 first->user ? "userspace," : "kernel,", first->cpu,
		 first->samples, first->adaptive ? "adaptive" : "fixed",
		 first->counter, rate);
	if (first->core.on)
		out_text("in core cycles: each value's run calibrated by its own add chains (the first: 1 core cycle = %.4f %s ticks; %s)\n",
			 first->core.ratio, first->counter, kb_core_assumes);
	if (w->compare) {
		out_text("%10s %12s %12s %12s  %-22s %s\n", w->unit,
			 o->q.names[0], o->q.names[1], "ratio b/a",
			 "95% CI of the ratio", "verdict (b vs a)");
		return;
	}
	out_text("%10s ", w->unit);
	if (o->q.n > 1)
		out_text("%-12s ", "routine");
	out_text("%10s %10s  %-22s %10s %10s %14s %8s\n", "min", "median",
		 "95% CI", "corrected", "ns/iter", "throughput", "excluded");
}

static void table_row(const struct sweep *w, unsigned int i)
{
	const struct kb_run *r = &w->runs[i];
	char a[24], ci[48], rate[32];
	unsigned int k;
	double ops;

	for (k = 0; k < r->nres; k++) {
		const struct kb_result *res = &r->res[k];
		double med = res_median(res);

		kb_sweep_format(run_arg(w, i, k), w->bytes, a, sizeof(a));
		out_text("%10s ", a);
		if (r->nres > 1)
			out_text("%-12s ", res->routine);
		if (!res->valid) {
			out_text("%s(no valid sample: %u excluded)%s\n",
				 kb_color(out_file(), KB_WARN),
				 res->samples - res->valid,
				 kb_color_end(out_file()));
			continue;
		}
		if (res->have_stats && res->st.count)
			snprintf(ci, sizeof(ci), "[%.3f, %.3f]", res->st.ci_lo,
				 res->st.ci_hi);
		else
			snprintf(ci, sizeof(ci), "(kernel summary)");
		ops = med > 0 && r->counter_hz ? (double)r->counter_hz / med : NAN;
		ops *= r->ncpus ? r->ncpus : 1;	/* all CPUs' */
		kb_format_rate(res->bytes_per_iter ? ops * res->bytes_per_iter : ops,
			       res->bytes_per_iter, rate, sizeof(rate));
		out_text("%10.3f %10.3f  %-22s %10.3f %10.3f %14s ", res_min(res),
			 med, ci, res_corrected(res), kb_run_ns(r, med), rate);
		if (res->samples != res->valid)
			out_text("%s%8u%s\n", kb_color(out_file(), KB_WARN),
				 res->samples - res->valid,
				 kb_color_end(out_file()));
		else
			out_text("%8u\n", 0U);
	}
}

/* --- the fit ------------------------------------------------------------- */

struct sweep_fit {
	bool ok;
	size_t points;
	struct kb_fit best, all[KB_O_COUNT];
};

/* Routine @k's fit over the values above 0 with valid samples. */
static void fit_routine(const struct sweep *w, unsigned int k,
			struct sweep_fit *f)
{
	double x[KB_SWEEP_MAX], t[KB_SWEEP_MAX];
	unsigned int i;
	int c = w->o->fit ? w->o->fit - 1 : KB_O_AUTO;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < w->nruns; i++) {
		const struct kb_result *res = &w->runs[i].res[k];

		if (!res->valid || !run_arg(w, i, k))
			continue;
		x[f->points] = (double)run_arg(w, i, k);
		t[f->points++] = res_corrected(res);
	}
	f->ok = !kb_fit(x, t, f->points, c, &f->best, f->all);
}

/* "1.000 x n", "2.5 x log2(n)": the fitted curve in words */
static void fit_curve_text(const struct kb_fit *fit, char *buf, size_t len)
{
	static const char *const f[KB_O_COUNT] = {
		"", " x log2(n)", " x n", " x n log2(n)", " x n^2", " x n^3"
	};

	snprintf(buf, len, fabs(fit->coef) >= 0.01 || fit->coef == 0 ?
		 "%.3f%s" : "%.3g%s", fit->coef, f[fit->complexity]);
}

/* Why the data cannot tell the classes apart, or "" */
static void fit_why_not(const struct sweep_fit *f, char *buf, size_t len)
{
	const struct kb_fit *b = &f->best;

	buf[0] = '\0';
	if (!b->undetermined)
		return;
	if (b->distinct < KB_FIT_DISTINCT_MIN)
		snprintf(buf, len, "%zu distinct values: a class has one coefficient, so %d or more are needed to tell the classes apart",
			 b->distinct, KB_FIT_DISTINCT_MIN);
	else
		snprintf(buf, len, "%s fits about as well as %s (RMS %.2f%% against %.2f%%)",
			 kb_big_o_text(b->rival), kb_big_o_text(b->complexity),
			 f->all[b->rival].rms * 100, b->rms * 100);
}

static void fit_json(const struct sweep_fit *f)
{
	char why[256];
	unsigned int c;

	fit_why_not(f, why, sizeof(why));
	out_string("quantity", NULL, "corrected_median_cycles_per_iter");
	out_uint("points", NULL, f->points);
	out_string("complexity", NULL, kb_big_o_name(f->best.complexity));
	out_string("big_o", NULL, kb_big_o_text(f->best.complexity));
	out_double("coefficient", NULL, f->best.coef);
	out_double("rms", NULL, f->best.rms);
	out_open_array("candidates");
	for (c = 0; c < KB_O_COUNT; c++) {
		out_open_object_inline(NULL);
		out_string("complexity", NULL, kb_big_o_name(c));
		out_string("big_o", NULL, kb_big_o_text(c));
		out_double("coefficient", NULL, f->all[c].coef);
		out_double("rms", NULL, f->all[c].rms);
		out_close_object();
	}
	out_close_array();
	out_bool("determined", NULL, !f->best.undetermined);
	if (why[0])
		out_string("cannot_tell", NULL, why);
	else
		out_null("cannot_tell");
}

static void fit_text(const struct sweep *w, const char *name,
		     const struct sweep_fit *f)
{
	char curve[64];
	unsigned int c;

	if (!f->ok) {
		out_text("fit of %s: needs 2 or more values above 0 with valid samples (%zu)\n",
			 name, f->points);
		return;
	}
	fit_curve_text(&f->best, curve, sizeof(curve));
	if (!w->o->fit && f->best.undetermined) {
		char why[256];

		fit_why_not(f, why, sizeof(why));
		out_text("fit of %s (its corrected median, %zu values): %scannot tell%s: %s; closest %s, %s %s/iter (--fit CLASS fits one class)\n",
			 name, f->points, kb_color(out_file(), KB_WARN),
			 kb_color_end(out_file()), why,
			 kb_big_o_text(f->best.complexity), curve,
			 kb_run_unit(&w->runs[0]));
	} else {
		out_text("fit of %s (its corrected median, %zu values): %s%s%s, %s %s/iter, RMS %.2f%%%s\n",
			 name, f->points, kb_color(out_file(), KB_GOOD),
			 kb_big_o_text(f->best.complexity),
			 kb_color_end(out_file()), curve,
			 kb_run_unit(&w->runs[0]), f->best.rms * 100,
			 w->o->fit ? "" : " (the best of O(1) .. O(n^3))");
	}
	if (!w->o->verbose)
		return;
	for (c = 0; c < KB_O_COUNT; c++) {
		fit_curve_text(&f->all[c], curve, sizeof(curve));
		out_text("  %-11s %s %s/iter, RMS %.2f%%\n",
			 kb_big_o_text(c), curve, kb_run_unit(&w->runs[0]),
			 f->all[c].rms * 100);
	}
}

static void print_fits(const struct sweep *w)
{
	struct sweep_fit f;
	unsigned int k;

	out_open_object("fit");
	for (k = 0; k < w->o->q.n; k++) {
		fit_routine(w, k, &f);
		if (out_json()) {
			char key[KB_LABEL_MAX];

			snprintf(key, sizeof(key), "%s", w->o->q.names[k]);
			if (!f.ok) {
				out_null(key);
				continue;
			}
			out_open_object(key);
			fit_json(&f);
			out_close_object();
		} else {
			fit_text(w, w->o->q.names[k], &f);
		}
	}
	out_close_object();
}

/* --- compare: the ratio per value and where the two cross ---------------- */

static int compare_row(const struct sweep *w, unsigned int i, bool print)
{
	const struct kb_run *r = &w->runs[i];
	const struct kb_result *a = &r->res[0], *b = &r->res[1];
	char arg[24], ci[48], text[512];
	struct kb_compare c;
	double u;
	int err;

	err = kb_compare_compute(r, a, b, w->o->threshold, w->o->diff.seed, &c,
				 &u);
	if (err || !print)
		return err;
	kb_sweep_format(run_arg(w, i, 0), w->bytes, arg, sizeof(arg));
	snprintf(ci, sizeof(ci), "[%.4f, %.4f]", 1 + c.ci_lo_pct / 100,
		 1 + c.ci_hi_pct / 100);
	kb_compare_text(&c, a->routine, b->routine, text, sizeof(text));
	out_text("%10s %12.3f %12.3f %12.4f  %-22s %s%s%s\n", arg,
		 res_median(a), res_median(b), res_median(b) / res_median(a),
		 ci, kb_color(out_file(), c.verdict == KB_VERDICT_SLOWER ?
						  KB_BAD : KB_GOOD),
		 kb_compare_call_name(&c), kb_color_end(out_file()));
	return 0;
}

/* Run @i's row of the table: the routines', or the ratio of the two. */
static void print_row(const struct sweep *w, unsigned int i)
{
	if (w->compare)
		compare_row(w, i, true);
	else
		table_row(w, i);
}

/* The crossings of the medians (kb_sweep_crossings()), as lines or JSON. */
static void print_crossings(const struct sweep *w)
{
	const char *name[2] = { w->o->q.names[0], w->o->q.names[1] };
	double x[KB_SWEEP_MAX] = { 0 }, d[KB_SWEEP_MAX] = { 0 };
	struct kb_crossing c[KB_SWEEP_MAX];
	unsigned int i, n = 0, nc;
	char s0[24], s1[24];

	for (i = 0; i < w->nruns; i++) {
		const struct kb_run *r = &w->runs[i];

		if (!r->res[0].valid || !r->res[1].valid)
			continue;
		x[n] = (double)run_arg(w, i, 0);
		d[n++] = res_median(&r->res[1]) - res_median(&r->res[0]);
	}
	nc = kb_sweep_crossings(x, d, n, w->o->sweep.kind == KB_SWEEP_GEOM, c,
				KB_SWEEP_MAX);
	out_open_array("crossings");
	if (!nc && n)
		out_text("%s is %s than %s at every value\n", name[1],
			 d[0] < 0 ? "faster" : "slower", name[0]);
	for (i = 0; i < nc; i++) {
		kb_sweep_format((uint64_t)c[i].low, w->bytes, s0, sizeof(s0));
		kb_sweep_format((uint64_t)c[i].high, w->bytes, s1, sizeof(s1));
		out_open_object_inline(NULL);
		if (c[i].low == c[i].high)
			out_text("%s and %s are equal at %s %s\n", name[0],
				 name[1], w->unit, s0);
		else
			out_text("%s and %s cross between %s %s and %s", name[0],
				 name[1], w->unit, s0, s1);
		out_double("low", NULL, c[i].low);
		out_double("high", NULL, c[i].high);
		out_double("at", c[i].low == c[i].high ? NULL :
				 c[i].exact ? " (equal at %g)" : " (at about %.1f)",
			   c[i].at);
		out_bool("exact", NULL, c[i].exact);
		if (c[i].below) {
			out_string("faster_below", ": %s is faster below,",
				   name[c[i].below < 0]);
			out_string("faster_above", " %s above\n",
				   name[c[i].above < 0]);
		}
		out_close_object();
	}
	out_close_array();
}

/* --- measuring ----------------------------------------------------------- */

static void progress(const struct sweep *w, unsigned int i, bool done)
{
	char a[24];

	if (w->stream || !w->o->q.progress || !isatty(STDERR_FILENO))
		return;
	if (done) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	kb_sweep_format(w->o->sweep.v[i], w->bytes, a, sizeof(a));
	fprintf(stderr, "\r\033[Ksweep: %s %s (%u of %u)", w->unit, a, i + 1,
		w->o->sweep.n);
}

static int measure(struct sweep *w)
{
	struct kb_run_req q = w->o->q;
	unsigned int i;
	char a[24];
	int err;

	for (i = 0; i < w->o->sweep.n; i++) {
		q.nargs = 1;
		q.args[0] = w->o->sweep.v[i];
		progress(w, i, false);
		err = w->o->cpus.hi ?
		      kb_cpus_scale(w->o, (unsigned int)w->o->sweep.v[i],
				    &w->runs[i]) :
		      kb_run_measure(&q, w->o->user, &w->runs[i]);
		if (!err && kb_run_analyze(&w->runs[i])) {
			fprintf(stderr, "%s: out of memory\n", prog);
			kb_run_free(&w->runs[i]);
			err = -ENOMEM;
		}
		if (!err) {
			kb_core_apply(&w->runs[i]);
			kb_run_per_copy(&w->runs[i]);
		}
		if (err) {
			progress(w, i, true);
			kb_sweep_format(w->o->sweep.v[i], w->bytes, a, sizeof(a));
			fprintf(stderr, "%s %s: the sweep stopped at --arg %s, value %u of %u\n",
				prog, w->sc->name, a, i + 1, w->o->sweep.n);
			w->stop = err;
			return err;
		}
		w->nruns++;
		if (w->runs[i].status == KBENCH_RUN_TIMEOUT)
			w->timeout = true;
		if (!w->stream)
			continue;
		if (!i)
			table_header(w, &w->runs[0]);
		print_row(w, i);
		fflush(out_file());
	}
	progress(w, i, true);
	return 0;
}

/* --- the other outputs ----------------------------------------------------- */

static void print_csv(const struct sweep *w)
{
	unsigned int i, k;

	printf("arg,routine,min_cycles,median_cycles,median_ci95_lo_cycles,median_ci95_hi_cycles,corrected_median_cycles,median_ns,throughput_per_s,throughput_unit,valid,excluded\n");
	for (i = 0; i < w->nruns; i++) {
		const struct kb_run *r = &w->runs[i];

		for (k = 0; k < r->nres; k++) {
			const struct kb_result *res = &r->res[k];
			bool stats = res->have_stats && res->st.count;
			double med = res_median(res);
			double ops = med > 0 && r->counter_hz ?
				     (double)r->counter_hz / med *
				     (r->ncpus ? r->ncpus : 1) : NAN;

			printf("%llu,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.6g,%s,%u,%u\n",
			       (unsigned long long)run_arg(w, i, k),
			       res->routine, res_min(res), med,
			       stats ? res->st.ci_lo : NAN,
			       stats ? res->st.ci_hi : NAN,
			       res_corrected(res), kb_run_ns(r, med),
			       res->bytes_per_iter ? ops * res->bytes_per_iter : ops,
			       res->bytes_per_iter ? "bytes/s" : "ops/s",
			       res->valid, res->samples - res->valid);
		}
	}
}

/* Run @i's comparison of the two routines, as compare prints it. */
static void report_compare(const struct sweep *w, unsigned int i)
{
	kb_report_compare(&w->runs[i], &w->runs[i].res[0], &w->runs[i].res[1],
			  w->o->threshold, w->o->diff.seed, true, NULL);
}

static void print_json(const struct sweep *w)
{
	unsigned int i;

	out_open_object(NULL);
	out_open_array("sweep");
	for (i = 0; i < w->nruns; i++) {
		out_open_object(NULL);
		kb_run_print_members(&w->runs[i], 0);
		if (w->compare)
			report_compare(w, i);
		out_close_object();
	}
	out_close_array();
	if (w->compare)
		print_crossings(w);
	print_fits(w);
	out_close_object();
	out_finish();
}

/* The full report of every run (-v), then the table. */
static void print_verbose(struct sweep *w)
{
	unsigned int i;

	for (i = 0; i < w->nruns; i++) {
		kb_run_print_object(NULL, &w->runs[i], 0);
		if (w->compare)
			report_compare(w, i);
		out_text("\n");
	}
	table_header(w, &w->runs[0]);
	for (i = 0; i < w->nruns; i++)
		print_row(w, i);
}

/* The SVG: one curve per routine, min and median with the CI band. */
static int write_svg(const struct sweep *w)
{
	struct kb_svg_curve c[KBENCH_RUN_ROUTINES_MAX];
	double *buf;
	char title[512], notes[KBENCH_RUN_ROUTINES_MAX][96], curve[64];
	struct sweep_fit f;
	unsigned int i, k, n = w->nruns;
	size_t m;
	int err;

	buf = calloc((size_t)5 * n * KBENCH_RUN_ROUTINES_MAX + 1, sizeof(*buf));
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -ENOMEM;
	}
	for (k = 0; k < w->o->q.n; k++) {
		double *x = buf + (size_t)5 * n * k;
		double *mn = x + n, *md = mn + n, *lo = md + n, *hi = lo + n;

		for (i = 0, m = 0; i < n; i++) {
			const struct kb_result *res = &w->runs[i].res[k];
			bool stats = res->have_stats && res->st.count;

			if (!res->valid)
				continue;
			x[m] = (double)run_arg(w, i, k);
			mn[m] = res_min(res);
			md[m] = res_median(res);
			lo[m] = stats ? res->st.ci_lo : md[m];
			hi[m] = stats ? res->st.ci_hi : md[m];
			m++;
		}
		fit_routine(w, k, &f);
		notes[k][0] = '\0';
		if (f.ok) {
			fit_curve_text(&f.best, curve, sizeof(curve));
			snprintf(notes[k], sizeof(notes[k]),
				 "fit %s: %s (corrected)",
				 kb_big_o_text(f.best.complexity), curve);
		}
		c[k] = (struct kb_svg_curve){
			.name = w->o->q.names[k], .n = m, .x = x, .min = mn,
			.median = md, .ci_lo = lo, .ci_hi = hi,
			.note = notes[k],
		};
		kb_run_unit_text(&w->runs[0], c[k].unit, sizeof(c[k].unit));
	}
	kb_svg_sweep_title(title, sizeof(title), &w->runs[0], w->o->q.names,
			   w->o->q.n, w->compare, w->o->sweep.spec);
	err = kb_svg_write_sweep_file(w->o->svg, c, w->o->q.n, title, w->unit,
				      w->o->log_x ||
				      w->o->sweep.kind == KB_SWEEP_GEOM);
	free(buf);
	return err ? -EIO : 0;
}

/* --save and --baseline: the sweep's runs, each with its value. */
static int save_and_diff(struct sweep *w, int argc, char *argv[],
			 struct kb_resfile *base, int *regressed)
{
	struct kb_resfile now = { 0 };
	unsigned int i;
	int err = 0;

	now.runs = calloc(w->nruns ? w->nruns : 1, sizeof(*now.runs));
	if (!now.runs) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -ENOMEM;
	}
	for (i = 0; i < w->nruns; i++) {
		struct kb_run_req q = w->o->q;

		q.nargs = 1;
		q.args[0] = w->o->sweep.v[i];
		kb_saved_run_init(&now.runs[i], &w->runs[i], &q);
		now.runs[i].has_arg = true;
		now.runs[i].arg = w->o->sweep.v[i];
		now.runs[i].analyzed = true;
	}
	now.nruns = w->nruns;
	kb_meta_collect(&now.meta, !w->o->user,
			w->nruns ? (int)w->runs[0].cpu : -1, argc, argv);
	if (w->o->baseline) {
		out_text("\ndiff against the baseline %s:\n", w->o->baseline);
		err = kb_diff_print(out_json() ? "diff" : NULL, w->o->baseline,
				    base, "this sweep", &now, &w->o->diff,
				    regressed);
	}
	if (w->o->save &&
	    kb_resfile_save(w->o->save, &now.meta, now.runs, now.nruns) && !err)
		err = -EIO;
	/* the runs share their samples with w->runs: free only the array */
	free(now.runs);
	return err;
}

int kb_sweep_main(const struct subcommand *sc, struct kb_run_opts *o,
		  int argc, char *argv[], bool compare)
{
	struct sweep w = { .sc = sc, .o = o, .compare = compare };
	struct kb_resfile base = { 0 };
	int regressed = EXIT_OK;
	int err = 0, ret;
	unsigned int i;

	w.unit = o->cpus.hi ? "cpus" :
		 o->info[0].arg_name[0] ? o->info[0].arg_name : "arg";
	w.bytes = !strcmp(w.unit, "bytes");
	w.stream = !opt_json && !o->verbose && !o->csv;
	if (o->baseline) {
		err = kb_baseline_load(sc->name, o->baseline, &base);
		if (err)
			return kb_diff_exit_status(err, EXIT_OK);
	}
	w.runs = calloc(o->sweep.n, sizeof(*w.runs));
	if (!w.runs) {
		fprintf(stderr, "%s: out of memory\n", prog);
		kb_resfile_free(&base);
		return EXIT_FAIL;
	}
	measure(&w);
	if (w.nruns && !w.stop) {
		if (o->csv)
			print_csv(&w);
		else if (opt_json && !o->baseline)
			print_json(&w);
		else if (o->verbose)
			print_verbose(&w);
		if (!opt_json && !o->csv) {
			if (compare) {
				out_text("\n");
				print_crossings(&w);
			}
			print_fits(&w);
		}
		if (opt_json && o->baseline) {
			/* {"sweep": ..., "fit": ..., "diff": ...} */
			out_open_object(NULL);
			out_open_array("sweep");
			for (i = 0; i < w.nruns; i++)
				kb_run_print_object(NULL, &w.runs[i], 0);
			out_close_array();
			print_fits(&w);
		}
		if (o->save || o->baseline)
			err = save_and_diff(&w, argc, argv, &base, &regressed);
		if (opt_json && o->baseline) {
			out_close_object();
			out_finish();
		}
		if (o->svg && write_svg(&w) && !err)
			err = -EIO;
	}
	if (w.timeout)
		fprintf(stderr, "%s: %sa run of the sweep reached the module's max_run_ms: its figures are partial%s (fewer --samples, or a larger max_run_ms)\n",
			prog, kb_color(stderr, KB_WARN), kb_color_end(stderr));
	for (i = 0; i < w.nruns; i++)
		kb_run_free(&w.runs[i]);
	free(w.runs);
	kb_resfile_free(&base);
	if (o->baseline && !w.stop)
		return kb_diff_exit_status(err, regressed) ?:
		       (w.timeout ? EXIT_FAIL : EXIT_OK);
	ret = kb_exit_status(w.stop ? w.stop : err);
	return ret ? ret : w.timeout ? EXIT_FAIL : EXIT_OK;
}
