// SPDX-License-Identifier: GPL-2.0
/*
 * Self-contained SVG plots of runs.
 *
 * Two panels share one value axis (per iteration, in the run's unit): a
 * histogram of the valid samples, one series per routine overlaid, with min, median and
 * mode drawn as vertical lines; and the samples in time order, so that
 * drift and bursts of interference show.  The axis spans the smallest
 * minimum to the largest p95 plus a margin: a far tail would otherwise
 * squeeze the whole distribution into one bin.  What lies beyond is counted
 * in the legend and drawn as triangles on the top edge of the time panel.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "output.h"
#include "result.h"
#include "svg.h"

#define W		960
#define ML		84	/* left margin */
#define MR		28
#define PW		(W - ML - MR)	/* plot width */
#define H1		300	/* histogram panel height */
#define H2		220	/* time-order panel height */
#define NBINS		60
#define MAXSERIES	4
#define MAXTICKS	16

static const char *const colors[MAXSERIES] = { "#1f77b4", "#ff7f0e",
					       "#2ca02c", "#9467bd" };

/* min, median and mode: one line style each, explained in the legend */
static const char *const marker_name[3] = { "min", "median", "mode" };
static const char *const marker_dash[3] = { "", " stroke-dasharray=\"7 4\"",
					    " stroke-dasharray=\"2 3\"" };

/* XML-escaped text: at most @len bytes of @s, control characters dropped */
static void xml_text_n(FILE *f, const char *s, size_t len)
{
	for (; s && *s && len; s++, len--) {
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

static void xml_text(FILE *f, const char *s)
{
	xml_text_n(f, s, (size_t)-1);
}

/* An axis's unit: the series' own, set from kb_run_unit_text() */
static const char *unit_of(const char *unit)
{
	return unit && unit[0] ? unit : "value";
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
		f = v > 0 ? (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo)) : 0;
	else
		f = (v - a->lo) / (a->hi - a->lo);
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

static double hx(const struct axis *a, double v)
{
	return ML + ax_frac(a, v) * PW;
}

/* 1, 2 or 5 times a power of ten, near @range / @target */
static double nice_step(double range, int target)
{
	double raw = range / target, p, m;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	p = pow(10, floor(log10(raw)));
	m = raw / p;
	return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * p;
}

/*
 * Tick values inside [lo, hi]: multiples of a 1-2-5 step on a linear axis
 * (and a log axis spanning less than 20x); 1, 2 and 5 times powers of ten
 * on a wider log axis (powers of ten alone on a very wide one).  Returns how many; *decimals is what printing them needs.
 */
static int ticks(const struct axis *a, int target, double *t, int *decimals)
{
	double step, v;
	int n = 0, i, k;

	*decimals = 0;
	/* within a decade or so, evenly stepped values read better */
	if (a->log && a->hi / a->lo > 20) {
		static const double mult[3] = { 1, 2, 5 };
		double p;

		for (p = pow(10, floor(log10(a->lo))); p <= a->hi && n < MAXTICKS; p *= 10)
			for (i = 0; i < 3 && n < MAXTICKS; i++) {
				v = mult[i] * p;
				if (v >= a->lo && v <= a->hi) {
					t[n++] = v;
					if (v < 1 && (int)ceil(-log10(v) - 1e-9) > *decimals)
						*decimals = (int)ceil(-log10(v) - 1e-9);
				}
			}
		if (n > 2 * target) {
			for (i = 0, k = 0; i < n; i++)
				if (fabs(log10(t[i]) - round(log10(t[i]))) < 1e-9)
					t[k++] = t[i];
			n = k;
		}
		if (n >= 2)
			return n;
		n = 0;
	}
	step = nice_step(a->hi - a->lo, target);
	for (v = ceil(a->lo / step - 1e-9) * step;
	     v <= a->hi + step * 1e-9 && n < MAXTICKS; v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	*decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	return n;
}

/* A value for a label: 5 significant digits, no exponent below 1e9 */
static void fmt_val(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e5 && fabs(v) < 1e9)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.5g", v);
}

/* The x range: the smallest minimum to the largest p95, plus margins. */
static void x_range(const struct kb_svg_series *s, unsigned int n, bool log_x,
		    struct axis *ax)
{
	bool nonneg = true;
	unsigned int k;
	double r;

	ax->lo = INFINITY;
	ax->hi = -INFINITY;
	for (k = 0; k < n; k++) {
		const struct kb_stats *st = s[k].st;

		if (!st->count)
			continue;
		if (st->min < ax->lo)
			ax->lo = st->min;
		if (st->p95 > ax->hi)
			ax->hi = st->p95;
		if (st->min < 0)
			nonneg = false;
	}
	if (!isfinite(ax->lo)) {
		ax->lo = 0;
		ax->hi = 1;
	}
	ax->log = log_x && ax->lo > 0;
	if (ax->hi <= ax->lo) {
		/* one distinct value: a narrow range around it */
		double d = fabs(ax->lo) * 0.01 + 0.5;

		ax->lo = ax->log ? ax->lo / 1.1 : ax->lo - d;
		ax->hi = ax->log ? ax->hi * 1.1 : ax->hi + d;
		if (!ax->log && nonneg && ax->lo < 0)
			ax->lo = 0;
		return;
	}
	/* room left of the minimum (its marker) and for the tail beyond p95 */
	if (ax->log) {
		r = log(ax->hi / ax->lo);
		ax->lo /= exp(0.03 * r);
		ax->hi *= exp(0.12 * r);
	} else {
		r = ax->hi - ax->lo;
		ax->lo -= 0.03 * r;
		ax->hi += 0.12 * r;
		if (nonneg && ax->lo < 0)
			ax->lo = 0;
	}
}

static void line(FILE *f, const char *cls, double x1, double y1, double x2,
		 double y2)
{
	fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		cls, x1, y1, x2, y2);
}

static void text(FILE *f, double x, double y, const char *anchor,
		 const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\"%s%s%s>", x, y,
		anchor ? " text-anchor=\"" : "", anchor ? anchor : "",
		anchor ? "\"" : "");
	xml_text(f, s);
	fputs("</text>\n", f);
}

