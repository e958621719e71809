// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl history FILE...|DIR: per routine one value per saved result
 * (the geometric mean of the medians of every run of it the file holds),
 * in commit order, and the change points of that series
 * (model/changepoint.c: E-divisive means with the segment-end search,
 * Matteson and James 2014).  The series is the files' values, so the
 * test weighs a step against the spread between files (builds, boots,
 * runs), not against one file's own interval.
 *
 * A step's size is the ratio of the geometric means of the files after
 * it and before it (back to the previous step, on to the next), with
 * Welch's t interval of the difference of their mean logs at 90%: the
 * verdict is two one-sided tests at 5% each (Schuirmann 1987), the
 * convention of equivalence testing: regressed when the whole interval
 * lies above +threshold, improved below -threshold, within the threshold
 * only when it lies wholly inside +-threshold, else inconclusive.
 *
 * Files of consecutive commits can be dependent (a machine that drifts
 * over the weeks a history takes): then the series wanders and its
 * wander looks like steps.  The lag-1 autocorrelation of what the steps
 * leave (each value less its segment's mean log) is tested one-sided at
 * 5% (r1 > 1.645 / sqrt(n), the large-sample null of Box and Jenkins);
 * a dependent series is reported as such and its steps' intervals are
 * widened by the AR(1) variance factor sqrt((1 + r1) / (1 - r1)).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "changepoint.h"
#include "export.h"
#include "cmd.h"
#include "opts.h"
#include "output.h"
#include "replic.h"
#include "stats.h"
#include "svg.h"

#define HISTORY_THRESHOLD	"2"
/* the step interval's level: two one-sided tests at 5% */
#define HISTORY_CI_PCT		90
/* values a series needs before its dependence is tested */
#define HISTORY_DEP_MIN		10

enum history_fail_on { FAIL_REGRESSED, FAIL_INCONCLUSIVE };
static const char *const history_fail_on_choices[] = {
	"regressed", "inconclusive", NULL };
enum history_order { ORDER_COMMIT, ORDER_GIVEN };
static const char *const history_order_choices[] = { "commit", "given", NULL };

struct history_opts {
	double threshold;
	double significance;
	uint32_t permutations, min_size;
	uint64_t seed;
	const char *svg;
	int fail_on;		/* enum history_fail_on */
	int order;		/* enum history_order */
};

const struct kb_opt kb_history_table[] = {
	{ .name = "threshold", .kind = KB_OPT_DOUBLE, .metavar = "PCT",
	  .min = 0, .max = 1000, KB_OPT_FIELD(struct history_opts, threshold),
	  .help = "a step is regressed (improved) when its whole 90% CI is above PCT percent (below -PCT), within the threshold when wholly inside",
	  .def = HISTORY_THRESHOLD },
	{ .name = "fail-on", .kind = KB_OPT_CHOICE, .metavar = "WHAT",
	  .choices = history_fail_on_choices,
	  KB_OPT_FIELD(struct history_opts, fail_on),
	  .help = "exit 1 on a regressed step (regressed), or on a regressed or an inconclusive one (inconclusive)",
	  .def = "regressed" },
	{ .name = "order", .kind = KB_OPT_CHOICE, .metavar = "HOW",
	  .choices = history_order_choices,
	  KB_OPT_FIELD(struct history_opts, order),
	  .help = "commit: by the committer dates the files record when all record one (else a directory by the dates measured, files as given); given: as given",
	  .def = "commit" },
	{ .name = "significance", .kind = KB_OPT_DOUBLE, .metavar = "P",
	  .min = 0.0001, .max = 0.5,
	  KB_OPT_FIELD(struct history_opts, significance),
	  .help = "a split is a step when its permutation test's p is at most P",
	  .def = "0.01" },
	{ .name = "permutations", .kind = KB_OPT_U32, .metavar = "N",
	  .min = 19, .max = 100000,
	  KB_OPT_FIELD(struct history_opts, permutations),
	  .help = "permutations of the test", .def = "499" },
	{ .name = "min-size", .kind = KB_OPT_U32, .metavar = "N",
	  .min = 2, .max = 1000, KB_OPT_FIELD(struct history_opts, min_size),
	  .help = "files on each side of a step at least", .def = "3" },
	{ .name = "seed", .kind = KB_OPT_U64, .metavar = "N",
	  KB_OPT_FIELD(struct history_opts, seed),
	  .help = "seed of the permutations (same files, same answer)",
	  .def = "1" },
	{ .name = "svg", .kind = KB_OPT_STRING, .metavar = "FILE",
	  KB_OPT_FIELD(struct history_opts, svg),
	  .help = "also plot each routine's series with its steps marked" },
	{ NULL }
};

struct dated {
	char *path;
	char key[40];		/* what orders it: commit time, else date */
	char date[40];
	size_t given;		/* its place on the command line (or listing) */
};

static int cmp_dated(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (!c)
		c = strcmp(x->date, y->date);
	return c ? c : (x->given > y->given) - (x->given < y->given);
}

/* The *.json of @dir (paths to free) into *@d, *@nd. */
static int list_dir(const char *sub, const char *dir, struct dated **d,
		    size_t *nd)
{
	struct dirent *e;
	size_t cap = 0;
	DIR *dh;
	int ret = 0;

	*d = NULL;
	*nd = 0;
	dh = opendir(dir);
	if (!dh)
		return kb_arg_error(sub, "%s: %s", dir, strerror(errno));
	while ((e = readdir(dh))) {
		size_t len = strlen(e->d_name);
		struct stat st;
		char *p;

		if (len < 6 || strcmp(e->d_name + len - 5, ".json") ||
		    e->d_name[0] == '.')
			continue;
		p = malloc(strlen(dir) + len + 2);
		if (!p || kb_path_join(p, strlen(dir) + len + 2, dir, e->d_name)) {
			free(p);
			ret = -ENOMEM;
			break;
		}
		if (stat(p, &st) || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		if (*nd == cap) {
			void *nw = realloc(*d, (cap = cap ? 2 * cap : 32) * sizeof(**d));

			if (!nw) {
				free(p);
				ret = -ENOMEM;
				break;
			}
			*d = nw;
		}
		memset(&(*d)[*nd], 0, sizeof(**d));
		(*d)[*nd].path = p;
		(*nd)++;
	}
	closedir(dh);
	if (!ret && !*nd)
		ret = kb_arg_error(sub, "%s holds no *.json result file", dir);
	return ret;
}

/*
 * The files of @d in the order history takes them (@dir: they are a
 * directory's, in no order of their own): by the committer dates of the
 * commits they record (run --commit) when every file records one and
 * @o->order allows, else a directory's by the dates they were measured
 * and files as given.  *@order says which; a warning when files given
 * record no commits and were not given in the order they were measured.
 */
static int order_files(const char *sub, struct dated *d, size_t nd, bool dir,
		       const struct history_opts *o, const char **order)
{
	bool commits = true, dated = true, sorted = true;
	char err[768];
	size_t i;
	int ret;

	for (i = 0; i < nd; i++) {
		struct kb_resfile rf;

		ret = kb_resfile_load(d[i].path, &rf, err, sizeof(err));
		if (ret)
			return kb_arg_error(sub, "%s", err);
		snprintf(d[i].date, sizeof(d[i].date), "%s", rf.meta.date);
		snprintf(d[i].key, sizeof(d[i].key), "%s", rf.meta.commit_time);
		d[i].given = i;
		commits &= !!d[i].key[0];
		dated &= !!d[i].date[0];
		kb_resfile_free(&rf);
	}
	if (o->order == ORDER_GIVEN && !dir) {
		*order = "as given";
		return 0;
	}
	if (commits) {
		*order = "commit time";
	} else if (dir) {
		*order = "date measured";
		for (i = 0; i < nd; i++)
			memcpy(d[i].key, d[i].date, sizeof(d[i].key));
	} else {
		*order = "as given";
		for (i = 1; dated && i < nd; i++)
			sorted &= strcmp(d[i - 1].date, d[i].date) <= 0;
		if (!sorted)
			fprintf(stderr, "%s %s: warning: the files record no commits (run --save --commit REV) and are not given in the order they were measured: the series is taken as given; list them oldest commit first\n",
				prog, sub);
		return 0;
	}
	qsort(d, nd, sizeof(*d), cmp_dated);
	return 0;
}

struct step {
	size_t bench, pos;		/* routine, position in its series */
	struct kb_cp cp;
	double before, after;		/* geometric means of the two sides */
	double pct, lo, hi;		/* the change and its 90% CI */
	const char *verdict;
};

/*
 * One routine: per file that holds it, the geometric mean of the medians
 * of its runs of the routine (every replicate), in file order.
 */
struct series {
	size_t n;
	const struct kb_export_point **p;	/* each file's first run */
	unsigned int *runs;			/* runs of each file */
	double *v;
	double r1;		/* lag-1 autocorrelation of what the steps leave */
	bool dependent;		/* r1 significantly above 0 */
};

static int series_of(const struct kb_export *x, size_t b, struct series *s)
{
	double *lsum;
	size_t i, f;

	s->n = 0;
	s->r1 = NAN;
	s->dependent = false;
	s->p = calloc(x->nfiles ? x->nfiles : 1, sizeof(*s->p));
	s->v = calloc(x->nfiles ? x->nfiles : 1, sizeof(*s->v));
	s->runs = calloc(x->nfiles ? x->nfiles : 1, sizeof(*s->runs));
	lsum = calloc(x->nfiles ? x->nfiles : 1, sizeof(*lsum));
	if (!s->p || !s->v || !s->runs || !lsum) {
		free(lsum);
		return -ENOMEM;
	}
	for (i = 0; i < x->npts; i++) {
		const struct kb_export_point *p = &x->pts[i];

		f = p->file;
		if (p->bench != b || !(p->median > 0))
			continue;
		if (!s->p[f])
			s->p[f] = p;
		lsum[f] += log(p->median);
		s->runs[f]++;
	}
	for (f = 0; f < x->nfiles; f++)
		if (s->p[f]) {
			s->p[s->n] = s->p[f];
			s->runs[s->n] = s->runs[f];
			s->v[s->n++] = exp(lsum[f] / s->runs[f]);
		}
	free(lsum);
	return 0;
}

/* Mean and variance (n - 1) of the logs of @v[lo..hi). */
static void log_moments(const double *v, size_t lo, size_t hi, double *mean,
			double *var)
{
	double s = 0, ss = 0;
	size_t i, n = hi - lo;

	for (i = lo; i < hi; i++)
		s += log(v[i]);
	*mean = s / n;
	for (i = lo; i < hi; i++)
		ss += (log(v[i]) - *mean) * (log(v[i]) - *mean);
	*var = n > 1 ? ss / (n - 1) : 0;
}

/*
 * The lag-1 autocorrelation of the logs of @s less their segment's mean
 * (segments between the change points @cp), pairs within a segment.
 */
static double residual_r1(const struct series *s, const struct kb_cp *cp,
			  size_t ncp)
{
	double *e, num = 0, den = 0, mean, var;
	size_t i, k, lo, hi;

	e = malloc(s->n * sizeof(*e));
	if (!e)
		return NAN;
	for (k = 0; k <= ncp; k++) {
		lo = k ? cp[k - 1].index : 0;
		hi = k < ncp ? cp[k].index : s->n;
		log_moments(s->v, lo, hi, &mean, &var);
		for (i = lo; i < hi; i++) {
			e[i] = log(s->v[i]) - mean;
			den += e[i] * e[i];
			if (i > lo)
				num += e[i] * e[i - 1];
		}
	}
	free(e);
	return den > 0 ? num / den : 0;
}

/* The steps of @s, sized against the segments around them. */
static int find_steps(struct series *s, size_t b, const struct history_opts *o,
		      struct step *st, size_t *nst, size_t max)
{
	struct kb_cp cp[KB_CP_MAX];
	struct kb_cp_opts co;
	double inflate = 1, tq;
	size_t i, lo, hi;
	int n;

	kb_cp_opts_init(&co);
	co.significance = o->significance;
	co.permutations = o->permutations;
	co.min_size = o->min_size;
	co.seed = o->seed + b;
	n = kb_edivisive(s->v, s->n, &co, cp, KB_CP_MAX);
	if (n < 0)
		return n;
	if (s->n >= HISTORY_DEP_MIN) {
		s->r1 = residual_r1(s, cp, (size_t)n);
		s->dependent = s->r1 > 1.645 / sqrt((double)s->n);
		if (s->dependent)
			inflate = sqrt((1 + fmin(s->r1, 0.9)) /
				       (1 - fmin(s->r1, 0.9)));
	}
	for (i = 0; i < (size_t)n && *nst < max; i++) {
		struct step *t = &st[(*nst)++];
		double ma, va, mb, vb, se, df, d, lim;
		size_t na, nb;

		lo = i ? cp[i - 1].index : 0;
		hi = i + 1 < (size_t)n ? cp[i + 1].index : s->n;
		t->bench = b;
		t->pos = cp[i].index;
		t->cp = cp[i];
		na = t->pos - lo;
		nb = hi - t->pos;
		log_moments(s->v, lo, t->pos, &ma, &va);
		log_moments(s->v, t->pos, hi, &mb, &vb);
		t->before = exp(ma);
		t->after = exp(mb);
		d = mb - ma;
		se = sqrt(va / na + vb / nb) * inflate;
		/* Welch-Satterthwaite (both sides hold min_size >= 2 values) */
		df = va + vb > 0 ?
		     pow(va / na + vb / nb, 2) /
		     (pow(va / na, 2) / (na - 1) + pow(vb / nb, 2) / (nb - 1)) :
		     (double)(na + nb - 2);
		tq = kb_t_quantile(1 - (1 - HISTORY_CI_PCT / 100.0) / 2, df);
		t->pct = expm1(d) * 100;
		t->lo = expm1(d - tq * se) * 100;
		t->hi = expm1(d + tq * se) * 100;
		lim = o->threshold;
		t->verdict = t->lo > lim ? "regressed" :
			     t->hi < -lim ? "improved" :
			     t->lo >= -lim && t->hi <= lim ? "within the threshold" :
			     "inconclusive";
	}
	return 0;
}

static void print_series(const struct kb_export *x, const struct series *s,
			 const struct step *st, size_t nst, size_t b)
{
	const struct kb_export_point *p0 = s->p[0];
	size_t i, k;

	out_open_object(NULL);
	out_string("routine", NULL, p0->name);	/* the series' name, as exported */
	out_text("\n%s", p0->label);
	out_string("unit", " (%s", kb_export_unit_text(p0->run));
	out_text(" per iteration: each file's median and its 95%% CI; a file of several runs their geometric mean)\n");
	out_double("lag1_autocorrelation", NULL, s->r1);
	out_bool("dependent", NULL, s->dependent);
	if (s->dependent)
		out_text("  files dependent across commits: what the steps leave has lag-1 autocorrelation %.2f (> %.2f at 5%%); the series wanders, and its steps' intervals are widened by %.2fx\n",
			 s->r1, 1.645 / sqrt((double)s->n),
			 sqrt((1 + fmin(s->r1, 0.9)) / (1 - fmin(s->r1, 0.9))));
	out_text("  %4s  %-28s %12s  %s\n", "#", "file", "median", "95% CI");
	out_open_array("series");
	for (i = 0; i < s->n; i++) {
		const struct kb_export_point *p = s->p[i];

		out_open_object_inline(NULL);
		out_uint("index", "  %4llu", p->file);
		out_string("file", "  %-28s", x->paths[p->file]);
		out_double("median", " %12.3f", s->v[i]);
		out_uint("runs", NULL, s->runs[i]);
		out_double("ci_lower", "  %.3f", p->ci_lo);
		out_double("ci_upper", " .. %.3f", p->ci_hi);
		if (s->runs[i] > 1)
			out_text(" (first of %u runs)", s->runs[i]);
		if (x->files[p->file].meta.commit[0])
			out_text("  %.12s", x->files[p->file].meta.commit);
		out_string("commit", NULL, x->files[p->file].meta.commit);
		out_string("commit_time", NULL, x->files[p->file].meta.commit_time);
		out_string("date", NULL, x->files[p->file].meta.date);
		out_string("kernel", NULL, x->files[p->file].meta.kernel);
		for (k = 0; k < nst; k++)
			if (st[k].bench == b && st[k].pos == i)
				out_text("   <- step %+.2f%%", st[k].pct);
		out_close_object();
		out_text("\n");
	}
	out_close_array();
	out_close_object();
}

static int write_svg(const struct history_opts *o, const struct kb_export *x,
		     const struct series *ser, const struct step *st, size_t nst)
{
	struct kb_svg_curve *c = calloc(x->nbench, sizeof(*c));
	size_t *steps = calloc(nst ? nst : 1, sizeof(*steps)), used = 0, b, i;
	double *buf = calloc(4 * x->nfiles * x->nbench + 1, sizeof(*buf));
	unsigned int nc = 0;
	int err = 0;

	if (!c || !steps || !buf) {
		err = -ENOMEM;
		goto out;
	}
	for (b = 0; b < x->nbench; b++) {
		struct kb_svg_curve *k = &c[nc++];
		double *xs = buf + 4 * x->nfiles * b;

		k->name = ser[b].p[0]->label;
		snprintf(k->unit, sizeof(k->unit), "%s",
			 kb_export_unit_text(ser[b].p[0]->run));
		k->n = ser[b].n;
		k->x = xs;
		k->median = ser[b].v;
		k->ci_lo = xs + x->nfiles;
		k->ci_hi = xs + 2 * x->nfiles;
		k->note = "";
		for (i = 0; i < ser[b].n; i++) {
			xs[i] = (double)ser[b].p[i]->file;
			xs[x->nfiles + i] = ser[b].p[i]->ci_lo;
			xs[2 * x->nfiles + i] = ser[b].p[i]->ci_hi;
		}
		k->steps = steps + used;
		for (i = 0; i < nst; i++)
			if (st[i].bench == b)
				steps[used + k->nsteps++] = st[i].pos;
		used += k->nsteps;
	}
	if (kb_svg_write_sweep_file(o->svg, c, nc,
				    "kbench history: median per file, steps found by e-divisive means",
				    "file (commit order)", false))
		err = -EIO;
out:
	free(c);
	free(steps);
	free(buf);
	return err;
}

int history_main(const struct subcommand *sc, int argc, char *argv[])
{
	size_t npaths = 0, b, i, nst = 0, nreg = 0, ninc = 0, nimp = 0, nwithin = 0;
	struct history_opts o;
	struct kb_export x;
	struct series *ser = NULL;
	struct step *st = NULL;
	struct dated *d = NULL;
	char **paths = NULL;
	const char *order = "as given";
	bool dir = false, fail;
	struct stat sb;
	int first, err;

	memset(&o, 0, sizeof(o));
	err = kb_opts_parse(sc, argc, argv, &o, &first);
	if (err)
		return kb_exit_status(err);
	if (first >= argc)
		return usage_error(sc->name, "which results? (files oldest first, or a directory of them)");
	if (argc - first == 1 && !stat(argv[first], &sb) && S_ISDIR(sb.st_mode)) {
		dir = true;
		err = list_dir(sc->name, argv[first], &d, &npaths);
	} else {
		npaths = (size_t)(argc - first);
		d = calloc(npaths, sizeof(*d));
		err = d ? 0 : -ENOMEM;
		for (i = 0; !err && i < npaths; i++) {
			d[i].path = strdup(argv[first + i]);
			if (!d[i].path)
				err = -ENOMEM;
		}
	}
	if (!err)
		err = order_files(sc->name, d, npaths, dir, &o, &order);
	if (!err) {
		paths = malloc(npaths * sizeof(*paths));
		if (!paths)
			err = -ENOMEM;
		for (i = 0; paths && i < npaths; i++)
			paths[i] = d[i].path;
	}
	if (err)
		goto out_paths;
	err = kb_export_load(sc->name, paths, npaths, &x);
	if (err)
		goto out_paths;
	if (x.nfiles > KB_CP_SERIES_MAX) {
		err = kb_arg_error(sc->name, "%zu files: a series takes %d at most (history of fewer, e.g. a range of commits)",
				   x.nfiles, KB_CP_SERIES_MAX);
		goto out_free;
	}
	ser = calloc(x.nbench ? x.nbench : 1, sizeof(*ser));
	st = calloc(KB_CP_MAX * x.nbench + 1, sizeof(*st));
	if (!ser || !st) {
		err = -ENOMEM;
		goto out_free;
	}
	for (b = 0; b < x.nbench && !err; b++) {
		err = series_of(&x, b, &ser[b]);
		if (!err)
			err = find_steps(&ser[b], b, &o, st, &nst, KB_CP_MAX * x.nbench);
	}
	if (err)
		goto out_free;

	out_open_object(NULL);
	out_uint("files", "history: %llu file", x.nfiles);
	out_text("%s", x.nfiles == 1 ? "" : "s");
	out_uint(NULL, ", %llu routine", x.nbench);	/* JSON: the array below */
	out_text("%s", x.nbench == 1 ? "" : "s");
	out_string("order", NULL, order);
	if (!strcmp(order, "as given"))
		out_text(" as given; ");
	else if (!strcmp(order, "commit time"))
		out_text(" in commit order (the committer dates the files record); ");
	else
		out_text(" in order of the dates measured (no commits recorded); ");
	out_open_object("method");
	out_string("name", "change points by %s", "e-divisive means");
	out_string("reference", NULL, "Matteson and James, JASA 109 (2014)");
	out_double("significance", " (permutation test p <= %g", o.significance);
	out_uint("permutations", ", %llu permutations", o.permutations);
	out_uint("min_size", ", at least %llu files a side", o.min_size);
	out_uint("seed", ", seed %llu)\n", o.seed);
	out_close_object();
	out_double("threshold_pct", NULL, o.threshold);
	out_uint("ci_level_pct", NULL, HISTORY_CI_PCT);
	out_string("fail_on", NULL, history_fail_on_choices[o.fail_on]);
	out_open_array("routines");
	for (b = 0; b < x.nbench; b++)
		print_series(&x, &ser[b], st, nst, b);
	out_close_array();
	out_text("\n");
	out_open_array("changes");
	for (i = 0; i < nst; i++) {
		const struct step *t = &st[i];
		const struct kb_export_point *p = ser[t->bench].p[t->pos];

		nreg += !strcmp(t->verdict, "regressed");
		ninc += !strcmp(t->verdict, "inconclusive");
		nimp += !strcmp(t->verdict, "improved");
		nwithin += !strcmp(t->verdict, "within the threshold");
		out_open_object_inline(NULL);
		out_string("routine", NULL, p->name);
		out_text("step: %s", p->label);
		out_uint("index", " at #%llu", p->file);
		out_string("file", " (%s)", x.paths[p->file]);
		out_double("before", ": %.3f", t->before);
		out_double("after", " -> %.3f", t->after);
		out_double("change_pct", " %+.2f%%", t->pct);
		out_double("ci_lower", " (90%% CI %+.2f%%", t->lo);
		out_double("ci_upper", " .. %+.2f%%)", t->hi);
		out_double("p", ", p %.3f", t->cp.p);
		out_bool("dependent", NULL, ser[t->bench].dependent);
		out_string("verdict", ": %s", t->verdict);
		if (ser[t->bench].dependent)
			out_text(" (files dependent across commits)");
		out_close_object();
		out_text("\n");
	}
	out_close_array();
	out_uint("steps", "kbench history: %llu step", nst);
	out_text("%s: ", nst == 1 ? "" : "s");
	out_uint("regressions", "%llu regressed", nreg);
	out_uint("improvements", ", %llu improved", nimp);
	out_uint("inconclusive", ", %llu inconclusive", ninc);
	out_uint("within", ", %llu within", nwithin);
	out_text(" the threshold of %g%%\n", o.threshold);
	out_close_object();
	out_finish();

	if (o.svg)
		err = write_svg(&o, &x, ser, st, nst);
out_free:
	for (b = 0; ser && b < x.nbench; b++) {
		free(ser[b].p);
		free(ser[b].v);
		free(ser[b].runs);
	}
	free(ser);
	free(st);
	kb_export_free(&x);
out_paths:
	for (i = 0; d && i < npaths; i++)
		free(d[i].path);
	free(d);
	free(paths);
	if (err)
		return err == -ENOMEM || err == -EIO ? EXIT_FAIL : EXIT_USAGE;
	fail = nreg || (o.fail_on == FAIL_INCONCLUSIVE && ninc);
	return fail ? EXIT_REGRESSED : EXIT_OK;
}
