/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms: binning (shared by the terminal and SVG renderers) and the
 * terminal rendering with Unicode bars.
 */
#ifndef KBENCHCTL_HIST_H
#define KBENCHCTL_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct kb_hist {
	double lo, width;	/* bin i covers [lo + i w, lo + (i+1) w) */
	size_t nbins;
	size_t *count;
	size_t over;		/* values above the last bin (beyond p99) */
	double over_min;
	size_t max_count;
	bool log_x;		/* bins equal in log space (SVG --log-x) */
};

/*
 * Bin sorted @x (n > 0) into at most @maxbins bins from min to p99 (or max
 * when nothing lies far beyond p99); integer-valued data gets whole-unit
 * bins when the range is small.  0 or -ENOMEM.
 */
int kb_hist_build(struct kb_hist *h, const double *x, size_t n,
		  size_t maxbins, bool log_x);
void kb_hist_free(struct kb_hist *h);

/*
 * Draw @h on @f, @width columns of bar, log-scale counts with @log_counts;
 * the rows holding @min, @median and @mode are marked.
 */
void kb_hist_print(FILE *f, const struct kb_hist *h, int width,
		   bool log_counts, double min, double median, double mode,
		   const char *unit);

#endif /* KBENCHCTL_HIST_H */
