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

/*
 * Between rounds: the stop flag ends the samples phase with the rounds
 * taken (-ETIME, the engine's partial result) and fails a run that has
 * none yet (-EINTR); else the progress.
 */
static int kb_check_ctl(struct kbench_engine *e)
{
	struct kb_control *ctl = e->ctx;

	if (ctl->stop && *ctl->stop) {
		ctl->stopped = 1;
		return e->sampling ? -ETIME : -EINTR;
	}
	if (ctl->progress)
		ctl->progress(e->sampling ? e->done : 0, e->total, ctl->arg);
	return 0;
}

static const struct kbench_engine_ops kb_ops_ctl = {
	.gap = kb_gap_none,
	.check = kb_check_ctl,
};

unsigned long long kb_now_ns(void)
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
int kb_pin(int cpu, cpu_set_t *old, unsigned int *pinned)
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

/*
 * A run's parts (internal.h): @j set up for @req with @nev events' sample
 * arrays (and each sample's start kept with @keep_start).  0 or an errno.
 */
int kb_job_init(struct kb_job *j, const struct kbench_request *req,
		unsigned int nev, const struct kbench_engine_ops *ops,
		int keep_start)
{
	const struct kbench_counter *row;
	unsigned int i, x;

	memset(j, 0, sizeof(*j));
	if (kb_check_request(req) || nev > KBENCH_MEASURE_EVENTS_MAX)
		return EINVAL;
	row = kb_counter_pick(req->counter);
	if (!row)
		return errno;
	j->req = req;
	j->ctr = *row;
	if (req->counter_hz)
		j->ctr.hz = req->counter_hz;
	j->nr = req->nr_routines + !(req->flags & KBENCH_REQUEST_F_NO_OVERHEAD);
	for (i = 0; i < j->nr; i++) {
		struct kbench_engine_series *s = &j->series[i];

		if (i < req->nr_routines) {
			s->run = req->routine[i].run;
			s->data = req->routine[i].data;
		} else {
			s->run = kbench_lib_empty;
			s->overhead = 1;
		}
		s->net = calloc(req->samples, sizeof(*s->net));
		s->flags = calloc(req->samples, sizeof(*s->flags));
		if (keep_start)
			s->start = calloc(req->samples, sizeof(*s->start));
		if (!s->net || !s->flags || (keep_start && !s->start))
			return ENOMEM;
		for (x = 0; x < nev; x++) {
			s->xnet[x] = calloc(req->samples, sizeof(*s->xnet[x]));
			if (!s->xnet[x])
				return ENOMEM;
		}
		j->e.series[i] = s;
	}
	j->scratch = calloc(req->samples, sizeof(*j->scratch));
	if (!j->scratch)
		return ENOMEM;
	j->e.counter = &j->ctr;
	j->e.ops = ops;
	j->e.nr_series = j->nr;
	j->e.samples = req->samples;
	j->e.warmup = req->warmup;
	j->e.adaptive = !req->iterations;
	j->e.iterations = req->iterations;
	j->e.iterations_limit = KB_ITERATIONS_LIMIT;
	j->e.target = kbench_ns_to_ticks(req->target_ns, j->ctr.hz);
	return 0;
}

/* The engine's run of @j on @cpu (the calling thread pinned there). */
int kb_job_run(struct kb_job *j, unsigned int cpu)
{
	unsigned long long t0 = kb_now_ns();
	int err;

	j->e.cpu = cpu;
	err = kbench_engine_run(&j->e);
	j->elapsed_ns = kb_now_ns() - t0;
	return err;
}

