// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl diff OLD NEW: per routine (matched by side, name and sweep
 * argument) the medians per iteration, the relative change with its
 * bootstrap CI, the Mann-Whitney p and a verdict, criterion-style: a
 * change counts only when its CI excludes 0 and it is beyond the noise
 * threshold (the CI not inside +-threshold); the p is reported, never
 * consulted (kb_compare_decide()).  The
 * statistics are user/stats.c's, the ones `compare` uses.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "diff.h"
#include "env.h"
#include "kbenchctl.h"
#include "opts.h"
#include "output.h"
#include "runopts.h"

enum row_verdict { ROW_NO_CHANGE, ROW_IMPROVED, ROW_REGRESSED, ROW_NA };

static const char *const row_verdict_name[] = {
	"no change", "improved", "regressed", "n/a" };

struct row {
	const struct kb_saved_run *os, *ns;
	const struct kb_result *o, *n;
	/* what is compared: the counter's samples, or --metric's event's */
	const double *osorted, *nsorted;
	const struct kb_stats *ost, *nst;
	bool ns_unit;			/* compared in ns (counters differ) */
	double old_med, new_med;	/* per iteration, in the unit */
	double old_med_ns, new_med_ns;
	struct kb_compare c;
	double u;
	enum row_verdict verdict;
	const char *why_na;
};

#define NOTES_MAX	64

struct notes {
	unsigned int n;
	char text[NOTES_MAX][200];
};

static void note_add(struct notes *nt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note_add(struct notes *nt, const char *fmt, ...)
{
	char buf[200];
	unsigned int i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < nt->n; i++)
		if (!strcmp(nt->text[i], buf))
			return;
	if (nt->n < NOTES_MAX)
		memcpy(nt->text[nt->n++], buf, sizeof(buf));
}

const char *const kb_diff_fail_on_choices[] = { "regressed", "changed", NULL };

void kb_diff_opts_init(struct kb_diff_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold = KB_DIFF_DEFAULT_THRESHOLD;
	o->seed = KB_DIFF_DEFAULT_SEED;
}

int kb_diff_parse_match(const struct kb_opt *row, const char *arg,
			void *field)
{
	struct kb_diff_opts *o = field;
	const char *eq = strchr(arg, '=');
	size_t lo, ln;
	char *buf;

	if (!eq || eq == arg || !eq[1] || strchr(eq + 1, '='))
		return kb_opt_error(row, arg, "want OLD=NEW: the routine OLD of the old result is NEW in the new one");
	lo = (size_t)(eq - arg);
	ln = strlen(eq + 1);
	if (lo > KBENCH_NAME_MAX || ln > KBENCH_NAME_MAX)
		return kb_opt_error(row, arg, "routine names are at most %d characters",
				    KBENCH_NAME_MAX);
	if (o->nmatch == KB_DIFF_MATCH_MAX)
		return kb_opt_error(row, arg, "at most %d --match pairs",
				    KB_DIFF_MATCH_MAX);
	buf = o->match_buf[o->nmatch];
	memcpy(buf, arg, lo);
	buf[lo] = '\0';
	memcpy(buf + lo + 1, eq + 1, ln + 1);
	o->match_old[o->nmatch] = buf;
	o->match_new[o->nmatch++] = buf + lo + 1;
	return 0;
}

const char *kb_diff_opts_given(const struct kb_diff_opts *o)
{
	return o->has_threshold ? "--threshold" : o->has_seed ? "--seed" :
	       o->has_fail_on ? "--fail-on" : o->markdown ? "--markdown" :
	       o->nmatch ? "--match" : o->metric ? "--metric" : NULL;
}

int kb_diff_exit_status(int err, bool regressed)
{
	if (err < 0)
		return EXIT_USAGE;
	return regressed ? EXIT_REGRESSED : EXIT_OK;
}

/* The name a routine of the old file has in the new one (--match). */
static const char *new_name_of(const struct kb_diff_opts *o, const char *name)
{
	unsigned int i;

	for (i = 0; i < o->nmatch; i++)
		if (!strcmp(o->match_old[i], name))
			return o->match_new[i];
	return name;
}

static bool same_key(const struct kb_saved_run *a, const struct kb_saved_run *b)
{
	return a->run.user == b->run.user && a->has_arg == b->has_arg &&
	       (!a->has_arg || a->arg == b->arg);
}

/*
 * The argument a result ran with: its sweep value, else its own (a routine
 * with an argument run without --arg, or NAME:ARG).  false: none.
 */
