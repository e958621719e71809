// SPDX-License-Identifier: GPL-2.0
/*
 * libkbench: the userspace counter table, in order of preference (mLib's
 * bench(3) timer list): the CPU's own counter where userspace may read it,
 * then CLOCK_MONOTONIC_RAW.
 *
 *   x86_64   tsc                  lfence; rdtsc (like the kernel's
 *                                 rdtsc_ordered()); needs the TSC and
 *                                 PR_TSC_ENABLE
 *   arm64    cntvct               isb; mrs CNTVCT_EL0, where the kernel lets
 *                                 EL0 read it (a trial read under SIGILL)
 *   ppc64    timebase             isync; mftb; isync
 *   all      clock_monotonic_raw  clock_gettime(), nanoseconds
 *
 * KBENCH_COUNTER=<name> picks one ("clock" is clock_monotonic_raw).  The
 * engine's window hooks here: no interrupts to disable (measuring with
 * them on is the point of userspace figures), and the CPU checked with
 * sched_getcpu() around each sample.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "internal.h"
#include "kbench.h"

#define KB_CALIBRATE_NS		20000000ULL
#define KB_CALIBRATE_PAIRS	5

static __always_inline void kb_irq_none(struct kbench_guard *g)
{
	(void)g;
}

static __always_inline void kb_cpu_check(struct kbench_guard *g)
{
	if (sched_getcpu() != (int)g->cpu)
		g->flags |= KBENCH_SAMPLE_F_CPU_CHANGED;
}

/*
 * A userspace window around @read: interrupts cannot be masked here
 * (kb_irq_none), so a migration is what a sample must be flagged for.
 */
#define KB_USER_WINDOW(name, read)					\
	KBENCH_DEFINE_WINDOW(name, read, kb_irq_none, kb_irq_none,	\
			     kb_cpu_check, kb_cpu_check)

/*
 * A counter that one asm sequence @insns reads into %0, ordered after
 * earlier instructions as the kernel's own read is: NAME_read() and its
 * window NAME_window().
 */
#define KB_ASM_COUNTER(name, insns)					\
static __always_inline unsigned long long name##_read(void)		\
{									\
	unsigned long long v;						\
									\
	asm volatile(insns : "=r" (v) : : "memory");			\
	return v;							\
}									\
KB_USER_WINDOW(name##_window, name##_read)

static __always_inline unsigned long long kb_clock_raw(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (unsigned long long)ts.tv_sec * KBENCH_NSEC_PER_SEC +
	       (unsigned long long)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__powerpc64__)
/*
 * The rate of @read against CLOCK_MONOTONIC_RAW over 20 ms, to the kHz
 * (like the kernel's tsc_khz).  Each end is the read bracketed most
 * tightly by two clock reads of a few tries: a read that was preempted
 * has a wide bracket.
 */
static void kb_pair(kbench_method_read_t read, unsigned long long *clk,
		    unsigned long long *ctr)
{
	unsigned long long a, b, t, best = KBENCH_U64_MAX;
	int i;

	for (i = 0; i < KB_CALIBRATE_PAIRS; i++) {
		a = kb_clock_raw();
		t = read();
		b = kb_clock_raw();
		if (b - a < best) {
			best = b - a;
			*clk = a + (b - a) / 2;
			*ctr = t;
		}
	}
}

static unsigned long long kb_calibrate(kbench_method_read_t read)
{
	unsigned long long c0, c1, t0, t1;

	kb_pair(read, &c0, &t0);
	while (kb_clock_raw() - c0 < KB_CALIBRATE_NS)
		;
	kb_pair(read, &c1, &t1);
	if (c1 <= c0 || t1 <= t0)
		return 0;
	return (unsigned long long)((double)(t1 - t0) * 1e6 /
				    (double)(c1 - c0) + 0.5) * 1000;
}

/* The value of "@key : value" in /proc/cpuinfo (first match), or NULL. */
static char *kb_cpuinfo(const char *key, char *buf, size_t size)
{
	size_t len = strlen(key);
	char *p, *ret = NULL;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return NULL;
	while (fgets(buf, (int)size, f)) {
		if (strncmp(buf, key, len) || (buf[len] != ' ' &&
					       buf[len] != '\t' &&
					       buf[len] != ':'))
			continue;
		p = strchr(buf, ':');
		if (!p)
			continue;
		ret = p + 1 + strspn(p + 1, " \t");
		ret[strcspn(ret, "\n")] = '\0';
		break;
	}
	fclose(f);
	return ret;
}
#endif /* the TSC's and the timebase's rate */

#if defined(__aarch64__) || defined(__powerpc64__)
static sigjmp_buf kb_trial_jmp;

static void kb_trial_sigill(int sig)
{
	(void)sig;
	siglongjmp(kb_trial_jmp, 1);
}

/* Can @read be executed here?  One read with SIGILL caught. */
static int kb_trial_read(kbench_method_read_t read)
{
	struct sigaction sa, old;
	volatile int ok = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kb_trial_sigill;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGILL, &sa, &old))
		return 0;
	if (!sigsetjmp(kb_trial_jmp, 1)) {
		(void)read();
		ok = 1;
	}
	sigaction(SIGILL, &old, NULL);
	return ok;
}
#endif

