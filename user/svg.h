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
	double iterations;		/* net / iterations = cycles/iter */
};

int kb_svg_write(FILE *f, const struct kb_svg_series *s, unsigned int n,
		 const char *title, bool log_x);
/* The routines of @r (not the overhead) into @path. 0 or -1 (printed). */
int kb_svg_write_file(const char *path, const struct kb_run *r, bool log_x);
/* Several runs' first routines overlaid (compare --kernel-vs-user). */
int kb_svg_write_runs(const char *path, const struct kb_run *const *runs,
		      const char *const *labels, unsigned int n, bool log_x);

#endif /* KBENCHCTL_SVG_H */
