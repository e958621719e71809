// SPDX-License-Identifier: GPL-2.0
/*
 * libkbench: kbench_measure(), kbench_measure_events() and
 * kbench_measure_net_cycles() - the engine of include/kbench/engine.h in
 * userspace.  The world's hooks: the counter table (counter.c), the event
 * rows (event.c), no gap between windows (interrupts are never off here,
 * so there is nothing to give back) and no abort check (a signal ends the
 * process as it would any other).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kbench/bodies.h>
#include <kbench/engine.h>
#include <kbench/summary.h>

#include "internal.h"
#include "kbench.h"

/* As the kernel's limits (kmod/kbench_internal.h) */
#define KB_ITERATIONS_LIMIT	(1U << 24)
#define KB_WARMUP_LIMIT		10000U
/* Every sample is kept in memory: 12 bytes per sample and series (and 8
 * per event). */
#define KB_SAMPLES_LIMIT	10000000U

/* The overhead routine: the loop alone, as kbench.ko's `empty'. */
static void kbench_lib_empty(unsigned int n, void *data)
{
	(void)data;
	kbench_body_empty(n);
}

static void kb_gap_none(struct kbench_engine *e, const struct kbench_window *w)
{
	(void)e;
	(void)w;
}

static int kb_check_none(struct kbench_engine *e)
{
	(void)e;
	return 0;
}

static const struct kbench_engine_ops kb_ops = {
	.gap = kb_gap_none,
	.check = kb_check_none,
};

static unsigned long long kb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * KBENCH_NSEC_PER_SEC +
	       (unsigned long long)ts.tv_nsec;
}

KB_EXPORT void kbench_request_init(struct kbench_request *req)
{
	memset(req, 0, sizeof(*req));
	req->nr_routines = 1;
	req->cpu = -1;
	req->samples = 1000;
	req->target_ns = 20000;
	req->warmup = 10;
}

KB_EXPORT void kbench_result_free(struct kbench_result *res)
{
	unsigned int i;

	if (!res)
		return;
	for (i = 0; i < KBENCH_MEASURE_ROUTINES_MAX; i++) {
		free(res->routine[i].net);
		free(res->routine[i].sample_flags);
		res->routine[i].net = NULL;
		res->routine[i].sample_flags = NULL;
	}
	free(res->overhead.net);
	free(res->overhead.sample_flags);
	res->overhead.net = NULL;
	res->overhead.sample_flags = NULL;
}

KB_EXPORT void kbench_events_result_free(struct kbench_events_result *evres)
{
	unsigned int x, i;

	if (!evres)
		return;
	for (x = 0; x < KBENCH_MEASURE_EVENTS_MAX; x++) {
		for (i = 0; i < KBENCH_MEASURE_ROUTINES_MAX; i++) {
			free(evres->event[x].routine[i].net);
			evres->event[x].routine[i].net = NULL;
		}
		free(evres->event[x].overhead.net);
		evres->event[x].overhead.net = NULL;
	}
}

static int kb_check_request(const struct kbench_request *req)
{
	unsigned int i;

	if (!req || !req->nr_routines ||
	    req->nr_routines > KBENCH_MEASURE_ROUTINES_MAX ||
	    !req->samples || req->samples > KB_SAMPLES_LIMIT ||
	    req->iterations > KB_ITERATIONS_LIMIT ||
	    req->warmup > KB_WARMUP_LIMIT || req->cpu < -1 ||
	    req->cpu >= CPU_SETSIZE || (!req->iterations && !req->target_ns))
		return -1;
	for (i = 0; i < req->nr_routines; i++)
		if (!req->routine[i].run)
			return -1;
	return 0;
}

/* Pin the calling thread to @cpu (-1: the current one); @old to restore. */
static int kb_pin(int cpu, cpu_set_t *old, unsigned int *pinned)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(*old), old))
		return -1;
	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -1;
	*pinned = (unsigned int)cpu;
	return 0;
}

static void kb_fill(struct kbench_series_result *out, const char *name,
		    const struct kbench_summary *sum,
		    struct kbench_engine_series *s)
{
	unsigned int bit;

	snprintf(out->name, sizeof(out->name), "%s", name);
	for (bit = 0; bit < KBENCH_MEASURE_REASONS; bit++)
		out->excluded_by[bit] = bit < KBENCH_SUMMARY_REASONS ?
					sum->excluded[bit] : 0;
#define KBENCH_COUNT(m, s, attr) out->m = sum->s;
#define KBENCH_SERIES(m, s, attr, ev_attr) out->m = sum->s;
#define KBENCH_CORR(m, s, attr) out->m = sum->s;
#include <kbench/schema.h>
	out->flags = sum->flags;
	/* the samples move to the result */
	out->net = s->net;
	out->sample_flags = s->flags;
	s->net = NULL;
	s->flags = NULL;
}

