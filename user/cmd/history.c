// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl history FILE...|DIR: per routine the median of each saved
 * result in commit order, and the change points of that series
 * (model/changepoint.c: E-divisive means, Matteson and James 2014, as
 * MongoDB's and Apache Otava's performance CI use it).  The series is
 * the files' medians, so the test weighs a step against the spread
 * between files (builds, boots, runs), not against one file's own
 * interval.  A step's size is the change of the median of the files
 * after it over those before it (back to the previous step, on to the
 * next), with a percentile-bootstrap interval over those files; it is a
 * regression when the whole interval lies above --threshold.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "changepoint.h"
#include "export.h"
#include "cmd.h"
#include "opts.h"
#include "output.h"
#include "stats.h"
#include "svg.h"

#define HISTORY_THRESHOLD	"2"

struct history_opts {
	double threshold;
	double significance;
	uint32_t permutations, min_size;
	uint64_t seed;
	const char *svg;
};

const struct kb_opt kb_history_table[] = {
	{ .name = "threshold", .kind = KB_OPT_DOUBLE, .metavar = "PCT",
	  .min = 0, .max = 1000, KB_OPT_FIELD(struct history_opts, threshold),
	  .help = "a step up is a regression when its whole 95% CI is above PCT percent",
	  .def = HISTORY_THRESHOLD },
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
	  .help = "seed of the permutations and the bootstrap (same files, same answer)",
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
};

static int cmp_dated(const void *a, const void *b)
{
	const struct dated *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (!c)
		c = strcmp(x->date, y->date);
	return c ? c : strcmp(x->path, y->path);
}

/*
 * The *.json of @dir in commit order: by the committer dates of the
 * commits they record (run --commit) when every file records one, else
 * by the dates they were measured; *@order says which.
 */
static int list_dir(const char *sub, const char *dir, char ***paths,
		    size_t *n, const char **order)
{
	struct dated *d = NULL;
	struct dirent *e;
	size_t nd = 0, cap = 0, i;
	char err[768];
	DIR *dh;
	int ret = 0;

	dh = opendir(dir);
	if (!dh)
		return kb_arg_error(sub, "%s: %s", dir, strerror(errno));
	while ((e = readdir(dh))) {
		size_t len = strlen(e->d_name);
		struct kb_resfile rf;
		struct stat st;
		char *p;

		if (len < 6 || strcmp(e->d_name + len - 5, ".json") ||
		    e->d_name[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", dir, e->d_name) < 0) {
			ret = -ENOMEM;
			break;
		}
		if (stat(p, &st) || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		ret = kb_resfile_load(p, &rf, err, sizeof(err));
		if (ret) {
			kb_arg_error(sub, "%s", err);
			free(p);
			break;
		}
		if (nd == cap) {
			void *nw = realloc(d, (cap = cap ? 2 * cap : 32) * sizeof(*d));

			if (!nw) {
				kb_resfile_free(&rf);
				free(p);
				ret = -ENOMEM;
				break;
			}
			d = nw;
		}
		d[nd].path = p;
		snprintf(d[nd].date, sizeof(d[nd].date), "%s", rf.meta.date);
		snprintf(d[nd].key, sizeof(d[nd].key), "%s", rf.meta.commit_time);
		nd++;
		kb_resfile_free(&rf);
	}
	closedir(dh);
	if (!ret && !nd)
		ret = kb_arg_error(sub, "%s holds no *.json result file", dir);
	if (ret) {
		for (i = 0; i < nd; i++)
			free(d[i].path);
		free(d);
		return ret;
	}
	*order = "commit time";
	for (i = 0; i < nd; i++)
		if (!d[i].key[0])
			*order = "date measured";
	if (strcmp(*order, "commit time"))
		for (i = 0; i < nd; i++)
			memcpy(d[i].key, d[i].date, sizeof(d[i].key));
	qsort(d, nd, sizeof(*d), cmp_dated);
	*paths = malloc(nd * sizeof(**paths));
	if (!*paths)
		ret = -ENOMEM;
	for (i = 0; i < nd; i++) {
		if (*paths)
			(*paths)[i] = d[i].path;
		else
			free(d[i].path);
	}
	free(d);
	*n = ret ? 0 : nd;
	return ret;
}

struct step {
	size_t bench, pos;		/* routine, position in its series */
	struct kb_cp cp;
	double before, after;		/* medians of the two sides */
	double pct, lo, hi;		/* the change and its 95% CI */
	const char *verdict;
};

/* One routine: its points (one per file that holds it), in file order. */
struct series {
	size_t n;
	const struct kb_export_point **p;
	double *v;
};

static int series_of(const struct kb_export *x, size_t b, struct series *s)
{
	size_t i, f;

	s->n = 0;
	s->p = calloc(x->nfiles, sizeof(*s->p));
	s->v = calloc(x->nfiles ? x->nfiles : 1, sizeof(*s->v));
	if (!s->p || !s->v)
		return -ENOMEM;
	for (i = 0; i < x->npts; i++) {
		const struct kb_export_point *p = &x->pts[i];

		f = p->file;
		if (p->bench != b || s->p[f])
			continue;	/* a file's first run of the routine */
		s->p[f] = p;
	}
	for (f = 0; f < x->nfiles; f++)
		if (s->p[f]) {
			s->p[s->n] = s->p[f];
			s->v[s->n++] = s->p[f]->median;
		}
	return 0;
}

static double median_of(const double *v, size_t n, double *sorted)
{
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), kb_cmp_double);
	return kb_median_sorted(sorted, n);
}

