// SPDX-License-Identifier: GPL-2.0
/*
 * libkbench: kbench_measure_cpus() - one request measured at the same time
 * on several CPUs, a pinned thread and an engine each, their windows
 * started together at the engine's rendezvous (engine.h).  Each thread
 * probes on its own; agree() is a round where all take the smallest N
 * (the engine's fit with the windows started together, which calls it
 * again, runs only with a window bound, which libkbench does not set).
 * An error on any thread sets the rendezvous' abort: nobody waits for
 * it any more, at the rendezvous or in agree().  After the run each
 * sample's start skew (the latest start minus the earliest, on the
 * counter, which must be synchronized across CPUs:
 * KBENCH_COUNTER_F_CONSTANT) is computed and the samples over the bound
 * flagged skew on every CPU, before the summaries.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kbench.h"

#define KB_CPUS_MAX	CPU_SETSIZE

struct kb_cpus;

struct kb_thread {
	struct kb_job job;		/* first: container of job.e */
	struct kbench_sync sync;
	struct kbench_request req;	/* its own data */
	struct kb_cpus *all;
	pthread_t th;
	int cpu, err, started;
};

/*
 * The threads of one request: agree()'s rounds (include/kbench/engine.h),
 * under @lock; @rv.abort, set under @lock too, ends every wait.
 */
struct kb_cpus {
	struct kbench_rendezvous rv;
	struct kbench_rounds agree;
	pthread_cond_t cond;
	unsigned int nr;
	pthread_mutex_t lock;
};

static struct kb_thread *kb_thread_of(struct kbench_engine *e)
{
	return (struct kb_thread *)((char *)e - offsetof(struct kb_thread, job.e));
}

static void kb_cpus_gap(struct kbench_engine *e, const struct kbench_window *w)
{
	(void)e;
	(void)w;
}

/* another thread failed: stop this one too */
static int kb_cpus_check(struct kbench_engine *e)
{
	return kbench_load_once(&kb_thread_of(e)->all->rv.abort) ? -ECANCELED : 0;
}

