// SPDX-License-Identifier: GPL-2.0
/*
 * libkbench as its users get it: built only from what `make install-lib`
 * staged (<kbench.h>, libkbench.a, kbench.pc), linked statically.  It times
 * a loop of its own of 5 instructions per iteration; under qemu -icount
 * (kbench_icount=1 on the kernel command line) one TSC tick is one
 * instruction, so on x86_64 that is exactly 5 ticks per iteration; with a
 * PMU (arm64 under qemu) kbench_measure_events() counts exactly 5
 * instructions an iteration of it.  Prints TAP (kselftest.h's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbench.h>

#include "kselftest.h"

#define INSNS		5	/* per iteration of loop5 */
#define EMPTY_INSNS	2	/* libkbench's overhead routine: the loop */
#define SAMPLES		100
#if defined(__x86_64__)
#define ITERS		1000
#else
#define ITERS		4000	/* quantised counters: see expect_net() */
#endif

/* 3 dependent adds and the loop: 5 instructions per iteration. */
static void loop5(unsigned int n, void *data)
{
	unsigned long cnt = n, acc = 0;

	(void)data;
	if (!n)
		return;
#if defined(__x86_64__)
	asm volatile("1:	add $1, %1\n\t"
		     "	add $1, %1\n\t"
		     "	add $1, %1\n\t"
		     "	dec %0\n\t"
		     "	jnz 1b\n\t"
		     : "+r" (cnt), "+r" (acc) : : "cc");
#elif defined(__aarch64__)
	asm volatile("1:	add %1, %1, #1\n\t"
		     "	add %1, %1, #1\n\t"
		     "	add %1, %1, #1\n\t"
		     "	subs %0, %0, #1\n\t"
		     "	b.ne 1b\n\t"
		     : "+r" (cnt), "+r" (acc) : : "cc");
#elif defined(__powerpc64__)
	asm volatile("1:	addi %1, %1, 1\n\t"
		     "	addi %1, %1, 1\n\t"
		     "	addi %1, %1, 1\n\t"
		     "	addic. %0, %0, -1\n\t"
		     "	bne 1b\n\t"
		     : "+r" (cnt), "+b" (acc) : : "cr0", "xer");
#else
#error "kbench_lib_test: no loop for this architecture"
#endif
}

/* kselftest.h's TAP line, the newline its messages end with added */
#define ok(cond, fmt, ...)	ksft_test_result(cond, fmt "\n", ##__VA_ARGS__)

/* exact figures: kbench_icount=1 on the kernel command line or KBENCH_EXACT=1 */
static int icount(void)
{
	const char *exact = getenv("KBENCH_EXACT");
	char buf[4096] = "";
	FILE *f;

	if (exact && *exact)
		return !strcmp(exact, "1");
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return strstr(buf, "kbench_icount=1") != NULL;
}

/*
 * Net ticks of @insns_per_iter x @n instructions under icount: exact on
 * x86 (a tick an instruction); elsewhere counter_hz / 1e9 ticks an
 * instruction, within the 2 ticks a quantised span may be off by.
 */
static int net_ok(long long v, double hz, long long insns_per_iter,
		  unsigned int n)
{
#if defined(__x86_64__)
	(void)hz;
	return v == insns_per_iter * n;
#else
	double e = (double)insns_per_iter * n * hz / 1e9;

	return v >= e - 2 && v <= e + 2;
#endif
}

/*
 * kbench_measure_events(): bad requests, and with a PMU the loop's own
 * user-mode instructions, exactly (they are not time: interrupts add
 * none), read with @flags.
 */
static void test_events(int exact, uint32_t flags)
{
	struct kbench_event_request ev = { .nr_events = 2,
		.name = { "instructions", "nosuch" }, .flags = flags };
	struct kbench_events_result evres;
	const struct kbench_event_result *e;
	struct kbench_request req;
	struct kbench_result res;
	int err;

	kbench_request_init(&req);
	req.routine[0].run = loop5;
	req.iterations = ITERS;
	req.samples = 20;
	errno = 0;
	err = kbench_measure_events(&req, &ev, &res, &evres);
	ok(err && errno == EINVAL && evres.failed == 1,
	   "measure_events: an unknown name: EINVAL, failed names it (%d)",
	   evres.failed);
	ev.nr_events = 1;
	err = kbench_measure_events(&req, &ev, &res, &evres);
	if (err) {
		ok((errno == ENOENT || errno == EOPNOTSUPP) && evres.failed == 0,
		   "measure_events: instructions not counted here (%s), failed names them",
		   strerror(errno));
		return;
	}
	e = &evres.event[0];
	if (exact)
		ok(evres.nr_events == 1 && !strcmp(e->name, "instructions") &&
		   e->routine[0].net && res.routine[0].valid > 0 &&
		   e->routine[0].net_min == INSNS * ITERS &&
		   e->routine[0].per_iter_median_milli == INSNS * 1000 &&
		   e->overhead.per_iter_median_milli == EMPTY_INSNS * 1000 &&
		   e->enabled_ns == e->running_ns,
		   "measure_events (%s): %lld instructions per sample = %d x %d, overhead %lld milli per iteration",
		   e->read, (long long)e->routine[0].net_min, INSNS, ITERS,
		   (long long)e->overhead.per_iter_median_milli);
	else
		ok(evres.nr_events == 1 && e->routine[0].net,
		   "measure_events (%s): counted", e->read);
	kbench_events_result_free(&evres);
	kbench_result_free(&res);
}

