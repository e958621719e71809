// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl compare: two routines in one interleaved run, with a
 * bootstrap CI, Z and Mann-Whitney U; or one routine in the kernel and in
 * userspace (what interrupts and scheduling add).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "diff.h"
#include "events.h"
#include "cmd.h"
#include "measure.h"
#include "nl.h"
#include "output.h"
#include "replic.h"
#include "report.h"
#include "core.h"
#include "result.h"
#include "runopts.h"
#include "runprint.h"
#include "runreq.h"
#include "runs.h"
#include "svg.h"
#include "sweep.h"
#include "twin.h"
#include "stop.h"
#include "until.h"

/* --save: the run(s) with their request, as measured. */
static int save_runs(const struct kb_run_opts *o, const struct kb_run *const *runs,
		     unsigned int n, int argc, char *argv[])
{
	const struct kb_run_req *reqs[2] = { &o->q, &o->q };
	struct kb_results x;

	if (!o->save)
		return 0;
	kb_results_build(&x, runs, reqs, n, argc, argv);
	return kb_results_save(o->save, &x);
}

/*
 * --metric EVENT: after saving (the file keeps every figure), the event's
 * counts take the counter's place in @n runs for the report.
 */
static void use_metric(const struct kb_run_opts *o, struct kb_run *const *runs,
		       unsigned int n)
{
	unsigned int i;

	for (i = 0; o->diff.metric && i < n; i++)
		kb_run_use_metric(runs[i], o->diff.metric);
}

/*
 * compare A B: 0 or -errno; @stopped set when a signal stopped the run
 * (--user: what was measured is reported and saved, marked partial).
 */
