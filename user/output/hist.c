// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms for the terminal.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "stats.h"

static double kb_hist_edge(const struct kb_hist *h, size_t i)
{
	if (h->log_x)
		return exp(log(h->lo) + (double)i * h->width);
	return h->lo + (double)i * h->width;
}

static size_t bin_of(const struct kb_hist *h, double v)
{
	double f;

	if (h->log_x)
		f = (log(v) - log(h->lo)) / h->width;
	else
		f = (v - h->lo) / h->width;
	if (f < 0)
		return 0;
	if (f >= (double)h->nbins)
		return h->nbins - 1;
	return (size_t)f;
}

int kb_hist_build(struct kb_hist *h, const double *x, size_t n,
		  size_t maxbins, bool log_x)
{
	double lo = x[0], hi = x[n - 1], p99, span;
	size_t i;
	bool integral = true;

	memset(h, 0, sizeof(*h));
	if (!n || !maxbins)
		return -EINVAL;
	p99 = kb_quantile_sorted(x, n, 0.99);
	span = p99 - lo;
	/* a long tail would squash the body into one bin: cut it at p99 */
	if (hi > p99 + span && span > 0)
		hi = p99;
	for (i = 0; i < n && integral; i++)
		integral = x[i] == floor(x[i]);
	h->log_x = log_x && lo > 0;
	h->lo = lo;
	if (h->log_x) {
		h->nbins = maxbins;
		h->width = hi > lo ? (log(hi) - log(lo)) / (double)maxbins : 1;
	} else if (integral && hi - lo + 1 <= (double)maxbins) {
		h->nbins = (size_t)(hi - lo) + 1;
		h->width = 1;
	} else {
		h->nbins = maxbins;
		h->width = hi > lo ? (hi - lo) / (double)maxbins : 1;
		if (hi == lo)
			h->nbins = 1;
	}
	h->count = calloc(h->nbins, sizeof(*h->count));
	if (!h->count)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (x[i] > hi) {
			if (!h->over)
				h->over_min = x[i];
			h->over++;
			continue;
		}
		h->count[bin_of(h, x[i])]++;
	}
	for (i = 0; i < h->nbins; i++)
		if (h->count[i] > h->max_count)
			h->max_count = h->count[i];
	return 0;
}

void kb_hist_free(struct kb_hist *h)
{
	free(h->count);
	h->count = NULL;
}

static void bar(FILE *f, double cells, int width)
{
	static const char *const eighths[] = { "", "\u258f", "\u258e", "\u258d",
					       "\u258c", "\u258b", "\u258a",
					       "\u2589" };
	int full = (int)cells, i, rest;

	if (full > width)
		full = width;
	for (i = 0; i < full; i++)
		fputs("\u2588", f);
	rest = (int)((cells - full) * 8);
	if (full < width && rest > 0 && rest < 8) {
		fputs(eighths[rest], f);
		full++;
	}
	for (; full < width; full++)
		putc(' ', f);
}

void kb_hist_print(FILE *f, const struct kb_hist *h, int width,
		   bool log_counts, double min, double median, double mode,
		   const char *unit)
{
	double top = log_counts ? log1p((double)h->max_count) :
				  (double)h->max_count;
	size_t i;

	fprintf(f, "  %12s   %s\n", unit,
		log_counts ? "count (log scale)" : "count");
	for (i = 0; i < h->nbins; i++) {
		double a = kb_hist_edge(h, i), b = kb_hist_edge(h, i + 1);
		double c = log_counts ? log1p((double)h->count[i]) :
					(double)h->count[i];
		bool last = i + 1 == h->nbins;
		char mark[48] = "";
		/* a value belongs to this row if it is in [a, b) (last: [a, b]) */
#define IN_ROW(v) ((v) >= a && ((v) < b || (last && (v) <= b)))

		if (IN_ROW(min))
			strcat(mark, " min");
		if (IN_ROW(median))
			strcat(mark, " median");
		if (IN_ROW(mode))
			strcat(mark, " mode");
#undef IN_ROW
		fprintf(f, "  %12.6g \u2502", a);
		bar(f, top > 0 ? c / top * width : 0, width);
		fprintf(f, " %zu%s%s\n", h->count[i], mark[0] ? " \u25c0" : "",
			mark);
	}
	if (h->over)
		fprintf(f, "  %12s \u2502 %zu beyond p99 (from %.6g)\n", ">", h->over,
			h->over_min);
}