/* Event @x of series @s summarized into @out, whose samples it takes. */
static void kb_fill_event(struct kbench_event_series *out,
			  const struct kbench_summary *sum,
			  struct kbench_engine_series *s, unsigned int x)
{
#define KBENCH_SERIES(m, s, attr, ev_attr) out->m = sum->s;
#include <kbench/schema.h>
	out->net = s->xnet[x];
	s->xnet[x] = NULL;
}

/* The events of @evs, summarized over each series' valid samples. */
static void kb_fill_events(struct kbench_events_result *evres,
			   const struct kb_event *evs, unsigned int nev,
			   struct kbench_engine_series *series, unsigned int nr,
			   unsigned int nr_routines, unsigned int iterations,
			   kbench_s64 *scratch)
{
	struct kbench_event_result *er;
	struct kbench_summary sum;
	unsigned int x, i;

	evres->nr_events = nev;
	for (x = 0; x < nev; x++) {
		er = &evres->event[x];
		/* both 32 bytes, NUL-terminated by kb_events_open() */
		memcpy(er->name, evs[x].name, sizeof(er->name));
		er->type = evs[x].type;
		er->config = evs[x].config;
		snprintf(er->read, sizeof(er->read), "%s", evs[x].row->name);
		er->enabled_ns = evs[x].enabled;
		er->running_ns = evs[x].running;
		for (i = 0; i < nr; i++) {
			kbench_summarize(&sum, series[i].xnet[x],
					 series[i].flags, series[i].taken,
					 iterations, scratch);
			kb_fill_event(i < nr_routines ? &er->routine[i] :
				      &er->overhead, &sum, &series[i], x);
		}
	}
}

KB_EXPORT int kbench_measure(const struct kbench_request *req,
			     struct kbench_result *res)
{
	return kbench_measure_events(req, NULL, res, NULL);
}

KB_EXPORT int kbench_measure_events(const struct kbench_request *req,
				    const struct kbench_event_request *ev,
				    struct kbench_result *res,
				    struct kbench_events_result *evres)
{
	struct kbench_engine_series series[KBENCH_ENGINE_SERIES_MAX];
	struct kbench_summary sum[KBENCH_ENGINE_SERIES_MAX];
	struct kb_event evs[KBENCH_MEASURE_EVENTS_MAX];
	unsigned int nev = ev ? ev->nr_events : 0;
	const struct kbench_counter *row;
	struct kbench_counter ctr;
	struct kbench_engine e;
	unsigned int i, x, nr, pinned = 0;
	unsigned long long t0;
	kbench_s64 *scratch = NULL;
	char name[KBENCH_MEASURE_NAME_MAX + 1];
	cpu_set_t old;
	int err = 0, failed = -1;

	if (evres) {
		memset(evres, 0, sizeof(*evres));
		evres->failed = -1;
	}
	if (kb_check_request(req) || !res || nev > KBENCH_MEASURE_EVENTS_MAX ||
	    (nev && !evres)) {
		errno = EINVAL;
		return -1;
	}
	row = kb_counter_pick(req->counter);
	if (!row)
		return -1;
	ctr = *row;
	if (req->counter_hz)
		ctr.hz = req->counter_hz;

	memset(res, 0, sizeof(*res));
	memset(series, 0, sizeof(series));
	memset(&e, 0, sizeof(e));
	nr = req->nr_routines +
	     !(req->flags & KBENCH_REQUEST_F_NO_OVERHEAD);
	for (i = 0; i < nr; i++) {
		if (i < req->nr_routines) {
			series[i].run = req->routine[i].run;
			series[i].data = req->routine[i].data;
		} else {
			series[i].run = kbench_lib_empty;
			series[i].overhead = 1;
		}
		series[i].net = calloc(req->samples, sizeof(*series[i].net));
		series[i].flags = calloc(req->samples,
					 sizeof(*series[i].flags));
		if (!series[i].net || !series[i].flags)
			goto out_nomem;
		for (x = 0; x < nev; x++) {
			series[i].xnet[x] = calloc(req->samples,
						   sizeof(*series[i].xnet[x]));
			if (!series[i].xnet[x])
				goto out_nomem;
		}
		e.series[i] = &series[i];
	}
	scratch = calloc(req->samples, sizeof(*scratch));
	if (!scratch)
		goto out_nomem;