static int compare_two(struct kb_run_opts *o, int argc, char *argv[],
		       bool *stopped)
{
	bool until = o->has_precision || o->has_max_time || o->until_resolved;
	bool full = opt_json || o->verbose;
	/* --max-time alone: until resolved, as before --until-resolved */
	struct kb_until u = {
		.compare = true,
		.precision_pct = o->has_precision ? o->precision : 0,
		.resolve = o->until_resolved || !o->has_precision,
		.threshold_pct = o->threshold, .max_time_s = o->max_time,
	};
	struct kb_run r = { 0 };
	int err, saved;

	u.c.threshold_pct = o->threshold;
	/* --user: Ctrl-C keeps what was measured (run.c) */
	if (o->user)
		kb_stop_arm();
	err = until ? kb_measure_until(&o->q, o->user, &u, &r) :
		      kb_run_measure(&o->q, o->user, &r);
	kb_stop_disarm();
	*stopped = err == -EINTR && kb_stop_signal;
	if (err) {
		kb_run_free(&r);
		return err;
	}
	*stopped = r.interrupted;
	saved = save_runs(o, &(const struct kb_run *){ &r }, 1, argc, argv);
	use_metric(o, &(struct kb_run *){ &r }, 1);
	if (kb_run_analyze(&r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		kb_run_free(&r);
		return -ENOMEM;
	}
	kb_core_apply(&r);
	kb_run_per_copy(&r);
	/* the run as run reports it, then the comparison */
	if (full) {
		out_open_object(NULL);
		kb_run_print_members(&r, 0);
	} else {
		kb_report_run(&r, 0);
		out_text("\n");
	}
	err = kb_report_compare(&r, &r.res[0], &r.res[1], o->threshold,
				o->diff.seed, full, until ? &u.c : NULL);
	if (full) {
		out_close_object();
		out_finish();
	}
	/* the file could not be written (the message names it) */
	if (o->svg && kb_svg_write_file(o->svg, &r, o->log_x) && !err)
		err = -EIO;
	if (saved && !err)
		err = -EIO;
	if (r.interrupted)
		fprintf(stderr, "%s: interrupted after %u of %u samples: the figures are partial%s\n",
			prog, kb_run_samples_taken(&r), r.samples,
			!o->save ? "" : !saved ? " (saved, marked partial)" :
			" (not saved)");
	kb_run_free(&r);
	return err;
}

static int compare_kvu(struct kb_run_opts *o, int argc, char *argv[])
{
	const struct kb_run *runs[2];
	static const char *const labels[2] = { "kernel", "userspace" };
	struct kb_twin_req tq = { .n = 1 };
	struct kb_run k, u;
	struct kb_nl nl;
	unsigned int i;
	int err, saved;

	err = kb_nl_open(&nl);
	if (err)
		return err;
	err = kb_run_kernel(&nl, &o->q, &k);
	kb_nl_close(&nl);
	if (err) {
		kb_run_free(&k);
		return err;
	}
	/* the same CPU, N, sample count and counter rate as the kernel side */
	tq.names[0] = o->q.names[0];
	tq.cpu = (int)k.cpu;
	tq.samples = k.samples;
	tq.iterations = k.iterations;
	tq.warmup = k.warmup;
	tq.target_ns = k.target_ns;
	tq.counter_hz = k.counter_hz;
	tq.nargs = o->q.nargs;
	memcpy(tq.args, o->q.args, sizeof(tq.args));
	memcpy(tq.events, o->q.events, sizeof(tq.events));
	tq.nevents = o->q.nevents;
	err = kb_twin_run(&tq, &u);
	if (!err) {
		runs[0] = &k;
		runs[1] = &u;
		saved = save_runs(o, runs, 2, argc, argv);
		use_metric(o, (struct kb_run *[]){ &k, &u }, 2);
	}
	if (!err && (kb_run_analyze(&k) || kb_run_analyze(&u)))
		err = -ENOMEM;
	if (err) {
		kb_run_free(&k);
		kb_run_free(&u);
		return err;
	}
	snprintf(u.kernel, sizeof(u.kernel), "%s", k.kernel);
	snprintf(u.date, sizeof(u.date), "%s", k.date);

	if (!opt_json && !o->verbose) {
		kb_env_print(&k.env, KB_ENV_VIEW_WARNINGS);
		kb_report_header(&k, NULL);
		out_text("\nin the kernel (irqs off): ");
		kb_report_result(&k, &k.res[0]);
		out_text("\nas the userspace twin (same CPU, iterations and samples): ");
		kb_report_result(&u, &u.res[0]);
		out_text("\n");
		err = kb_report_kvu(&k, &u, false);
	} else {
		out_open_object(NULL);
		kb_env_print(&k.env, KB_ENV_VIEW_ALL);
		out_text("\n");
		for (i = 0; i < 2; i++) {
			out_text("%s%s side: ", i ? "\n" : "", labels[i]);
			out_open_object(i ? "user" : "kernel");
			kb_run_print_header(runs[i]);
			kb_result_print(runs[i], &runs[i]->res[0], 0);
			out_close_object();
		}
		err = kb_report_kvu(&k, &u, true);
		out_close_object();
		out_finish();
	}
	if (o->svg && kb_svg_write_runs(o->svg, runs, labels, 2, o->log_x) &&
	    !err)
		err = -EIO;
	if (saved && !err)
		err = -EIO;
	kb_run_free(&k);
	kb_run_free(&u);
	return err;
}

/* "add_n:64" when both are one routine at two arguments, else the name. */
static void label_of(const struct kb_result *x, const struct kb_result *y,
		     char *buf, size_t len)
{
	if (x->has_arg && y->has_arg && !strcmp(x->routine, y->routine))
		snprintf(buf, len, "%s:%llu", x->routine,
			 (unsigned long long)x->arg);
	else
		snprintf(buf, len, "%s", x->routine);
}

/*
 * compare A B --runs R: R runs, A and B interleaved in each (each run its
 * own probe and warm-up; --user: its own process), compared by the runs:
 * the paired t interval of the runs' ln(median_b / median_a)
 * (model/replic.h), so that what changes from run to run (placement, the
 * host) is in the interval and what a run shares cancels in its ratio.
 * The threshold is compare's (1 unless given).  0 or -errno / an exit
 * status through kb_exit_status() by the caller.
 */
static int compare_replicated(struct kb_run_opts *o, int argc, char *argv[],
			      char *orig[])
{
	double ma[KB_RUNS_MAX], mb[KB_RUNS_MAX];
	unsigned int n = o->runs, done = 0, i;
	struct kb_results now = { 0 };
	struct kb_runs_ci ci = { .threshold_pct = o->threshold };
	struct kb_compare c;
	char la[KBENCH_NAME_MAX + 24], lb[KBENCH_NAME_MAX + 24], text[512];
	char unit[KBENCH_NAME_MAX + 24];
	struct kb_run *rs;
	double wall;
	int ret;

	rs = calloc(n, sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	ret = kb_runs_measure(o, argc, orig, rs, &done, &wall);
	if (ret)
		goto out_free;
	for (i = 0; i < n; i++) {
		ma[i] = rs[i].res[0].st.median;
		mb[i] = rs[i].res[1].st.median;
	}
	if (kb_results_build_runs(&now, rs, n, &o->q, argc, argv) ||
	    kb_runs_paired(ma, mb, n, &ci)) {
		fprintf(stderr, "%s: out of memory, or a median not above 0: no comparison\n",
			prog);
		ret = EXIT_FAIL;
		goto out_free;
	}
	memset(&c, 0, sizeof(c));
	c.threshold_pct = o->threshold;
	c.rel_median_pct = ci.est_pct;
	c.ci_lo_pct = ci.lo_pct;
	c.ci_hi_pct = ci.hi_pct;
	c.p = ci.p;
	c.mw_p = NAN;
	c.block = NAN;
	c.basis = "paired t over the runs' log median ratios (runs, then rounds within runs)";
	c.runs_a = c.runs_b = n;
	c.spread_pct = ci.spread_pct;
	kb_compare_decide(&c);
	label_of(&rs[0].res[0], &rs[0].res[1], la, sizeof(la));
	label_of(&rs[0].res[1], &rs[0].res[0], lb, sizeof(lb));
	kb_compare_text(&c, la, lb, text, sizeof(text));

	out_open_object(NULL);
	if (opt_json) {
		out_double("spacing_s", NULL, o->spacing);
		out_double("runs_wall_s", NULL, wall);
		out_open_array("runs");
		for (i = 0; i < n; i++)
			kb_run_print_object(NULL, &rs[i], 0);
		out_close_array();
	} else {
		kb_env_print(&rs[0].env, KB_ENV_VIEW_WARNINGS);
		out_text("%u runs of %s and %s interleaved, each with its own probe and warm-up%s, %g s apart: %.2f s in all\n",
			 n, la, lb, o->user ? " and process" : "", o->spacing,
			 wall);
		out_text("%4s %16s %16s %9s  (each run's medians, %s/iter)\n",
			 "run", la, lb, "change", kb_run_unit(&rs[0]));
		for (i = 0; i < n; i++)
			out_text("%4u %16.3f %16.3f %+8.2f%%\n", i + 1,
				 ma[i], mb[i], (mb[i] / ma[i] - 1) * 100);
	}
	out_open_object("comparison");
	out_string("a", NULL, rs[0].res[0].routine);
	out_string("b", NULL, rs[0].res[1].routine);
	if (rs[0].res[0].has_arg)
		out_uint("a_arg", NULL, rs[0].res[0].arg);
	if (rs[0].res[1].has_arg)
		out_uint("b_arg", NULL, rs[0].res[1].arg);
	out_uint("runs", NULL, n);
	out_string("unit", NULL, kb_run_unit_text(&rs[0], unit, sizeof(unit)));
	out_double("a_geomean_median_cycles", NULL, ci.gm_a);
	out_double("b_geomean_median_cycles", NULL, ci.gm_b);
	out_double("median_rel_diff_pct", NULL, c.rel_median_pct);
	out_double("rel_diff_ci95_lo_pct", NULL, c.ci_lo_pct);
	out_double("rel_diff_ci95_hi_pct", NULL, c.ci_hi_pct);
	out_string("ci_method", NULL, "t over runs");
	out_string("verdict_basis", NULL, c.basis);
	out_double("between_run_spread_pct", "between-run spread of the change %.2f%%", ci.spread_pct);
	out_double("a_run_spread_pct", " (each routine's: %.2f%%", ci.spread_a_pct);
	out_double("b_run_spread_pct", " and %.2f%%)", ci.spread_b_pct);
	out_double("runs_df", "; paired t over the runs, %g degree", ci.df);
	out_text("%s of freedom\n", ci.df == 1 ? "" : "s");
	out_double("p_value", NULL, c.p);
	out_double("p_threshold_pct", NULL, o->threshold);
	out_double("threshold_pct", NULL, o->threshold);
	out_string("verdict", NULL, kb_compare_call_name(&c));
	out_bool("inconclusive", NULL, c.inconclusive);
	out_bool("below_threshold", NULL, c.below_threshold);
	out_double("resolve_halfwidth_pct", NULL,
		   c.inconclusive ? c.resolve_halfwidth_pct : NAN);
	out_double("resolvable_change_pct", NULL,
		   c.inconclusive ? ci.resolvable_pct : NAN);
	out_text("%s", kb_color(out_file(), c.verdict == KB_VERDICT_SLOWER ?
				KB_BAD : KB_GOOD));
	out_string("verdict_text", "%s", text);
	out_text("%s\n", kb_color_end(out_file()));
	if (c.inconclusive)
		out_text("the smallest change these runs resolve (80%% power): %.2f%%\n",
			 ci.resolvable_pct);
	out_close_object();
	out_close_object();
	out_finish();
	if (o->save && kb_results_save(o->save, &now))
		ret = EXIT_FAIL;
out_free:
	kb_results_free(&now);
	kb_runs_free(rs, done);
	return ret;
}

static int compare_cmd(const struct subcommand *sc, int argc, char *argv[],
		       char *orig[]);
static int compare_opts(const struct subcommand *sc, struct kb_run_opts *o,
			int argc, char *argv[], char *orig[]);

int compare_main(const struct subcommand *sc, int argc, char *argv[])
{
	return kb_with_argv(compare_cmd, sc, argc, argv);
}

static int compare_cmd(const struct subcommand *sc, int argc, char *argv[],
		       char *orig[])
{
	return kb_run_opts_main(sc, argc, argv, orig, compare_opts);
}

static int compare_opts(const struct subcommand *sc, struct kb_run_opts *o,
			int argc, char *argv[], char *orig[])
{
	bool stopped = false;
	int err;

	if (o->kvu && !kb_twin_find(o->q.names[0]))
		return kb_exit_status(kb_arg_error(sc->name, "no userspace twin for '%s' (twins: %s; kbenchctl list --user)",
						   o->q.names[0], kb_twin_names()));
	err = kb_pmu_check_events(sc->name, o->q.events, o->q.nevents);
	if (!err)
		err = o->user ? kb_run_opts_check_twins(o, sc->name) :
			       kb_run_opts_check_module(o, sc);
	if (!err && o->kvu)
		err = kb_run_opts_check_twins(o, sc->name);
	if (err)
		return kb_exit_status(err);
	if (kb_runs_worker_path())
		return kb_runs_worker(o, kb_runs_worker_path(), argc, argv);
	if (kb_sweep_is_sweep(&o->sweep))
		return kb_sweep_main(sc, o, argc, argv, true);
	if (o->runs > 1) {
		err = compare_replicated(o, argc, argv, orig);
		return err < 0 ? kb_exit_status(err) : err;
	}
	if (o->kvu)
		return kb_exit_status(compare_kvu(o, argc, argv));
	err = compare_two(o, argc, argv, &stopped);
	/* stopped: 130 (Ctrl-C), unless the file could not be written */
	if (stopped && err != -EIO)
		return kb_stop_exit_status();
	return kb_exit_status(err);
}