static bool arg_of(const struct kb_saved_run *s, const struct kb_result *r,
		   uint64_t *v)
{
	if (s->has_arg)
		*v = s->arg;
	else if (r->has_arg)
		*v = r->arg;
	return s->has_arg || r->has_arg;
}

/*
 * The first result of @rf keyed like @s (side, sweep value) with @name and
 * the argument of @key, or NULL.
 */
static const struct kb_result *find(const struct kb_resfile *rf,
				    const struct kb_saved_run *s,
				    const char *name,
				    const struct kb_result *key,
				    const struct kb_saved_run **in)
{
	const struct kb_result *r;
	uint64_t a = 0, b = 0;
	bool has = arg_of(s, key, &a);
	size_t i;
	unsigned int k;

	for (i = 0; i < rf->nruns; i++) {
		if (!same_key(&rf->runs[i], s))
			continue;
		for (k = 0; k < rf->runs[i].run.nres; k++) {
			r = &rf->runs[i].run.res[k];
			if (strcmp(r->routine, name) ||
			    arg_of(&rf->runs[i], r, &b) != has || a != b)
				continue;
			*in = &rf->runs[i];
			return r;
		}
	}
	return NULL;
}

static bool hz_close(uint64_t a, uint64_t b)
{
	double d = fabs((double)a - (double)b);

	return d <= 0.001 * (double)(a > b ? a : b);
}