/* @j's samples summarized into @res (and @evres: its @nev events). */
void kb_job_fill(struct kb_job *j, struct kbench_result *res,
		 struct kbench_events_result *evres, const struct kb_event *evs,
		 unsigned int nev)
{
	const struct kbench_request *req = j->req;
	struct kbench_summary sum[KBENCH_ENGINE_SERIES_MAX];
	char name[KBENCH_MEASURE_NAME_MAX + 1];
	struct kbench_engine_series *s = j->series;
	unsigned int i, nr = j->nr;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < nr; i++)
		kbench_summarize(&sum[i], s[i].net, s[i].flags, s[i].taken,
				 j->e.iterations, j->scratch);
	for (i = 0; i < req->nr_routines && nr > req->nr_routines; i++)
		kbench_correct(&sum[i], &sum[req->nr_routines]);

	snprintf(res->counter, sizeof(res->counter), "%s", j->ctr.name);
	snprintf(res->counter_desc, sizeof(res->counter_desc), "%s",
		 j->ctr.desc);
	res->counter_hz = j->ctr.hz;
	res->counter_flags = j->ctr.flags;
	res->cpu = j->e.cpu;
	res->iterations = j->e.iterations;
	res->adaptive = (uint32_t)j->e.adaptive;
	res->samples = req->samples;
	res->warmup = req->warmup;
	res->target_ns = req->target_ns;
	res->status = j->e.timed_out ? KBENCH_RUN_TIMEOUT : KBENCH_RUN_COMPLETE;
	res->elapsed_ns = j->elapsed_ns;
	res->span_ticks = j->e.span;
	res->routine_ticks = j->e.routine_ticks;
	res->window_ticks = j->e.window_ticks;
	res->nr_routines = req->nr_routines;
	/* before kb_fill(), which moves the flags to the result */
	if (nev)
		kb_fill_events(evres, evs, nev, s, nr, req->nr_routines,
			       j->e.iterations, j->scratch);
	for (i = 0; i < req->nr_routines; i++) {
		if (req->routine[i].name)
			snprintf(name, sizeof(name), "%s", req->routine[i].name);
		else
			snprintf(name, sizeof(name), "routine%u", i);
		kb_fill(&res->routine[i], name, &sum[i], &s[i]);
	}
	if (nr > req->nr_routines) {
		res->has_overhead = 1;
		kb_fill(&res->overhead, "empty", &sum[req->nr_routines],
			&s[req->nr_routines]);
	}
}

void kb_job_free(struct kb_job *j)
{
	unsigned int i, x;

	for (i = 0; i < KBENCH_ENGINE_SERIES_MAX; i++) {
		free(j->series[i].net);
		free(j->series[i].flags);
		free(j->series[i].start);
		for (x = 0; x < KBENCH_EXTRA_MAX; x++)
			free(j->series[i].xnet[x]);
	}
	free(j->scratch);
	memset(j, 0, sizeof(*j));
}

KB_EXPORT int kbench_measure_events(const struct kbench_request *req,
				    const struct kbench_event_request *ev,
				    struct kbench_result *res,
				    struct kbench_events_result *evres)
{
	return kb_measure_ctl(req, ev, res, evres, NULL);
}

int kb_measure_ctl(const struct kbench_request *req,
		   const struct kbench_event_request *ev,
		   struct kbench_result *res,
		   struct kbench_events_result *evres, struct kb_control *ctl)
{
	struct kb_event evs[KBENCH_MEASURE_EVENTS_MAX];
	unsigned int nev = ev ? ev->nr_events : 0;
	struct kb_job *j;
	unsigned int x, pinned = 0;
	cpu_set_t old;
	int err, failed = -1;

	if (evres) {
		memset(evres, 0, sizeof(*evres));
		evres->failed = -1;
	}
	if (!res || (nev && !evres)) {
		errno = EINVAL;
		return -1;
	}
	j = malloc(sizeof(*j));
	if (!j) {
		errno = ENOMEM;
		return -1;
	}
	if (ctl)
		ctl->stopped = 0;
	err = kb_job_init(j, req, nev, ctl ? &kb_ops_ctl : &kb_ops, 0);
	if (err)
		goto out_free;
	j->e.ctx = ctl;
	if (kb_pin(req->cpu, &old, &pinned)) {
		err = errno;
		goto out_free;
	}
	if (nev) {
		err = -kb_events_open(evs, nev, ev->name, ev->flags, &failed);
		if (err) {
			kb_events_release(evs, nev);
			sched_setaffinity(0, sizeof(old), &old);
			evres->failed = failed;
			goto out_free;
		}
		j->e.extra.nr = nev;
		for (x = 0; x < nev; x++) {
			j->e.extra.row[x] = evs[x].row;
			j->e.extra.ctx[x] = &evs[x];
		}
	}
	if (kb_job_run(j, pinned))
		/* no limit here can fail a run; the stop flag can */
		err = ctl && ctl->stopped ? EINTR : EIO;
	if (nev && kb_events_close(evs, nev) && !err)
		err = EIO;	/* an event stopped counting */
	sched_setaffinity(0, sizeof(old), &old);
	if (!err) {
		kb_job_fill(j, res, evres, evs, nev);
		/* stopped, not timed out: the status says the run's end */
		if (ctl && ctl->stopped)
			res->status = KBENCH_RUN_COMPLETE;
	}
out_free:
	kb_job_free(j);
	free(j);
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
