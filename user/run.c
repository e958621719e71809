// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl run: measure routines (kernel, or the userspace twins).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "kbenchctl.h"
#include "output.h"
#include "report.h"
#include "run.h"
#include "runopts.h"
#include "svg.h"

int run_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct kb_run_opts o;
	unsigned int pflags = 0;
	struct kb_run r;
	int ret = EXIT_OK, err;

	err = kb_run_opts_parse(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	if (o.hist)
		pflags |= KB_PRINT_HIST;
	if (o.log)
		pflags |= KB_PRINT_LOG;
	if (o.raw)
		pflags |= KB_PRINT_RAW;
	if (!o.user) {
		err = kb_run_opts_check_module(&o, sc->opts_in);
		if (err)
			return kb_exit_status(err);
	}
	err = kb_run_measure(&o.q, o.user, &r);
	if (err)
		return kb_exit_status(err);
	if (kb_run_analyze(&r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		kb_run_free(&r);
		return EXIT_FAIL;
	}
	if (o.csv) {
		/* the CSV stays clean: the warnings go to stderr */
		out_init(stderr, false);
		kb_env_print(&r.env, KB_ENV_VIEW_WARNINGS);
		out_init(stdout, false);
		kb_run_print_csv(&r, stdout);
	}
	else if (opt_json || o.verbose)
		kb_run_print(&r, pflags);
	else
		kb_report_run(&r, pflags);
	if (o.svg && kb_svg_write_file(o.svg, &r, o.log_x))
		ret = EXIT_FAIL;
	if (r.status == KBENCH_RUN_TIMEOUT) {
		/* the result above is partial: say so and fail */
		fprintf(stderr, "%s: %sthe run reached the module's max_run_ms after %u of %u samples: the figures are partial%s (ask for fewer --samples, or load kbench with a larger max_run_ms)\n",
			prog, kb_color(stderr, KB_WARN),
			r.nres ? r.res[0].samples : 0, r.samples,
			kb_color_end(stderr));
		ret = EXIT_FAIL;
	}
	kb_run_free(&r);
	return ret;
}
