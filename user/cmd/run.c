// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl run: measure routines (kernel, or the userspace twins); save
 * the result (--save) and diff it against a saved one (--baseline).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "diff.h"
#include "diffprint.h"
#include "events.h"
#include "cmd.h"
#include "measure.h"
#include "output.h"
#include "replic.h"
#include "report.h"
#include "core.h"
#include "result.h"
#include "runopts.h"
#include "runprint.h"
#include "runs.h"
#include "stop.h"
#include "svg.h"
#include "sweep.h"
#include "until.h"
#include "verdict.h"

/*
 * The run (short, or in full with -v and --json), then the diff against
 * the baseline: {"run": ..., "diff": ...} in JSON.  0 or -errno.
 */
static int report_baseline(const struct kb_run_opts *o, const struct kb_run *r,
			   unsigned int pflags, struct kb_resfile *base,
			   struct kb_resfile *now, int *regressed)
{
	int err;

	out_open_object(NULL);
	if (opt_json || o->verbose)
		kb_run_print_object("run", r, pflags);
	else
		kb_report_run(r, pflags);
	out_text("\ndiff against the baseline %s:\n", o->baseline);
	err = kb_diff_print("diff", o->baseline, base, "this run", now,
			    &o->diff, regressed);
	out_close_object();
	out_finish();
	return err;
}

/*
 * The text of --runs R: a row per run and routine (median, its CI, valid
 * samples, stability), then per routine the runs' geometric mean and the
 * spread between them.
 */
static void report_runs(const struct kb_run *rs, unsigned int n,
			double spacing, double wall)
{
	char unit[KBENCH_NAME_MAX + 24];
	double m[KB_RUNS_MAX], gm, sp;
	struct kb_stability v;
	unsigned int i, k;
	int w;

	kb_env_print(&rs[0].env, KB_ENV_VIEW_WARNINGS);
	out_text("%u runs of %u routine%s%s, each with its own probe and warm-up, %g s apart: %.2f s in all\n",
		 n, rs[0].nres, rs[0].nres == 1 ? "" : "s",
		 rs[0].user ? " (userspace twins, each run a process of its own)" : "",
		 spacing, wall);
	if (rs[0].core.on)
		out_text("in core cycles: each run calibrated by its own add chains (the first: 1 core cycle = %.4f %s ticks; %s)\n",
			 rs[0].core.ratio, rs[0].counter, kb_core_assumes);
	snprintf(unit, sizeof(unit), "median %s/iter", kb_run_unit(&rs[0]));
	w = strlen(unit) > 12 ? (int)strlen(unit) : 12;
	out_text("%-24s %4s  %*s  %-24s %8s  %s\n", "routine", "run", w,
		 unit, "95% CI of the median", "valid", "stability");
	for (k = 0; k < rs[0].nres; k++)
		for (i = 0; i < n; i++) {
			const struct kb_result *x = &rs[i].res[k];
			char lbl[KBENCH_NAME_MAX + 24], ci[48];

			snprintf(lbl, sizeof(lbl), "%s%s", x->routine,
				 x->has_arg ? ":" : "");
			if (x->has_arg)
				snprintf(lbl + strlen(lbl), sizeof(lbl) - strlen(lbl),
					 "%llu", (unsigned long long)x->arg);
			kb_result_stability(&rs[i], x, &v);
			snprintf(ci, sizeof(ci), "%.3f .. %.3f", x->st.ci_lo,
				 x->st.ci_hi);
			out_text("%-24s %4u  %*.3f  %-24s %8zu  %s\n",
				 i ? "" : lbl, i + 1, w, x->st.median, ci,
				 x->st.count, v.stable ? "stable" :
				 v.nreasons ? v.reason[0] : "unstable");
		}
	for (k = 0; k < rs[0].nres; k++) {
		const struct kb_result *x = &rs[0].res[k];

		for (i = 0; i < n; i++)
			m[i] = rs[i].res[k].st.median;
		sp = kb_runs_spread_pct(m, n, &gm);
		if (x->has_arg)
			out_text("%s:%llu", x->routine, (unsigned long long)x->arg);
		else
			out_text("%s", x->routine);
		out_text(": geometric mean of the runs' medians %.3f %s/iter, between-run spread %.2f%% (standard deviation of ln(median) x 100)\n",
			 gm, kb_run_unit(&rs[0]), sp);
	}
}

