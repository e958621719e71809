// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace clocks measured with the kernel's method
 * (kbench_method_resolution() / kbench_method_latency()).  Latency is
 * also given in ticks of libkbench's counter (the one `run --user` uses:
 * the TSC, CNTVCT or the timebase, or KBENCH_COUNTER's), read around the
 * same loop and converted with that counter's rate.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <kbench.h>
#include <kbench/method.h>

#include "twin.h"
#include "uclocks.h"

#define LAT_READS	10000
#define LAT_ROUNDS	5
#define RES_CHANGES	1000
#define RES_BUDGET_NS	100000000ULL	/* per clock */

static inline unsigned long long ts_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL +
	       (unsigned long long)ts.tv_nsec;
}

#define CLOCK_FN(fn, id) \
static inline unsigned long long fn(void) { return ts_ns(id); }

CLOCK_FN(rd_realtime, CLOCK_REALTIME)
CLOCK_FN(rd_monotonic, CLOCK_MONOTONIC)
CLOCK_FN(rd_monotonic_raw, CLOCK_MONOTONIC_RAW)
CLOCK_FN(rd_monotonic_coarse, CLOCK_MONOTONIC_COARSE)
CLOCK_FN(rd_boottime, CLOCK_BOOTTIME)
CLOCK_FN(rd_process_cputime, CLOCK_PROCESS_CPUTIME_ID)
CLOCK_FN(rd_thread_cputime, CLOCK_THREAD_CPUTIME_ID)

static inline unsigned long long rd_gettimeofday(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (unsigned long long)tv.tv_sec * 1000000ULL +
	       (unsigned long long)tv.tv_usec;
}

static inline unsigned long long rd_time(void)
{
	return (unsigned long long)time(NULL);
}

#if defined(__x86_64__)
static inline unsigned long long rd_rdtsc(void)
{
	unsigned int lo, hi;

	asm volatile("rdtsc" : "=a" (lo), "=d" (hi));
	return ((unsigned long long)hi << 32) | lo;
}

static inline unsigned long long rd_rdtscp(void)
{
	unsigned int lo, hi, aux;

	asm volatile("rdtscp" : "=a" (lo), "=d" (hi), "=c" (aux));
	return ((unsigned long long)hi << 32) | lo;
}
#endif

/*
 * One clock: latency first (LAT_ROUNDS loops, the round with the fewest
 * counter ticks kept: userspace gets interrupted), then resolution with a
 * read budget derived from the latency.
 */
#define MEASURE(c, fn, budget_ns)						\
	do {									\
		unsigned long long span, cyc, best = ~0ULL;			\
		struct kbench_method_res rr;					\
		unsigned long long reads;					\
		unsigned int r;							\
		double lat_ns;							\
		for (r = 0; r < LAT_ROUNDS; r++) {				\
			kbench_method_latency(fn, ctr.read, LAT_READS, &span,	\
					      &cyc);				\
			if (cyc < best) {					\
				best = cyc;					\
				(c)->lat_span = span;				\
				(c)->lat_cycles = cyc;				\
			}							\
		}								\
		(c)->lat_reads = LAT_READS;					\
		lat_ns = (double)(c)->lat_cycles * 1e9 / (double)ctr.hz /	\
			 (LAT_READS + 1);					\
		reads = (unsigned long long)((double)(budget_ns) /		\
					     (lat_ns > 1 ? lat_ns : 1));	\
		if (reads < 1000)						\
			reads = 1000;						\
		kbench_method_resolution(fn, RES_CHANGES, reads, &rr);		\
		(c)->res_min = rr.min;						\
		(c)->res_sum = rr.sum;						\
		(c)->res_changes = (unsigned int)rr.changes;			\
	} while (0)

static void set(struct kb_clock *c, const char *name, const char *unit,
		uint64_t hz, const struct kbench_counter_info *ctr)
{
	memset(c, 0, sizeof(*c));
	c->side = "user";
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	c->hz = hz;
	snprintf(c->counter, sizeof(c->counter), "%s", ctr->name);
	c->counter_hz = ctr->hz;
}

long kb_uclocks_measure(struct kb_clock *out, size_t max)
{
	struct kbench_counter_info ctr;
	size_t n = 0;

	if (max < 11)
		return 0;
	if (kb_user_counter(&ctr))
		return -1;
#define NS_CLOCK(name, fn)						\
	do {								\
		set(&out[n], name, "ns", 1000000000ULL, &ctr);		\
		MEASURE(&out[n], fn, RES_BUDGET_NS);			\
		n++;							\
	} while (0)
	NS_CLOCK("CLOCK_REALTIME", rd_realtime);
	NS_CLOCK("CLOCK_MONOTONIC", rd_monotonic);
	NS_CLOCK("CLOCK_MONOTONIC_RAW", rd_monotonic_raw);
	NS_CLOCK("CLOCK_MONOTONIC_COARSE", rd_monotonic_coarse);
	NS_CLOCK("CLOCK_BOOTTIME", rd_boottime);
	NS_CLOCK("CLOCK_PROCESS_CPUTIME_ID", rd_process_cputime);
	NS_CLOCK("CLOCK_THREAD_CPUTIME_ID", rd_thread_cputime);
#undef NS_CLOCK
	set(&out[n], "gettimeofday", "us", 1000000ULL, &ctr);
	MEASURE(&out[n], rd_gettimeofday, RES_BUDGET_NS);
	n++;
	/* time() steps once a second: give it just over a second */
	set(&out[n], "time", "s", 1, &ctr);
	MEASURE(&out[n], rd_time, 1050000000ULL);
	n++;
#if defined(__x86_64__)
	if (!strcmp(ctr.name, "tsc")) {
		set(&out[n], "rdtsc", "cycles", ctr.hz, &ctr);
		MEASURE(&out[n], rd_rdtsc, RES_BUDGET_NS);
		n++;
		set(&out[n], "rdtscp", "cycles", ctr.hz, &ctr);
		MEASURE(&out[n], rd_rdtscp, RES_BUDGET_NS);
		n++;
	}
#endif
	return (long)n;
}

double kb_clock_res_mean(const struct kb_clock *c)
{
	return c->res_changes ? (double)c->res_sum / c->res_changes : NAN;
}

double kb_clock_latency(const struct kb_clock *c)
{
	return c->lat_reads ? (double)c->lat_span / (c->lat_reads + 1.0) : NAN;
}

double kb_clock_to_ns(const struct kb_clock *c, double units)
{
	return c->hz ? units * 1e9 / (double)c->hz : NAN;
}

