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

#include "kbenchctl.h"
#include "nl.h"
#include "output.h"
#include "run.h"
#include "runopts.h"
#include "svg.h"
#include "twin.h"

/* Comparison of b against a, printed (table or JSON "comparison"). */
static int kb_compare_print(const struct kb_run *r, const struct kb_result *a,
		     const struct kb_result *b, double threshold, uint64_t seed)
{
	const struct kb_stats *sa = &a->st, *sb = &b->st;
	struct kb_compare c = { .threshold_pct = threshold };
	double u = NAN, d;
	char text[256];

	if (!sa->count || !sb->count) {
		fprintf(stderr, "%s: no valid samples to compare\n", prog);
		return -ENODATA;
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

static int compare_two(struct kb_run_opts *o)
{
	struct kb_run r;
	unsigned int i;
	int err;

	err = kb_run_measure(&o->q, o->user, &r);
	if (err)
		return err;
	if (kb_run_analyze(&r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		kb_run_free(&r);
		return -ENOMEM;
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
	err = kb_compare_print(&r, &r.res[0], &r.res[1], o->threshold, o->seed);
	out_close_object();
	out_finish();
	/* the file could not be written (the message names it) */
	if (o->svg && kb_svg_write_file(o->svg, &r, o->log_x) && !err)
		err = -EIO;
	kb_run_free(&r);
	return err;
}

/*
 * Kernel vs userspace report.  Inflation is per sample (an interrupt adds
 * its cost to one window, whatever N is): user net - kernel median net.
 */
static int kb_kvu_print(const struct kb_run *k, const struct kb_run *u)
{
	const struct kb_result *kr = &k->res[0], *ur = &u->res[0];
	const struct kb_stats *ks = &kr->st, *us = &ur->st;
	double n = k->iterations ? k->iterations : 1;
	double kmed = ks->median * n, kmax = ks->max * n;
	double infl_med, infl_p99, infl_max;
	size_t inflated = 0, i;

	if (!ks->count || !us->count) {
		fprintf(stderr, "%s: no valid samples to compare\n", prog);
		return -ENODATA;
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

static int compare_kvu(struct kb_run_opts *o)
{
	const struct kb_run *runs[2];
	static const char *const labels[2] = { "kernel", "userspace" };
	struct kb_twin_req tq = { .n = 1 };
	struct kb_run k, u;
	struct kb_nl nl;
	int err;

	err = kb_nl_open(&nl);
	if (err)
		return err;
	err = kb_run_kernel(&nl, &o->q, &k);
	kb_nl_close(&nl);
	if (!err && kb_run_analyze(&k))
		err = -ENOMEM;
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
	err = kb_twin_run(&tq, &u);
	if (!err && kb_run_analyze(&u))
		err = -ENOMEM;
	if (err) {
		kb_run_free(&k);
		kb_run_free(&u);
		return err;
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
	err = kb_kvu_print(&k, &u);
	out_close_object();
	out_finish();
	runs[0] = &k;
	runs[1] = &u;
	if (o->svg && kb_svg_write_runs(o->svg, runs, labels, 2, o->log_x) &&
	    !err)
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
		return err > 0 ? EXIT_OK : kb_exit_status(err);
	if (o.kvu && !kb_twin_find(o.q.names[0]))
		return kb_exit_status(kb_arg_error(sc->name, "no userspace twin for '%s' (twins: empty, add_chain, mul_chain, load_l1)",
						   o.q.names[0]));
	if (!o.user) {
		err = kb_run_opts_check_module(&o, sc->opts_in);
		if (err)
			return kb_exit_status(err);
	}
	err = o.kvu ? compare_kvu(&o) : compare_two(&o);
	return kb_exit_status(err);
}
