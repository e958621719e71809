// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace twins: the loop bodies of kbench.ko (include/kbench/bodies.h)
 * timed by libkbench, which compiles the kernel's own engine
 * (include/kbench/engine.h), on a pinned thread.  Interrupts and
 * scheduling stay on here: that is the point.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <kbench.h>
#include <kbench/bodies.h>
#include <kbench/contend.h>

#include "base.h"
#include "internal.h"
#include "meter.h"
#include "result.h"
#include "stop.h"
#include "twin.h"
#include "uprims.h"

static void twin_empty(unsigned int n, void *data)
{
	(void)data;
	kbench_body_empty(n);
}

static void twin_add_chain(unsigned int n, void *data)
{
	(void)data;
	kbench_body_add_chain(n);
}

static void twin_mul_chain(unsigned int n, void *data)
{
	(void)data;
	kbench_body_mul_chain(n);
}

static void twin_load_l1(unsigned int n, void *data)
{
	kbench_body_load_l1(n, data);
}

/* The argument travels as the data, as in kbench.ko's add_n. */
static void twin_add_n(unsigned int n, void *data)
{
	kbench_body_add_n(n, (unsigned int)(uintptr_t)data);
}

/* add_n's body at the calibration's short length (bodies.h) */
static void twin_core_cal(unsigned int n, void *data)
{
	(void)data;
	kbench_body_add_n(n, KBENCH_CORE_LO_ADDS);
}

/*
 * foo and foobar: kbench_example's null experiment, the same jhash of 64
 * bytes in two functions at two addresses (noinline, as the module's).
 */
static unsigned char twin_jhash_buf[KBENCH_JHASH_BYTES]
	__attribute__((aligned(64)));
static volatile unsigned int twin_jhash_sink;

/* one body, two functions: the copy is the experiment, so a macro makes it */
#define TWIN_JHASH(fn)							\
static __attribute__((noinline)) void fn(unsigned int n, void *data)	\
{									\
	unsigned int h = 0;						\
									\
	(void)data;							\
	while (n--)							\
		h = kbench_jhash64(twin_jhash_buf, h);			\
	twin_jhash_sink = h;						\
}

TWIN_JHASH(twin_foo)
TWIN_JHASH(twin_foobar)

/*
 * The contention routines (include/kbench/contend.h): their data, shared
 * by all CPUs of a concurrent run or one line per CPU (@c: the CPU's index
 * in the run, 0 alone), zeroed once, set up for all threads before they
 * start.  A lock is free again after every run.  Each routine its own
 * lines: the counter and the lock share a line's bytes (a union).
 */
static struct kbench_line twin_shared[3] __attribute__((aligned(128)));
static struct kbench_line twin_percpu[2][KB_TWIN_CPUS_MAX]
	__attribute__((aligned(128)));

static void *twin_atomic_shared(unsigned int c)
{
	(void)c;
	return &twin_shared[0].counter;
}

static void *twin_atomic_percpu(unsigned int c)
{
	return &twin_percpu[0][c].counter;
}

static void *twin_spin_shared(unsigned int c)
{
	(void)c;
	return &twin_shared[1].lock;
}

static void *twin_spin_percpu(unsigned int c)
{
	return &twin_percpu[1][c].lock;
}

static void *twin_pingpong_word(unsigned int c)
{
	return &twin_shared[2].word[c % KBENCH_LINE_WORDS];
}

static void twin_atomic(unsigned int n, void *data)
{
	kbench_body_atomic_inc(n, data);
}

static void twin_lock(unsigned int n, void *data)
{
	kbench_body_tas_lock(n, data);
}

static void twin_store(unsigned int n, void *data)
{
	kbench_body_store(n, data);
}

