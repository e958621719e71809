/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: the sampling method, written once for kbench.ko and libkbench.
 *
 * It is built in both worlds and includes nothing but world.h.  The
 * functions are always inlined, so a counter or clock passed as a constant
 * function is called directly (and inlined) in the caller's code.
 */
#ifndef _KBENCH_METHOD_H
#define _KBENCH_METHOD_H

#include "world.h"

/*
 * Version of the sampling method below (the sample, the flags, the
 * reasonableness tests, the summary).  Raise it with any change that can
 * move a routine's figures: saved results (kbenchctl run --save) record it,
 * and kbenchctl diff warns when two results were taken with different
 * methods.
 */
#define KBENCH_METHOD_VERSION	1

typedef unsigned long long (*kbench_method_read_t)(void);
typedef void (*kbench_method_run_t)(unsigned int iterations, void *data);
/*
 * Further counters (hardware events) read at the same four points: @xread
 * reads them all at point @point (0..3: t0..t3) into @xt[i][@point], for
 * the world's description of them @x.
 */
typedef void (*kbench_method_xread_t)(const void *x, unsigned int point,
				      unsigned long long (*xt)[4]);

/*
 * One sample: T(N + 2) - T(2).  Everything that is the same in both timed
 * spans - the counter reads, the call, the routine's set-up and the cold
 * start of its loop - cancels; what is left is exactly N iterations.
 * @t receives the four counter values (t[3] - t[0] is the timed span).
 *
 * Both spans are the same machine code: one loop body run twice.  The empty
 * asm makes the trip count opaque, so the compiler cannot unroll the loop
 * and schedule the two halves differently (it did: one extra instruction
 * in the second span, seen exactly under qemu -icount).
 *
 * Further counters are read inside the counter's reads, after it at the
 * start of a span and before it at the end (@xread), so their reads too
 * are the same in both spans and cancel in every counter's net, and each
 * further counter's four values come from the same four points.
 */
static __always_inline void
kbench_method_sample(kbench_method_read_t read_ctr, kbench_method_xread_t xread,
		     const void *x, kbench_method_run_t run, unsigned int n,
		     void *data, unsigned long long t[4],
		     unsigned long long (*xt)[4])
{
	unsigned int arg[2] = { 2, n + 2 };
	unsigned int k;

	for (k = 0; k < 2; k++) {
		asm volatile("" : "+r" (k));
		t[2 * k] = read_ctr();
		xread(x, 2 * k, xt);
		run(arg[k], data);
		xread(x, 2 * k + 1, xt);
		t[2 * k + 1] = read_ctr();
	}
}

/* Net ticks of one sample; negative only when something intervened. */
static inline long long kbench_method_net(const unsigned long long t[4])
{
	return (long long)((t[3] - t[2]) - (t[1] - t[0]));
}

/* A sample's counter went backwards if any read is below the one before. */
static inline int kbench_method_backwards(const unsigned long long t[4])
{
	return t[1] < t[0] || t[2] < t[1] || t[3] < t[2];
}

struct kbench_method_res {
	unsigned long long min;		/* smallest non-zero step, 0: none */
	unsigned long long sum;		/* of the non-zero steps */
	unsigned long long changes;	/* steps observed */
};

/*
 * Clock resolution: read the clock until it has changed @changes times (or
 * @max_reads reads were made) and keep the smallest and the sum of the
 * non-zero steps.
 */
static __always_inline void
kbench_method_resolution(kbench_method_read_t read_clk,
			 unsigned long long changes,
			 unsigned long long max_reads,
			 struct kbench_method_res *res)
{
	unsigned long long prev = read_clk(), now, reads = 0;

	res->min = ~0ULL;
	res->sum = 0;
	res->changes = 0;
	while (res->changes < changes && reads++ < max_reads) {
		now = read_clk();
		if (now == prev)
			continue;
		if (now > prev) {
			if (now - prev < res->min)
				res->min = now - prev;
			res->sum += now - prev;
			res->changes++;
		}
		prev = now;
	}
	if (!res->changes)
		res->min = 0;
}

/*
 * Clock latency: @reads reads in a tight loop between a start and a stop
 * read; the latency of one read is span / (reads + 1).  @span is in the
 * clock's unit, @cycles in counter ticks (read_ctr) around the same loop.
 */
static __always_inline void
kbench_method_latency(kbench_method_read_t read_clk,
		      kbench_method_read_t read_ctr, unsigned int reads,
		      unsigned long long *span, unsigned long long *cycles)
{
	unsigned long long c0, c1, s0, s1;
	unsigned int i;

	c0 = read_ctr();
	s0 = read_clk();
	for (i = 0; i < reads; i++)
		(void)read_clk();
	s1 = read_clk();
	c1 = read_ctr();
	*span = s1 - s0;
	*cycles = c1 - c0;
}

#endif /* _KBENCH_METHOD_H */
