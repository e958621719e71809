/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Clock resolution and latency, kernel (CLOCK_GET) and userspace, in one
 * record so that both print through the same code.
 */
#ifndef KBENCHCTL_UCLOCKS_H
#define KBENCHCTL_UCLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kb_clock {
	const char *side;	/* "kernel" or "user" */
	char name[40];
	char unit[16];
	uint64_t hz;		/* units per second */
	uint64_t res_min, res_sum;
	uint32_t res_changes;
	uint32_t lat_reads;
	uint64_t lat_span, lat_cycles;	/* cycles: ticks of the counter */
	char counter[32];	/* userspace: libkbench's counter ("" kernel) */
	uint64_t counter_hz;
};

#define KB_UCLOCKS_MAX 16

/*
 * Measure the userspace clocks; returns how many were filled, or -1 (no
 * usable counter: a message was printed).
 */
long kb_uclocks_measure(struct kb_clock *out, size_t max);

/* Derived figures (NAN when not measurable). */
double kb_clock_res_mean(const struct kb_clock *c);
double kb_clock_latency(const struct kb_clock *c);	/* clock units */
double kb_clock_to_ns(const struct kb_clock *c, double units);



#endif /* KBENCHCTL_UCLOCKS_H */
