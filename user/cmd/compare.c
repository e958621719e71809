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

#include "diff.h"
#include "events.h"
#include "cmd.h"
#include "measure.h"
#include "nl.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "runopts.h"
#include "runprint.h"
#include "runreq.h"
#include "svg.h"
#include "sweep.h"
#include "twin.h"
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

static int compare_two(struct kb_run_opts *o, int argc, char *argv[])
{
	bool until = o->has_precision || o->has_max_time;
	bool full = opt_json || o->verbose;
	struct kb_until u = {
		.compare = true, .precision_pct = o->precision,
		.threshold_pct = o->threshold, .max_time_s = o->max_time,
	};
	struct kb_run r = { 0 };
	int err, saved;

	u.c.threshold_pct = o->threshold;
	err = until ? kb_measure_until(&o->q, o->user, &u, &r) :
		      kb_run_measure(&o->q, o->user, &r);
	if (err) {
		kb_run_free(&r);
		return err;
	}
	saved = save_runs(o, &(const struct kb_run *){ &r }, 1, argc, argv);
	use_metric(o, &(struct kb_run *){ &r }, 1);
	if (kb_run_analyze(&r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		kb_run_free(&r);
		return -ENOMEM;
	}
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

int compare_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct kb_run_opts o;
	int err;

	err = kb_run_opts_parse(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	if (o.kvu && !kb_twin_find(o.q.names[0]))
		return kb_exit_status(kb_arg_error(sc->name, "no userspace twin for '%s' (twins: " KB_TWIN_NAMES ")",
						   o.q.names[0]));
	err = kb_pmu_check_events(sc->name, o.q.events, o.q.nevents);
	if (!err)
		err = o.user ? kb_run_opts_check_twins(&o, sc->name) :
			       kb_run_opts_check_module(&o, sc);
	if (!err && o.kvu)
		err = kb_run_opts_check_twins(&o, sc->name);
	if (err)
		return kb_exit_status(err);
	if (kb_sweep_is_sweep(&o.sweep))
		return kb_sweep_main(sc, &o, argc, argv, true);
	err = o.kvu ? compare_kvu(&o, argc, argv) : compare_two(&o, argc, argv);
	return kb_exit_status(err);
}
