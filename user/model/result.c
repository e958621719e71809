// SPDX-License-Identifier: GPL-2.0
/*
 * Runs: the data model of a run and its results (result.h), the kernel's
 * integer summary recomputed from the samples and the userspace statistics
 * of the samples.  No netlink (nl/runreq.c fills a run from the kernel's
 * reply), no printing (output/runprint.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include <kbench/summary.h>

#include "base.h"
#include "blockboot.h"
#include "result.h"

int kb_result_push(struct kb_result *res, int64_t net, uint32_t flags)
{
	if (res->n == res->cap) {
		size_t cap = res->cap ? res->cap * 2 : 1024;
		int64_t *n2 = realloc(res->net, cap * sizeof(*n2));
		uint32_t *f2;

		if (!n2)
			return -ENOMEM;
		res->net = n2;
		f2 = realloc(res->sflags, cap * sizeof(*f2));
		if (!f2)
			return -ENOMEM;
		res->sflags = f2;
		res->cap = cap;
	}
	res->net[res->n] = net;
	res->sflags[res->n] = flags;
	res->n++;
	return 0;
}

int kb_result_push_event(struct kb_result *res, unsigned int x, int64_t net)
{
	struct kb_ev_result *ev = &res->ev[x];

	if (ev->n == ev->cap) {
		size_t cap = ev->cap ? ev->cap * 2 : 1024;
		int64_t *n2 = realloc(ev->net, cap * sizeof(*n2));

		if (!n2)
			return -ENOMEM;
		ev->net = n2;
		ev->cap = cap;
	}
	ev->net[ev->n++] = net;
	return 0;
}

/*
 * The kernel's exact integer summary recomputed from the samples, with the
 * kernel's own code (include/kbench/summary.h): the same figures to the
 * last digit.  The corrected figures stay as they are.
 */
void kb_result_summarize(struct kb_result *res, uint32_t iterations)
{
	struct kbench_summary sum;
	kbench_s64 *scratch;
	unsigned int i;

	scratch = malloc((res->n ? res->n : 1) * sizeof(*scratch));
	if (!scratch)
		return;
	kbench_summarize(&sum, res->net, res->sflags, (unsigned int)res->n,
			 iterations, scratch);
	free(scratch);
	for (i = 0; i < KB_EXCL_N; i++)
		res->excl[i] = sum.excluded[i];
	/* the corrected figures stay as they are */
#define KBENCH_COUNT(m, s, attr) res->m = sum.s;
#define KBENCH_SERIES(m, s, attr, ev_attr) res->m = sum.s;
#include <kbench/schema.h>
	res->flags = (res->flags & ~KBENCH_RESULT_F_EXCLUDED) | sum.flags;
}

double kb_run_ns(const struct kb_run *r, double cycles)
{
	if (r->metric[0])
		return NAN;
	if (r->core.on)
		cycles *= r->core.ratio;
	return r->counter_hz ? cycles * 1e9 / (double)r->counter_hz : NAN;
}

/*
 * The one place that names what a run's per-iteration figures count.
 * The counter (TSC, CNTVCT, timebase) ticks at a fixed rate, not with the
 * core, so its figures are "ticks" (the header names the counter and its
 * rate); "cycles" only where a core-cycle event took the counter's place,
 * "core cycles" where --unit core's calibration divided them (core.h).
 */
const char *kb_run_status_name(const struct kb_run *r)
{
	return r->interrupted ? "interrupted" :
	       r->status == KBENCH_RUN_TIMEOUT ? "timeout" : "complete";
}

const char *kb_run_partial(const struct kb_run *r)
{
	if (r->interrupted)
		return "interrupted";
	return r->status == KBENCH_RUN_TIMEOUT ? "timeout" : NULL;
}

uint32_t kb_run_samples_taken(const struct kb_run *r)
{
	/* the samples held; the summary's count where none were fetched */
	if (!r->nres)
		return 0;
	return r->res[0].n ? (uint32_t)r->res[0].n : r->res[0].samples;
}

const char *kb_run_unit(const struct kb_run *r)
{
	if (r->metric[0])
		return r->metric;
	/* --unit core: the counter's ticks divided by the calibration */
	return r->core.on ? "core cycles" : "ticks";
}

