// SPDX-License-Identifier: GPL-2.0
/*
 * Core cycles without a PMU (core.h): the calibration's request, its
 * figures, and a run's figures converted with it.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbench/bodies.h>

#include "base.h"
#include "blockboot.h"
#include "core.h"
#include "result.h"
#include "stats.h"

const char kb_core_assumes[] =
	"assumes a register add takes 1 core cycle, one frequency over a window, rounds independent; an SMT sibling's load is in both";

#define CORE_KEY(key, m)	{ key, offsetof(struct kb_core, m) }
const struct kb_core_key kb_core_doubles[] = {
	CORE_KEY("ticks_per_cycle", ratio),
	CORE_KEY("ticks_per_cycle_ci95_lo", ci_lo),
	CORE_KEY("ticks_per_cycle_ci95_hi", ci_hi),
	CORE_KEY("ticks_per_cycle_ci95_widening", ci_widen),
	CORE_KEY("lo_median_ticks", lo_median),
	CORE_KEY("hi_median_ticks", hi_median),
	CORE_KEY("rounds_lag1_autocorr", lag1),
	{ NULL, 0 }
};

/* uint64_t rounds, then the uint32_t lengths */
const struct kb_core_key kb_core_ints[] = {
	CORE_KEY("rounds", rounds),
	CORE_KEY("lo_adds", lo_adds),
	CORE_KEY("hi_adds", hi_adds),
	{ NULL, 0 }
};

/* The index of @name at @arg (has_arg: with one) among @cq's routines. */
static int find(const struct kb_run_req *cq, const char *name, bool has_arg,
		uint64_t arg)
{
	unsigned int i;

	for (i = 0; i < cq->n; i++) {
		if (strcmp(cq->names[i], name))
			continue;
		if (!has_arg || (cq->nargs == cq->n && cq->args[i] == arg))
			return (int)i;
	}
	return -1;
}

/* Append @name (at @arg, when args are per routine) unless it is there. */
static int add(const char *sub, struct kb_run_req *cq, const char *name,
	       bool has_arg, uint64_t arg, unsigned int *slot)
{
	int at = find(cq, name, has_arg, arg);

	if (at >= 0) {
		*slot = (unsigned int)at;
		return 0;
	}
	if (cq->n == KBENCH_RUN_ROUTINES_MAX)
		return kb_arg_error(sub, "--unit core measures its calibration (2 chains of adds) in the run: at most %d routines besides it",
				    KBENCH_RUN_ROUTINES_MAX - 2);
	*slot = cq->n;
	cq->names[cq->n] = name;
	if (has_arg)
		cq->args[cq->nargs++] = arg;
	cq->n++;
	return 0;
}

int kb_core_request(const char *sub, const struct kb_run_req *q,
		    struct kb_run_req *cq, unsigned int slot[2])
{
	unsigned int i;
	int err;

	*cq = *q;
	if (!q->nargs) {
		/*
		 * No argument: the routines take none or their default, so
		 * the short chain is the built-in core_cal and the long one
		 * add_n at its default (KBENCH_CORE_HI_ADDS).
		 */
		err = add(sub, cq, "core_cal", false, 0, &slot[0]);
		return err ? err : add(sub, cq, "add_n", false, 0, &slot[1]);
	}
	/*
	 * Arguments: every routine takes one (else the run is refused), so
	 * they become one per routine and the chains are add_n at both
	 * lengths.
	 */
	if (q->nargs == 1)
		for (i = 0; i < q->n; i++)
			cq->args[i] = q->args[0];
	cq->nargs = cq->n;
	err = add(sub, cq, "add_n", true, KBENCH_CORE_LO_ADDS, &slot[0]);
	return err ? err : add(sub, cq, "add_n", true, KBENCH_CORE_HI_ADDS,
			      &slot[1]);
}

/* The valid samples of @x (NAN: flagged) sorted into @out; their count. */
static size_t valid_sorted(const double *x, size_t n, double *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(x[i]))
			out[k++] = x[i];
	qsort(out, k, sizeof(*out), kb_cmp_double);
	return k;
}