/*
 * The title: its first line in bold, the rest (run, CPU, kernel, counter,
 * date) below in grey; the <title> element has it on one line.
 */
static void write_title(FILE *f, const char *title, bool visible)
{
	const char *nl = title ? strchr(title, '\n') : NULL;
	size_t first = nl ? (size_t)(nl - title) : (size_t)-1;

	if (!visible) {
		fputs("<title>", f);
		xml_text_n(f, title, first);
		if (nl) {
			fputs(" \u2014 ", f);
			xml_text(f, nl + 1);
		}
		fputs("</title>\n", f);
		return;
	}
	fprintf(f, "<text id=\"title\" x=\"%d\" y=\"28\" font-size=\"18\" font-weight=\"bold\">", ML);
	xml_text_n(f, title, first);
	fputs("</text>\n", f);
	if (nl) {
		fprintf(f, "<text id=\"subtitle\" x=\"%d\" y=\"48\" fill=\"#555\">", ML);
		xml_text(f, nl + 1);
		fputs("</text>\n", f);
	}
}

/* The document up to the plots: its size, title, styles and background. */
static void svg_begin(FILE *f, int height, const char *title,
		      const char *styles)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n",
		W, height, W, height);
	write_title(f, title, false);
	fprintf(f, "<style>.axis{stroke:#333;stroke-width:1}.grid{stroke:#e6e6e6;stroke-width:1}"
		   "%s.caption{fill:#333;font-size:13px}</style>\n", styles);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, height);
	write_title(f, title, true);
}

/* One legend row: the series, its count, min/median/mode, what is beyond. */
static void write_legend(FILE *f, const struct kb_svg_series *s,
			 unsigned int k, double y, size_t beyond, double hi)
{
	const double v[3] = { s->st->min, s->st->median, s->st->mode.mode };
	char val[32], buf[96];
	double x = ML;
	int i;

	fprintf(f, "<g class=\"legend\" fill=\"#222\" stroke=\"%s\">\n", colors[k]);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\" fill-opacity=\"0.55\"/>\n",
		x, y - 11, colors[k]);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" stroke=\"none\" font-weight=\"bold\">",
		x + 20, y);
	xml_text(f, s->name);
	fprintf(f, "</text>\n<text x=\"%.1f\" y=\"%.1f\" stroke=\"none\">n=%zu</text>\n",
		x + 170, y, s->st->count);
	x += 250;
	for (i = 0; i < 3; i++) {
		fprintf(f, "<line class=\"key-%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke-width=\"2\"%s/>\n",
			marker_name[i], x, y - 4, x + 24, y - 4, marker_dash[i]);
		fmt_val(val, sizeof(val), v[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" stroke=\"none\">%s %s</text>\n",
			x + 30, y, marker_name[i], val);
		x += 140;
	}
	if (beyond) {
		fmt_val(val, sizeof(val), hi);
		snprintf(buf, sizeof(buf), "%zu beyond %s \u25b8", beyond, val);
		fprintf(f, "<text class=\"beyond\" x=\"%d\" y=\"%.1f\" stroke=\"none\" text-anchor=\"end\">%s</text>\n",
			W - MR, y, buf);
	}
	fputs("</g>\n", f);
}