/* Per-iteration values in ns: cycles scaled by the run's counter rate. */
static double *to_ns(const struct kb_run *r, const double *sorted,
		     const struct kb_stats *st)
{
	double *v = malloc((st->count ? st->count : 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < st->count; i++)
		v[i] = kb_run_ns(r, sorted[i]);
	return v;
}

/*
 * The samples of @res a row compares: the counter's, or with --metric
 * EVENT that event's (false when the run did not count it).
 */
static bool metric_of(const struct kb_saved_run *s, const struct kb_result *res,
		      const char *metric, const double **sorted,
		      const struct kb_stats **st)
{
	int x;

	*sorted = res->sorted;
	*st = &res->st;
	if (!metric)
		return true;
	x = kb_run_event_index(&s->run, metric);
	if (x < 0 || !res->ev[x].sorted)
		return false;
	*sorted = res->ev[x].sorted;
	*st = &res->ev[x].st;
	return true;
}

static int compute_row(struct row *w, const struct kb_diff_opts *o,
		       struct notes *warn, struct notes *note)
{
	const struct kb_run *or = &w->os->run, *nr = &w->ns->run;
	bool o_has = metric_of(w->os, w->o, o->metric, &w->osorted, &w->ost);
	bool n_has = metric_of(w->ns, w->n, o->metric, &w->nsorted, &w->nst);
	const double *a = w->osorted, *b = w->nsorted;
	double *a2 = NULL, *b2 = NULL;
	size_t na = w->ost->count, nb = w->nst->count;
	int err = 0;

	/* an event's counts need no conversion between counters */
	w->ns_unit = !o->metric && (strcmp(or->counter, nr->counter) ||
				    !hz_close(or->counter_hz, nr->counter_hz));
	if (w->ns_unit)
		note_add(warn, "counters differ (%s @ %llu Hz, %s @ %llu Hz): comparing ns per iteration, which depends on the counter's calibration",
			 or->counter, (unsigned long long)or->counter_hz,
			 nr->counter, (unsigned long long)nr->counter_hz);
	else if (or->counter_hz != nr->counter_hz)
		note_add(note, "counter rate differs slightly (%llu Hz, %llu Hz): comparing cycles",
			 (unsigned long long)or->counter_hz,
			 (unsigned long long)nr->counter_hz);
	if (or->iterations != nr->iterations)
		note_add(note, "%s: %u iterations per sample, now %u",
			 w->o->routine, or->iterations, nr->iterations);
	if (or->cpu != nr->cpu)
		note_add(note, "measured on cpu %u, now cpu %u", or->cpu, nr->cpu);
	if (or->status == KBENCH_RUN_TIMEOUT || nr->status == KBENCH_RUN_TIMEOUT)
		note_add(warn, "%s: a run timed out: partial samples", w->o->routine);
	w->verdict = ROW_NA;
	w->old_med_ns = o->metric ? NAN : kb_run_ns(or, w->ost->median);
	w->new_med_ns = o->metric ? NAN : kb_run_ns(nr, w->nst->median);
	if (!o_has || !n_has) {
		w->old_med = w->new_med = NAN;
		w->why_na = !o_has ? "the event was not counted in the old result" :
				     "the event was not counted in the new result";
		return 0;
	}
	if (!na || !nb) {
		w->old_med = w->new_med = NAN;
		w->why_na = "no valid samples";
		return 0;
	}
	if (w->ns_unit) {
		a = a2 = to_ns(or, w->osorted, w->ost);
		b = b2 = to_ns(nr, w->nsorted, w->nst);
		if (!a2 || !b2) {
			err = -ENOMEM;
			goto out_free;
		}
	}
	w->old_med = kb_median_sorted(a, na);
	w->new_med = kb_median_sorted(b, nb);
	if (!(w->old_med > 0)) {
		w->why_na = "old median not above 0: no relative change";
		goto out_free;
	}
	w->c.threshold_pct = o->threshold;
	w->c.rel_median_pct = (w->new_med - w->old_med) / w->old_med * 100;
	err = kb_bootstrap_rel_median_ci(a, na, b, nb, KB_BOOTSTRAP_RESAMPLES,
					 o->seed, &w->c.ci_lo_pct, &w->c.ci_hi_pct);
	if (!err)
		err = kb_mann_whitney_sorted(a, na, b, nb, &w->u, &w->c.p);
	if (err)
		goto out_free;
	kb_compare_decide(&w->c);
	w->verdict = w->c.verdict == KB_VERDICT_FASTER ? ROW_IMPROVED :
		     w->c.verdict == KB_VERDICT_SLOWER ? ROW_REGRESSED :
		     ROW_NO_CHANGE;
	w->why_na = NULL;
out_free:
	free(a2);
	free(b2);
	return err;
}

/* What differs between the two files' metadata. */
static void compare_meta(const struct kb_meta *a, const struct kb_meta *b,
			 struct notes *warn, struct notes *note)
{
	unsigned int i, k;

#define DIFFERS(field) (a->field[0] && b->field[0] && strcmp(a->field, b->field))
	if (DIFFERS(arch))
		note_add(warn, "architecture differs: %s, %s", a->arch, b->arch);
	if (DIFFERS(cpu_model))
		note_add(warn, "CPU model differs: %s, %s", a->cpu_model, b->cpu_model);
	if (strcmp(a->hypervisor, b->hypervisor))
		note_add(warn, "hypervisor differs: %s, %s",
			 a->hypervisor[0] ? a->hypervisor : "none",
			 b->hypervisor[0] ? b->hypervisor : "none");
	if (a->method_version != b->method_version)
		note_add(warn, "sampling method differs (method version %u, %u): kbench itself changed how it measures",
			 a->method_version, b->method_version);
	if (DIFFERS(kernel))
		note_add(note, "kernel release differs: %s, %s", a->kernel, b->kernel);
	if (DIFFERS(kbench_version))
		note_add(note, "kbench module version differs: %s, %s",
			 a->kbench_version, b->kbench_version);
	if (DIFFERS(kbenchctl_version))
		note_add(note, "kbenchctl version differs: %s, %s",
			 a->kbenchctl_version, b->kbenchctl_version);
	if (DIFFERS(hostname))
		note_add(note, "hostname differs: %s, %s", a->hostname, b->hostname);
#undef DIFFERS
	for (i = 0; i < a->nparams; i++)
		for (k = 0; k < b->nparams; k++)
			if (!strcmp(a->param[i].name, b->param[k].name) &&
			    a->param[i].value != b->param[k].value)
				note_add(note, "module parameter %s differs: %llu, %llu",
					 a->param[i].name,
					 (unsigned long long)a->param[i].value,
					 (unsigned long long)b->param[k].value);
	for (i = 0; i < a->nenv; i++)
		for (k = 0; k < b->nenv; k++) {
			const char *key = a->env[i].key;
			/* what changes the code's cost is a warning (env.h) */
			bool moves = kb_env_key_moves_figures(key);

			if (strcmp(key, b->env[k].key) ||
			    !strcmp(a->env[i].value, b->env[k].value))
				continue;
			if (strlen(a->env[i].value) > 40 ||
			    strlen(b->env[k].value) > 40)
				note_add(moves ? warn : note,
					 "environment %s differs (see the files)",
					 key);
			else
				note_add(moves ? warn : note,
					 "environment %s differs: %s, %s%s", key,
					 a->env[i].value, b->env[k].value,
					 moves ? " (it changes what the code costs)" : "");
		}
}

static void label(const struct kb_saved_run *s, const struct kb_result *r,
		  char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", r->routine, s->run.user ? " [user]" : "");
}

static void format_pct(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%+.2f%%", v);
	else
		snprintf(buf, len, "-");
}

static void format_p(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "< 0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static void format_med(const struct row *w, const char *metric, double v,
		       char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.3f %s", v, metric ? "" :
			 w->ns_unit ? "ns" : "cyc");
	else
		snprintf(buf, len, "-");
}

