/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace twins of the arithmetic built-ins, measured with libkbench.
 */
#ifndef KBENCHCTL_TWIN_H
#define KBENCHCTL_TWIN_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/kbench.h>

#include "twintab.h"

struct kb_run;

extern const struct kb_twin kb_twins[];
/* their names from the table, comma-separated, for messages */
const char *kb_twin_names(void);
/* A twin of any table (the built-ins, --asm's, the baseline's) by name, or NULL. */
const struct kb_twin *kb_twin_find(const char *name);
/*
 * Add a routine of this process (--asm's snippets) to those kb_twin_find()
 * knows, @t copied; at most KB_TWIN_EXTRA_MAX.  0 or -ENOSPC.
 */
#define KB_TWIN_EXTRA_MAX	4
int kb_twin_register(const struct kb_twin *t);

struct kb_twin_req {
	const char *names[4];
	unsigned int n;
	int cpu;		/* -1: the current CPU */
	uint32_t samples;
	uint32_t iterations;	/* 0: adaptive */
	uint32_t target_ns;
	uint32_t warmup;
	uint64_t counter_hz;	/* 0: the counter's own rate */
	uint32_t skew_ns;	/* concurrent: 0: libkbench's default */
	const char *events[KBENCH_EVENTS_MAX];	/* hardware events */
	unsigned int nevents;
	unsigned int nargs;	/* 0, 1 (every routine) or n (each its own) */
	uint64_t args[4];
	/*
	 * the estimate of a long run and its progress on a terminal
	 * (meter.h); kb_stop_signal (stop.h) stops kb_twin_run() either way
	 */
	bool progress;
};

/*
 * Time the twins with libkbench's kbench_measure() - the kernel's engine -
 * interleaved with the empty loop as the overhead routine, on a pinned
 * thread; fill @r like a kernel RUN reply (samples included).  0, or
 * -errno with a message printed (-ENOENT: no such twin or counter).
 */
int kb_twin_run(const struct kb_twin_req *q, struct kb_run *r);

/*
 * kb_twin_run() at the same time on the @nr CPUs of @cpus (distinct), one
 * pinned thread each, their windows started together (libkbench's
 * kbench_measure_cpus()): @cr gets a run per CPU and the start skew.  The
 * contention twins get their shared or per-CPU data.  No events.  0, or
 * -errno with a message printed.
 */
struct kb_cpus_run;
int kb_twin_run_cpus(const struct kb_twin_req *q, const int32_t *cpus,
		     unsigned int nr, struct kb_cpus_run *cr);

/*
 * The userspace counter (KBENCH_COUNTER or the preference list): 0, or
 * -errno with a message printed naming the usable choices.
 */
struct kbench_counter_info;
int kb_user_counter(struct kbench_counter_info *info);

#endif /* KBENCHCTL_TWIN_H */
