/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The default report of run and compare: a few lines per routine, after
 * hyperfine (median with its CI, min, what was excluded, a verdict).
 * -v/--verbose and --json print everything instead (runprint.c).
 */
#ifndef KBENCHCTL_REPORT_H
#define KBENCHCTL_REPORT_H

#include "result.h"
#include "verdict.h"
#include "stats.h"


/* A counter's rate: "999.999 MHz", "1.000 GHz". */
void kb_rate_text(uint64_t hz, char *buf, size_t len);
/* The run's first line: id, side, CPU, samples x iterations, counter. */
void kb_report_header(const struct kb_run *r, const char *what);
/* One routine: median (95% CI), min, corrected, samples, verdict. */
void kb_report_result(const struct kb_run *r, const struct kb_result *res);
bool kb_report_no_valid(const struct kb_run *r, FILE *f);
/* A whole run; @flags: KB_PRINT_HIST/LOG/RAW after each routine. */
void kb_report_run(const struct kb_run *r, unsigned int flags);

/*
 * The figures of the comparison of @b against @a (bootstrap CI of the
 * relative difference of the medians, Mann-Whitney U in @u, the verdict),
 * without printing them.  0, or -ENODATA when a side has no valid sample
 * (printed), -ENOMEM.
 */
int kb_compare_compute(const struct kb_run *r, const struct kb_result *a,
		       const struct kb_result *b, double threshold,
		       uint64_t seed, struct kb_compare *c, double *u);

/* A routine's label in reports (kb_result_label()) fits this many bytes. */
#define KB_LABEL_MAX	(KBENCH_NAME_MAX + 22)

/*
 * Comparison of @b against @a (bootstrap CI, Mann-Whitney U, verdict):
 * with @full every figure (JSON "comparison"), else the difference of the
 * medians and the verdict, last.  @seq (sampling until answered, until.h):
 * its anytime CI takes the bootstrap's place and decides.  0 or -errno
 * (printed).
 */
int kb_report_compare(const struct kb_run *r, const struct kb_result *a,
		      const struct kb_result *b, double threshold,
		      uint64_t seed, bool full, const struct kb_compare *seq);
/*
 * A routine in the kernel (@k) and as its userspace twin (@u): how many
 * user samples interrupts inflated and by how much (JSON
 * "kernel_vs_user" with @full).  0 or -errno (printed).
 */
int kb_report_kvu(const struct kb_run *k, const struct kb_run *u, bool full);

#endif /* KBENCHCTL_REPORT_H */