	e.counter = &ctr;
	e.ops = &kb_ops;
	e.nr_series = nr;
	e.samples = req->samples;
	e.warmup = req->warmup;
	e.adaptive = !req->iterations;
	e.iterations = req->iterations;
	e.iterations_limit = KB_ITERATIONS_LIMIT;
	e.target = kbench_ns_to_ticks(req->target_ns, ctr.hz);
	if (kb_pin(req->cpu, &old, &pinned)) {
		err = errno;
		goto out_free;
	}
	e.cpu = pinned;
	if (nev) {
		err = -kb_events_open(evs, nev, ev->name, ev->flags, &failed);
		if (err) {
			kb_events_release(evs, nev);
			sched_setaffinity(0, sizeof(old), &old);
			evres->failed = failed;
			goto out_free;
		}
		e.extra.nr = nev;
		for (x = 0; x < nev; x++) {
			e.extra.row[x] = evs[x].row;
			e.extra.ctx[x] = &evs[x];
		}
	}
	t0 = kb_now_ns();
	if (kbench_engine_run(&e))
		err = EIO;	/* no limit or check here can fail a run */
	res->elapsed_ns = kb_now_ns() - t0;
	if (nev && kb_events_close(evs, nev) && !err)
		err = EIO;	/* an event stopped counting */
	sched_setaffinity(0, sizeof(old), &old);
	if (err)
		goto out_free;

	for (i = 0; i < nr; i++)
		kbench_summarize(&sum[i], series[i].net, series[i].flags,
				 series[i].taken, e.iterations, scratch);
	for (i = 0; i < req->nr_routines && nr > req->nr_routines; i++)
		kbench_correct(&sum[i], &sum[req->nr_routines]);

	snprintf(res->counter, sizeof(res->counter), "%s", ctr.name);
	snprintf(res->counter_desc, sizeof(res->counter_desc), "%s", ctr.desc);
	res->counter_hz = ctr.hz;
	res->counter_flags = ctr.flags;
	res->cpu = pinned;
	res->iterations = e.iterations;
	res->adaptive = (uint32_t)e.adaptive;
	res->samples = req->samples;
	res->warmup = req->warmup;
	res->target_ns = req->target_ns;
	res->status = e.timed_out ? KBENCH_RUN_TIMEOUT : KBENCH_RUN_COMPLETE;
	res->span_ticks = e.span;
	res->routine_ticks = e.routine_ticks;
	res->window_ticks = e.window_ticks;
	res->nr_routines = req->nr_routines;
	/* before kb_fill(), which moves the flags to the result */
	if (nev)
		kb_fill_events(evres, evs, nev, series, nr, req->nr_routines,
			       e.iterations, scratch);
	for (i = 0; i < req->nr_routines; i++) {
		if (req->routine[i].name)
			snprintf(name, sizeof(name), "%s", req->routine[i].name);
		else
			snprintf(name, sizeof(name), "routine%u", i);
		kb_fill(&res->routine[i], name, &sum[i], &series[i]);
	}
	if (nr > req->nr_routines) {
		res->has_overhead = 1;
		kb_fill(&res->overhead, "empty", &sum[req->nr_routines],
			&series[req->nr_routines]);
	}
	goto out_free;

out_nomem:
	err = ENOMEM;
out_free:
	for (i = 0; i < KBENCH_ENGINE_SERIES_MAX; i++) {
		free(series[i].net);
		free(series[i].flags);
		for (x = 0; x < KBENCH_EXTRA_MAX; x++)
			free(series[i].xnet[x]);
	}
	free(scratch);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

KB_EXPORT double kbench_measure_net_cycles(void (*routine)(unsigned int,
							   void *),
					   unsigned int iterations, void *data,
					   unsigned int samples)
{
	struct kbench_request req;
	struct kbench_result res;
	double ticks;

	kbench_request_init(&req);
	req.routine[0].run = routine;
	req.routine[0].data = data;
	req.iterations = iterations;
	req.samples = samples;
	req.flags = KBENCH_REQUEST_F_NO_OVERHEAD;
	if (kbench_measure(&req, &res))
		return NAN;
	if (!res.routine[0].valid) {
		kbench_result_free(&res);
		errno = EAGAIN;
		return NAN;
	}
	ticks = (double)res.routine[0].net_min / (double)res.iterations;
	kbench_result_free(&res);
	return ticks;
}