const char *kb_run_unit_text(const struct kb_run *r, char *buf, size_t len)
{
	const char *u = kb_run_unit(r);

	if (r->metric[0] || r->core.on || !r->counter[0])
		snprintf(buf, len, "%s", u);
	else
		snprintf(buf, len, "%s %s", r->counter, u);
	return buf;
}

int kb_run_event_index(const struct kb_run *r, const char *name)
{
	unsigned int x;

	for (x = 0; x < r->nevents; x++)
		if (!strcmp(r->events[x].name, name))
			return (int)x;
	return -1;
}

/*
 * The valid ones of @n samples (@net, @flags) per iteration, sorted, into
 * *@sorted (replaced), and their statistics.
 */
static int analyze_values(const int64_t *net, const uint32_t *flags, size_t n,
			  uint32_t iterations, double **sorted,
			  struct kb_stats *st)
{
	size_t i, k = 0;
	double *x;

	free(*sorted);
	*sorted = malloc((n ? n : 1) * sizeof(double));
	if (!*sorted)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!flags[i])
			(*sorted)[k++] = (double)net[i] /
					 (double)(iterations ? iterations : 1);
	qsort(*sorted, k, sizeof(double), kb_cmp_double);
	kb_stats_sorted(*sorted, k, st);
	/* the median's interval from the samples in time order (blockboot.h) */
	x = kb_series_of(net, flags, n, iterations);
	if (!x)
		return -ENOMEM;
	kb_median_ci_series(x, n, *sorted, k, st);
	free(x);
	return 0;
}

double *kb_series_of(const int64_t *net, const uint32_t *flags, size_t n,
		     uint32_t iterations)
{
	double *x = malloc((n ? n : 1) * sizeof(*x));
	size_t i;

	if (!x)
		return NULL;
	for (i = 0; i < n; i++)
		x[i] = flags[i] ? NAN : (double)net[i] /
				       (double)(iterations ? iterations : 1);
	return x;
}

int kb_result_analyze(struct kb_result *res, uint32_t iterations)
{
	unsigned int x;
	int err;

	err = analyze_values(res->net, res->sflags, res->n, iterations,
			     &res->sorted, &res->st);
	if (err)
		return err;
	res->have_stats = res->n > 0;
	for (x = 0; x < KBENCH_EVENTS_MAX; x++) {
		struct kb_ev_result *ev = &res->ev[x];

		/* an event's samples are the result's, or it has none */
		if (!ev->net || ev->n != res->n)
			continue;
		err = analyze_values(ev->net, res->sflags, ev->n, iterations,
				     &ev->sorted, &ev->st);
		if (err)
			return err;
		ev->have_stats = ev->n > 0;
	}
	return 0;
}

int kb_run_analyze(struct kb_run *r)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < r->nres; i++)
		err = err ? err : kb_result_analyze(&r->res[i], r->iterations);
	if (r->has_overhead)
		err = err ? err : kb_result_analyze(&r->overhead, r->iterations);
	return err;
}

void kb_run_correct_events(struct kb_run *r)
{
	struct kbench_summary s, o;
	unsigned int i, x;

	if (!r->has_overhead)
		return;
	for (i = 0; i < r->nres; i++) {
		for (x = 0; x < r->nevents; x++) {
			struct kb_ev_result *ev = &r->res[i].ev[x];

			memset(&s, 0, sizeof(s));
			memset(&o, 0, sizeof(o));
			s.per_iter_min_milli = ev->per_iter_min_milli;
			s.per_iter_median_milli = ev->per_iter_median_milli;
			o.per_iter_min_milli = r->overhead.ev[x].per_iter_min_milli;
			o.per_iter_median_milli =
				r->overhead.ev[x].per_iter_median_milli;
			kbench_correct(&s, &o);
			ev->corr_min_milli = s.corr_min_milli;
			ev->corr_median_milli = s.corr_median_milli;
		}
	}
}

static void ev_free(struct kb_ev_result *ev)
{
	free(ev->net);
	free(ev->sorted);
	memset(ev, 0, sizeof(*ev));
}

