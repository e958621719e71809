// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace twins: the loop bodies of kbench.ko (kmod/kbench_bodies.h)
 * timed with the kernel's own method (kmod/kbench_method.h) on a pinned
 * thread.  Interrupts and scheduling stay on here: that is the point.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kbench_bodies.h"
#include "kbench_method.h"

#include "kbenchctl.h"
#include "run.h"
#include "twin.h"

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

const struct kb_twin kb_twins[] = {
	{ "empty", "empty loop (overhead)", twin_empty, KBENCH_INSNS_EMPTY },
	{ "add_chain", "4 dependent register adds", twin_add_chain,
	  KBENCH_INSNS_ADD_CHAIN },
	{ "mul_chain", "4 dependent multiplies", twin_mul_chain,
	  KBENCH_INSNS_MUL_CHAIN },
	{ "load_l1", "4 dependent L1 loads (pointer chase)", twin_load_l1,
	  KBENCH_INSNS_LOAD_L1 },
	{ NULL, NULL, NULL, 0 }
};

const struct kb_twin *kb_twin_find(const char *name)
{
	const struct kb_twin *t;

	for (t = kb_twins; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

#if defined(__x86_64__)
#define CTR_NAME "tsc"
/* Like the kernel's rdtsc_ordered(): lfence keeps rdtsc after earlier loads */
static inline unsigned long long ctr_tsc(void)
{
	unsigned int lo, hi;

	asm volatile("lfence; rdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return ((unsigned long long)hi << 32) | lo;
}
#elif defined(__aarch64__)
#define CTR_NAME "cntvct"
/* Like the kernel's precise read: isb, so earlier instructions are done */
static inline unsigned long long ctr_tsc(void)
{
	unsigned long long v;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r" (v) : : "memory");
	return v;
}
#elif defined(__powerpc64__)
#define CTR_NAME "timebase"
/* Like kbench.ko: isync on both sides of mftb (SPR 268, TBL) */
static inline unsigned long long ctr_tsc(void)
{
	unsigned long long v;

	asm volatile("isync; mfspr %0, 268; isync" : "=r" (v) : : "memory");
	return v;
}
#endif

static inline unsigned long long ctr_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL +
	       (unsigned long long)ts.tv_nsec;
}

static bool cpu_has_tsc(void)
{
#if defined(__x86_64__)
	unsigned int a = 1, b, c = 0, d;

	asm volatile("cpuid" : "+a" (a), "=b" (b), "+c" (c), "=d" (d));
	return d & (1U << 4);
#else
	/* Linux lets userspace read CNTVCT_EL0 and the timebase. */
	return true;
#endif
}

uint64_t kb_counter_read(const struct kb_counter *c)
{
	return c->tsc ? ctr_tsc() : ctr_clock();
}

void kb_counter_init(struct kb_counter *c)
{
	const char *env = getenv("KBENCH_COUNTER");
	unsigned long long t0, t1, c0, c1;

	c->tsc = cpu_has_tsc() && !(env && !strcmp(env, "clock"));
	if (!c->tsc) {
		c->name = "clock_monotonic_raw";
		c->hz = 1000000000ULL;
		return;
	}
	c->name = CTR_NAME;
	c0 = ctr_clock();
	t0 = ctr_tsc();
	do
		c1 = ctr_clock();
	while (c1 - c0 < 20000000ULL);
	t1 = ctr_tsc();
	/* to the kHz, like the kernel's tsc_khz */
	c->hz = (uint64_t)((double)(t1 - t0) * 1e6 / (double)(c1 - c0) + 0.5) * 1000;
}

/*
 * One sample of @t with N iterations; flags like the kernel's.  @ref is
 * the T(2) reference span: userspace cannot see an interrupt, but one that
 * lands there inflates it (and shrinks the net), see kb_twin_reference().
 */
#define DEFINE_SAMPLER(suffix, read_ctr)					\
static int64_t sample_##suffix(const struct kb_twin *t, unsigned int n,	\
			       void *data, uint32_t *flags,		\
			       unsigned long long *window,		\
			       unsigned long long *ref)			\
{									\
	unsigned long long ts[4];					\
	int cpu0 = sched_getcpu(), cpu1;				\
									\
	kbench_method_sample(read_ctr, t->run, n, data, ts);		\
	cpu1 = sched_getcpu();						\
	*flags = 0;							\
	if (cpu0 != cpu1)						\
		*flags |= KBENCH_SAMPLE_F_CPU_CHANGED;			\
	if (kbench_method_backwards(ts))				\
		*flags |= KBENCH_SAMPLE_F_BACKWARDS;			\
	*window = ts[3] - ts[0];					\
	*ref = ts[1] - ts[0];						\
	return kbench_method_net(ts);					\
}

DEFINE_SAMPLER(tsc, ctr_tsc)
DEFINE_SAMPLER(clock, ctr_clock)

static int64_t take_sample(const struct kb_counter *c, const struct kb_twin *t,
			   unsigned int n, void *data, uint32_t *flags,
			   unsigned long long *window, unsigned long long *ref)
{
	if (c->tsc)
		return sample_tsc(t, n, data, flags, window, ref);
	return sample_clock(t, n, data, flags, window, ref);
}

/*
 * The reasonableness test of the reference span: T(2) is the same few
 * instructions every time, so a span over twice the shortest seen so far
 * (warm-up included) was interrupted.  Such a sample is flagged: its net,
 * T(N+2) - T(2), would be too small, even negative.  @ref_min tracks the
 * shortest span of this routine.
 */
static uint32_t kb_twin_reference(unsigned long long ref,
				  unsigned long long *ref_min)
{
	if (ref < *ref_min)
		*ref_min = ref;
	return ref > 2 * *ref_min ? KBENCH_SAMPLE_F_REFERENCE : 0;
}

#define TWIN_ITER_MAX (1U << 24)

/* Double N until the shortest of three windows reaches the target. */
static uint32_t adapt_iterations(const struct kb_counter *c,
				 const struct kb_twin *t, void *data,
				 uint32_t target_ns)
{
	uint64_t target = (uint64_t)((double)target_ns * (double)c->hz / 1e9);
	uint32_t n = 1;

	for (; n < TWIN_ITER_MAX; n *= 2) {
		unsigned long long w, ref, best = ~0ULL;
		uint32_t f;
		int i;

		for (i = 0; i < 3; i++) {
			take_sample(c, t, n, data, &f, &w, &ref);
			if (w < best)
				best = w;
		}
		if (best >= target)
			break;
	}
	return n;
}

int kb_twin_run(const struct kb_twin_req *q, struct kb_run *r)
{
	const struct kb_twin *tw[KBENCH_RUN_ROUTINES_MAX + 1];
	struct kb_result *res[KBENCH_RUN_ROUTINES_MAX + 1];
	void *ring[KBENCH_L1_RING_WORDS] __attribute__((aligned(64)));
	struct kb_counter ctr;
	struct timespec w0, w1;
	unsigned long long first = 0, last = 0, ref_min[KBENCH_RUN_ROUTINES_MAX + 1];
	unsigned int i, k, nt = q->n + 1;
	cpu_set_t set;
	uint32_t s;
	int cpu;

	memset(r, 0, sizeof(*r));
	r->user = true;
	for (i = 0; i < q->n; i++) {
		tw[i] = kb_twin_find(q->names[i]);
		if (!tw[i]) {
			fprintf(stderr, "%s: no userspace twin for '%s' (twins: empty, add_chain, mul_chain, load_l1)\n",
				prog, q->names[i]);
			return -ENOENT;
		}
		res[i] = &r->res[i];
		snprintf(res[i]->routine, sizeof(res[i]->routine), "%s",
			 q->names[i]);
		res[i]->index = i;
	}
	tw[q->n] = kb_twin_find("empty");
	res[q->n] = &r->overhead;
	snprintf(r->overhead.routine, sizeof(r->overhead.routine), "empty");
	r->overhead.index = q->n;
	r->has_overhead = true;
	r->nres = q->n;

	cpu = q->cpu >= 0 ? q->cpu : sched_getcpu();
	CPU_ZERO(&set);
	if (cpu < 0 || cpu >= CPU_SETSIZE) {
		fprintf(stderr, "%s: bad CPU %d\n", prog, cpu);
		return -EINVAL;
	}
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "%s: cannot pin to CPU %d: %s\n", prog, cpu,
			strerror(errno));
		return -errno;
	}
	kbench_body_load_l1_ring_init(ring);
	kb_counter_init(&ctr);
	if (q->counter_hz)
		ctr.hz = q->counter_hz;

	r->cpu = (uint32_t)cpu;
	r->samples = q->samples;
	r->warmup = q->warmup;
	r->target_ns = q->target_ns;
	snprintf(r->counter, sizeof(r->counter), "%s", ctr.name);
	r->counter_hz = ctr.hz;
	r->counter_constant = true;
	r->iterations = q->iterations;
	if (!r->iterations) {
		r->adaptive = 1;
		r->iterations = adapt_iterations(&ctr, tw[0], ring, q->target_ns);
	}
	r->status = KBENCH_RUN_COMPLETE;

	for (k = 0; k < nt; k++)
		ref_min[k] = ~0ULL;
	clock_gettime(CLOCK_MONOTONIC, &w0);
	/* rounds of all routines, order rotated each round (A B E, B E A, ...) */
	for (s = 0; s < q->warmup + q->samples; s++) {
		for (k = 0; k < nt; k++) {
			unsigned int j = (k + s) % nt;
			unsigned long long win, ref;
			uint32_t f;
			int64_t net;

			net = take_sample(&ctr, tw[j], r->iterations, ring, &f, &win,
					  &ref);
			f |= kb_twin_reference(ref, &ref_min[j]);
			if (s < q->warmup)
				continue;
			if (!first)
				first = kb_counter_read(&ctr) - win;
			r->window_cycles += win;
			r->routine_cycles += net > 0 ? (uint64_t)net : 0;
			if (kb_result_push(res[j], net, f))
				return -ENOMEM;
		}
	}
	last = kb_counter_read(&ctr);
	clock_gettime(CLOCK_MONOTONIC, &w1);
	r->span_cycles = last - first;
	r->elapsed_ns = (uint64_t)(w1.tv_sec - w0.tv_sec) * 1000000000ULL +
			(uint64_t)w1.tv_nsec - (uint64_t)w0.tv_nsec;
	for (k = 0; k < nt; k++) {
		kb_result_summarize(res[k], r->iterations);
		r->mem_bytes += res[k]->cap * (sizeof(int64_t) + sizeof(uint32_t));
	}
	for (k = 0; k < q->n; k++) {
		int64_t cm = res[k]->per_iter_min_milli - r->overhead.per_iter_min_milli;
		int64_t cmed = res[k]->per_iter_median_milli -
			       r->overhead.per_iter_median_milli;

		res[k]->has_corr = true;
		if (cm < 0 || cmed < 0)
			res[k]->flags |= KBENCH_RESULT_F_CLAMPED;
		res[k]->corr_min_milli = cm < 0 ? 0 : cm;
		res[k]->corr_median_milli = cmed < 0 ? 0 : cmed;
	}
	return 0;
}