static void side_json(const char *key, const char *name,
		      const struct kb_resfile *rf)
{
	const struct kb_meta *m = &rf->meta;

	out_open_object(key);
	out_string("file", NULL, name);
	out_string("date", NULL, m->date);
	out_string("kernel", NULL, m->kernel);
	out_string("arch", NULL, m->arch);
	out_string("cpu_model", NULL, m->cpu_model);
	out_string("hypervisor", NULL, m->hypervisor[0] ? m->hypervisor : NULL);
	out_string("kbench_version", NULL,
		   m->kbench_version[0] ? m->kbench_version : NULL);
	out_uint("method_version", NULL, m->method_version);
	out_close_object();
}

/* A row's cells as text ("-" where there is no figure). */
struct cells {
	char lbl[64], om[32], nm[32], ch[24], lo[24], hi[24], p[16], arg[24];
};

static void row_cells(const struct row *w, const char *metric, struct cells *c)
{
	bool na = w->verdict == ROW_NA;
	uint64_t a = 0;

	label(w->os, w->o, c->lbl, sizeof(c->lbl));
	format_med(w, metric, w->old_med, c->om, sizeof(c->om));
	format_med(w, metric, w->new_med, c->nm, sizeof(c->nm));
	format_pct(na ? NAN : w->c.rel_median_pct, c->ch, sizeof(c->ch));
	format_pct(na ? NAN : w->c.ci_lo_pct, c->lo, sizeof(c->lo));
	format_pct(na ? NAN : w->c.ci_hi_pct, c->hi, sizeof(c->hi));
	format_p(na ? NAN : w->c.p, c->p, sizeof(c->p));
	if (arg_of(w->os, w->o, &a))
		snprintf(c->arg, sizeof(c->arg), "%llu", (unsigned long long)a);
	else
		snprintf(c->arg, sizeof(c->arg), "-");
}

/* As compare's verdicts: regressed red, improved and no change green. */
static const char *verdict_color(enum row_verdict v)
{
	return kb_color(out_file(), v == ROW_REGRESSED ? KB_BAD :
				    v == ROW_NA ? KB_WARN : KB_GOOD);
}

/* The p column only with -v (the verdict already says what p decided). */
static void print_rows_table(const struct row *rows, size_t nrows,
			     bool any_arg, bool full, const char *metric)
{
	struct cells c;
	char ci[56], oh[48], nh[48];
	size_t i;

	snprintf(oh, sizeof(oh), "old %.20s/iter", metric ? metric : "");
	snprintf(nh, sizeof(nh), "new %.20s/iter", metric ? metric : "");
	out_text("%-24s %s%14s %14s %9s  %-20s", "routine",
		 any_arg ? "       arg " : "", metric ? oh : "old/iter",
		 metric ? nh : "new/iter", "change", "95% CI of change");
	if (full)
		out_text(" %8s", "p");
	out_text("  verdict\n");
	for (i = 0; i < nrows; i++) {
		const struct row *w = &rows[i];

		row_cells(w, metric, &c);
		snprintf(ci, sizeof(ci), "%s .. %s", c.lo, c.hi);
		out_text("%-24s ", c.lbl);
		if (any_arg)
			out_text("%10s ", c.arg);
		out_text("%14s %14s %9s  %-20s", c.om, c.nm, c.ch,
			 w->verdict == ROW_NA ? "-" : ci);
		if (full)
			out_text(" %8s", c.p);
		out_text("  %s%s%s%s%s\n", verdict_color(w->verdict),
			 row_verdict_name[w->verdict], w->why_na ? ": " : "",
			 w->why_na ? w->why_na : "", kb_color_end(out_file()));
	}
}