/* Event @x's figures in the counter's place in @res; the counter's go. */
static void result_take_event(struct kb_result *res, int x)
{
	struct kb_ev_result ev = { 0 };
	unsigned int k;

	if (x >= 0) {
		ev = res->ev[x];
		memset(&res->ev[x], 0, sizeof(res->ev[x]));
	}
	for (k = 0; k < KBENCH_EVENTS_MAX; k++)
		ev_free(&res->ev[k]);
	free(res->net);
	free(res->sorted);
#define KBENCH_SERIES(m, s, attr, ev_attr) res->m = ev.m;
#define KBENCH_CORR(m, s, attr) res->m = ev.m;
#include <kbench/schema.h>
	res->net = ev.net;
	res->sorted = NULL;
	res->have_stats = false;
	if (x < 0) {
		/* no such event: no samples at all */
		res->n = res->cap = 0;
		res->valid = 0;
		return;
	}
	res->cap = ev.cap;
	if (ev.n != res->n)
		res->n = 0;
}

void kb_run_use_metric(struct kb_run *r, const char *name)
{
	int x = kb_run_event_index(r, name);
	unsigned int i;

	kb_run_correct_events(r);
	for (i = 0; i < r->nres; i++)
		result_take_event(&r->res[i], x);
	if (r->has_overhead)
		result_take_event(&r->overhead, x);
	snprintf(r->metric, sizeof(r->metric), "%s", name);
	r->metric_missing = x < 0;
	r->nevents = 0;
}

/* Per-iteration figures of @st divided by @k (ratios stay). */
static void scale_stats(struct kb_stats *st, double k)
{
	st->min /= k;
	st->max /= k;
	st->mean /= k;
	st->stddev /= k;
	st->median /= k;
	st->mad /= k;
	st->p1 /= k;
	st->p5 /= k;
	st->p25 /= k;
	st->p75 /= k;
	st->p95 /= k;
	st->p99 /= k;
	st->ci_lo /= k;
	st->ci_hi /= k;
	st->mode.mode /= k;
}

void kb_result_scale(struct kb_result *res, double k)
{
	size_t i;

	if (res->have_stats) {
		for (i = 0; i < res->st.count; i++)
			res->sorted[i] /= k;
		scale_stats(&res->st, k);
	}
	res->scale = (res->scale > 0 ? res->scale : 1) * k;
}

double kb_result_milli(const struct kb_result *res, int64_t milli)
{
	return (double)milli / 1000 / (res->scale > 0 ? res->scale : 1);
}

void kb_run_per_copy(struct kb_run *r)
{
	unsigned int i;

	if (r->unroll <= 1 || r->per_copy)
		return;
	for (i = 0; i < r->nres; i++)
		kb_result_scale(&r->res[i], r->unroll);
	r->per_copy = true;
}

void kb_result_free(struct kb_result *res)
{
	unsigned int x;

	free(res->net);
	free(res->sflags);
	free(res->divs);
	free(res->sorted);
	for (x = 0; x < KBENCH_EVENTS_MAX; x++)
		ev_free(&res->ev[x]);
	memset(res, 0, sizeof(*res));
}

void kb_run_free(struct kb_run *r)
{
	unsigned int i;

	for (i = 0; i < KBENCH_RUN_ROUTINES_MAX; i++)
		kb_result_free(&r->res[i]);
	kb_result_free(&r->overhead);
	memset(r, 0, sizeof(*r));
}

void kb_run_stamp(struct kb_run *r)
{
	struct utsname u;
	time_t now = time(NULL);

	if (!r->kernel[0] && !uname(&u))
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
	kb_iso_utc(now, r->date, sizeof(r->date));
}

void kb_run_env(struct kb_run *r)
{
	/* what held while the run went on, even if INFO missed it */
	if (r->kenv.known)
		r->kenv.flags |= r->env_flags & KBENCH_ENV_F_PSEUDO_NMI;
	kb_env_collect(&r->env, &r->kenv, (int)r->cpu);
	r->has_env = true;
}