/* Stop every thread: the rendezvous and every agree() wait. */
static void kb_cpus_abort(struct kb_cpus *a)
{
	pthread_mutex_lock(&a->lock);
	__atomic_store_n(&a->rv.abort, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
}

/* One round of agree(): every thread reports its N, all take the smallest. */
static int kb_cpus_agree(struct kbench_engine *e)
{
	struct kb_cpus *a = kb_thread_of(e)->all;
	unsigned int round;
	int err = 0;

	pthread_mutex_lock(&a->lock);
	round = kbench_rounds_report(&a->agree, e->iterations, a->nr);
	if (kbench_rounds_over(&a->agree, round))
		pthread_cond_broadcast(&a->cond);
	while (!kbench_rounds_over(&a->agree, round) && !a->rv.abort)
		pthread_cond_wait(&a->cond, &a->lock);
	if (a->rv.abort)
		err = -ECANCELED;
	else
		e->iterations = a->agree.agreed_n;
	pthread_mutex_unlock(&a->lock);
	return err;
}

static const struct kbench_engine_ops kb_cpus_ops = {
	.gap = kb_cpus_gap,
	.check = kb_cpus_check,
	.agree = kb_cpus_agree,
};

static void *kb_cpus_main(void *p)
{
	struct kb_thread *t = p;
	unsigned int pinned;
	cpu_set_t old;
	int err;

	if (kb_pin(t->cpu, &old, &pinned))
		t->err = errno;
	else if ((err = kb_job_run(&t->job, pinned)))
		t->err = err == -ECANCELED ? ECANCELED : EIO;
	if (t->err)
		kb_cpus_abort(t->all);
	return NULL;
}

static int kb_cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a,
			   y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* Each sample's skew into @res; the bound by default a tenth of a window. */
static int kb_cpus_skew(struct kb_thread *t, unsigned int nr,
			const struct kbench_cpus_request *cr,
			struct kbench_cpus_result *res)
{
	struct kbench_engine *e[KB_CPUS_MAX];
	unsigned int c, k, j, n = 0, taken = t[0].job.series[0].taken;
	unsigned long long windows = 0, *sorted;

	for (c = 0; c < nr; c++) {
		e[c] = &t[c].job.e;
		for (k = 0; k < t[c].job.nr; k++)
			if (t[c].job.series[k].taken < taken)
				taken = t[c].job.series[k].taken;
	}
	for (k = 0; k < t[0].job.nr; k++)
		windows += t[0].job.series[k].taken;
	res->skew_bound = cr->skew_bound ? cr->skew_bound :
			  windows ? t[0].job.e.window_ticks / windows / 10 : 0;
	res->skew = calloc((size_t)taken * t[0].job.nr + 1, sizeof(*res->skew));
	sorted = calloc((size_t)taken * t[0].job.nr + 1, sizeof(*sorted));
	if (!res->skew || !sorted) {
		free(sorted);
		return ENOMEM;
	}
	for (k = 0; k < t[0].job.nr; k++)
		for (j = 0; j < taken; j++) {
			res->skew[n] = kbench_engine_skew(e, nr, k, j,
							  res->skew_bound);
			for (c = 0; c < nr; c++)
				if (t[c].job.series[k].flags[j] &
				    KBENCH_SAMPLE_F_SKEW)
					break;
			res->skew_flagged += c < nr;
			sorted[n] = res->skew[n];
			n++;
		}
	res->skew_samples = n;
	qsort(sorted, n, sizeof(*sorted), kb_cmp_u64);
	res->skew_max = n ? sorted[n - 1] : 0;
	res->skew_median = n ? sorted[(n - 1) / 2] : 0;
	free(sorted);
	return 0;
}

KB_EXPORT int kbench_measure_cpus(const struct kbench_request *req,
				  const struct kbench_cpus_request *cr,
				  struct kbench_cpus_result *res)
{
	struct kbench_rendezvous_slot *slot = NULL;
	struct kb_thread *t = NULL;
	struct kb_cpus all;
	unsigned int c, i, nr, started = 0;
	cpu_set_t seen;
	int err = 0;

	if (!req || !cr || !res || !cr->nr_cpus || cr->nr_cpus > KB_CPUS_MAX ||
	    !cr->cpus) {
		errno = EINVAL;
		return -1;
	}
	nr = cr->nr_cpus;
	memset(res, 0, sizeof(*res));
	CPU_ZERO(&seen);
	for (c = 0; c < nr; c++) {
		if (cr->cpus[c] < 0 || cr->cpus[c] >= CPU_SETSIZE ||
		    CPU_ISSET(cr->cpus[c], &seen)) {
			errno = EINVAL;	/* a bad or repeated CPU */
			return -1;
		}
		CPU_SET(cr->cpus[c], &seen);
	}
	memset(&all, 0, sizeof(all));
	t = calloc(nr, sizeof(*t));
	slot = aligned_alloc(128, nr * sizeof(*slot));
	res->cpu = calloc(nr, sizeof(*res->cpu));
	if (!t || !slot || !res->cpu) {
		err = ENOMEM;
		goto out;
	}
	memset(slot, 0, nr * sizeof(*slot));
	all.nr = nr;
	all.agree.min_n = KBENCH_ROUNDS_NONE;
	all.rv.nr = nr;
	all.rv.slot = slot;
	pthread_mutex_init(&all.lock, NULL);
	pthread_cond_init(&all.cond, NULL);
	for (c = 0; c < nr && !err; c++) {
		t[c].req = *req;
		t[c].req.cpu = cr->cpus[c];
		for (i = 0; cr->data && i < req->nr_routines; i++)
			t[c].req.routine[i].data = cr->data[c * req->nr_routines + i];
		t[c].cpu = cr->cpus[c];
		t[c].all = &all;
		t[c].sync.rv = &all.rv;
		t[c].sync.slot = c;
		err = kb_job_init(&t[c].job, &t[c].req, 0, &kb_cpus_ops, 1);
		t[c].job.e.extra.sync = &t[c].sync;
	}
	if (err)
		goto out_sync;
	/* a window waits at most spin_limit ticks: 1 ms by default */
	all.rv.spin_limit = cr->spin_limit ? cr->spin_limit :
			    t[0].job.ctr.hz / 1000;
	for (c = 0; c < nr; c++) {
		if (pthread_create(&t[c].th, NULL, kb_cpus_main, &t[c])) {
			/* the ones to come never report: nobody waits for them */
			kb_cpus_abort(&all);
			err = EAGAIN;
			break;
		}
		started++;
	}
	for (c = 0; c < started; c++) {
		pthread_join(t[c].th, NULL);
		/* the first real error, not the others' ECANCELED */
		if (t[c].err && (!err || err == ECANCELED))
			err = t[c].err;
	}
	if (!err)
		err = kb_cpus_skew(t, nr, cr, res);
	if (!err) {
		res->nr_cpus = nr;
		for (c = 0; c < nr; c++)
			kb_job_fill(&t[c].job, &res->cpu[c], NULL, NULL, 0);
	}
out_sync:
	pthread_cond_destroy(&all.cond);
	pthread_mutex_destroy(&all.lock);
out:
	for (c = 0; t && c < nr; c++)
		kb_job_free(&t[c].job);
	free(t);
	free(slot);
	if (err) {
		kbench_cpus_result_free(res);
		errno = err;
		return -1;
	}
	return 0;
}

KB_EXPORT void kbench_cpus_result_free(struct kbench_cpus_result *res)
{
	unsigned int c;

	if (!res)
		return;
	for (c = 0; res->cpu && c < res->nr_cpus; c++)
		kbench_result_free(&res->cpu[c]);
	free(res->cpu);
	free(res->skew);
	res->cpu = NULL;
	res->skew = NULL;
	res->nr_cpus = 0;
}