/* The steps of @s, sized against the segments around them. */
static int find_steps(const struct series *s, size_t b,
		      const struct history_opts *o, struct step *st,
		      size_t *nst, size_t max)
{
	struct kb_cp cp[KB_CP_MAX];
	struct kb_cp_opts co;
	double *a, *c;
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
	a = malloc(2 * (s->n ? s->n : 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	c = a + s->n;
	for (i = 0; i < (size_t)n && *nst < max; i++) {
		struct step *t = &st[(*nst)++];

		lo = i ? cp[i - 1].index : 0;
		hi = i + 1 < (size_t)n ? cp[i + 1].index : s->n;
		t->bench = b;
		t->pos = cp[i].index;
		t->cp = cp[i];
		t->before = median_of(s->v + lo, t->pos - lo, a);
		t->after = median_of(s->v + t->pos, hi - t->pos, c);
		t->pct = (t->after - t->before) / t->before * 100;
		kb_bootstrap_rel_median_ci(a, t->pos - lo, c, hi - t->pos,
					   KB_BOOTSTRAP_RESAMPLES, o->seed,
					   &t->lo, &t->hi);
		t->verdict = t->lo > o->threshold ? "regressed" :
			     t->hi < -o->threshold ? "improved" :
			     "within the threshold";
	}
	free(a);
	return 0;
}

static void print_series(const struct kb_export *x, const struct series *s,
			 const struct step *st, size_t nst, size_t b)
{
	const struct kb_export_point *p0 = s->p[0];
	size_t i, k;

	out_open_object(NULL);
	out_string("routine", "\n%s", p0->name);
	out_string("unit", " (%s", kb_export_unit_text(p0->run));
	out_text(" per iteration, median and its 95%% CI)\n");
	out_text("  %4s  %-28s %12s  %s\n", "#", "file", "median", "95% CI");
	out_open_array("series");
	for (i = 0; i < s->n; i++) {
		const struct kb_export_point *p = s->p[i];

		out_open_object_inline(NULL);
		out_uint("index", "  %4llu", p->file);
		out_string("file", "  %-28s", x->paths[p->file]);
		out_double("median", " %12.3f", p->median);
		out_double("ci_lower", "  %.3f", p->ci_lo);
		out_double("ci_upper", " .. %.3f", p->ci_hi);
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

int history_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct history_opts o;
	struct kb_export x;
	struct series *ser = NULL;
	struct step *st = NULL;
	char **paths = NULL;
	size_t npaths, b, i, nst = 0, nreg = 0;
	const char *order = "as given";
	bool dir = false;
	struct stat sb;
	int first, err;

	memset(&o, 0, sizeof(o));
	err = kb_opts_parse(sc, argc, argv, &o, &first);
	if (err)
		return kb_exit_status(err);
	if (first >= argc)
		return usage_error(sc->name, "which results? (files oldest first, or a directory of them)");
	if (argc - first == 1 && !stat(argv[first], &sb) && S_ISDIR(sb.st_mode)) {
		err = list_dir(sc->name, argv[first], &paths, &npaths, &order);
		if (err)
			return kb_exit_status(err == -ENOMEM ? err : -EINVAL);
		dir = true;
	} else {
		paths = argv + first;
		npaths = (size_t)(argc - first);
	}
	err = kb_export_load(sc->name, paths, npaths, &x);
	if (err)
		goto out_paths;
	ser = calloc(x.nbench, sizeof(*ser));
	st = calloc(KB_CP_MAX * x.nbench, sizeof(*st));
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
	out_uint("files", "history: %llu files", x.nfiles);
	out_uint(NULL, ", %llu routines", x.nbench);	/* JSON: the array below */
	out_string("order", " in order of %s; ", order);
	out_open_object("method");
	out_string("name", "change points by %s", "e-divisive means");
	out_double("significance", " (permutation test p <= %g", o.significance);
	out_uint("permutations", ", %llu permutations", o.permutations);
	out_uint("min_size", ", at least %llu files a side", o.min_size);
	out_uint("seed", ", seed %llu)\n", o.seed);
	out_close_object();
	out_double("threshold_pct", NULL, o.threshold);
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
		out_open_object_inline(NULL);
		out_string("routine", "step: %s", p->name);
		out_uint("index", " at #%llu", p->file);
		out_string("file", " (%s)", x.paths[p->file]);
		out_double("before", ": %.3f", t->before);
		out_double("after", " -> %.3f", t->after);
		out_double("change_pct", " %+.2f%%", t->pct);
		out_double("ci_lower", " (95%% CI %+.2f%%", t->lo);
		out_double("ci_upper", " .. %+.2f%%)", t->hi);
		out_double("p", ", p %.3f", t->cp.p);
		out_string("verdict", ": %s", t->verdict);
		out_close_object();
		out_text("\n");
	}
	out_close_array();
	out_uint("steps", "kbench history: %llu step", nst);
	out_text("%s, ", nst == 1 ? "" : "s");
	out_uint("regressions", "%llu regressed", nreg);
	out_text(" beyond %g%%\n", o.threshold);
	out_close_object();
	out_finish();

	if (o.svg) {
		struct kb_svg_curve *c = calloc(x.nbench, sizeof(*c));
		size_t *steps = calloc(nst ? nst : 1, sizeof(*steps)), used = 0;
		double *buf = calloc(4 * x.nfiles * x.nbench + 1, sizeof(*buf));
		unsigned int nc = 0;

		if (!c || !steps || !buf) {
			err = -ENOMEM;
		} else {
			for (b = 0; b < x.nbench; b++) {
				struct kb_svg_curve *k = &c[nc++];
				double *xs = buf + 4 * x.nfiles * b;

				k->name = ser[b].p[0]->name;
				k->n = ser[b].n;
				k->x = xs;
				k->median = ser[b].v;
				k->ci_lo = xs + x.nfiles;
				k->ci_hi = xs + 2 * x.nfiles;
				k->note = "";
				for (i = 0; i < ser[b].n; i++) {
					xs[i] = (double)ser[b].p[i]->file;
					xs[x.nfiles + i] = ser[b].p[i]->ci_lo;
					xs[2 * x.nfiles + i] = ser[b].p[i]->ci_hi;
				}
				k->steps = steps + used;
				for (i = 0; i < nst; i++)
					if (st[i].bench == b)
						steps[used + k->nsteps++] = st[i].pos;
				used += k->nsteps;
			}
			if (kb_svg_write_sweep_file(o.svg, c, nc,
						    "kbench history: median per file, steps found by e-divisive means",
						    "file (commit order)", false))
				err = -EIO;
		}
		free(c);
		free(steps);
		free(buf);
	}
out_free:
	for (b = 0; ser && b < x.nbench; b++) {
		free(ser[b].p);
		free(ser[b].v);
	}
	free(ser);
	free(st);
	kb_export_free(&x);
out_paths:
	if (dir) {
		for (i = 0; i < npaths; i++)
			free(paths[i]);
		free(paths);
	}
	if (err)
		return err == -ENOMEM || err == -EIO ? EXIT_FAIL : EXIT_USAGE;
	return nreg ? EXIT_REGRESSED : EXIT_OK;
}
