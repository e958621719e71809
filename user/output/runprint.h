/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report of a run, table or JSON, and its samples as CSV (runprint.c).
 */
#ifndef KBENCHCTL_RUNPRINT_H
#define KBENCHCTL_RUNPRINT_H

#include <stdio.h>

#include "result.h"

/* Output of a run. */
enum {
	KB_PRINT_HIST = 1 << 0,
	KB_PRINT_LOG = 1 << 1,
	KB_PRINT_RAW = 1 << 2,
	KB_PRINT_BRIEF = 1 << 3,	/* no userspace statistics */
};

/* That N adapted after the probe, and how (nothing when it did not). */
void kb_report_n_adapted(const struct kb_run *r);
/* The run-level fields (inside the current JSON object). */
void kb_run_print_header(const struct kb_run *r);
/*
 * A run with fewer samples than asked: "partial: interrupted after M of N
 * samples", and in JSON "partial" {reason, samples_asked, samples_taken}.
 * Nothing for a complete run.
 */
void kb_run_print_partial(const struct kb_run *r);
/* One routine's summary (inside the current JSON object). */
void kb_result_print(const struct kb_run *r, const struct kb_result *res,
		     unsigned int flags);
/* Whole run: one object; "routines" array when several. */
void kb_run_print(const struct kb_run *r, unsigned int flags);
/* The same as the object @key of the current one, not finished. */
void kb_run_print_object(const char *key, const struct kb_run *r,
			 unsigned int flags);
/* Its members, into the object the caller opened. */
void kb_run_print_members(const struct kb_run *r, unsigned int flags);
/* CSV of every sample: index,routine,net_cycles,flags. */
void kb_run_print_csv(const struct kb_run *r, FILE *f);

/* --hist and --raw of one routine. */
void kb_result_print_extras(const struct kb_run *r, const struct kb_result *res,
			    unsigned int flags);

#endif /* KBENCHCTL_RUNPRINT_H */