/* The same in JSON: {"runs": [run objects], "between_runs": [...]}. */
static void report_runs_json(const struct kb_run *rs, unsigned int n,
			     unsigned int pflags, double spacing, double wall)
{
	char unit[KBENCH_NAME_MAX + 24];
	double m[KB_RUNS_MAX], gm, sp;
	unsigned int i, k;

	out_double("spacing_s", NULL, spacing);
	out_double("runs_wall_s", NULL, wall);
	out_open_array("runs");
	for (i = 0; i < n; i++)
		kb_run_print_object(NULL, &rs[i], pflags);
	out_close_array();
	out_open_array("between_runs");
	for (k = 0; k < rs[0].nres; k++) {
		for (i = 0; i < n; i++)
			m[i] = rs[i].res[k].st.median;
		sp = kb_runs_spread_pct(m, n, &gm);
		out_open_object(NULL);
		out_string("routine", NULL, rs[0].res[k].routine);
		if (rs[0].res[k].has_arg)
			out_uint("arg", NULL, rs[0].res[k].arg);
		out_uint("runs", NULL, n);
		out_string("unit", NULL, kb_run_unit_text(&rs[0], unit, sizeof(unit)));
		out_open_array("median_cycles");
		for (i = 0; i < n; i++)
			out_double(NULL, NULL, m[i]);
		out_close_array();
		out_double("geomean_median_cycles", NULL, gm);
		out_double("spread_pct", NULL, sp);
		out_close_object();
	}
	out_close_array();
}

/*
 * run --runs R: R runs of the request, each its own probe and warm-up
 * (kernel or --user alike: kb_run_measure() per run), --between CMD
 * before each but the first, reported, diffed against --baseline and
 * saved in one file.  An exit status.
 */
static int run_replicated(struct kb_run_opts *o,
			  struct kb_resfile *base, int argc, char *argv[],
			  char *orig[])
{
	unsigned int n = o->runs, done = 0;
	struct kb_results now = { 0 };
	int regressed = EXIT_OK;
	double wall;
	int ret, err;
	struct kb_run *rs;

	rs = calloc(n, sizeof(*rs));
	if (!rs) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_FAIL;
	}
	ret = kb_runs_measure(o, argc, orig, rs, &done, &wall);
	if (ret)
		goto out_free;
	if (kb_results_build_runs(&now, rs, n, &o->q, argc, argv)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = EXIT_FAIL;
		goto out_free;
	}
	out_open_object(NULL);
	if (opt_json)
		report_runs_json(rs, n, 0, o->spacing, wall);
	else
		report_runs(rs, n, o->spacing, wall);
	if (o->baseline) {
		out_text("\ndiff against the baseline %s:\n", o->baseline);
		err = kb_diff_print("diff", o->baseline, base, "these runs",
				    &now.rf, &o->diff, &regressed);
		ret = kb_diff_exit_status(err, regressed);
	}
	out_close_object();
	out_finish();
	if (o->save && kb_results_save(o->save, &now) && ret == EXIT_OK)
		ret = EXIT_FAIL;
out_free:
	kb_results_free(&now);
	kb_runs_free(rs, done);
	return ret;
}

static int run_cmd(const struct subcommand *sc, int argc, char *argv[],
		   char *orig[]);

int run_main(const struct subcommand *sc, int argc, char *argv[])
{
	return kb_with_argv(run_cmd, sc, argc, argv);
}