const struct kb_twin kb_twins[] = {
	{ .name = "empty", .desc = "empty loop (overhead)", .run = twin_empty,
	  .insns = KBENCH_INSNS_EMPTY },
	{ .name = "add_chain", .desc = "4 dependent register adds",
	  .run = twin_add_chain, .insns = KBENCH_INSNS_ADD_CHAIN },
	{ .name = "mul_chain", .desc = "4 dependent multiplies",
	  .run = twin_mul_chain, .insns = KBENCH_INSNS_MUL_CHAIN },
	{ .name = "load_l1", .desc = "4 dependent L1 loads (pointer chase)",
	  .run = twin_load_l1, .insns = KBENCH_INSNS_LOAD_L1 },
	{ .name = "add_n", .desc = "arg dependent adds", .run = twin_add_n,
	  .insns = KBENCH_INSNS_ADD_N(0), .arg_name = "adds", .arg_min = 1,
	  .arg_max = KBENCH_ADD_N_MAX, .arg_def = KBENCH_CORE_HI_ADDS },
	{ .name = "core_cal", .desc = KBENCH_STR(KBENCH_CORE_LO_ADDS) " dependent adds in add_n's loop (core-cycle calibration)",
	  .run = twin_core_cal,
	  .insns = KBENCH_INSNS_ADD_N(KBENCH_CORE_LO_ADDS) },
	{ .name = "foo", .desc = "jhash of 64 bytes (identical to foobar)",
	  .run = twin_foo },
	{ .name = "foobar", .desc = "jhash of 64 bytes (identical to foo)",
	  .run = twin_foobar },
	{ .name = "atomic_shared", .desc = "atomic increment, one line for all CPUs",
	  .run = twin_atomic, .data = twin_atomic_shared },
	{ .name = "atomic_percpu", .desc = "atomic increment, a line per CPU",
	  .run = twin_atomic, .data = twin_atomic_percpu },
	{ .name = "spin_shared", .desc = "test-and-test-and-set lock+unlock, one for all CPUs",
	  .run = twin_lock, .data = twin_spin_shared },
	{ .name = "spin_percpu", .desc = "test-and-test-and-set lock+unlock, one per CPU",
	  .run = twin_lock, .data = twin_spin_percpu },
	{ .name = "pingpong", .desc = "store+barrier to own word of one shared line",
	  .run = twin_store, .data = twin_pingpong_word },
	{ .name = NULL }
};

static struct kb_twin twin_extra[KB_TWIN_EXTRA_MAX + 1];

int kb_twin_register(const struct kb_twin *t)
{
	unsigned int i;

	for (i = 0; i < KB_TWIN_EXTRA_MAX; i++)
		if (!twin_extra[i].name) {
			twin_extra[i] = *t;
			return 0;
		}
	return -ENOSPC;
}

const char *kb_twin_names(void)
{
	static char buf[512];
	const struct kb_twin *t;
	size_t used = 0;

	if (buf[0])
		return buf;
	for (t = kb_twins; t->name && used < sizeof(buf); t++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s",
					 t == kb_twins ? "" : ", ", t->name);
	return buf;
}

