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
#include "kbenchctl.h"
#include "nl.h"
#include "opts.h"
#include "output.h"
#include "run.h"
#include "svg.h"
#include "twin.h"

enum {
	OPT_CPU = 0x2000, OPT_SAMPLES, OPT_ITER, OPT_THRESHOLD, OPT_SEED,
	OPT_SVG, OPT_LOGX, OPT_KVU, OPT_USER, OPT_WARMUP,
};

#define COMPARE_DEFAULT_SEED	1

struct cmp_opts {
	struct kb_run_req q;
	double threshold;
	uint64_t seed;
	const char *svg;
	bool log_x, kvu, user;
	struct kb_results_opts results;	/* --save */
	int argc;
	char **argv;
};

/* Comparison of b against a, printed (table or JSON "comparison"). */
int kb_compare_print(const struct kb_run *r, const struct kb_result *a,
		     const struct kb_result *b, double threshold, uint64_t seed)
{
	const struct kb_stats *sa = &a->st, *sb = &b->st;
	struct kb_compare c = { .threshold_pct = threshold };
	double u = NAN, d;
	char text[256];

	if (!sa->count || !sb->count) {
		fprintf(stderr, "%s: no valid samples to compare\n", prog);
		return -EINVAL;
	}
	c.rel_median_pct = (sb->median - sa->median) / sa->median * 100;
	if (kb_bootstrap_rel_median_ci(a->sorted, sa->count, b->sorted,
				       sb->count, KB_BOOTSTRAP_RESAMPLES, seed,
				       &c.ci_lo_pct, &c.ci_hi_pct) ||
	    kb_mann_whitney(a->sorted, sa->count, b->sorted, sb->count, &u,
			    &c.p)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -ENOMEM;
	}
	kb_compare_decide(&c);
	kb_compare_text(&c, a->routine, b->routine, text, sizeof(text));

	out_text("\ncomparison (%s - %s, cycles/iter):\n", b->routine, a->routine);
	out_open_object("comparison");
	out_string("a", NULL, a->routine);
	out_string("b", NULL, b->routine);
	d = sb->median - sa->median;
	out_double("median_diff_cycles", "  median diff  %+12.3f cycles", d);
	out_double("median_diff_ns", " %+12.3f ns", kb_run_ns(r, d));
	out_double("median_rel_diff_pct", " %+8.3f%%\n", c.rel_median_pct);
	d = sb->mean - sa->mean;
	out_double("mean_diff_cycles", "  mean diff    %+12.3f cycles", d);
	out_double("mean_diff_ns", " %+12.3f ns", kb_run_ns(r, d));
	out_double("mean_rel_diff_pct", " %+8.3f%%\n", d / sa->mean * 100);
	out_double("rel_diff_ci95_lo_pct", "  95%% CI of the relative median diff (bootstrap): %+.3f%%",
		   c.ci_lo_pct);
	out_double("rel_diff_ci95_hi_pct", " .. %+.3f%%", c.ci_hi_pct);
	out_uint("bootstrap_resamples", " (%llu resamples", KB_BOOTSTRAP_RESAMPLES);
	out_uint("seed", ", seed %llu)\n", seed);
	out_double("z", "  Z = %.3f", kb_z(sa, sb));
	out_double("mann_whitney_u", ", Mann-Whitney U = %.1f", u);
	out_double("p_value", ", p = %.3g\n", c.p);
	out_double("threshold_pct", NULL, threshold);
	out_string("verdict", NULL, kb_verdict_name(c.verdict));
	out_bool("below_threshold", NULL, c.below_threshold);
	out_string("verdict_text", "%s\n", text);
	out_close_object();
	return 0;
}

static int compare_two(struct cmp_opts *o)
{
	struct kb_run r;
	unsigned int i;
	int err, ret = EXIT_OK;

	err = kb_run_measure(&o->q, o->user, &r);
	if (err)
		return err;
	if (kb_run_analyze(&r) || r.nres != 2) {
		fprintf(stderr, "%s: incomplete run\n", prog);
		kb_run_free(&r);
		return EXIT_FAIL;
	}
	out_open_object(NULL);
	kb_run_print_header(&r);
	out_open_array("routines");
	for (i = 0; i < 2; i++) {
		out_text("\n");
		out_open_object(NULL);
		kb_result_print(&r, &r.res[i], 0);
		out_close_object();
	}
	out_close_array();
	if (r.has_overhead) {
		out_text("\n");
		out_open_object("overhead");
		kb_result_print(&r, &r.overhead, KB_PRINT_BRIEF);
		out_close_object();
	}
	if (kb_compare_print(&r, &r.res[0], &r.res[1], o->threshold, o->seed))
		ret = EXIT_FAIL;
	out_close_object();
	out_finish();
	if (o->svg && kb_svg_write_file(o->svg, &r, o->log_x))
		ret = EXIT_FAIL;
	if (kb_results_save(&o->results, &(const struct kb_run *){ &r },
			    &(const struct kb_run_req *){ &o->q }, 1, o->argc,
			    o->argv))
		ret = EXIT_FAIL;
	kb_run_free(&r);
	return ret;
}