/* For a commit message or a review: never coloured. */
static void print_rows_markdown(const struct row *rows, size_t nrows,
				bool any_arg, const char *metric)
{
	struct cells c;
	size_t i;

	out_text("| routine |%s old%s%s/iter | new%s%s/iter | change | 95%% CI | p | verdict |\n",
		 any_arg ? " arg |" : "", metric ? " " : "", metric ? metric : "",
		 metric ? " " : "", metric ? metric : "");
	out_text("|:--|%s--:|--:|--:|:-:|--:|:--|\n", any_arg ? "--:|" : "");
	for (i = 0; i < nrows; i++) {
		const struct row *w = &rows[i];
		bool na = w->verdict == ROW_NA;

		row_cells(w, metric, &c);
		out_text("| `%s` |", c.lbl);
		if (any_arg)
			out_text(" %s |", c.arg);
		out_text(" %s | %s | %s | %s%s%s | %s | %s%s |\n", c.om, c.nm,
			 c.ch, na ? "-" : c.lo, na ? "" : " .. ", na ? "" : c.hi,
			 c.p, w->verdict == ROW_REGRESSED ? "**regressed**" :
			 row_verdict_name[w->verdict],
			 w->why_na ? " (no samples)" : "");
	}
}
static void print_rows_json(const struct row *rows, size_t nrows,
			    const char *metric)
{
	size_t i;

	out_open_array("routines");
	for (i = 0; i < nrows; i++) {
		const struct row *w = &rows[i];
		bool na = w->verdict == ROW_NA;
		uint64_t a = 0;

		out_open_object(NULL);
		out_string("routine", NULL, w->o->routine);
		if (strcmp(w->o->routine, w->n->routine))
			out_string("new_routine", NULL, w->n->routine);
		out_string("side", NULL, w->os->run.user ? "user" : "kernel");
		if (arg_of(w->os, w->o, &a))
			out_uint("arg", NULL, a);
		else
			out_null("arg");
		out_string("compared_in", NULL, metric ? metric :
				     w->ns_unit ? "ns" : "cycles");
		out_double("old_median_cycles", NULL, w->ost->median);
		out_double("new_median_cycles", NULL, w->nst->median);
		out_double("old_median_ns", NULL, w->old_med_ns);
		out_double("new_median_ns", NULL, w->new_med_ns);
		out_uint("old_samples", NULL, w->ost->count);
		out_uint("new_samples", NULL, w->nst->count);
		out_double("change_pct", NULL, na ? NAN : w->c.rel_median_pct);
		out_double("change_ci95_lo_pct", NULL, na ? NAN : w->c.ci_lo_pct);
		out_double("change_ci95_hi_pct", NULL, na ? NAN : w->c.ci_hi_pct);
		out_double("mann_whitney_u", NULL, na ? NAN : w->u);
		out_double("p_value", NULL, na ? NAN : w->c.p);
		out_string("verdict", NULL, row_verdict_name[w->verdict]);
		out_bool("below_threshold", NULL, !na && w->c.below_threshold);
		if (w->why_na)
			out_string("reason", NULL, w->why_na);
		out_close_object();
	}
	out_close_array();
}

static void only_list(const char *key, const char *text,
		      const struct kb_resfile *rf, bool **used)
{
	size_t i, shown = 0;
	unsigned int k;
	uint64_t a = 0;

	out_open_array(key);
	for (i = 0; i < rf->nruns; i++) {
		for (k = 0; k < rf->runs[i].run.nres; k++) {
			const struct kb_saved_run *s = &rf->runs[i];
			char lbl[64];

			if (used[i][k])
				continue;
			label(s, &s->run.res[k], lbl, sizeof(lbl));
			if (arg_of(s, &s->run.res[k], &a))
				snprintf(lbl + strlen(lbl), sizeof(lbl) - strlen(lbl),
					 " (arg %llu)", (unsigned long long)a);
			out_text("%s%s", shown++ ? ", " : text, lbl);
			out_open_object_inline(NULL);
			out_string("routine", NULL, s->run.res[k].routine);
			out_string("side", NULL, s->run.user ? "user" : "kernel");
			if (arg_of(s, &s->run.res[k], &a))
				out_uint("arg", NULL, a);
			else
				out_null("arg");
			out_close_object();
		}
	}
	out_close_array();
	if (shown)
		out_text("\n");
}

static bool **used_alloc(const struct kb_resfile *rf)
{
	bool **u = calloc(rf->nruns ? rf->nruns : 1, sizeof(*u));
	size_t i;

	for (i = 0; u && i < rf->nruns; i++) {
		u[i] = calloc(KBENCH_RUN_ROUTINES_MAX, sizeof(**u));
		if (!u[i]) {
			while (i--)
				free(u[i]);
			free(u);
			return NULL;
		}
	}
	return u;
}

static void used_free(bool **u, size_t n)
{
	size_t i;

	for (i = 0; u && i < n; i++)
		free(u[i]);
	free(u);
}

/*
 * Warnings (yellow) and notes: JSON arrays of strings; in the text, one
 * line each, or on stderr beside Markdown.  Not @shown: JSON only (the
 * short report counts the notes instead).
 */
