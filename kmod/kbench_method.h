/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: the sampling method, written once for kbench.ko and kbenchctl.
 *
 * It must not include any header: it is built in both worlds.  Counter reads
 * are passed as expressions so they are inlined (an indirect call would only
 * lengthen the window; its cost would cancel anyway).
 */
#ifndef _KBENCH_METHOD_H
#define _KBENCH_METHOD_H

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
 */
#define KBENCH_METHOD_SAMPLE(read_ctr, run, n, data, t)		\
	do {								\
		unsigned int __arg[2] = { 2, (n) + 2 };		\
		unsigned int __k;					\
		for (__k = 0; __k < 2; __k++) {			\
			asm volatile("" : "+r" (__k));			\
			(t)[2 * __k] = read_ctr();			\
			(run)(__arg[__k], (data));			\
			(t)[2 * __k + 1] = read_ctr();			\
		}							\
	} while (0)

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

/*
 * Clock resolution: read the clock until it has changed @changes times (or
 * @max_reads reads were made) and keep the smallest and the sum of the
 * non-zero steps.  *@seen is the number of changes observed.
 */
#define KBENCH_METHOD_RESOLUTION(read_clk, changes, max_reads,		\
				 res_min, res_sum, seen)		\
	do {								\
		unsigned long long __prev = read_clk(), __now;		\
		unsigned long long __reads = 0;				\
		(res_min) = ~0ULL;					\
		(res_sum) = 0;						\
		(seen) = 0;						\
		while ((seen) < (changes) && __reads++ < (max_reads)) {\
			__now = read_clk();				\
			if (__now == __prev)				\
				continue;				\
			if (__now > __prev) {				\
				if (__now - __prev < (res_min))	\
					(res_min) = __now - __prev;	\
				(res_sum) += __now - __prev;		\
				(seen)++;				\
			}						\
			__prev = __now;					\
		}							\
		if (!(seen))						\
			(res_min) = 0;					\
	} while (0)

/*
 * Clock latency: @reads reads in a tight loop between a start and a stop
 * read; the latency of one read is span / (reads + 1).  @span is in the
 * clock's unit, @cycles in counter ticks (read_ctr) around the same loop.
 */
#define KBENCH_METHOD_LATENCY(read_clk, read_ctr, reads, span, cycles)	\
	do {								\
		unsigned long long __c0, __c1, __s0, __s1;		\
		unsigned int __i;					\
		__c0 = read_ctr();					\
		__s0 = read_clk();					\
		for (__i = 0; __i < (reads); __i++)			\
			(void)read_clk();				\
		__s1 = read_clk();					\
		__c1 = read_ctr();					\
		(span) = __s1 - __s0;					\
		(cycles) = __c1 - __c0;					\
	} while (0)

#endif /* _KBENCH_METHOD_H */