/*
 * Ticks of the vertical axis @a of a panel at @top, @h high: grid lines
 * (not at the bottom one unless @grid0) and labels left of the axis, in
 * whole numbers with @whole.
 */
static void y_ticks(FILE *f, const struct axis *a, int target, int top, int h,
		    bool grid0, bool whole)
{
	double t[MAXTICKS];
	char buf[32];
	int n, dec, j;

	n = ticks(a, target, t, &dec);
	for (j = 0; j < n; j++) {
		double y = top + h - ax_frac(a, t[j]) * h;

		if (j || grid0)
			line(f, "grid", ML, y, W - MR, y);
		snprintf(buf, sizeof(buf), "%.*f", whole ? 0 : dec, t[j]);
		text(f, ML - 8, y + 4, "end", buf);
	}
}

/* value ticks: labels under the histogram, grid lines in both panels */
static void value_ticks(FILE *f, const struct axis *ax, const double *t,
			int nt, int dec, int top1, int top2)
{
	char buf[32];
	int j;

	for (j = 0; j < nt; j++) {
		double x = hx(ax, t[j]);

		line(f, "grid", x, top1, x, top1 + H1);
		line(f, "grid", x, top2, x, top2 + H2);
		line(f, "axis", x, top1 + H1, x, top1 + H1 + 4);
		snprintf(buf, sizeof(buf), "%.*f", dec, t[j]);
		text(f, x, top1 + H1 + 30, "middle", buf);
	}
}