static void print_notes(const char *key, const char *prefix,
			const struct notes *nt, bool to_stderr, bool shown,
			bool warning)
{
	FILE *f = to_stderr ? stderr : out_file();
	const char *on = warning ? kb_color(f, KB_WARN) : "";
	const char *off = warning ? kb_color_end(f) : "";
	unsigned int i;

	out_open_array(key);
	for (i = 0; i < nt->n; i++) {
		if (shown && to_stderr)
			fprintf(stderr, "%s: %s%s: %s%s\n", prog, on, prefix,
				nt->text[i], off);
		else if (shown)
			out_text("%s%s: ", on, prefix);
		out_string(NULL, shown && !to_stderr ? "%s" : NULL, nt->text[i]);
		if (shown && !to_stderr)
			out_text("%s\n", off);
	}
	out_close_array();
}

/* Statistics of the routines (not of the overhead: diff does not use it). */
static int analyze(struct kb_resfile *rf)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < rf->nruns; i++) {
		struct kb_run *r = &rf->runs[i].run;

		if (rf->runs[i].analyzed)
			continue;
		for (k = 0; k < r->nres; k++)
			if (kb_result_analyze(&r->res[k], r->iterations))
				return -ENOMEM;
		rf->runs[i].analyzed = true;
	}
	return 0;
}

/* One row per routine of @old found in @new; the counts per verdict. */
static int match_rows(const char *old_name, struct kb_resfile *old,
		      const char *new_name, struct kb_resfile *new,
		      const struct kb_diff_opts *o, struct row **rowsp,
		      size_t *nrowsp, size_t counts[4], bool **used_old,
		      bool **used_new, struct notes *warn, struct notes *note)
{
	size_t i, nrows = 0, cap = 0;
	struct row *rows = NULL;
	unsigned int k;

	for (i = 0; i < old->nruns; i++) {
		const struct kb_saved_run *os = &old->runs[i];

		for (k = 0; k < os->run.nres; k++) {
			const struct kb_result *o_res = &os->run.res[k], *n_res;
			const struct kb_saved_run *ns = NULL, *first_in;
			struct row *w;
			size_t ni;

			/* a routine twice on one side: the first one counts */
			if (find(old, os, o_res->routine, o_res, &first_in) != o_res) {
				note_add(note, "%s appears more than once in %s: compared the first",
					 o_res->routine, old_name);
				used_old[i][k] = true;
				continue;
			}
			n_res = find(new, os, new_name_of(o, o_res->routine), o_res,
				     &ns);
			if (!n_res)
				continue;
			used_old[i][k] = true;
			ni = (size_t)(ns - new->runs);
			used_new[ni][n_res - ns->run.res] = true;
			if (nrows == cap) {
				struct row *r2;

				cap = cap ? cap * 2 : 8;
				r2 = realloc(rows, cap * sizeof(*r2));
				if (!r2)
					goto out_nomem;
				rows = r2;
			}
			w = &rows[nrows++];
			memset(w, 0, sizeof(*w));
			w->os = os;
			w->ns = ns;
			w->o = o_res;
			w->n = n_res;
			if (compute_row(w, o, warn, note))
				goto out_nomem;
			counts[w->verdict]++;
		}
	}
	/* the duplicates on the new side (already-matched ones stay used) */
	for (i = 0; i < new->nruns; i++)
		for (k = 0; k < new->runs[i].run.nres; k++) {
			const struct kb_saved_run *first_in;
			const struct kb_result *r = &new->runs[i].run.res[k];

			if (find(new, &new->runs[i], r->routine, r, &first_in) != r) {
				note_add(note, "%s appears more than once in %s: compared the first",
					 r->routine, new_name);
				used_new[i][k] = true;
			}
		}
	*rowsp = rows;
	*nrowsp = nrows;
	return 0;

out_nomem:
	free(rows);
	return -ENOMEM;
}