int main(void)
{
	struct kbench_counter_info ci;
	struct kbench_request req;
	struct kbench_result res;
	const struct kbench_series_result *r;
	int exact = icount(), err;
	double t;

	ksft_print_header();
	ksft_set_plan(16);
	unsetenv("KBENCH_COUNTER");
	err = kbench_counter_select(NULL, &ci);
	ok(!err && ci.usable && ci.hz > 0,
	   "counter_select: %s (%s) at %llu Hz", err ? "-" : ci.name,
	   err ? "-" : ci.desc, err ? 0ULL : (unsigned long long)ci.hz);
#if defined(__x86_64__)
	ok(!err && !strcmp(ci.name, "tsc"), "x86_64 prefers the TSC");
#elif defined(__aarch64__)
	ok(!err && !strcmp(ci.name, "cntvct"), "arm64 prefers CNTVCT_EL0");
#else
	ok(!err && !strcmp(ci.name, "timebase"), "ppc64 prefers the timebase");
#endif

	t = kbench_measure_net_cycles(loop5, ITERS, NULL, SAMPLES);
	if (exact)
		ok(net_ok((long long)(t * ITERS + 0.5), (double)ci.hz, INSNS, ITERS),
		   "measure_net_cycles: %.4f ticks per iteration of a %d-instruction loop (icount)",
		   t, INSNS);
	else
		ok(isfinite(t) && t > 0,
		   "measure_net_cycles: %.4f ticks per iteration (plain: > 0)", t);

	kbench_request_init(&req);
	req.routine[0].name = "loop5";
	req.routine[0].run = loop5;
	req.iterations = ITERS;
	req.samples = SAMPLES;
	err = kbench_measure(&req, &res);
	ok(!err, "kbench_measure: %s", err ? strerror(errno) : "0");
	if (err)
		return 1;
	r = &res.routine[0];
	ok(!strcmp(r->name, "loop5") && r->samples == SAMPLES &&
	   res.has_overhead && res.overhead.samples == SAMPLES &&
	   r->net && r->sample_flags && !strcmp(res.counter, ci.name),
	   "kbench_measure: %u samples of loop5 and of the overhead routine, counter %s",
	   r->samples, res.counter);
	if (exact) {
		ok(r->valid == SAMPLES && r->excluded_by[5] == 0,
		   "icount: every sample valid (%u)", r->valid);
		/*
		 * Not the max: interrupts stay on in userspace, and one in
		 * the long span makes a sample longer (not flagged: only a
		 * short reference span is suspicious).
		 */
		ok(net_ok(r->net_min, (double)res.counter_hz, INSNS, ITERS) &&
		   net_ok(r->net_median, (double)res.counter_hz, INSNS, ITERS),
		   "icount: net min %lld, median %lld = %d x %d",
		   (long long)r->net_min, (long long)r->net_median, INSNS,
		   ITERS);
#if defined(__x86_64__)
		ok(r->per_iter_min_milli == INSNS * 1000 &&
		   r->per_iter_median_milli == INSNS * 1000 &&
		   r->corr_min_milli == (INSNS - EMPTY_INSNS) * 1000 &&
		   r->corr_median_milli == (INSNS - EMPTY_INSNS) * 1000,
		   "icount: %lld / %lld milli-ticks per iteration, corrected %lld",
		   (long long)r->per_iter_min_milli,
		   (long long)r->per_iter_median_milli,
		   (long long)r->corr_min_milli);
#else
		ksft_test_result_skip("icount: per-iteration thousandths: exact on x86_64 only\n");
#endif
	} else {
		ok(r->valid > 0 && r->valid <= SAMPLES, "plain: %u valid",
		   r->valid);
		ok(r->valid == 0 || r->net_min >= 0,
		   "plain: no negative minimum (%lld)", (long long)r->net_min);
		ksft_test_result_skip("per-iteration exactness: needs --icount\n");
	}
	kbench_result_free(&res);

	/* adaptive N: the first power of 2 whose net reaches 20 us */
	kbench_request_init(&req);
	req.routine[0].run = loop5;
	req.samples = 10;
	err = kbench_measure(&req, &res);
	if (exact) {
		unsigned long long want = 1, target =
			20000ULL * res.counter_hz / 1000000000ULL;

		/* far from the threshold either way: quantisation is moot */
		while ((double)INSNS * want * res.counter_hz / 1e9 <
		       (double)target)
			want *= 2;
		ok(!err && res.adaptive && res.iterations == want,
		   "adaptive N = %u (want %llu)", res.iterations, want);
	} else {
		ok(!err && res.adaptive && res.iterations > 0,
		   "adaptive N = %u", res.iterations);
	}
	kbench_result_free(&res);

	setenv("KBENCH_COUNTER", "clock", 1);
	err = kbench_counter_select(NULL, &ci);
	ok(!err && !strcmp(ci.name, "clock_monotonic_raw") &&
	   ci.hz == 1000000000ULL,
	   "KBENCH_COUNTER=clock picks clock_monotonic_raw");
	setenv("KBENCH_COUNTER", "nosuch", 1);
	errno = 0;
	t = kbench_measure_net_cycles(loop5, ITERS, NULL, SAMPLES);
	ok(isnan(t) && errno == ENOENT,
	   "KBENCH_COUNTER=nosuch: NAN and ENOENT (%s)", strerror(errno));
	unsetenv("KBENCH_COUNTER");
	errno = 0;
	t = kbench_measure_net_cycles(NULL, ITERS, NULL, SAMPLES);
	ok(isnan(t) && errno == EINVAL, "no routine: NAN and EINVAL");
	test_events(exact, 0);
	test_events(exact, KBENCH_EVENT_F_READ);
	ksft_finished();
}