/* Event @x of @r is perf's generic @config (by any of its names)? */
static bool event_is(const struct kb_run *r, unsigned int x,
		     unsigned long long config)
{
	return r->events[x].type == PERF_TYPE_HARDWARE &&
	       r->events[x].config == config;
}

void kb_result_derived(const struct kb_run *r, const struct kb_result *res,
		       struct kb_derived *d)
{
	int64_t insns = 0, cycles = 0;
	bool has_i = false, has_c = false;
	unsigned int x;

	d->ipc = NAN;
	d->hz = NAN;
	if (r->metric[0] || !res->valid)
		return;
	for (x = 0; x < r->nevents; x++) {
		if (event_is(r, x, PERF_COUNT_HW_INSTRUCTIONS)) {
			insns = res->ev[x].net_sum;
			has_i = true;
		} else if (event_is(r, x, PERF_COUNT_HW_CPU_CYCLES)) {
			cycles = res->ev[x].net_sum;
			has_c = true;
		}
	}
	if (has_i && has_c && cycles > 0)
		d->ipc = (double)insns / (double)cycles;
	if (has_c && res->net_sum > 0 && r->counter_hz)
		d->hz = (double)cycles / (double)res->net_sum *
			(double)r->counter_hz;
}

/* --- the field tables of schema.h, expanded from the lists --- */

#define FIELD(type_, key, t, m, attr_, fmt_, has_)			\
	{ key, KB_FT_##t, offsetof(type_, m),				\
	  sizeof(((type_ *)0)->m), attr_, fmt_, has_, NULL, 0 }

#define RUN_FIELD(m, t, attr, fmt) \
	FIELD(struct kb_run, #m, t, m, attr, fmt, 0),
const struct kb_field kb_run_fields[] = {
	KB_RUN_FIELDS(RUN_FIELD)
	{ NULL }
};

#define RESULT_FIELD(m, t, attr) \
	FIELD(struct kb_result, #m, t, m, attr, NULL, 0),
/* an optional one: null in a saved file, as not there */
#define RESULT_OPT(m, t, attr, has) \
	{ #m, KB_FT_##t, offsetof(struct kb_result, m), \
	  sizeof(((struct kb_result *)0)->m), attr, NULL, \
	  offsetof(struct kb_result, has), NULL, KB_NULL_READ },
/*
 * struct kb_result's own members from a RESULT nest (the flags, written
 * as names, are not here)
 */
const struct kb_field kb_result_fields[] = {
#define KBENCH_ID(m, t, attr)		RESULT_FIELD(m, t, attr)
#define KBENCH_ID_OPT(m, t, attr, has)	RESULT_OPT(m, t, attr, has)
#include <kbench/schema.h>
	{ NULL }
};

const struct kb_field kb_summary_fields[] = {
#define KBENCH_COUNT(m, sum, attr) \
	FIELD(struct kb_result, #m, U32, m, attr, NULL, 0),
#define KBENCH_SERIES(m, sum, attr, ev_attr) \
	FIELD(struct kb_result, #m, S64, m, attr, NULL, 0),
#define KBENCH_CORR(m, sum, attr) \
	FIELD(struct kb_result, #m, S64, m, attr, NULL, \
	      offsetof(struct kb_result, has_corr)),
#include <kbench/schema.h>
	{ NULL }
};

const struct kb_field kb_ev_fields[] = {
#define KBENCH_SERIES(m, sum, attr, ev_attr) \
	FIELD(struct kb_ev_result, #m, S64, m, ev_attr, NULL, 0),
#define KBENCH_CORR(m, sum, attr) \
	FIELD(struct kb_ev_result, #m, S64, m, 0, NULL, 0),
#include <kbench/schema.h>
	{ NULL }
};

const struct kb_field kb_excl_fields[] = {
#define KBENCH_EXCL(bit, id, key, flag, attr) \
	FIELD(struct kb_result, key, U32, excl[bit], attr, NULL, 0),
#include <kbench/schema.h>
	{ NULL }
};

const char *const kb_excl_key[KB_EXCL_N] = {
#define KBENCH_EXCL(bit, id, key, flag, attr) [bit] = key,
#include <kbench/schema.h>
};