/*
 * Kernel vs userspace report.  Inflation is per sample (an interrupt adds
 * its cost to one window, whatever N is): user net - kernel median net.
 */
int kb_kvu_print(const struct kb_run *k, const struct kb_run *u)
{
	const struct kb_result *kr = &k->res[0], *ur = &u->res[0];
	const struct kb_stats *ks = &kr->st, *us = &ur->st;
	double n = k->iterations ? k->iterations : 1;
	double kmed = ks->median * n, kmax = ks->max * n;
	double infl_med, infl_p99, infl_max;
	size_t inflated = 0, i;

	if (!ks->count || !us->count) {
		fprintf(stderr, "%s: no valid samples to compare\n", prog);
		return -EINVAL;
	}
	for (i = 0; i < us->count; i++)
		if (ur->sorted[i] * n > kmax)
			inflated++;
	infl_med = us->median * n - kmed;
	infl_p99 = us->p99 * n - kmed;
	infl_max = us->max * n - kmed;

	out_text("\nkernel vs userspace (%s, cpu %u, %u iterations per sample):\n",
		 kr->routine, k->cpu, k->iterations);
	out_open_object("kernel_vs_user");
	out_open_object("kernel_baseline");
	out_double("min_cycles_per_iter", "  kernel baseline (irqs off): min %.3f",
		   ks->min);
	out_double("median_cycles_per_iter", ", median %.3f", ks->median);
	out_double("max_cycles_per_iter", ", max %.3f cycles/iter\n", ks->max);
	out_double("min_net_cycles", NULL, ks->min * n);
	out_double("median_net_cycles", NULL, kmed);
	out_double("max_net_cycles", NULL, kmax);
	out_close_object();
	out_open_object("user");
	out_double("min_cycles_per_iter", "  userspace:                  min %.3f",
		   us->min);
	out_double("median_cycles_per_iter", ", median %.3f", us->median);
	out_double("p99_cycles_per_iter", ", p99 %.3f", us->p99);
	out_double("max_cycles_per_iter", ", max %.3f cycles/iter\n", us->max);
	out_close_object();
	out_uint("inflated", "  inflated above the kernel max: %llu", inflated);
	out_uint("user_samples", " of %llu", us->count);
	out_double("inflated_pct", " (%.2f%%)\n",
		   (double)inflated / (double)us->count * 100);
	out_open_object("inflation");
	out_text("  inflation per sample (user - kernel median):\n");
	out_double("median_cycles", "    median %12.1f cycles", infl_med);
	out_double("median_ns", " %12.1f ns\n", kb_run_ns(k, infl_med));
	out_double("p99_cycles", "    p99    %12.1f cycles", infl_p99);
	out_double("p99_ns", " %12.1f ns\n", kb_run_ns(k, infl_p99));
	out_double("max_cycles", "    max    %12.1f cycles", infl_max);
	out_double("max_ns", " %12.1f ns\n", kb_run_ns(k, infl_max));
	out_close_object();
	out_close_object();
	return 0;
}