int kb_svg_write(FILE *f, const struct kb_svg_series *s, unsigned int n,
		 const char *title, bool log_x)
{
	size_t counts[MAXSERIES][NBINS], beyond[MAXSERIES] = { 0 };
	size_t maxc = 1, maxn = 1, nflagged = 0, i;
	double t[MAXTICKS], bw = (double)PW / NBINS;
	int nt, dec, top1, top2, height, j;
	struct axis ax, cax, sax;
	unsigned int k, b;
	char buf[96];

	if (n > MAXSERIES)
		n = MAXSERIES;
	x_range(s, n, log_x, &ax);
	memset(counts, 0, sizeof(counts));
	for (k = 0; k < n; k++) {
		for (i = 0; i < s[k].st->count; i++) {
			double v = s[k].sorted[i];

			if (v > ax.hi) {
				beyond[k]++;
				continue;
			}
			b = (unsigned int)(ax_frac(&ax, v) * NBINS);
			counts[k][b < NBINS ? b : NBINS - 1]++;
		}
		for (b = 0; b < NBINS; b++)
			if (counts[k][b] > maxc)
				maxc = counts[k][b];
		if (s[k].n > maxn)
			maxn = s[k].n;
		for (i = 0; i < s[k].n; i++)
			nflagged += !!s[k].flags[i];
	}
	top1 = 62 + 22 * (int)n + 14;
	top2 = top1 + H1 + 100;
	height = top2 + H2 + 52;

	svg_begin(f, height, title, ".flagged{fill:#d62728;stroke:#d62728}.clipped{stroke:none}"
		  ".min,.median,.mode{stroke-width:1.6}");

	for (k = 0; k < n; k++)
		write_legend(f, &s[k], k, 62 + 22 * (int)k + 12, beyond[k], ax.hi);

	/* panel 1: histograms */
	fputs("<g id=\"histogram\">\n", f);
	nt = ticks(&ax, 6, t, &dec);
	value_ticks(f, &ax, t, nt, dec, top1, top2);
	/* counts: from 0 to a round number at or above the tallest bar */
	cax.lo = 0;
	cax.hi = ceil((double)maxc / nice_step((double)maxc, 4)) * nice_step((double)maxc, 4);
	cax.log = false;
	y_ticks(f, &cax, 4, top1, H1, false, true);
	fprintf(f, "<text class=\"caption\" transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">samples per bin</text>\n",
		ML - 52, top1 + H1 / 2);
	for (k = 0; k < n; k++) {
		fprintf(f, "<g class=\"series\" fill=\"%s\" fill-opacity=\"0.5\">\n",
			colors[k]);
		for (b = 0; b < NBINS; b++) {
			double h = (double)counts[k][b] / cax.hi * H1;

			if (!counts[k][b])
				continue;
			if (h < 1)
				h = 1;	/* a single sample stays visible */
			fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
				ML + b * bw + 0.5, top1 + H1 - h, bw - 1, h);
		}
		fputs("</g>\n", f);
	}
	for (k = 0; k < n; k++) {
		const double v[3] = { s[k].st->min, s[k].st->median,
				      s[k].st->mode.mode };
		int m;

		if (!s[k].st->count)
			continue;
		for (m = 0; m < 3; m++) {
			double x = hx(&ax, v[m]);

			if (!isfinite(v[m]))
				continue;
			fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"%s><title>%s ",
				marker_name[m], x, top1, x, top1 + H1, colors[k],
				marker_dash[m], marker_name[m]);
			xml_text(f, s[k].name);
			fmt_val(buf, sizeof(buf), v[m]);
			fprintf(f, " %s</title></line>\n", buf);
		}
	}
	/* flagged samples: red ticks in a strip under the axis */
	for (k = 0; k < n; k++)
		for (i = 0; i < s[k].n; i++) {
			double v;

			if (!s[k].flags[i])
				continue;
			v = (double)s[k].net[i] / s[k].iterations;
			fprintf(f, "<rect class=\"flagged\" x=\"%.1f\" y=\"%d\" width=\"2\" height=\"7\"/>\n",
				hx(&ax, v) - 1, top1 + H1 + 6);
		}
	line(f, "axis", ML, top1 + H1, W - MR, top1 + H1);
	line(f, "axis", ML, top1, ML, top1 + H1);
	snprintf(buf, sizeof(buf), "%s per iteration%s", unit_of(s[0].unit),
		 ax.log ? " (log scale)" : "");
	fprintf(f, "<text class=\"caption\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		ML + PW / 2, top1 + H1 + 50, buf);
	if (nflagged)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#d62728\">\u25ae %zu flagged sample%s (excluded)</text>\n",
			W - MR, top1 + H1 + 50, nflagged, nflagged == 1 ? "" : "s");
	fputs("</g>\n", f);

	/* panel 2: samples in time order (drift shows) */
	fprintf(f, "<g id=\"timeline\">\n<text class=\"caption\" x=\"%d\" y=\"%d\">samples in time order (",
		ML, top2 - 12);
	xml_text(f, unit_of(s[0].unit));
	fprintf(f, " per iteration%s; flagged in red)</text>\n",
		ax.log ? ", log scale" : "");
	sax.lo = 0;
	sax.hi = (double)(maxn > 1 ? maxn - 1 : 1);
	sax.log = false;
	{
		double st[MAXTICKS];
		int nst, sdec;

		nst = ticks(&sax, 8, st, &sdec);
		for (j = 0; j < nst; j++) {
			double x = ML + st[j] / sax.hi * PW;

			line(f, "axis", x, top2 + H2, x, top2 + H2 + 4);
			snprintf(buf, sizeof(buf), "%.0f", st[j]);
			text(f, x, top2 + H2 + 18, "middle", buf);
		}
	}
	fprintf(f, "<text class=\"caption\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">sample</text>\n",
		ML + PW / 2, top2 + H2 + 38);
	y_ticks(f, &ax, 6, top2, H2, true, false);
	for (k = 0; k < n; k++) {
		size_t stride = s[k].n > 4000 ? s[k].n / 4000 : 1;

		fprintf(f, "<g class=\"points\" fill=\"%s\">\n", colors[k]);
		for (i = 0; i < s[k].n; i++) {
			double v = (double)s[k].net[i] / s[k].iterations;
			double x = ML + (double)i / sax.hi * PW;
			double y = top2 + H2 - ax_frac(&ax, v) * H2;

			if (s[k].flags[i])
				fprintf(f, "<circle class=\"flagged\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"/>\n",
					x, y);
			else if (v > ax.hi)	/* beyond the axis: on the edge */
				fprintf(f, "<path class=\"clipped\" d=\"M%.1f %.1fl-3 5h6z\"/>\n",
					x, y);
			else if (i % stride == 0)
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.4\"/>\n",
					x, y);
		}
		fputs("</g>\n", f);
	}
	line(f, "axis", ML, top2 + H2, W - MR, top2 + H2);
	line(f, "axis", ML, top2, ML, top2 + H2);
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
	kb_run_unit_text(r, s->unit, sizeof(s->unit));
}

