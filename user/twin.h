/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace twins of the arithmetic built-ins and the userspace counter.
 */
#ifndef KBENCHCTL_TWIN_H
#define KBENCHCTL_TWIN_H

#include <stdbool.h>
#include <stdint.h>

struct kb_run;

struct kb_twin {
	const char *name;
	const char *desc;
	void (*run)(unsigned int iterations, void *data);
	unsigned int insns;	/* instructions per iteration */
};

extern const struct kb_twin kb_twins[];
const struct kb_twin *kb_twin_find(const char *name);

/* The userspace counter: "tsc" (lfence; rdtsc) or "clock_monotonic_raw". */
struct kb_counter {
	const char *name;
	uint64_t hz;
	bool tsc;
};

/*
 * Pick the counter (TSC when the CPU has one and KBENCH_COUNTER is not
 * "clock"), and calibrate its rate against CLOCK_MONOTONIC_RAW (20 ms).
 */
void kb_counter_init(struct kb_counter *c);
uint64_t kb_counter_read(const struct kb_counter *c);

struct kb_twin_req {
	const char *names[4];
	unsigned int n;
	int cpu;		/* -1: the current CPU */
	uint32_t samples;
	uint32_t iterations;	/* 0: adaptive */
	uint32_t target_ns;
	uint32_t warmup;
	uint64_t counter_hz;	/* 0: calibrate; else use this rate */
};

/*
 * Time the twins with the kernel's method, interleaved with `empty` as the
 * overhead routine, on a pinned thread; fill @r like a kernel RUN reply
 * (samples included).  0, or -errno with a message printed.
 */
int kb_twin_run(const struct kb_twin_req *q, struct kb_run *r);

#endif /* KBENCHCTL_TWIN_H */