static double median_valid(const double *x, size_t n, double *scratch)
{
	size_t k = valid_sorted(x, n, scratch);

	return k ? kb_median_sorted(scratch, k) : NAN;
}

int kb_core_extract(struct kb_run *r, const unsigned int slot[2],
		    unsigned int nuser)
{
	const struct kb_result *lo = &r->res[slot[0]], *hi = &r->res[slot[1]];
	struct kb_core *c = &r->core;
	double *xl, *xh, *d, *s;
	size_t n = lo->n < hi->n ? lo->n : hi->n, i, k;
	struct kb_stats st;
	unsigned int j;
	int err = 0;

	memset(c, 0, sizeof(*c));
	c->lo_adds = KBENCH_CORE_LO_ADDS;
	c->hi_adds = KBENCH_CORE_HI_ADDS;
	xl = kb_series_of(lo->net, lo->sflags, lo->n, r->iterations);
	xh = kb_series_of(hi->net, hi->sflags, hi->n, r->iterations);
	d = malloc((n ? n : 1) * sizeof(*d));
	s = malloc((n ? n : 1) * sizeof(*s) + (lo->n + hi->n + 1) * sizeof(*s));
	if (!xl || !xh || !d || !s) {
		err = -ENOMEM;
		goto out_free;
	}
	/*
	 * round i: sample i of each chain (the engine's rotation); the
	 * difference of the integer nets first, so that exact counts give an
	 * exact ratio (0.0625 on arm64's CNTVCT, not 0.0625 + 1 ulp)
	 */
	for (i = 0; i < n; i++)
		d[i] = isnan(xl[i]) || isnan(xh[i]) ? NAN :
		       (double)(hi->net[i] - lo->net[i]) /
		       (double)(r->iterations ? r->iterations : 1) /
		       (double)(c->hi_adds - c->lo_adds);
	c->lo_median = median_valid(xl, lo->n, s);
	c->hi_median = median_valid(xh, hi->n, s);
	k = valid_sorted(d, n, s);
	if (!k) {
		fprintf(stderr, "%s: --unit core: the calibration has no round with both chains valid (%s: %u valid, %s: %u valid): no core cycles\n",
			prog, lo->routine, lo->valid, hi->routine, hi->valid);
		err = -ENODATA;
		goto out_free;
	}
	kb_stats_sorted(s, k, &st);
	kb_median_ci_series(d, n, s, k, &st);
	c->ratio = st.median;
	c->ci_lo = st.ci_lo;
	c->ci_hi = st.ci_hi;
	c->ci_widen = st.ci_widen;
	c->rounds = k;
	c->lag1 = kb_lag1_autocorr(d, n);
	if (!(c->ratio > 0)) {
		fprintf(stderr, "%s: --unit core: the calibration's %u adds cost %.3f ticks (median over %zu rounds): the counter does not resolve them, no core cycles (more --target-ns?)\n",
			prog, c->hi_adds - c->lo_adds,
			c->ratio * (c->hi_adds - c->lo_adds), k);
		err = -ENODATA;
		goto out_free;
	}
	c->have = true;
	/* the chains appended for the calibration leave the run */
	for (j = nuser; j < r->nres; j++)
		kb_result_free(&r->res[j]);
	r->nres = nuser;
out_free:
	free(xl);
	free(xh);
	free(d);
	free(s);
	return err;
}

void kb_core_apply(struct kb_run *r)
{
	unsigned int i;

	if (!r->core.have || r->core.on || r->metric[0])
		return;
	for (i = 0; i < r->nres; i++)
		kb_result_scale(&r->res[i], r->core.ratio);
	if (r->has_overhead)
		kb_result_scale(&r->overhead, r->core.ratio);
	r->core.on = true;
}

void kb_core_unapply(struct kb_run *r)
{
	unsigned int i;

	if (!r->core.on)
		return;
	for (i = 0; i < r->nres; i++)
		kb_result_scale(&r->res[i], 1 / r->core.ratio);
	if (r->has_overhead)
		kb_result_scale(&r->overhead, 1 / r->core.ratio);
	r->core.on = false;
}