/* The file @path for writing, or NULL (said). */
static FILE *svg_open(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
	return f;
}

/* Close @f, written with the result @err: 0, or -1 (said). */
static int svg_close(FILE *f, const char *path, int err)
{
	if (fclose(f) || err) {
		fprintf(stderr, "%s: %s: write error\n", prog, path);
		return -1;
	}
	return 0;
}

static int write_path(const char *path, const struct kb_svg_series *s,
		      unsigned int n, const char *title, bool log_x)
{
	FILE *f = svg_open(path);

	return f ? svg_close(f, path, kb_svg_write(f, s, n, title, log_x)) : -1;
}

/* "routines -- side" on the first line, the conditions on the second */
static void title_of(char *buf, size_t len, const struct kb_run *r,
		     const char *names)
{
	double hz = (double)r->counter_hz;
	char freq[32];

	if (hz >= 1e9)
		snprintf(freq, sizeof(freq), "%.6g GHz", hz / 1e9);
	else if (hz >= 1e6)
		snprintf(freq, sizeof(freq), "%.6g MHz", hz / 1e6);
	else
		snprintf(freq, sizeof(freq), "%.0f Hz", hz);
	snprintf(buf, len, "%s \u2014 %s\nCPU %u \u00b7 kernel %s \u00b7 counter %s @ %s \u00b7 %u samples x %u iterations \u00b7 %s",
		 names, r->user ? "userspace" : "kernel", r->cpu,
		 r->kernel[0] ? r->kernel : "?", r->counter, freq,
		 r->samples, r->iterations, r->date);
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

/* --- sweeps: the figure per iteration against the argument -------------- */

#define SH		420	/* the sweep plot's height */
#define SWEEP_XTICKS	12	/* at most this many labels on a log2 axis */

struct sweep_axes {
	struct axis x, y;
	int top;		/* of the plot area */
	bool bytes;		/* the argument is in bytes: 4K, 1M */
};

static double sx(const struct sweep_axes *a, double v)
{
	return ML + ax_frac(&a->x, v) * PW;
}

static double sy(const struct sweep_axes *a, double v)
{
	return a->top + SH - ax_frac(&a->y, v) * SH;
}

/* x: the arguments (log2: from a quarter octave below to above); y: 0 up */
static void sweep_range(const struct kb_svg_curve *c, unsigned int n,
			bool log_x, struct sweep_axes *a)
{
	double xlo = INFINITY, xhi = -INFINITY, yhi = 0, r;
	unsigned int k;
	size_t i;

	for (k = 0; k < n; k++) {
		for (i = 0; i < c[k].n; i++) {
			if (!log_x || c[k].x[i] > 0) {
				xlo = fmin(xlo, c[k].x[i]);
				xhi = fmax(xhi, c[k].x[i]);
			}
			yhi = fmax(yhi, fmax(c[k].ci_hi[i], c[k].median[i]));
			if (c[k].min)
				yhi = fmax(yhi, c[k].min[i]);
		}
	}
	if (!isfinite(xlo)) {
		xlo = 1;
		xhi = 2;
	}
	a->x.log = log_x;
	if (log_x) {
		a->x.lo = xlo / pow(2, 0.25);
		a->x.hi = xhi * pow(2, 0.25);
	} else {
		r = xhi > xlo ? xhi - xlo : fabs(xlo) + 1;
		a->x.lo = xlo - 0.03 * r;
		a->x.hi = xhi + 0.03 * r;
	}
	a->y.log = false;
	a->y.lo = 0;
	if (!(yhi > 0) || !isfinite(yhi))
		yhi = 1;
	r = nice_step(yhi * 1.08, 6);
	a->y.hi = ceil(yhi * 1.08 / r) * r;
}

/* The x labels: powers of two on a log2 axis (every other when crowded). */
static int sweep_xticks(const struct sweep_axes *a, double *t, int *dec)
{
	double p, e0, e1;
	int n = 0, step = 1;

	if (!a->x.log)
		return ticks(&a->x, 8, t, dec);
	*dec = 0;
	e0 = ceil(log2(a->x.lo));
	e1 = floor(log2(a->x.hi));
	while ((e1 - e0) / step + 1 > SWEEP_XTICKS)
		step *= 2;
	for (p = e0; p <= e1 && n < MAXTICKS; p += step)
		t[n++] = exp2(p);
	return n;
}

static void sweep_xlabel(const struct sweep_axes *a, double v, int dec,
			 char *buf, size_t len)
{
	if (v >= 0 && v < 1e19 && v == floor(v))
		kb_sweep_format((uint64_t)v, a->bytes, buf, len);
	else
		snprintf(buf, len, "%.*f", dec, v);
}

static void sweep_axes(FILE *f, const struct sweep_axes *a, const char *xlabel,
		       const char *unit)
{
	double t[MAXTICKS];
	char buf[48];
	int nt, dec, j;

	nt = sweep_xticks(a, t, &dec);
	for (j = 0; j < nt; j++) {
		double x = sx(a, t[j]);

		line(f, "grid", x, a->top, x, a->top + SH);
		line(f, "axis", x, a->top + SH, x, a->top + SH + 4);
		sweep_xlabel(a, t[j], dec, buf, sizeof(buf));
		text(f, x, a->top + SH + 18, "middle", buf);
	}
	y_ticks(f, &a->y, 6, a->top, SH, false, false);
	line(f, "axis", ML, a->top + SH, W - MR, a->top + SH);
	line(f, "axis", ML, a->top, ML, a->top + SH);
	fprintf(f, "<text class=\"caption\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		ML + PW / 2, a->top + SH + 40);
	xml_text(f, xlabel);
	fprintf(f, "%s</text>\n", a->x.log ? " (log2 scale)" : "");
	fprintf(f, "<text class=\"caption\" transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">",
		ML - 52, a->top + SH / 2);
	xml_text(f, unit_of(unit));
	fputs(" per iteration</text>\n", f);
}

/* @c's points in ascending order of the argument (a list may be in any) */
static size_t *sweep_order(const struct kb_svg_curve *c, bool log_x)
{
	size_t *o = malloc((c->n ? c->n : 1) * sizeof(*o)), i, j, t, m = 0;

	if (!o)
		return NULL;
	for (i = 0; i < c->n; i++)
		if (!log_x || c->x[i] > 0)
			o[m++] = i;
	for (i = 1; i < m; i++)		/* insertion sort: at most 128 */
		for (j = i; j > 0 && c->x[o[j - 1]] > c->x[o[j]]; j--) {
			t = o[j];
			o[j] = o[j - 1];
			o[j - 1] = t;
		}
	if (m < c->n)
		o[m] = (size_t)-1;
	return o;
}

static void polyline(FILE *f, const struct sweep_axes *a, const char *cls,
		     const char *color, const char *extra,
		     const struct kb_svg_curve *c, const size_t *o,
		     const double *y)
{
	size_t i;

	fprintf(f, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\"%s points=\"",
		cls, color, extra);
	for (i = 0; i < c->n && o[i] != (size_t)-1; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", sx(a, c->x[o[i]]),
			sy(a, y[o[i]]));
	fputs("\"/>\n", f);
}

static void sweep_curve(FILE *f, const struct sweep_axes *a,
			const struct kb_svg_curve *c, unsigned int k)
{
	size_t *o = sweep_order(c, a->x.log), i, m;
	char buf[64];

	if (!o)
		return;
	for (m = 0; m < c->n && o[m] != (size_t)-1; m++)
		;
	fprintf(f, "<g class=\"curve\" id=\"curve-%u\">\n", k);
	/* the CI band: along the upper bounds, back along the lower ones */
	fprintf(f, "<path class=\"ci\" fill=\"%s\" fill-opacity=\"0.2\" stroke=\"none\" d=\"",
		colors[k]);
	for (i = 0; i < m; i++)
		fprintf(f, "%c%.1f %.1f", i ? 'L' : 'M', sx(a, c->x[o[i]]),
			sy(a, c->ci_hi[o[i]]));
	for (i = m; i-- > 0;)
		fprintf(f, "L%.1f %.1f", sx(a, c->x[o[i]]), sy(a, c->ci_lo[o[i]]));
	fputs("Z\"/>\n", f);
	if (c->min)
		polyline(f, a, "min", colors[k],
			 " stroke-width=\"1.6\" stroke-dasharray=\"7 4\"", c, o,
			 c->min);
	/* a step: halfway between the last value before it and the first after */
	for (i = 0; i < c->nsteps; i++) {
		size_t t = c->steps[i];
		double x;

		if (!t || t >= c->n)
			continue;
		x = (sx(a, c->x[t - 1]) + sx(a, c->x[t])) / 2;
		fprintf(f, "<line class=\"step\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.6\" stroke-dasharray=\"3 3\"><title>",
			x, a->top, x, a->top + SH, colors[k]);
		xml_text(f, c->name);
		fprintf(f, ": a step before %g</title></line>\n", c->x[t]);
	}
	polyline(f, a, "median", colors[k], " stroke-width=\"2.2\"", c, o,
		 c->median);
	for (i = 0; i < m; i++) {
		fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.2\" fill=\"%s\"><title>",
			sx(a, c->x[o[i]]), sy(a, c->median[o[i]]), colors[k]);
		xml_text(f, c->name);
		sweep_xlabel(a, c->x[o[i]], 3, buf, sizeof(buf));
		fprintf(f, " at %s: median ", buf);
		fmt_val(buf, sizeof(buf), c->median[o[i]]);
		fprintf(f, "%s", buf);
		if (c->min) {
			fmt_val(buf, sizeof(buf), c->min[o[i]]);
			fprintf(f, ", min %s", buf);
		}
		fputc(' ', f);
		xml_text(f, unit_of(c->unit));
		fputs("/iter</title></circle>\n", f);
	}
	fputs("</g>\n", f);
	free(o);
}

static void sweep_legend(FILE *f, const struct kb_svg_curve *c, unsigned int k,
			 double y)
{
	fprintf(f, "<g class=\"legend\" fill=\"#222\" stroke=\"%s\">\n", colors[k]);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke-width=\"2.2\"/>\n",
		ML, y - 4, ML + 24, y - 4);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" stroke=\"none\" font-weight=\"bold\">",
		ML + 32, y);
	xml_text(f, c->name);
	fprintf(f, "</text>\n<text x=\"%d\" y=\"%.1f\" stroke=\"none\">", ML + 260,
		y);
	xml_text(f, c->note ? c->note : "");
	fputs("</text>\n</g>\n", f);
}