static int run_opts(const struct subcommand *sc, struct kb_run_opts *o,
		    int argc, char *argv[], char *orig[])
{
	struct kb_resfile base = { 0 };
	struct kb_results now;
	unsigned int pflags = 0;
	int regressed = EXIT_OK;
	int ret = EXIT_OK, err;
	struct kb_run r = { 0 };
	struct kb_until u = { 0 };
	bool until, saved = false;

	until = o->has_precision || o->has_max_time;
	u.precision_pct = o->precision;
	u.max_time_s = o->max_time;
	if (o->hist)
		pflags |= KB_PRINT_HIST;
	if (o->log)
		pflags |= KB_PRINT_LOG;
	if (o->raw)
		pflags |= KB_PRINT_RAW;
	err = kb_pmu_check_events(sc->name, o->q.events, o->q.nevents);
	if (!err)
		err = o->user ? kb_run_opts_check_twins(o, sc->name) :
			       kb_run_opts_check_module(o, sc);
	if (err)
		return kb_exit_status(err);
	if (kb_runs_worker_path())
		return kb_runs_worker(o, kb_runs_worker_path(), argc, argv);
	if ((o->cpus.spec && !o->cpus.hi) || o->cpus.each)
		return kb_cpus_main(o);
	if (kb_sweep_is_sweep(&o->sweep))
		return kb_sweep_main(sc, o, argc, argv, false);
	/* a bad baseline fails before the measurement, not after it */
	if (o->baseline) {
		err = kb_baseline_load(sc->name, o->baseline, &base);
		if (err)
			return kb_diff_exit_status(err, EXIT_OK);
	}
	if (o->runs > 1) {
		ret = run_replicated(o, &base, argc, argv, orig);
		goto out_free;
	}
	/*
	 * --user: Ctrl-C stops the sampling at the next round and the rest
	 * goes on with what was measured (a kernel run ends as before)
	 */
	if (o->user)
		kb_stop_arm();
	err = until ? kb_measure_until(&o->q, o->user, &u, &r) :
		      kb_run_measure(&o->q, o->user, &r);
	kb_stop_disarm();
	if (err) {
		ret = err == -EINTR && kb_stop_signal ? kb_stop_exit_status() :
			kb_exit_status(err);
		goto out_free;
	}
	if (kb_run_analyze(&r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = EXIT_FAIL;
		goto out_free;
	}
	/* the saved file keeps the samples and the summary as measured */
	kb_core_apply(&r);
	kb_run_per_copy(&r);
	if (kb_report_no_valid(&r, stderr)) {
		ret = r.interrupted ? kb_stop_exit_status() : EXIT_FAIL;
		goto out_free;
	}
	if (o->save || o->baseline)
		kb_results_build(&now, &(const struct kb_run *){ &r },
				 &(const struct kb_run_req *){ &o->q }, 1, argc,
				 argv);
	if (o->csv) {
		/* the CSV stays clean: the warnings go to stderr */
		out_init(stderr, false);
		kb_env_print(&r.env, KB_ENV_VIEW_WARNINGS);
		out_init(stdout, false);
		kb_run_print_csv(&r, stdout);
	} else if (o->baseline) {
		err = report_baseline(o, &r, pflags, &base, &now.rf, &regressed);
	} else if (opt_json || o->verbose) {
		kb_run_print(&r, pflags);
	} else {
		kb_report_run(&r, pflags);
	}
	if (o->baseline)
		ret = kb_diff_exit_status(err, regressed);
	if (o->save) {
		saved = !kb_results_save(o->save, &now);
		if (!saved && ret == EXIT_OK)
			ret = EXIT_FAIL;
	}
	if (o->svg && kb_svg_write_file(o->svg, &r, o->log_x) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	if (r.status == KBENCH_RUN_TIMEOUT) {
		/* the result above is partial: say so and fail */
		fprintf(stderr, "%s: %sthe run reached the module's max_run_ms after %u of %u samples: the figures are partial%s (ask for fewer --samples, or load kbench with a larger max_run_ms)\n",
			prog, kb_color(stderr, KB_WARN),
			r.nres ? r.res[0].samples : 0, r.samples,
			kb_color_end(stderr));
		ret = EXIT_FAIL;
	}
	if (r.interrupted) {
		fprintf(stderr, "%s: interrupted after %u of %u samples: the figures are partial%s\n",
			prog, kb_run_samples_taken(&r), r.samples,
			!o->save ? "" : saved ? " (saved, marked partial)" :
			" (not saved)");
		/* a file that could not be written stays the failure */
		if (!o->save || saved)
			ret = kb_stop_exit_status();
	}
out_free:
	kb_resfile_free(&base);
	kb_run_free(&r);
	return ret;
}

static int run_cmd(const struct subcommand *sc, int argc, char *argv[],
		   char *orig[])
{
	return kb_run_opts_main(sc, argc, argv, orig, run_opts);
}
