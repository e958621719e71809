// SPDX-License-Identifier: GPL-2.0
/*
 * Self-contained SVG plots of runs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kbenchctl.h"
#include "run.h"
#include "svg.h"

#define W		960
#define ML		80	/* left margin */
#define MR		24
#define TOP1		70	/* histogram panel */
#define H1		300
#define TOP2		(TOP1 + H1 + 80)	/* time-order panel */
#define H2		220
#define HEIGHT		(TOP2 + H2 + 60)
#define NBINS		60

static const char *const colors[] = { "#1f77b4", "#ff7f0e", "#2ca02c",
				      "#9467bd" };

static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				putc(*s, f);
		}
	}
}

struct axis {
	double lo, hi;
	bool log;
};

static double ax_frac(const struct axis *a, double v)
{
	double f;

	if (a->hi <= a->lo)
		return 0.5;
	if (a->log)
		f = (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
	else
		f = (v - a->lo) / (a->hi - a->lo);
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

static double ax_value(const struct axis *a, double f)
{
	if (a->log)
		return exp(log(a->lo) + f * (log(a->hi) - log(a->lo)));
	return a->lo + f * (a->hi - a->lo);
}

static double hx(const struct axis *a, double v)
{
	return ML + ax_frac(a, v) * (W - ML - MR);
}

static void marker(FILE *f, const struct axis *a, double v, const char *cls,
		   const char *label, const char *color, int row)
{
	double x;

	if (!isfinite(v))
		return;
	x = hx(a, v);
	fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"%s/>\n",
		cls, x, TOP1, x, TOP1 + H1, color,
		!strcmp(cls, "median") ? " stroke-dasharray=\"6 3\"" :
		!strcmp(cls, "mode") ? " stroke-dasharray=\"2 2\"" : "");
	fprintf(f, "<text class=\"label\" x=\"%.1f\" y=\"%d\" fill=\"%s\">%s %.6g</text>\n",
		x + 3, TOP1 + 12 + 12 * row, color, label, v);
}

int kb_svg_write(FILE *f, const struct kb_svg_series *s, unsigned int n,
		 const char *title, bool log_x)
{
	struct axis ax = { INFINITY, -INFINITY, false };
	size_t counts[4][NBINS], maxc = 1, maxn = 1, i;
	unsigned int k, b;

	if (n > 4)
		n = 4;
	/* x range: all minima to the largest p99 (a far tail is cut there) */
	for (k = 0; k < n; k++) {
		const struct kb_stats *st = s[k].st;
		double hi;

		if (!st->count)
			continue;
		hi = st->max > st->p99 + (st->p99 - st->min) ? st->p99 : st->max;
		if (st->min < ax.lo)
			ax.lo = st->min;
		if (hi > ax.hi)
			ax.hi = hi;
		if (s[k].n > maxn)
			maxn = s[k].n;
	}
	if (!isfinite(ax.lo)) {
		ax.lo = 0;
		ax.hi = 1;
	}
	ax.log = log_x && ax.lo > 0;
	if (ax.hi <= ax.lo) {
		/* one distinct value: a narrow range around it */
		double d = fabs(ax.lo) * 0.01 + 0.5;

		ax.lo = ax.log ? ax.lo / 1.1 : ax.lo - d;
		ax.hi = ax.log ? ax.hi * 1.1 : ax.hi + d;
	}
	memset(counts, 0, sizeof(counts));
	for (k = 0; k < n; k++) {
		for (i = 0; i < s[k].st->count; i++) {
			double fr = ax_frac(&ax, s[k].sorted[i]);

			b = (unsigned int)(fr * NBINS);
			if (b >= NBINS)
				b = NBINS - 1;
			counts[k][b]++;
		}
		for (b = 0; b < NBINS; b++)
			if (counts[k][b] > maxc)
				maxc = counts[k][b];
	}

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		W, HEIGHT, W, HEIGHT);
	fputs("<title>", f);
	xml_text(f, title);
	fputs("</title>\n<style>.axis{stroke:#333;stroke-width:1}.grid{stroke:#ddd}.flagged{fill:#d62728;stroke:#d62728}.label{font-size:11px}</style>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, HEIGHT);
	fprintf(f, "<text id=\"title\" x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">", ML);
	xml_text(f, title);
	fputs("</text>\n", f);

	/* panel 1: histograms */
	fprintf(f, "<g id=\"histogram\">\n<text x=\"%d\" y=\"%d\">histogram of valid samples (cycles per iteration%s)</text>\n",
		ML, TOP1 - 24, ax.log ? ", log x" : "");
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		ML, TOP1 + H1, W - MR, TOP1 + H1);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		ML, TOP1, ML, TOP1 + H1);
	for (i = 0; i <= 5; i++) {
		double fr = (double)i / 5, x = ML + fr * (W - ML - MR);

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.6g</text>\n",
			x, TOP1 + H1 + 16, ax_value(&ax, fr));
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%zu</text>\n",
		ML - 6, TOP1 + 10, maxc);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n",
		ML - 6, TOP1 + H1);
	for (k = 0; k < n; k++) {
		double bw = (double)(W - ML - MR) / NBINS;

		fprintf(f, "<g class=\"series\" fill=\"%s\" fill-opacity=\"0.45\">\n",
			colors[k]);
		for (b = 0; b < NBINS; b++) {
			double h = (double)counts[k][b] / (double)maxc * H1;

			if (!counts[k][b])
				continue;
			fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
				ML + b * bw, TOP1 + H1 - h, bw, h);
		}
		fputs("</g>\n", f);
		marker(f, &ax, s[k].st->min, "min", "min", colors[k], 3 * (int)k);
		marker(f, &ax, s[k].st->median, "median", "median", colors[k],
		       3 * (int)k + 1);
		marker(f, &ax, s[k].st->mode.mode, "mode", "mode", colors[k],
		       3 * (int)k + 2);
		/* flagged samples: red ticks under the axis */
		for (i = 0; i < s[k].n; i++) {
			double v;

			if (!s[k].flags[i])
				continue;
			v = (double)s[k].net[i] / s[k].iterations;
			if (ax.log && v <= 0)
				v = ax.lo;
			fprintf(f, "<rect class=\"flagged\" x=\"%.1f\" y=\"%d\" width=\"2\" height=\"8\"/>\n",
				hx(&ax, v) - 1, TOP1 + H1 + 22);
		}
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>",
			W - MR - 220, TOP1 + 16 * (int)k, colors[k]);
		fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\">", W - MR - 202,
			TOP1 + 10 + 16 * (int)k);
		xml_text(f, s[k].name);
		fprintf(f, " (n=%zu)</text>\n", s[k].st->count);
	}
	fputs("</g>\n", f);

	/* panel 2: samples in time order (drift shows) */
	fprintf(f, "<g id=\"timeline\">\n<text x=\"%d\" y=\"%d\">samples in time order (cycles per iteration; flagged in red)</text>\n",
		ML, TOP2 - 12);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		ML, TOP2 + H2, W - MR, TOP2 + H2);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		ML, TOP2, ML, TOP2 + H2);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.6g</text>\n",
		ML - 6, TOP2 + 10, ax.hi);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.6g</text>\n",
		ML - 6, TOP2 + H2, ax.lo);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">sample %zu</text>\n",
		W - MR, TOP2 + H2 + 16, maxn - 1);
	for (k = 0; k < n; k++) {
		size_t stride = s[k].n > 4000 ? s[k].n / 4000 : 1;

		fprintf(f, "<g class=\"points\" fill=\"%s\">\n", colors[k]);
		for (i = 0; i < s[k].n; i++) {
			double v = (double)s[k].net[i] / s[k].iterations;
			double x = ML + (double)i / (double)(maxn > 1 ? maxn - 1 : 1) *
					(W - ML - MR);
			double y;

			if (ax.log && v <= 0)
				v = ax.lo;
			y = TOP2 + H2 - ax_frac(&ax, v) * H2;
			if (s[k].flags[i])
				fprintf(f, "<circle class=\"flagged\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/>\n",
					x, y);
			else if (i % stride == 0)
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.2\"/>\n",
					x, y);
		}
		fputs("</g>\n", f);
	}
	fputs("</g>\n</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}

static void series_of(struct kb_svg_series *s, const struct kb_run *r,
		      const struct kb_result *res, const char *name)
{
	s->name = name ? name : res->routine;
	s->sorted = res->sorted;
	s->st = &res->st;
	s->net = res->net;
	s->flags = res->sflags;
	s->n = res->n;
	s->iterations = r->iterations ? r->iterations : 1;
}

static int write_path(const char *path, const struct kb_svg_series *s,
		      unsigned int n, const char *title, bool log_x)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	err = kb_svg_write(f, s, n, title, log_x);
	if (fclose(f) || err) {
		fprintf(stderr, "%s: %s: write error\n", prog, path);
		return -1;
	}
	return 0;
}

