// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_gbench: the figures kbenchctl measures in userspace, timed by an
 * established harness (Google Benchmark, Debian's libbenchmark-dev) so the
 * two can be compared (bench/gbench/compare.sh).
 *
 *   BM_clock_gettime_monotonic   one clock_gettime(CLOCK_MONOTONIC) per
 *                                benchmark iteration: ns per call
 *   BM_getpid                    one syscall(SYS_getpid) per benchmark
 *                                iteration (kbenchctl baseline --user's
 *                                u_getpid): ns per system call
 *   BM_add_chain/N               kbench_body_add_chain(N) per benchmark
 *                                iteration, the very body kbench.ko and
 *                                kbenchctl's twin run (include/kbench/bodies.h)
 *
 * Google Benchmark times the whole loop (its real_time and cpu_time per
 * iteration, including the call and loop overhead); per body iteration that
 * is real_time / N.  Two user counters add the TSC view:
 *   tsc_per_iter   TSC ticks per body iteration, lfence;rdtsc around the
 *                  benchmark loop (the counter kbenchctl --user reads)
 *   body_iters     N, so a script can divide without parsing the name
 * compare.sh converts ns to TSC cycles with kbenchctl's counter_hz as a
 * cross-check of tsc_per_iter.
 */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include <kbench/bodies.h>

#if defined(__x86_64__)
static inline unsigned long long ctr(void)
{
	unsigned int lo, hi;

	asm volatile("lfence; rdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return ((unsigned long long)hi << 32) | lo;
}
#define HAVE_CTR 1
#else
#define HAVE_CTR 0
#endif

static void BM_clock_gettime_monotonic(benchmark::State &state)
{
	struct timespec ts;

	for (auto _ : state) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		benchmark::DoNotOptimize(ts);
	}
}
BENCHMARK(BM_clock_gettime_monotonic);

static void BM_getpid(benchmark::State &state)
{
	for (auto _ : state)
		benchmark::DoNotOptimize(syscall(SYS_getpid));
}
BENCHMARK(BM_getpid);

static void BM_add_chain(benchmark::State &state)
{
	const unsigned int n = (unsigned int)state.range(0);
#if HAVE_CTR
	unsigned long long c0 = ctr();
#endif

	for (auto _ : state)
		kbench_body_add_chain(n);
#if HAVE_CTR
	unsigned long long c1 = ctr();

	state.counters["tsc_per_iter"] = benchmark::Counter(
		(double)(c1 - c0) / n, benchmark::Counter::kAvgIterations);
#endif
	state.counters["body_iters"] = n;
}
/*
 * 16384: the iteration count kbenchctl's adaptive choice lands on here
 * (20 us window); 2 and 16386 let compare.sh apply kbench's own
 * T(N+2) - T(2) differencing to Google Benchmark's figures; 64 shows how
 * the per-call overhead Google Benchmark includes grows at small N.
 */
BENCHMARK(BM_add_chain)->Arg(2)->Arg(64)->Arg(16384)->Arg(16386);

BENCHMARK_MAIN();