#if defined(__x86_64__)
/* Like the kernel's rdtsc_ordered(): lfence keeps rdtsc after earlier loads */
static __always_inline unsigned long long kb_tsc_read(void)
{
	unsigned int lo, hi;

	asm volatile("lfence; rdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return ((unsigned long long)hi << 32) | lo;
}

KB_USER_WINDOW(kb_tsc_window, kb_tsc_read)

/* A flag of the first "flags" line of /proc/cpuinfo (the kernel's view). */
static int kb_cpu_flag(const char *flag)
{
	char buf[4096], *p, *v = kb_cpuinfo("flags", buf, sizeof(buf));
	size_t len = strlen(flag);

	for (p = v; p && (p = strstr(p, flag)); p += len)
		if ((p == v || p[-1] == ' ') && (!p[len] || p[len] == ' '))
			return 1;
	return 0;
}

static int kb_tsc_probe(struct kbench_counter *c)
{
	unsigned int a = 1, b, cx = 0, d;
	int mode = 0;

	asm volatile("cpuid" : "+a" (a), "=b" (b), "+c" (cx), "=d" (d));
	if (!(d & (1U << 4)))
		return -ENODEV;
	/* prctl(PR_SET_TSC, PR_TSC_SIGSEGV) makes rdtsc fault */
	if (!prctl(PR_GET_TSC, &mode, 0, 0, 0) && mode != PR_TSC_ENABLE)
		return -ENODEV;
	c->hz = kb_calibrate(kb_tsc_read);
	if (!c->hz)
		return -ENODEV;
	c->flags = KBENCH_COUNTER_F_ORDERED;
	if (kb_cpu_flag("constant_tsc"))
		c->flags |= KBENCH_COUNTER_F_CONSTANT;
	if (kb_cpu_flag("nonstop_tsc"))
		c->flags |= KBENCH_COUNTER_F_NONSTOP;
	if (kb_cpu_flag("tsc_reliable"))
		c->flags |= KBENCH_COUNTER_F_RELIABLE;
	return 0;
}
#endif

#if defined(__aarch64__)
/* Like the kernel's precise read: isb, so earlier instructions are done */
KB_ASM_COUNTER(kb_cntvct, "isb; mrs %0, cntvct_el0")

static int kb_cntvct_probe(struct kbench_counter *c)
{
	unsigned long long hz;

	/* Linux lets EL0 read CNTVCT_EL0 and CNTFRQ_EL0 unless it may not */
	if (!kb_trial_read(kb_cntvct_read))
		return -ENODEV;
	asm volatile("mrs %0, cntfrq_el0" : "=r" (hz));
	if (!hz)
		return -ENODEV;
	c->hz = hz;
	c->flags = KBENCH_COUNTER_F_ORDERED | KBENCH_COUNTER_F_CONSTANT |
		   KBENCH_COUNTER_F_NONSTOP;
	return 0;
}
#endif

#if defined(__powerpc64__)
/* Like kbench.ko: isync on both sides of mftb (SPR 268, TBL) */
KB_ASM_COUNTER(kb_timebase, "isync; mfspr %0, 268; isync")

static int kb_timebase_probe(struct kbench_counter *c)
{
	char buf[256], *v;

	if (!kb_trial_read(kb_timebase_read))
		return -ENODEV;
	/* "timebase : 512000000", as the kernel has it */
	v = kb_cpuinfo("timebase", buf, sizeof(buf));
	c->hz = v ? strtoull(v, NULL, 10) : 0;
	if (!c->hz)
		c->hz = kb_calibrate(kb_timebase_read);
	if (!c->hz)
		return -ENODEV;
	c->flags = KBENCH_COUNTER_F_ORDERED | KBENCH_COUNTER_F_CONSTANT |
		   KBENCH_COUNTER_F_NONSTOP;
	return 0;
}
#endif

KB_USER_WINDOW(kb_clock_window, kb_clock_raw)

static int kb_clock_probe(struct kbench_counter *c)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts))
		return -errno;
	c->hz = KBENCH_NSEC_PER_SEC;
	c->flags = KBENCH_COUNTER_F_CONSTANT | KBENCH_COUNTER_F_NONSTOP;
	return 0;
}