static int compare_kvu(struct cmp_opts *o)
{
	const struct kb_run *runs[2];
	static const char *const labels[2] = { "kernel", "userspace" };
	struct kb_twin_req tq = { .n = 1 };
	struct kb_run k, u;
	struct kb_nl nl;
	int err, ret = EXIT_OK;

	if (!kb_twin_find(o->q.names[0])) {
		fprintf(stderr, "%s: no userspace twin for '%s' (twins: empty, add_chain, mul_chain, load_l1)\n",
			prog, o->q.names[0]);
		return EXIT_USAGE;
	}
	err = kb_nl_open(&nl);
	if (err)
		return err == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
	err = kb_run_kernel(&nl, &o->q, &k);
	kb_nl_close(&nl);
	if (err || kb_run_analyze(&k) || !k.nres) {
		kb_run_free(&k);
		return EXIT_FAIL;
	}
	/* the same CPU, N, sample count and counter rate as the kernel side */
	tq.names[0] = o->q.names[0];
	tq.cpu = (int)k.cpu;
	tq.samples = k.samples;
	tq.iterations = k.iterations;
	tq.warmup = k.warmup;
	tq.target_ns = k.target_ns;
	tq.counter_hz = k.counter_hz;
	err = kb_twin_run(&tq, &u);
	if (err || kb_run_analyze(&u)) {
		kb_run_free(&k);
		kb_run_free(&u);
		return EXIT_FAIL;
	}
	snprintf(u.kernel, sizeof(u.kernel), "%s", k.kernel);
	snprintf(u.date, sizeof(u.date), "%s", k.date);

	out_open_object(NULL);
	out_text("kernel side: ");
	out_open_object("kernel");
	kb_run_print_header(&k);
	kb_result_print(&k, &k.res[0], 0);
	out_close_object();
	out_text("\nuserspace side: ");
	out_open_object("user");
	kb_run_print_header(&u);
	kb_result_print(&u, &u.res[0], 0);
	out_close_object();
	if (kb_kvu_print(&k, &u))
		ret = EXIT_FAIL;
	out_close_object();
	out_finish();
	runs[0] = &k;
	runs[1] = &u;
	if (o->svg && kb_svg_write_runs(o->svg, runs, labels, 2, o->log_x))
		ret = EXIT_FAIL;
	if (kb_results_save(&o->results, runs,
			    (const struct kb_run_req *const[]){ &o->q, &o->q },
			    2, o->argc, o->argv))
		ret = EXIT_FAIL;
	kb_run_free(&k);
	kb_run_free(&u);
	return ret;
}

int compare_main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		OPTS_COMMON,
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "iterations", required_argument, NULL, OPT_ITER },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "log-x", no_argument, NULL, OPT_LOGX },
		{ "kernel-vs-user", no_argument, NULL, OPT_KVU },
		{ "user", no_argument, NULL, OPT_USER },
		{ "save", required_argument, NULL, OPT_RESULTS_SAVE },
		{ 0 }
	};
	struct cmp_opts o = { .threshold = 1, .seed = COMPARE_DEFAULT_SEED,
			      .argc = argc, .argv = argv };
	int c, ret = EXIT_OK;

	o.q.progress = true;
	kb_results_init(&o.results);
	optind = 0;
	while ((c = opts_next(argc, argv, "", longopts, &ret)) != -1) {
		switch (c) {
		case -2:
			return ret;
		case OPT_CPU:
			if (opt_u32("compare", "cpu", optarg, &o.q.cpu))
				return EXIT_USAGE;
			o.q.has_cpu = true;
			break;
		case OPT_SAMPLES:
			if (opt_u32("compare", "samples", optarg, &o.q.samples))
				return EXIT_USAGE;
			if (!o.q.samples)
				return usage_error("compare", "--samples must be at least 1");
			o.q.has_samples = true;
			break;
		case OPT_ITER:
			if (opt_u32("compare", "iterations", optarg, &o.q.iterations))
				return EXIT_USAGE;
			if (!o.q.iterations)
				return usage_error("compare", "--iterations must be at least 1");
			o.q.has_iterations = true;
			break;
		case OPT_WARMUP:
			if (opt_u32("compare", "warmup", optarg, &o.q.warmup))
				return EXIT_USAGE;
			o.q.has_warmup = true;
			break;
		case OPT_THRESHOLD:
			if (parse_double(optarg, &o.threshold) || o.threshold < 0)
				return usage_error("compare", "--threshold: '%s' is not a percentage >= 0",
						   optarg);
			break;
		case OPT_SEED:
			if (parse_u64(optarg, &o.seed))
				return usage_error("compare", "--seed: '%s' is not a number",
						   optarg);
			break;
		case OPT_SVG:
			o.svg = optarg;
			break;
		case OPT_LOGX:
			o.log_x = true;
			break;
		case OPT_KVU:
			o.kvu = true;
			break;
		case OPT_USER:
			o.user = true;
			break;
		case OPT_RESULTS_SAVE:
			kb_results_opt(&o.results, "compare", c, optarg);
			break;
		}
	}
	for (; optind < argc; optind++) {
		if (o.q.n == 2)
			return usage_error("compare", "unexpected argument '%s'",
					   argv[optind]);
		if (!*argv[optind] || strlen(argv[optind]) > KBENCH_NAME_MAX)
			return usage_error("compare", "bad routine name '%s'",
					   argv[optind]);
		o.q.names[o.q.n++] = argv[optind];
	}
	if (o.log_x && !o.svg)
		return usage_error("compare", "--log-x goes with --svg");
	if (o.kvu) {
		if (o.q.n != 1)
			return usage_error("compare", "--kernel-vs-user takes one routine");
		if (o.user)
			return usage_error("compare", "--kernel-vs-user and --user exclude each other");
		return compare_kvu(&o);
	}
	if (o.q.n != 2)
		return usage_error("compare", "compare needs two routines (or one with --kernel-vs-user)");
	return compare_two(&o);
}