static int kb_svg_write_sweep(FILE *f, const struct kb_svg_curve *c,
			      unsigned int n, const char *title,
			      const char *xlabel, bool log_x)
{
	struct sweep_axes a = { .bytes = xlabel && !strcmp(xlabel, "bytes") };
	int height, key;
	unsigned int k;

	if (n > MAXSERIES)
		n = MAXSERIES;
	sweep_range(c, n, log_x, &a);
	key = 62 + 22 * (int)n + 10;
	a.top = key + 30;
	height = a.top + SH + 60;

	svg_begin(f, height, title, "");
	for (k = 0; k < n; k++)
		sweep_legend(f, &c[k], k, 62 + 22 * (int)k + 12);
	/* what the three marks of every routine are (history: steps, no min) */
	fprintf(f, "<g class=\"key\" fill=\"#333\" stroke=\"#555\">\n"
		   "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"2.2\"/><text x=\"%d\" y=\"%d\" stroke=\"none\">median</text>\n"
		   "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke-width=\"1.6\" stroke-dasharray=\"%s\"/><text x=\"%d\" y=\"%d\" stroke=\"none\">%s</text>\n"
		   "<rect x=\"%d\" y=\"%d\" width=\"24\" height=\"10\" fill=\"#555\" fill-opacity=\"0.2\" stroke=\"none\"/><text x=\"%d\" y=\"%d\" stroke=\"none\">95%% CI of the median</text>\n"
		   "</g>\n",
		ML, key - 4, ML + 24, key - 4, ML + 30, key,
		ML + 110, key - 4, ML + 134, key - 4,
		n && !c[0].min ? "3 3" : "7 4", ML + 140, key,
		n && !c[0].min ? "step" : "min",
		ML + 200, key - 10, ML + 230, key);
	fputs("<g id=\"sweep\">\n", f);
	sweep_axes(f, &a, xlabel ? xlabel : "argument", c[0].unit);
	for (k = 0; k < n; k++)
		sweep_curve(f, &a, &c[k], k);
	fputs("</g>\n</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}

int kb_svg_write_sweep_file(const char *path, const struct kb_svg_curve *c,
			    unsigned int n, const char *title,
			    const char *xlabel, bool log_x)
{
	FILE *f = svg_open(path);

	return f ? svg_close(f, path, kb_svg_write_sweep(f, c, n, title,
							 xlabel, log_x)) : -1;
}

void kb_svg_sweep_title(char *buf, size_t len, const struct kb_run *first,
			const char *const *names, unsigned int n, bool compare,
			const char *spec)
{
	char what[4 * (KBENCH_NAME_MAX + 6) + 80];
	size_t used = 0;
	unsigned int k;

	what[0] = '\0';
	for (k = 0; k < n && used < sizeof(what); k++)
		used += (size_t)snprintf(what + used, sizeof(what) - used,
					 "%s%s", k ? (compare ? " vs " : ", ") : "",
					 names[k]);
	if (used < sizeof(what))
		snprintf(what + used, sizeof(what) - used, " over --arg %s", spec);
	title_of(buf, len, first, what);
}

/* --- bars: the baseline's figures per call, one bar per routine ---------- */

#define BAR_H		16	/* a bar's height */
#define BAR_GAP		4
#define BAR_LABEL	200	/* the names' column */

/* x of @v on a log10 axis from @lo to @hi decades, in the plot's width */
static double bar_x(double v, double lo, double hi)
{
	double d = log10(v > 0 ? v : pow(10, lo));

	if (d < lo)
		d = lo;
	return BAR_LABEL + (d - lo) / (hi - lo) * (W - BAR_LABEL - MR - 70);
}

int kb_svg_write_bars(const char *path, const char *title,
		      const struct kb_svg_bar *b, size_t n)
{
	double lo = 0, hi = 1, top = 70, y, x;
	const char *group = NULL;
	size_t i, groups = 0;
	int height, d;
	FILE *f;

	for (i = 0; i < n; i++) {
		double v = b[i].hi > b[i].value ? b[i].hi : b[i].value;

		if (v > 0 && ceil(log10(v)) > hi)
			hi = ceil(log10(v));
		if (b[i].value > 0 && floor(log10(b[i].value)) < lo)
			lo = floor(log10(b[i].value));
		if (!group || strcmp(group, b[i].group)) {
			group = b[i].group;
			groups++;
		}
	}
	if (lo < -2)
		lo = -2;
	height = (int)(top + 40 + n * (BAR_H + BAR_GAP) + groups * 22);
	f = svg_open(path);
	if (!f)
		return -1;
	svg_begin(f, height, title, ".bar-k{fill:#1f77b4}.bar-u{fill:#ff7f0e}");
	/* the decades' grid and labels */
	for (d = (int)lo; d <= (int)hi; d++) {
		x = bar_x(pow(10, d), lo, hi);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%d\"/>\n",
			x, top - 10, x, height - 30);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g ns</text>\n",
			x, height - 14, pow(10, d));
	}
	fprintf(f, "<rect class=\"bar-k\" x=\"%d\" y=\"54\" width=\"12\" height=\"12\"/><text x=\"%d\" y=\"64\">kernel, interrupts off</text>\n",
		BAR_LABEL, BAR_LABEL + 16);
	fprintf(f, "<rect class=\"bar-u\" x=\"%d\" y=\"54\" width=\"12\" height=\"12\"/><text x=\"%d\" y=\"64\">userspace</text>\n",
		BAR_LABEL + 190, BAR_LABEL + 206);
	y = top;
	group = NULL;
	for (i = 0; i < n; i++) {
		char val[32];

		if (!group || strcmp(group, b[i].group)) {
			group = b[i].group;
			y += 18;
			fprintf(f, "<text x=\"8\" y=\"%.1f\" font-weight=\"bold\">", y);
			xml_text(f, group);
			fputs("</text>\n", f);
			y += 4;
		}
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", BAR_LABEL - 6,
			y + BAR_H - 4);
		xml_text(f, b[i].label);
		fputs("</text>\n", f);
		x = bar_x(b[i].value, lo, hi);
		fprintf(f, "<rect class=\"%s\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\"/>\n",
			b[i].user ? "bar-u" : "bar-k", BAR_LABEL, y,
			x - BAR_LABEL > 0 ? x - BAR_LABEL : 0, BAR_H);
		if (isfinite(b[i].lo) && isfinite(b[i].hi) && b[i].hi > b[i].lo)
			fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
				bar_x(b[i].lo, lo, hi), y + BAR_H / 2.0,
				bar_x(b[i].hi, lo, hi), y + BAR_H / 2.0);
		snprintf(val, sizeof(val), "%.3g", b[i].value);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 4,
			y + BAR_H - 4, val);
		y += BAR_H + BAR_GAP;
	}
	fputs("</svg>\n", f);
	return svg_close(f, path, 0);
}