#define KB_ROW(n, d, rd, win, pr) {					\
	.name = n, .desc = d, .read = rd, .irq_off = kb_irq_none,	\
	.irq_on = kb_irq_none, .snap_begin = kb_cpu_check,		\
	.snap_end = kb_cpu_check, .window = win, .probe = pr,		\
	.detectors = KBENCH_SAMPLE_F_CPU_CHANGED |			\
		     KBENCH_SAMPLE_F_BACKWARDS |			\
		     KBENCH_SAMPLE_F_REFERENCE }

static struct kbench_counter kb_counters[] = {
#if defined(__x86_64__)
	KB_ROW("tsc", "lfence; rdtsc", kb_tsc_read, kb_tsc_window,
	       kb_tsc_probe),
#elif defined(__aarch64__)
	KB_ROW("cntvct", "isb; mrs cntvct_el0", kb_cntvct_read,
	       kb_cntvct_window, kb_cntvct_probe),
#elif defined(__powerpc64__)
	KB_ROW("timebase", "isync; mftb; isync", kb_timebase_read,
	       kb_timebase_window, kb_timebase_probe),
#endif
	KB_ROW("clock_monotonic_raw", "clock_gettime(CLOCK_MONOTONIC_RAW)",
	       kb_clock_raw, kb_clock_window, kb_clock_probe),
};

#define KB_NR_COUNTERS	(sizeof(kb_counters) / sizeof(kb_counters[0]))

/* Each row is probed once per process: 0 not yet, 1 usable, -1 not. */
static int kb_probed[KB_NR_COUNTERS];

static int kb_usable(unsigned int i)
{
	if (!kb_probed[i])
		kb_probed[i] = kb_counters[i].probe(&kb_counters[i]) ? -1 : 1;
	return kb_probed[i] > 0;
}

static void kb_info(unsigned int i, struct kbench_counter_info *info)
{
	const struct kbench_counter *c = &kb_counters[i];

	memset(info, 0, sizeof(*info));
	info->name = c->name;
	info->desc = c->desc;
	info->usable = kb_usable(i);
	info->hz = info->usable ? c->hz : 0;
	info->flags = info->usable ? c->flags : 0;
	info->read = c->read;
}

const struct kbench_counter *kb_counter_pick(const char *name)
{
	unsigned int i;

	if (!name) {
		name = getenv("KBENCH_COUNTER");
		if (name && !*name)
			name = NULL;
	}
	if (name && !strcmp(name, "clock"))
		name = "clock_monotonic_raw";
	for (i = 0; i < KB_NR_COUNTERS; i++) {
		if (name && strcmp(name, kb_counters[i].name))
			continue;
		if (kb_usable(i))
			return &kb_counters[i];
		if (name) {
			errno = ENODEV;
			return NULL;
		}
	}
	errno = name ? ENOENT : ENODEV;
	return NULL;
}

KB_EXPORT int kbench_counter_get(unsigned int index,
				 struct kbench_counter_info *info)
{
	if (index >= KB_NR_COUNTERS || !info) {
		errno = index >= KB_NR_COUNTERS ? ENOENT : EINVAL;
		return -1;
	}
	kb_info(index, info);
	return 0;
}

KB_EXPORT int kbench_counter_select(const char *name,
				    struct kbench_counter_info *info)
{
	const struct kbench_counter *c = kb_counter_pick(name);

	if (!c)
		return -1;
	if (info)
		kb_info((unsigned int)(c - kb_counters), info);
	return 0;
}
