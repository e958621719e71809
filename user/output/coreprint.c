// SPDX-License-Identifier: GPL-2.0
/*
 * The core-cycle calibration of a run (model/core.h) in its report: the
 * ratio with its interval and what it assumes; where the run counted
 * core cycles with the PMU too, how far the two agree.
 */
#include <math.h>
#include <string.h>

#include <linux/perf_event.h>

#include "coreprint.h"
#include "output.h"
#include "core.h"
#include "result.h"

/* The PMU's core cycles per iteration of @res, or NAN when not counted. */
static double pmu_cycles(const struct kb_run *r, const struct kb_result *res)
{
	unsigned int x;

	for (x = 0; x < r->nevents; x++)
		if (r->events[x].type == PERF_TYPE_HARDWARE &&
		    r->events[x].config == PERF_COUNT_HW_CPU_CYCLES &&
		    res->ev[x].have_stats && res->ev[x].st.count)
			return res->ev[x].st.median;
	return NAN;
}

/* Emulation (TCG): a "core cycle" there is what the emulator makes of it. */
static bool emulated(const struct kb_run *r)
{
	const struct kb_env_item *hv = &r->env.item[KB_ENV_HYPERVISOR];

	return r->has_env && hv->known && strstr(hv->value, "TCG");
}

void kb_core_print(const struct kb_run *r)
{
	const struct kb_core *c = &r->core;
	const struct kb_env_item *smt = &r->env.item[KB_ENV_SMT];
	unsigned int i;
	bool any;
	double hz;

	if (!c->have)
		return;
	hz = r->counter_hz ? (double)r->counter_hz / c->ratio : NAN;
	out_open_object("core");
	out_double("ticks_per_cycle", "core cycles: 1 core cycle = %.4f",
		   c->ratio);
	out_string("counter", " %s ticks", r->counter);
	out_double("ticks_per_cycle_ci95_lo", " (95%% CI [%.4f", c->ci_lo);
	out_double("ticks_per_cycle_ci95_hi", ", %.4f])", c->ci_hi);
	out_double("ticks_per_cycle_ci95_widening", NULL, c->ci_widen);
	out_double("core_hz", NULL, hz);
	out_text(", the core at %.3f GHz\n", hz / 1e9);
	out_uint("lo_adds", "  calibrated in this run: add chains of %llu",
		 c->lo_adds);
	out_uint("hi_adds", " and %llu dependent adds", c->hi_adds);
	out_uint("rounds", " interleaved with the routines, %llu rounds",
		 c->rounds);
	out_double("lo_median_ticks", " (medians %.3f", c->lo_median);
	out_double("hi_median_ticks", " and %.3f ticks/iter)", c->hi_median);
	out_double("rounds_lag1_autocorr", ", lag-1 autocorrelation %.2f\n",
		   c->lag1);
	out_string("assumes", "  %s\n", kb_core_assumes);
	if (emulated(r))
		out_string("warning", "  warning: %s\n",
			   "emulated CPU (TCG): a core cycle here is the emulator's cost of an add, not a cycle of any core (under -icount shift=0: exactly one instruction)");
	else if (r->has_env && smt->known && smt->problem)
		out_string("warning", "  warning: %s\n",
			   "the SMT sibling is online: its load slows the adds and the routines alike, so the figures are cycles of the core as shared");
	/* the PMU's own count, where there is one: how far they agree */
	for (i = 0, any = false; i < r->nres; i++) {
		const struct kb_result *res = &r->res[i];
		double p = pmu_cycles(r, res);

		if (!(p > 0) || !res->have_stats || !res->st.count)
			continue;
		if (!any)
			out_open_array("pmu_agreement");
		any = true;
		out_open_object(NULL);
		out_string("routine", "  %s:", res->routine);
		out_double("calibrated_cycles", " calibrated %.3f",
			   res->st.median);
		out_double("pmu_cycles", ", PMU cycles %.3f", p);
		out_double("diff_pct", " per iteration (calibrated %+.2f%%)\n",
			   (res->st.median / p - 1) * 100);
		out_close_object();
	}
	if (any)
		out_close_array();
	out_close_object();
}