int kb_diff_print(const char *key, const char *old_name, struct kb_resfile *old,
		  const char *new_name, struct kb_resfile *new,
		  const struct kb_diff_opts *o, bool *regressed)
{
	struct notes *warn = calloc(1, sizeof(*warn)), *note = calloc(1, sizeof(*note));
	bool **used_old = used_alloc(old), **used_new = used_alloc(new);
	bool any_arg = false, md = o->markdown && !out_json(), full = o->full || md;
	size_t i, nrows = 0, counts[4] = { 0 };
	struct row *rows = NULL;
	int err = -ENOMEM, status;
	uint64_t a;

	*regressed = false;
	if (!warn || !note || !used_old || !used_new)
		goto out_nomem;
	if (analyze(old) || analyze(new))
		goto out_nomem;
	compare_meta(&old->meta, &new->meta, warn, note);
	if (match_rows(old_name, old, new_name, new, o, &rows, &nrows, counts,
		       used_old, used_new, warn, note))
		goto out_nomem;
	for (i = 0; i < nrows; i++)
		any_arg |= arg_of(rows[i].os, rows[i].o, &a);

	*regressed = counts[ROW_REGRESSED] ||
		     (o->fail_on == KB_DIFF_FAIL_CHANGED && counts[ROW_IMPROVED]);
	err = 0;
	if (!nrows) {
		fprintf(stderr, "%s: nothing to compare: %s and %s have no routine in common%s\n",
			prog, old_name, new_name,
			o->nmatch ? "" : " (for routines renamed between them: --match OLD=NEW)");
		*regressed = false;
		err = -ENODATA;
	}
	status = kb_diff_exit_status(err, *regressed);

	out_open_object(key);
	if (out_json()) {
		side_json("old", old_name, old);
		side_json("new", new_name, new);
	} else if (o->full && !md) {
		out_text("old: %s (%s, %s, %s)\n", old_name, old->meta.date,
			 old->meta.kernel, old->meta.arch);
		out_text("new: %s (%s, %s, %s)\n", new_name, new->meta.date,
			 new->meta.kernel, new->meta.arch);
	}
	out_double("threshold_pct", NULL, o->threshold);
	out_string("fail_on", NULL, kb_diff_fail_on_choices[o->fail_on]);
	out_uint("seed", NULL, o->seed);
	out_uint("bootstrap_resamples", NULL, KB_BOOTSTRAP_RESAMPLES);
	print_notes("warnings", "warning", warn, md, true, true);
	print_notes("notes", "note", note, md, full, false);
	if (o->full && !md)
		out_text("\n");
	out_string("metric", NULL, o->metric ? o->metric : "cycles");
	if (md)
		print_rows_markdown(rows, nrows, any_arg, o->metric);
	else if (out_json())
		print_rows_json(rows, nrows, o->metric);
	else
		print_rows_table(rows, nrows, any_arg, o->full, o->metric);
	if (md || o->full)
		out_text("\n");
	only_list("only_old", "only in old: ", old, used_old);
	only_list("only_new", "only in new: ", new, used_new);
	out_uint("regressed", NULL, counts[ROW_REGRESSED]);
	out_uint("improved", NULL, counts[ROW_IMPROVED]);
	out_uint("no_change", NULL, counts[ROW_NO_CHANGE]);
	out_uint("not_compared", NULL, counts[ROW_NA]);
	if (!md)
		out_text("%s", kb_color(out_file(), status ? KB_BAD : KB_GOOD));
	out_text("%s%zu regressed, %zu improved, %zu no change",
		 md ? "kbench diff: " : "", counts[ROW_REGRESSED],
		 counts[ROW_IMPROVED], counts[ROW_NO_CHANGE]);
	if (counts[ROW_NA])
		out_text(", %zu not compared", counts[ROW_NA]);
	if (full)
		out_text(" (noise threshold %g%%, 95%% bootstrap CI of the median change, Mann-Whitney p%s)",
			 o->threshold,
			 o->fail_on == KB_DIFF_FAIL_CHANGED ? "; fail on any change" : "");
	else
		out_text(" (noise threshold %g%%%s)", o->threshold,
			 o->fail_on == KB_DIFF_FAIL_CHANGED ? "; fail on any change" : "");
	if (!full && note->n)
		out_text("; -v shows %u note%s on what else differs", note->n,
			 note->n == 1 ? "" : "s");
	out_text("%s\n", md ? "" : kb_color_end(out_file()));
	out_uint("exit_status", NULL, (uint64_t)status);
	out_close_object();
	goto out_free;

out_nomem:
	fprintf(stderr, "%s: out of memory\n", prog);
out_free:
	used_free(used_old, old->nruns);
	used_free(used_new, new->nruns);
	free(rows);
	free(warn);
	free(note);
	return err;
}

/* --- run --save / --baseline, compare --save --- */

void kb_results_build(struct kb_results *x, const struct kb_run *const *runs,
		      const struct kb_run_req *const *reqs, unsigned int n,
		      int argc, char *argv[])
{
	unsigned int i;

	memset(x, 0, sizeof(*x));
	if (n > 2)
		n = 2;
	for (i = 0; i < n; i++) {
		kb_saved_run_init(&x->s[i], runs[i], reqs[i]);
		x->s[i].analyzed = true;	/* by the caller; the copy shares it */
	}
	kb_meta_collect(&x->rf.meta, n && !runs[0]->user,
			n ? (int)runs[0]->cpu : -1, argc, argv);
	if (n && runs[0]->has_env)
		kb_meta_add_env(&x->rf.meta, &runs[0]->env);
	x->rf.runs = x->s;
	x->rf.nruns = n;
}