const struct kb_twin *kb_twin_find(const char *name)
{
	const struct kb_twin *t;

	for (t = kb_twins; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	for (t = twin_extra; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	for (t = kb_uprims; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

int kb_user_counter(struct kbench_counter_info *info)
{
	const char *env = getenv("KBENCH_COUNTER");
	struct kbench_counter_info c;
	char names[128] = "";
	size_t len = 0;
	unsigned int i;
	int err;

	if (!kbench_counter_select(NULL, info))
		return 0;
	err = errno;
	for (i = 0; !kbench_counter_get(i, &c); i++)
		if (c.usable && len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len,
						"%s%s", len ? ", " : "", c.name);
	if (env && *env)
		fprintf(stderr, "%s: KBENCH_COUNTER=%s: %s (usable here: %s)\n",
			prog, env, err == ENOENT ? "no such counter" :
			"not usable here", names);
	else
		fprintf(stderr, "%s: no usable userspace counter\n", prog);
	return -err;
}

/* Move event @x of one series (@es) into @out, a kernel-style result. */
static void twin_event(struct kb_ev_result *out, struct kbench_event_series *es,
		       size_t n)
{
#define KBENCH_SERIES(m, sum, attr, ev_attr) out->m = es->m;
#include <kbench/schema.h>
	out->net = es->net;
	out->n = out->cap = n;
	es->net = NULL;
}

/* The events of @ev (a twin run's) into @r, whose results are filled. */
static void twin_events(struct kb_run *r, struct kbench_events_result *ev)
{
	unsigned int x, i;

	r->nevents = ev->nr_events;
	for (x = 0; x < ev->nr_events; x++) {
		struct kbench_event_result *er = &ev->event[x];
		struct kb_event_desc *d = &r->events[x];

		snprintf(d->name, sizeof(d->name), "%s", er->name);
		snprintf(d->read, sizeof(d->read), "%s", er->read);
		d->type = er->type;
		d->config = er->config;
		d->enabled_ns = er->enabled_ns;
		d->running_ns = er->running_ns;
		for (i = 0; i < r->nres; i++)
			twin_event(&r->res[i].ev[x], &er->routine[i],
				   r->res[i].n);
		twin_event(&r->overhead.ev[x], &er->overhead, r->overhead.n);
	}
	kb_run_correct_events(r);
}

/* What kbench_measure_events() said about the event at fault. */
static void twin_event_error(int err, const char *name)
{
	const char *why;

	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		why = "the PMU of this CPU does not count it";
		break;
	case ENOSPC:
		why = "no free PMU counter for it (more events than the PMU has counters, or another perf user pins some)";
		break;
	case EACCES:
	case EPERM:
		why = "perf_event_open() is not allowed (kernel.perf_event_paranoid above 2? needs CAP_PERFMON)";
		break;
	case EIO:
		why = "it stopped counting during the run";
		break;
	default:
		why = strerror(err);
		break;
	}
	fprintf(stderr, "%s: --user --events %s: %s\n", prog, name, why);
}

/* Move one series of @res into @out, a kernel-style result. */
static void twin_result(struct kb_result *out, unsigned int index,
			struct kbench_series_result *s)
{
	snprintf(out->routine, sizeof(out->routine), "%s", s->name);
	out->index = index;
#define KBENCH_COUNT(m, sum, attr) out->m = s->m;
#define KBENCH_SERIES(m, sum, attr, ev_attr) out->m = s->m;
#define KBENCH_CORR(m, sum, attr) out->m = s->m;
#define KBENCH_EXCL(bit, id, key, flag, attr) \
	out->excl[bit] = s->excluded_by[bit];
#include <kbench/schema.h>
	out->flags = s->flags;
	out->net = s->net;
	out->sflags = s->sample_flags;
	out->n = s->samples;
	out->cap = s->samples;
	s->net = NULL;
	s->sample_flags = NULL;
}

static uint64_t ns_of(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000;
}

static uint64_t cpu_ns_now(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ns_of(&ru.ru_utime) + ns_of(&ru.ru_stime);
}

/*
 * @q as a libkbench request (@ring: load_l1's data) and the arguments into
 * @r, emptied first.  0, or -ENOENT printed (no such twin or counter).
 */
static int twin_request(const struct kb_twin_req *q, struct kbench_request *req,
			struct kb_run *r, void **ring)
{
	struct kbench_counter_info ci;
	const struct kb_twin *tw;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	kbench_request_init(req);
	req->nr_routines = q->n;
	for (i = 0; i < q->n; i++) {
		uint64_t arg;

		tw = kb_twin_find(q->names[i]);
		if (!tw) {
			fprintf(stderr, "%s: no userspace twin for '%s' (twins: %s)\n",
				prog, q->names[i], kb_twin_names());
			return -ENOENT;
		}
		req->routine[i].name = tw->name;
		req->routine[i].run = tw->run;
		req->routine[i].data = tw->data ? tw->data(0) :
				       tw->ptr ? tw->ptr : ring;
		if (!tw->arg_name)
			continue;
		/* the checks of kb_run_opts_check_twins(): in range */
		arg = q->nargs ? q->args[q->nargs > 1 ? i : 0] : tw->arg_def;
		req->routine[i].data = (void *)(uintptr_t)arg;
		r->res[i].has_arg = true;
		r->res[i].arg = arg;
	}
	if (kb_user_counter(&ci))
		return -ENOENT;	/* a usage error: the environment names no counter */
	kbench_body_load_l1_ring_init(ring);
	req->cpu = q->cpu;
	req->samples = q->samples;
	req->iterations = q->iterations;
	req->target_ns = q->target_ns;
	req->warmup = q->warmup;
	req->counter = ci.name;
	req->counter_hz = q->counter_hz;
	r->counter_hz = q->counter_hz ? q->counter_hz : ci.hz;
	return 0;
}

/* libkbench's @res (and @evres: NULL for none) into @r, a kernel-style run. */
static void twin_fill(struct kb_run *r, struct kbench_result *res,
		      struct kbench_events_result *evres)
{
	unsigned int i;

	r->user = true;
	r->cpu = res->cpu;
	r->samples = res->samples;
	r->warmup = res->warmup;
	r->target_ns = res->target_ns;
	r->iterations = res->iterations;
	r->adaptive = res->adaptive;
	r->status = res->status;
	snprintf(r->counter, sizeof(r->counter), "%s", res->counter);
	r->counter_hz = res->counter_hz;
	r->counter_constant = res->counter_flags & KBENCH_COUNTER_F_CONSTANT;
	r->elapsed_ns = res->elapsed_ns;
	r->span_cycles = res->span_ticks;
	r->routine_cycles = res->routine_ticks;
	r->window_cycles = res->window_ticks;
	r->nres = res->nr_routines;
	for (i = 0; i < res->nr_routines; i++) {
		twin_result(&r->res[i], i, &res->routine[i]);
		r->res[i].has_corr = true;
	}
	twin_result(&r->overhead, res->nr_routines, &res->overhead);
	r->has_overhead = true;
	if (evres)
		twin_events(r, evres);
	r->mem_bytes = (uint64_t)(res->nr_routines + 1) * res->samples *
		       (sizeof(int64_t) + sizeof(uint32_t) +
			(uint64_t)r->nevents * sizeof(int64_t));
}

static void twin_progress(unsigned int done, unsigned int total, void *arg)
{
	kb_meter_update(arg, done, total);
}

int kb_twin_run(const struct kb_twin_req *q, struct kb_run *r)
{
	/* the stop flag is only ever set while a command has armed it */
	struct kb_control ctl = { .stop = &kb_stop_signal };
	struct kb_meter meter;
	uint64_t cpu0, wall0;
	void *ring[KBENCH_L1_RING_WORDS] __attribute__((aligned(64)));
	struct kbench_events_result *evres;
	struct kbench_event_request evreq;
	struct kbench_request req;
	struct kbench_result res;
	unsigned int i;
	int err;

	err = twin_request(q, &req, r, ring);
	if (err)
		return err;
	memset(&evreq, 0, sizeof(evreq));
	evreq.nr_events = q->nevents;
	for (i = 0; i < q->nevents; i++)
		evreq.name[i] = q->events[i];
	evres = calloc(1, sizeof(*evres));
	if (!evres)
		return -ENOMEM;
	/*
	 * The process's CPU time against the wall time: the measuring thread
	 * is its only busy one, so a share well below 1 means another task
	 * had this CPU (the verdict's "CPU was shared").
	 */
	if (q->progress) {
		kb_meter_start(&meter, q->samples, q->names, q->n, true);
		ctl.progress = twin_progress;
		ctl.arg = &meter;
	}
	cpu0 = cpu_ns_now();
	wall0 = kb_mono_ns();
	err = kb_measure_ctl(&req, &evreq, &res, evres, &ctl) ? errno : 0;
	if (q->progress)
		kb_meter_end(&meter);
	if (err) {
		if (err == EINTR && ctl.stopped)
			fprintf(stderr, "%s: interrupted before the first sample: nothing was measured\n",
				prog);
		else if (evres->failed >= 0)
			twin_event_error(err, q->events[evres->failed]);
		else if (q->cpu >= 0 && err == EINVAL)
			fprintf(stderr, "%s: cannot pin to CPU %d: %s\n", prog,
				q->cpu, strerror(err));
		else if (err == EIO && q->nevents)
			fprintf(stderr, "%s: --user: an event stopped counting during the run (perf's time running below time enabled)\n",
				prog);
		else
			fprintf(stderr, "%s: userspace measurement failed: %s\n",
				prog, strerror(err));
		free(evres);
		/* an event the PMU cannot count is no usage error */
		return err == ENOENT ? -EOPNOTSUPP : -err;
	}

	r->wall_ns = kb_mono_ns() - wall0;
	r->cpu_ns = cpu_ns_now() - cpu0;
	twin_fill(r, &res, evres);
	r->interrupted = ctl.stopped;
	kbench_result_free(&res);
	kbench_events_result_free(evres);
	free(evres);
	return 0;
}

int kb_twin_run_cpus(const struct kb_twin_req *q, const int32_t *cpus,
		     unsigned int nr, struct kb_cpus_run *cr)
{
	void *ring[KBENCH_L1_RING_WORDS] __attribute__((aligned(64)));
	struct kbench_cpus_request creq = { .nr_cpus = nr, .cpus = cpus };
	struct kbench_cpus_result res;
	struct kbench_request req;
	const struct kb_twin *tw;
	uint64_t cpu0, wall0;
	unsigned int c, i;
	void **data;
	int err;

	memset(cr, 0, sizeof(*cr));
	cr->run = calloc(nr, sizeof(*cr->run));
	data = calloc((size_t)nr * q->n, sizeof(*data));
	if (!cr->run || !data) {
		free(data);
		return -ENOMEM;
	}
	err = twin_request(q, &req, &cr->run[0], ring);
	creq.skew_bound = (uint64_t)((double)q->skew_ns *
				     (double)cr->run[0].counter_hz / 1e9);
	for (c = 0; !err && c < nr; c++)
		for (i = 0; i < q->n; i++) {
			tw = kb_twin_find(q->names[i]);
			data[c * q->n + i] = tw->data ? tw->data(c) :
					     req.routine[i].data;
		}
	creq.data = data;
	cpu0 = cpu_ns_now();
	wall0 = kb_mono_ns();
	if (!err && kbench_measure_cpus(&req, &creq, &res)) {
		err = -errno;
		fprintf(stderr, "%s: --user --cpus: the concurrent run failed: %s%s\n",
			prog, strerror(errno), errno == EINVAL ?
			" (a CPU offline, or not allowed to this process: see taskset -p $$)" : "");
	}
	free(data);
	if (err) {
		free(cr->run);
		cr->run = NULL;
		return err;
	}
	cr->nr = nr;
	for (c = 0; c < nr; c++) {
		if (c)
			cr->run[c] = cr->run[0];	/* the arguments; no samples yet */
		cr->run[c].wall_ns = kb_mono_ns() - wall0;
		cr->run[c].cpu_ns = (cpu_ns_now() - cpu0) / nr;
	}
	for (c = 0; c < nr; c++)
		twin_fill(&cr->run[c], &res.cpu[c], NULL);
	cr->skew_bound = res.skew_bound;
	cr->skew_median = res.skew_median;
	cr->skew_max = res.skew_max;
	cr->skew_samples = res.skew_samples;
	cr->skew_flagged = res.skew_flagged;
	kbench_cpus_result_free(&res);
	return 0;
}
