/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-contained SVG plots: histograms of the samples (overlaid when
 * several) with min/median/mode marked and flagged samples shown, and a
 * second panel with the samples in time order.
 */
#ifndef KBENCHCTL_SVG_H
#define KBENCHCTL_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

struct kb_run;

struct kb_svg_series {
	const char *name;
	const double *sorted;		/* valid values, cycles/iter, sorted */
	const struct kb_stats *st;
	const int64_t *net;		/* all samples in time order */
	const uint32_t *flags;
	size_t n;
	double iterations;		/* net / iterations = ticks/iter */
	char unit[48];			/* kb_run_unit_text(): "tsc ticks" */
};

int kb_svg_write(FILE *f, const struct kb_svg_series *s, unsigned int n,
		 const char *title, bool log_x);
/* The routines of @r (not the overhead) into @path. 0 or -1 (printed). */
int kb_svg_write_file(const char *path, const struct kb_run *r, bool log_x);
/* Several runs' first routines overlaid (compare --kernel-vs-user). */
int kb_svg_write_runs(const char *path, const struct kb_run *const *runs,
		      const char *const *labels, unsigned int n, bool log_x);

/* One routine of a sweep: its figures at each argument, ascending or not. */
struct kb_svg_curve {
	const char *name;
	size_t n;
	const double *x;		/* the argument */
	const double *min, *median;	/* per iteration, in unit (min: or NULL) */
	const double *ci_lo, *ci_hi;	/* the median's 95% CI */
	const char *note;		/* after the name in the legend, or "" */
	/* steps found in the series (history): a vertical mark before x[i] */
	const size_t *steps;
	size_t nsteps;
	char unit[48];			/* kb_run_unit_text(): "tsc ticks" */
};

/*
 * A sweep's line plot: the figure per iteration (the first curve's unit) against the argument, per
 * routine the median (solid, with points), the minimum (dashed) and the
 * median's CI as a band; @log_x: a log2 axis (geometric sweeps).
 */
int kb_svg_write_sweep_file(const char *path, const struct kb_svg_curve *c,
			    unsigned int n, const char *title,
			    const char *xlabel, bool log_x);
/* "add_n over adds 1..64:x2 -- kernel" and the run's conditions below */
void kb_svg_sweep_title(char *buf, size_t len, const struct kb_run *first,
			const char *const *names, unsigned int n, bool compare,
			const char *spec);

/* One bar of a bar chart (kbenchctl baseline): a figure and its CI. */
struct kb_svg_bar {
	const char *group;		/* bars of a group stay together */
	const char *label;
	bool user;			/* userspace (else kernel): its colour */
	double value, lo, hi;		/* ns; lo/hi: the CI, NAN for none */
};

/*
 * Horizontal bars on a log10 axis, by group in the order given, into
 * @path.  0 or -1 (printed).
 */
int kb_svg_write_bars(const char *path, const char *title,
		      const struct kb_svg_bar *b, size_t n);

#endif /* KBENCHCTL_SVG_H */
