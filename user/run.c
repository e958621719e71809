// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl run: measure routines (kernel, or the userspace twins).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "kbenchctl.h"
#include "nl.h"
#include "opts.h"
#include "output.h"
#include "run.h"
#include "svg.h"
#include "twin.h"

enum {
	OPT_CPU = 0x2000, OPT_SAMPLES, OPT_ITER, OPT_TARGET, OPT_WARMUP,
	OPT_HIST, OPT_LOG, OPT_RAW, OPT_CSV, OPT_SVG, OPT_LOGX, OPT_USER,
};

/* the userspace twins keep every sample in memory */
#define RUN_USER_SAMPLES_MAX	10000000

int run_main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		OPTS_COMMON,
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "iterations", required_argument, NULL, OPT_ITER },
		{ "target-ns", required_argument, NULL, OPT_TARGET },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "hist", no_argument, NULL, OPT_HIST },
		{ "log", no_argument, NULL, OPT_LOG },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "log-x", no_argument, NULL, OPT_LOGX },
		{ "user", no_argument, NULL, OPT_USER },
		OPTS_RESULTS,
		{ 0 }
	};
	struct kb_run_req q = { .progress = true };
	struct kb_results_opts res;
	const char *svg = NULL;
	bool user = false, csv = false, log_x = false, log_counts = false;
	unsigned int pflags = 0;
	struct kb_run r;
	int c, ret = EXIT_OK, err;

	kb_results_init(&res);
	optind = 0;
	while ((c = opts_next(argc, argv, "", longopts, &ret)) != -1) {
		switch (c) {
		case -2:
			return ret;
		default:
			if (kb_results_opt(&res, "run", c, optarg) < 0)
				return EXIT_USAGE;
			break;
		case OPT_CPU:
			if (opt_u32("run", "cpu", optarg, &q.cpu))
				return EXIT_USAGE;
			q.has_cpu = true;
			break;
		case OPT_SAMPLES:
			if (opt_u32("run", "samples", optarg, &q.samples))
				return EXIT_USAGE;
			q.has_samples = true;
			break;
		case OPT_ITER:
			if (opt_u32("run", "iterations", optarg, &q.iterations))
				return EXIT_USAGE;
			q.has_iterations = true;
			break;
		case OPT_TARGET:
			if (opt_u32("run", "target-ns", optarg, &q.target_ns))
				return EXIT_USAGE;
			q.has_target = true;
			break;
		case OPT_WARMUP:
			if (opt_u32("run", "warmup", optarg, &q.warmup))
				return EXIT_USAGE;
			q.has_warmup = true;
			break;
		case OPT_HIST:
			pflags |= KB_PRINT_HIST;
			break;
		case OPT_LOG:
			log_counts = true;
			break;
		case OPT_RAW:
			pflags |= KB_PRINT_RAW;
			break;
		case OPT_CSV:
			csv = true;
			break;
		case OPT_SVG:
			svg = optarg;
			break;
		case OPT_LOGX:
			log_x = true;
			break;
		case OPT_USER:
			user = true;
			break;
		}
	}
	if (optind >= argc)
		return usage_error("run", "which routine? (see '%s list')", prog);
	for (; optind < argc; optind++) {
		if (q.n == KBENCH_RUN_ROUTINES_MAX)
			return usage_error("run", "at most %d routines per run",
					   KBENCH_RUN_ROUTINES_MAX);
		if (!*argv[optind] || strlen(argv[optind]) > KBENCH_NAME_MAX)
			return usage_error("run", "bad routine name '%s'",
					   argv[optind]);
		q.names[q.n++] = argv[optind];
	}
	if (log_counts && !(pflags & KB_PRINT_HIST))
		return usage_error("run", "--log goes with --hist");
	if (log_x && !svg)
		return usage_error("run", "--log-x goes with --svg");
	if (csv && (opt_json || (pflags & (KB_PRINT_HIST | KB_PRINT_RAW))))
		return usage_error("run", "--csv replaces the summary: not with --json, --hist or --raw");
	if (log_counts)
		pflags |= KB_PRINT_LOG;
	if (q.has_samples && !q.samples)
		return usage_error("run", "--samples must be at least 1");
	if (q.has_iterations && !q.iterations)
		return usage_error("run", "--iterations must be at least 1");

	if (user && q.has_samples && q.samples > RUN_USER_SAMPLES_MAX)
		return usage_error("run", "--samples: at most %d with --user",
				   RUN_USER_SAMPLES_MAX);
	if (csv && res.baseline)
		return usage_error("run", "--csv replaces the summary: not with --baseline");
	err = kb_results_prepare(&res, "run");
	if (err)
		return err;
	err = kb_run_measure(&q, user, &r);
	if (err) {
		kb_results_free(&res);
		return err;
	}
	if (kb_run_analyze(&r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		kb_run_free(&r);
		kb_results_free(&res);
		return EXIT_FAIL;
	}
	if (csv) {
		kb_run_print_csv(&r, stdout);
		ret = kb_results_save(&res, &(const struct kb_run *){ &r },
				      &(const struct kb_run_req *){ &q }, 1,
				      argc, argv);
	} else {
		ret = kb_results_report(&res, &r, &q, pflags, argc, argv);
	}
	kb_results_free(&res);
	if (svg && kb_svg_write_file(svg, &r, log_x) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	if (r.status == KBENCH_RUN_TIMEOUT) {
		/* the result above is partial: say so and fail */
		fprintf(stderr, "%s: run stopped at the module's max_run_ms after %u of %u samples: %s\n",
			prog, r.nres ? r.res[0].samples : 0, r.samples,
			strerror(ETIME));
		ret = EXIT_FAIL;
	}
	kb_run_free(&r);
	return ret;
}
