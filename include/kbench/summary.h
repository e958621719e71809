/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: the exact integer summary of a series of samples, written once
 * for kbench.ko (RUN replies, kbench_measure()) and userspace (libkbench,
 * kbenchctl's recomputation from SAMPLES_GET).  The same samples give the
 * same figures to the last digit in both worlds.
 */
#ifndef _KBENCH_SUMMARY_H
#define _KBENCH_SUMMARY_H

#include "world.h"

/* Reasons counted separately: the bits of enum kbench_sample_flags. */
#define KBENCH_SUMMARY_REASONS	16

struct kbench_summary {
	unsigned int samples;		/* taken */
	unsigned int valid;		/* without a flag: in the figures */
	/* excluded samples by flag bit; a sample with two flags counts twice */
	unsigned int excluded[KBENCH_SUMMARY_REASONS];
	long long min, median, max, sum;	/* net ticks; lower median */
	long long per_iter_min_milli;		/* thousandths of a tick */
	long long per_iter_median_milli;
	long long corr_min_milli;		/* minus the overhead routine */
	long long corr_median_milli;
	unsigned int flags;		/* enum kbench_result_flags */
};

/*
 * Net ticks per iteration in thousandths: @net * 1000 / @n rounded half
 * away from zero (2.5 -> 3, -2.5 -> -3).  This is the one rounding rule of
 * every per-iteration figure kbench reports, kernel or userspace.
 */
static inline long long kbench_milli_per_iter(long long net, unsigned int n)
{
	long long x = net * 1000;

	if (!n)
		return 0;
	return x >= 0 ? (x + n / 2) / n : -((-x + n / 2) / n);
}

static inline void kbench_sift_down(kbench_s64 *v, unsigned int root,
				    unsigned int n)
{
	unsigned int child;
	kbench_s64 t;

	for (;;) {
		child = 2 * root + 1;
		if (child >= n)
			return;
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (v[root] >= v[child])
			return;
		t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

/* Heapsort, ascending: O(n log n) at worst, no recursion, no allocation. */
static inline void kbench_sort(kbench_s64 *v, unsigned int n)
{
	unsigned int i;
	kbench_s64 t;

	for (i = n / 2; i-- > 0;)
		kbench_sift_down(v, i, n);
	for (i = n; i-- > 1;) {
		t = v[0];
		v[0] = v[i];
		v[i] = t;
		kbench_sift_down(v, 0, i);
	}
}

/*
 * Summarize @taken samples (@net ticks and @flags each, in time order)
 * taken with @n iterations.  A sample with any flag is excluded and counted
 * under each of its flags.  @scratch: room for @taken values (sorted here).
 * The corrected figures are left 0: see kbench_correct().
 */
static inline void kbench_summarize(struct kbench_summary *s,
				    const kbench_s64 *net,
				    const unsigned int *flags,
				    unsigned int taken, unsigned int n,
				    kbench_s64 *scratch)
{
	unsigned int i, v = 0, bit;

	s->samples = taken;
	for (bit = 0; bit < KBENCH_SUMMARY_REASONS; bit++)
		s->excluded[bit] = 0;
	s->min = 0;
	s->median = 0;
	s->max = 0;
	s->sum = 0;
	s->per_iter_min_milli = 0;
	s->per_iter_median_milli = 0;
	s->corr_min_milli = 0;
	s->corr_median_milli = 0;
	s->flags = 0;

	for (i = 0; i < taken; i++) {
		if (!flags[i]) {
			scratch[v++] = net[i];
			s->sum += net[i];
			continue;
		}
		for (bit = 0; bit < KBENCH_SUMMARY_REASONS; bit++)
			if (flags[i] & (1U << bit))
				s->excluded[bit]++;
	}
	s->valid = v;
	if (v < taken)
		s->flags |= KBENCH_RESULT_F_EXCLUDED;
	if (!v)
		return;
	kbench_sort(scratch, v);
	s->min = scratch[0];
	s->median = scratch[(v - 1) / 2];
	s->max = scratch[v - 1];
	s->per_iter_min_milli = kbench_milli_per_iter(s->min, n);
	s->per_iter_median_milli = kbench_milli_per_iter(s->median, n);
}

/*
 * The overhead correction: each per-iteration figure minus the overhead
 * routine's (the loop alone), clamped at 0 with KBENCH_RESULT_F_CLAMPED.
 */
static inline void kbench_correct(struct kbench_summary *s,
				  const struct kbench_summary *ovh)
{
	long long min = s->per_iter_min_milli - ovh->per_iter_min_milli;
	long long med = s->per_iter_median_milli - ovh->per_iter_median_milli;

	if (min < 0 || med < 0)
		s->flags |= KBENCH_RESULT_F_CLAMPED;
	s->corr_min_milli = min < 0 ? 0 : min;
	s->corr_median_milli = med < 0 ? 0 : med;
}

#endif /* _KBENCH_SUMMARY_H */