static void title_of(char *buf, size_t len, const struct kb_run *r,
		     const char *names)
{
	snprintf(buf, len, "%s \u2014 %s, CPU %u, kernel %s, counter %s @ %llu Hz, %s",
		 names, r->user ? "userspace" : "kernel", r->cpu,
		 r->kernel[0] ? r->kernel : "?", r->counter,
		 (unsigned long long)r->counter_hz, r->date);
}

int kb_svg_write_file(const char *path, const struct kb_run *r, bool log_x)
{
	struct kb_svg_series s[KBENCH_RUN_ROUTINES_MAX];
	char names[4 * (KBENCH_NAME_MAX + 4)] = "", title[512];
	unsigned int k;

	for (k = 0; k < r->nres; k++) {
		series_of(&s[k], r, &r->res[k], NULL);
		if (k)
			strcat(names, " vs ");
		strcat(names, r->res[k].routine);
	}
	title_of(title, sizeof(title), r, names);
	return write_path(path, s, r->nres, title, log_x);
}

int kb_svg_write_runs(const char *path, const struct kb_run *const *runs,
		      const char *const *labels, unsigned int n, bool log_x)
{
	struct kb_svg_series s[4];
	char names[160], title[512];
	unsigned int k;

	if (n > 4)
		n = 4;
	for (k = 0; k < n; k++)
		series_of(&s[k], runs[k], &runs[k]->res[0], labels[k]);
	snprintf(names, sizeof(names), "%s: kernel vs userspace",
		 runs[0]->res[0].routine);
	title_of(title, sizeof(title), runs[0], names);
	return write_path(path, s, n, title, log_x);
}