int kb_results_save(const char *arg, const struct kb_results *x)
{
	return kb_resfile_save(arg, &x->rf.meta, x->s, x->rf.nruns);
}

int kb_baseline_load(const char *sub, const char *arg, struct kb_resfile *base)
{
	char err[768];
	int ret;

	ret = kb_resfile_load(arg, base, err, sizeof(err));
	if (ret)
		kb_arg_error(sub, "--baseline: %s", err);
	return ret;
}

/* --- the subcommand --- */

/* diff --check FILE...: load and validate each; the first error. */
static int check_files(const char *sub, int argc, char *argv[])
{
	char err[768];
	int i, ret = 0, e;

	out_open_array(NULL);
	for (i = 0; i < argc; i++) {
		struct kb_resfile rf;
		size_t r, samples = 0, routines = 0;
		unsigned int k;

		out_open_object(NULL);
		out_string("file", "%s: ", argv[i]);
		e = kb_resfile_load(argv[i], &rf, err, sizeof(err));
		if (e) {
			kb_arg_error(sub, "%s", err);
			out_bool("valid", NULL, false);
			out_text("%s", kb_color(out_file(), KB_BAD));
			out_string("error", "invalid", err);
			out_text("%s\n", kb_color_end(out_file()));
			out_close_object();
			ret = ret ? ret : e;
			continue;
		}
		for (r = 0; r < rf.nruns; r++) {
			routines += rf.runs[r].run.nres;
			for (k = 0; k < rf.runs[r].run.nres; k++)
				samples += rf.runs[r].run.res[k].n;
		}
		out_bool("valid", NULL, true);
		out_uint("runs", "ok, %llu run", rf.nruns);
		out_text("%s", rf.nruns == 1 ? "" : "s");
		out_uint("routines", ", %llu routine", routines);
		out_text("%s", routines == 1 ? "" : "s");
		out_uint("samples", ", %llu samples", samples);
		out_string("date", ", %s", rf.meta.date);
		out_string("kernel", ", %s\n", rf.meta.kernel);
		out_close_object();
		kb_resfile_free(&rf);
	}
	out_close_array();
	out_finish();
	return ret;
}

/* The options and arguments of diff, and how they go together. */
static int diff_parse(const struct subcommand *sc, int argc, char *argv[],
		      struct kb_run_opts *o, int *first)
{
	const char *given;
	int err, n;

	memset(o, 0, sizeof(*o));
	kb_diff_opts_init(&o->diff);
	err = kb_opts_parse(sc, argc, argv, o, first);
	if (err)
		return err;
	o->diff.full = o->verbose;
	n = argc - *first;
	if (o->check) {
		given = kb_diff_opts_given(&o->diff);
		if (given)
			return kb_arg_error(sc->name, "--check only loads and validates files: not with %s",
					    given);
		if (!n)
			return kb_arg_error(sc->name, "--check: which files? (result files, or NAMEs saved by '%s run --save NAME')",
					    prog);
		return 0;
	}
	if (!n) {
		usage_error(sc->name, "which two results? (files, or NAMEs saved by '%s run --save NAME')",
			    prog);
		return -EINVAL;
	}
	if (n == 1)
		return kb_arg_error(sc->name, "needs two results, OLD and NEW; '%s' is only the first",
				    argv[*first]);
	if (n > 2)
		return kb_arg_error(sc->name, "two results only; '%s' is one too many",
				    argv[*first + 2]);
	if (o->diff.markdown && opt_json)
		return kb_arg_error(sc->name, "--markdown and --json exclude each other");
	return 0;
}

int diff_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct kb_resfile old, new;
	struct kb_run_opts o;
	bool regressed = false;
	char err[768];
	int first, ret;

	ret = diff_parse(sc, argc, argv, &o, &first);
	if (ret)
		return kb_diff_exit_status(ret, false);
	if (o.check)
		return kb_diff_exit_status(check_files(sc->name, argc - first,
						       argv + first), false);
	ret = kb_resfile_load(argv[first], &old, err, sizeof(err));
	if (ret) {
		kb_arg_error(sc->name, "%s", err);
		return kb_diff_exit_status(ret, false);
	}
	ret = kb_resfile_load(argv[first + 1], &new, err, sizeof(err));
	if (ret) {
		kb_arg_error(sc->name, "%s", err);
		kb_resfile_free(&old);
		return kb_diff_exit_status(ret, false);
	}
	ret = kb_diff_print(NULL, argv[first], &old, argv[first + 1], &new,
			    &o.diff, &regressed);
	out_finish();
	kb_resfile_free(&old);
	kb_resfile_free(&new);
	return kb_diff_exit_status(ret, regressed);
}
