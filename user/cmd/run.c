// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl run: measure routines (kernel, or the userspace twins); save
 * the result (--save) and diff it against a saved one (--baseline).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "diff.h"
#include "diffprint.h"
#include "events.h"
#include "cmd.h"
#include "measure.h"
#include "output.h"
#include "report.h"
#include "result.h"
#include "runopts.h"
#include "runprint.h"
#include "svg.h"
#include "sweep.h"
#include "until.h"

/*
 * The run (short, or in full with -v and --json), then the diff against
 * the baseline: {"run": ..., "diff": ...} in JSON.  0 or -errno.
 */
static int report_baseline(const struct kb_run_opts *o, const struct kb_run *r,
			   unsigned int pflags, struct kb_resfile *base,
			   struct kb_resfile *now, bool *regressed)
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

int run_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct kb_resfile base = { 0 };
	struct kb_run_opts o;
	struct kb_results now;
	unsigned int pflags = 0;
	bool regressed = false;
	int ret = EXIT_OK, err;
	struct kb_run r = { 0 };
	struct kb_until u = { 0 };
	bool until;

	err = kb_run_opts_parse(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	until = o.has_precision || o.has_max_time;
	u.precision_pct = o.precision;
	u.max_time_s = o.max_time;
	if (o.hist)
		pflags |= KB_PRINT_HIST;
	if (o.log)
		pflags |= KB_PRINT_LOG;
	if (o.raw)
		pflags |= KB_PRINT_RAW;
	err = kb_pmu_check_events(sc->name, o.q.events, o.q.nevents);
	if (!err)
		err = o.user ? kb_run_opts_check_twins(&o, sc->name) :
			       kb_run_opts_check_module(&o, sc);
	if (err)
		return kb_exit_status(err);
	if ((o.cpus.spec && !o.cpus.hi) || o.cpus.each)
		return kb_cpus_main(&o);
	if (kb_sweep_is_sweep(&o.sweep))
		return kb_sweep_main(sc, &o, argc, argv, false);
	/* a bad baseline fails before the measurement, not after it */
	if (o.baseline) {
		err = kb_baseline_load(sc->name, o.baseline, &base);
		if (err)
			return kb_diff_exit_status(err, false);
	}
	err = until ? kb_measure_until(&o.q, o.user, &u, &r) :
		      kb_run_measure(&o.q, o.user, &r);
	if (err) {
		ret = kb_exit_status(err);
		goto out_free;
	}
	if (kb_run_analyze(&r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = EXIT_FAIL;
		goto out_free;
	}
	if (kb_report_no_valid(&r, stderr)) {
		ret = EXIT_FAIL;
		goto out_free;
	}
	if (o.save || o.baseline)
		kb_results_build(&now, &(const struct kb_run *){ &r },
				 &(const struct kb_run_req *){ &o.q }, 1, argc,
				 argv);
	if (o.csv) {
		/* the CSV stays clean: the warnings go to stderr */
		out_init(stderr, false);
		kb_env_print(&r.env, KB_ENV_VIEW_WARNINGS);
		out_init(stdout, false);
		kb_run_print_csv(&r, stdout);
	} else if (o.baseline) {
		err = report_baseline(&o, &r, pflags, &base, &now.rf, &regressed);
	} else if (opt_json || o.verbose) {
		kb_run_print(&r, pflags);
	} else {
		kb_report_run(&r, pflags);
	}
	if (o.baseline)
		ret = kb_diff_exit_status(err, regressed);
	if (o.save && kb_results_save(o.save, &now) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	if (o.svg && kb_svg_write_file(o.svg, &r, o.log_x) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	if (r.status == KBENCH_RUN_TIMEOUT) {
		/* the result above is partial: say so and fail */
		fprintf(stderr, "%s: %sthe run reached the module's max_run_ms after %u of %u samples: the figures are partial%s (ask for fewer --samples, or load kbench with a larger max_run_ms)\n",
			prog, kb_color(stderr, KB_WARN),
			r.nres ? r.res[0].samples : 0, r.samples,
			kb_color_end(stderr));
		ret = EXIT_FAIL;
	}
out_free:
	kb_resfile_free(&base);
	kb_run_free(&r);
	return ret;
}
