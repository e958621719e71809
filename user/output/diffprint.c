// SPDX-License-Identifier: GPL-2.0
/*
 * The report of `kbenchctl diff` and `run --baseline` (diffprint.h): the
 * rows of results/diff.c's comparison as a table, Markdown or JSON, the
 * routines only one side has, the warnings and notes, the counts and the
 * exit status.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "diff.h"
#include "diffprint.h"
#include "base.h"
#include "output.h"

/*
 * A routine as people read it everywhere: "NAME:ARG", " [user]" for a
 * twin, " [2 CPUs at once]" for a contended run (baseline --cpus).
 */
static void label(const struct kb_saved_run *s, const struct kb_result *r,
		  char *buf, size_t len)
{
	char at[40] = "";
	uint64_t a;

	if (s->run.ncpus)
		snprintf(at, sizeof(at), " [%u CPUs at once]", s->run.ncpus);
	if (kb_diff_arg_of(s, r, &a))
		snprintf(buf, len, "%s:%llu%s%s", r->routine,
			 (unsigned long long)a, s->run.user ? " [user]" : "", at);
	else
		snprintf(buf, len, "%s%s%s", r->routine,
			 s->run.user ? " [user]" : "", at);
}

static void format_pct(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%+.2f%%", v);
	else
		snprintf(buf, len, "-");
}

static void format_med(const struct kb_diff_row *w, const char *metric, double v,
		       char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%.3f %s", v, metric ? "" :
			 w->ns_unit ? "ns" : kb_run_unit(&w->os->run));
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
	char lbl[KBENCH_NAME_MAX + 32], om[32], nm[32], ch[24], lo[24], hi[24], p[16];
};

static void row_cells(const struct kb_diff_row *w, const char *metric, struct cells *c)
{
	bool na = w->verdict == KB_ROW_NA;

	label(w->os, w->o, c->lbl, sizeof(c->lbl));
	format_med(w, metric, w->old_med, c->om, sizeof(c->om));
	format_med(w, metric, w->new_med, c->nm, sizeof(c->nm));
	format_pct(na ? NAN : w->c.rel_median_pct, c->ch, sizeof(c->ch));
	format_pct(na ? NAN : w->c.ci_lo_pct, c->lo, sizeof(c->lo));
	format_pct(na ? NAN : w->c.ci_hi_pct, c->hi, sizeof(c->hi));
	kb_format_p(na ? NAN : w->c.p, c->p, sizeof(c->p));
}

/* As compare's verdicts: regressed red, improved and no change green. */
static const char *verdict_color(const struct kb_diff_row *w)
{
	enum kb_row_verdict v = w->verdict;

	return kb_color(out_file(), v == KB_ROW_REGRESSED ? KB_BAD :
				    v == KB_ROW_NA || w->c.inconclusive ?
				    KB_WARN : KB_GOOD);
}

/*
 * The verdict in words, in the text and in JSON's "verdict" alike:
 * "inconclusive" where the CI reaches across the threshold (never "no
 * change": it is not one), "no significant difference" at threshold 0
 * (the CI holds 0: that is all it says), else the row's.
 */
static const char *row_call(const struct kb_diff_row *w)
{
	if (w->verdict == KB_ROW_NO_CHANGE && w->c.inconclusive)
		return "inconclusive";
	if (w->verdict == KB_ROW_NO_CHANGE && !(w->threshold_used > 0))
		return "no significant difference";
	return kb_row_verdict_name[w->verdict];
}

/* After the call: a change seen between single runs only. */
static const char *row_caveat(const struct kb_diff_row *w)
{
	return w->single && (w->verdict == KB_ROW_REGRESSED ||
			     w->verdict == KB_ROW_IMPROVED) ?
	       " (single runs)" : "";
}

/* The p column only with -v (the verdict already says what p decided). */
static void print_rows_table(const struct kb_diff_row *rows, size_t nrows,
			     bool full, const char *metric)
{
	struct cells c;
	char ci[56], oh[48], nh[48];
	size_t i;

	snprintf(oh, sizeof(oh), "old %.20s/iter", metric ? metric : "");
	snprintf(nh, sizeof(nh), "new %.20s/iter", metric ? metric : "");
	out_text("%-24s %14s %14s %9s  %-20s", "routine",
		 metric ? oh : "old/iter", metric ? nh : "new/iter", "change",
		 "95% CI of change");
	if (full)
		out_text(" %8s", "p");
	out_text("  verdict\n");
	for (i = 0; i < nrows; i++) {
		const struct kb_diff_row *w = &rows[i];

		row_cells(w, metric, &c);
		snprintf(ci, sizeof(ci), "%s .. %s", c.lo, c.hi);
		out_text("%-24s %14s %14s %9s  %-20s", c.lbl, c.om, c.nm, c.ch,
			 w->verdict == KB_ROW_NA ? "-" : ci);
		if (full)
			out_text(" %8s", c.p);
		out_text("  %s%s%s%s%s%s\n", verdict_color(w),
			 row_call(w), row_caveat(w), w->why_na ? ": " : "",
			 w->why_na ? w->why_na : "", kb_color_end(out_file()));
	}
}

/* For a commit message or a review: never coloured. */
static void print_rows_markdown(const struct kb_diff_row *rows, size_t nrows,
				const char *metric)
{
	struct cells c;
	size_t i;

	out_text("| routine | old%s%s/iter | new%s%s/iter | change | 95%% CI | p | verdict |\n",
		 metric ? " " : "", metric ? metric : "",
		 metric ? " " : "", metric ? metric : "");
	out_text("|:--|--:|--:|--:|:-:|--:|:--|\n");
	for (i = 0; i < nrows; i++) {
		const struct kb_diff_row *w = &rows[i];
		bool na = w->verdict == KB_ROW_NA;

		row_cells(w, metric, &c);
		out_text("| `%s` | %s | %s | %s | %s%s%s | %s | %s%s%s |\n", c.lbl, c.om, c.nm,
			 c.ch, na ? "-" : c.lo, na ? "" : " .. ", na ? "" : c.hi,
			 c.p, w->verdict == KB_ROW_REGRESSED ? "**regressed**" :
			 row_call(w), row_caveat(w),
			 w->why_na ? " (no samples)" : "");
	}
}

static void print_rows_json(const struct kb_diff_row *rows, size_t nrows,
			    const char *metric)
{
	size_t i;

	out_open_array("routines");
	for (i = 0; i < nrows; i++) {
		const struct kb_diff_row *w = &rows[i];
		bool na = w->verdict == KB_ROW_NA;
		char unit[KBENCH_NAME_MAX + 48];
		uint64_t a = 0;

		out_open_object(NULL);
		out_string("routine", NULL, w->o->routine);
		if (strcmp(w->o->routine, w->n->routine))
			out_string("new_routine", NULL, w->n->routine);
		out_string("side", NULL, w->os->run.user ? "user" : "kernel");
		if (kb_diff_arg_of(w->os, w->o, &a))
			out_uint("arg", NULL, a);
		else
			out_null("arg");
		/* "compared_in" keeps its old words; "unit" says what they count */
		out_string("compared_in", NULL, metric ? metric :
				     w->ns_unit ? "ns" : "cycles");
		out_string("unit", NULL, metric ? metric : w->ns_unit ? "ns" :
			   kb_run_unit_text(&w->os->run, unit, sizeof(unit)));
		out_double("old_median_cycles", NULL, w->old_med_cyc);
		out_double("new_median_cycles", NULL, w->new_med_cyc);
		out_double("old_median_ns", NULL, w->old_med_ns);
		out_double("new_median_ns", NULL, w->new_med_ns);
		out_uint("old_samples", NULL, w->old_valid);
		out_uint("new_samples", NULL, w->new_valid);
		out_uint("old_runs", NULL, w->c.runs_a);
		out_uint("new_runs", NULL, w->c.runs_b);
		out_double("change_pct", NULL, na ? NAN : w->c.rel_median_pct);
		out_double("change_ci95_lo_pct", NULL, na ? NAN : w->c.ci_lo_pct);
		out_double("change_ci95_hi_pct", NULL, na ? NAN : w->c.ci_hi_pct);
		out_double("mann_whitney_u", NULL, na ? NAN : w->u);
		out_double("mann_whitney_p", NULL, na ? NAN : w->c.mw_p);
		out_double("p_value", NULL, na ? NAN : w->c.p);
		out_string("verdict", NULL, row_call(w));
		out_bool("single_runs", NULL, w->single);
		out_bool("prediction_interval", NULL, w->predicted);
		out_bool("inconclusive", NULL, !na && w->c.inconclusive);
		out_double("resolve_halfwidth_pct", NULL,
			   !na && w->c.inconclusive ? w->c.resolve_halfwidth_pct : NAN);
		out_string("verdict_basis", NULL, na ? NULL : w->c.basis);
		out_double("block_length", NULL, na ? NAN : w->c.block);
		out_double("between_run_spread_pct", NULL, na ? NAN : w->c.spread_pct);
		out_double("old_run_spread_pct", NULL, na ? NAN : w->spread_old_pct);
		out_double("new_run_spread_pct", NULL, na ? NAN : w->spread_new_pct);
		out_double("runs_df", NULL, na ? NAN : w->df);
		out_double("threshold_pct", NULL, w->threshold_used);
		out_bool("threshold_is_spread", NULL, w->threshold_is_spread);
		out_double("resolvable_change_pct", NULL,
			   !na ? w->resolvable_pct : NAN);
		out_bool("below_threshold", NULL, !na && w->c.below_threshold);
		out_string("decision_rule", NULL, na ? NULL :
			   w->c.estimate_rule ? "significant, estimate beyond the threshold" :
						"whole CI beyond the threshold");
		out_bool("called_by_estimate", NULL, !na && w->c.by_estimate);
		if (w->why_na)
			out_string("reason", NULL, w->why_na);
		out_close_object();
	}
	out_close_array();
}

/*
 * Replicated rows: why the call (the estimate rule, stats.h): "regressed
 * +3.0% [2.3, 3.7]%, significant; beyond the 2% threshold by its
 * estimate".
 */
static void runs_why(const struct kb_diff_row *w)
{
	double t = w->threshold_used, e = w->c.rel_median_pct;
	const char *call = row_call(w);

	if (w->verdict == KB_ROW_NA || !w->c.estimate_rule)
		return;
	out_text("  %s %+.1f%% [%.1f, %.1f]%%", call, e, w->c.ci_lo_pct,
		 w->c.ci_hi_pct);
	if (w->verdict != KB_ROW_NO_CHANGE)
		out_text(", significant; beyond the %g%% threshold %s\n", t,
			 w->c.by_estimate ? "by its estimate (the interval reaches inside it)" :
					    "with the whole interval");
	else if (w->c.inconclusive && fabs(e) > t)
		out_text(": beyond the %g%% threshold by its estimate, not significant (the interval holds 0)\n",
			 t);
	else if (w->c.inconclusive)
		out_text(": within the %g%% threshold by its estimate, the interval reaching across it\n",
			 t);
	else if (t > 0)
		out_text(": the whole interval within \u00b1%g%%\n", t);
	else
		out_text(": the interval holds 0\n");
}

/*
 * Text: a line per row compared between replicated runs (the spread, the
 * threshold, what an inconclusive one could resolve), then why the call.
 */
static void print_runs_lines(const struct kb_diff_row *rows, size_t nrows)
{
	struct cells c;
	size_t i;

	for (i = 0; i < nrows; i++) {
		const struct kb_diff_row *w = &rows[i];

		if (!w->replicated)
			continue;
		row_cells(w, NULL, &c);
		out_text("%s: %u and %u runs, between-run spread %.2f%%",
			 c.lbl, w->c.runs_a,
			 w->c.runs_b, w->c.spread_pct);
		if (w->predicted)
			out_text(" (one side a single run: a prediction interval)");
		else
			out_text(" (old %.2f%%, new %.2f%%)", w->spread_old_pct,
				 w->spread_new_pct);
		out_text(", threshold %.2f%%", w->threshold_used);
		if (isfinite(w->resolvable_pct))
			out_text("; these runs resolve a change of %.2f%% (called 4 times in 5)",
				 w->resolvable_pct);
		out_text("\n");
		runs_why(w);
	}
}

static void only_list(const char *key, const char *text,
		      const struct kb_resfile *rf,
		      bool (*used)[KBENCH_RUN_ROUTINES_MAX])
{
	size_t i, shown = 0;
	unsigned int k;
	uint64_t a = 0;

	out_open_array(key);
	for (i = 0; i < rf->nruns; i++) {
		for (k = 0; k < rf->runs[i].run.nres; k++) {
			const struct kb_saved_run *s = &rf->runs[i];
			char lbl[KBENCH_NAME_MAX + 32];

			if (used[i][k])
				continue;
			label(s, &s->run.res[k], lbl, sizeof(lbl));
			out_text("%s%s", shown++ ? ", " : text, lbl);
			out_open_object_inline(NULL);
			out_string("routine", NULL, s->run.res[k].routine);
			out_string("side", NULL, s->run.user ? "user" : "kernel");
			if (kb_diff_arg_of(s, &s->run.res[k], &a))
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

/*
 * The first routine left out on both sides under one name and side with
 * different arguments (add_n:64 and add_n:65): the --match that pairs
 * them, as a hint in @buf.  False when there is none.
 */
static bool arg_pair(const struct kb_resfile *old,
		     bool (*used_old)[KBENCH_RUN_ROUTINES_MAX],
		     const struct kb_resfile *new,
		     bool (*used_new)[KBENCH_RUN_ROUTINES_MAX],
		     char *buf, size_t len)
{
	size_t i, j;
	unsigned int k, l;
	uint64_t a, b;

	for (i = 0; i < old->nruns; i++)
		for (k = 0; k < old->runs[i].run.nres; k++) {
			const struct kb_saved_run *s = &old->runs[i];

			if (used_old[i][k] || !kb_diff_arg_of(s, &s->run.res[k], &a))
				continue;
			for (j = 0; j < new->nruns; j++)
				for (l = 0; l < new->runs[j].run.nres; l++) {
					const struct kb_saved_run *t = &new->runs[j];

					if (used_new[j][l] || t->run.user != s->run.user ||
					    strcmp(t->run.res[l].routine, s->run.res[k].routine) ||
					    !kb_diff_arg_of(t, &t->run.res[l], &b))
						continue;
					snprintf(buf, len, " (the same routine with another argument: --match %s:%llu=%s:%llu)",
						 s->run.res[k].routine, (unsigned long long)a,
						 t->run.res[l].routine, (unsigned long long)b);
					return true;
				}
		}
	return false;
}

/*
 * Warnings (yellow) and notes: JSON arrays of strings; in the text, one
 * line each, or on stderr beside Markdown.  Not @shown: JSON only (the
 * short report counts the notes instead).
 */
static void print_notes(const char *key, const char *prefix,
			const struct kb_diff_notes *nt, bool to_stderr, bool shown,
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

int kb_diff_print(const char *key, const char *old_name, struct kb_resfile *old,
		  const char *new_name, struct kb_resfile *new,
		  const struct kb_diff_opts *o, int *vstatus)
{
	struct kb_diff *d = calloc(1, sizeof(*d));
	bool md = o->markdown && !out_json(), full = o->full || md;
	int err = -ENOMEM, status;

	*vstatus = EXIT_OK;
	if (!d || kb_diff_compute(d, old_name, old, new_name, new, o))
		goto out_nomem;
	*vstatus = d->status;
	err = 0;
	for (unsigned int i = 0; i < o->nmatch; i++)
		if (!d->match_used[i]) {
			fprintf(stderr, "%s: --match %s=%s matches nothing: no routine %s in %s with %s in %s (routines are NAME or NAME:ARG, as run takes them)\n",
				prog, o->match_old[i], o->match_new[i],
				o->match_old[i], old_name, o->match_new[i],
				new_name);
			err = -EINVAL;
		}
	if (err) {
		*vstatus = EXIT_OK;
		kb_diff_free(d);
		free(d);
		return err;
	}
	if (!d->nrows) {
		char hint[2 * KBENCH_NAME_MAX + 96];

		if (o->nmatch)
			hint[0] = '\0';
		else if (!arg_pair(old, d->used_old, new, d->used_new, hint,
				   sizeof(hint)))
			snprintf(hint, sizeof(hint),
				 " (for routines renamed between them: --match OLD=NEW)");
		fprintf(stderr, "%s: nothing to compare: %s and %s have no routine in common%s\n",
			prog, old_name, new_name, hint);
		*vstatus = EXIT_OK;
		err = -ENODATA;
	}
	status = kb_diff_exit_status(err, *vstatus);

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
	out_bool("bisect", NULL, o->bisect);
	out_bool("trust_single_runs", NULL, o->trust_single);
	out_uint("seed", NULL, o->seed);
	out_uint("bootstrap_resamples", NULL, KB_BOOTSTRAP_RESAMPLES);
	print_notes("warnings", "warning", &d->warn, md, true, true);
	print_notes("notes", "note", &d->note, md, full, false);
	if (o->full && !md)
		out_text("\n");
	out_string("metric", NULL, o->metric ? o->metric : "cycles");
	if (md)
		print_rows_markdown(d->rows, d->nrows, o->metric);
	else if (out_json())
		print_rows_json(d->rows, d->nrows, o->metric);
	else
		print_rows_table(d->rows, d->nrows, o->full, o->metric);
	if (!out_json())
		print_runs_lines(d->rows, d->nrows);
	if (md || o->full)
		out_text("\n");
	only_list("only_old", "only in old: ", old, d->used_old);
	only_list("only_new", "only in new: ", new, d->used_new);
	out_uint("regressed", NULL, d->counts[KB_ROW_REGRESSED]);
	out_uint("improved", NULL, d->counts[KB_ROW_IMPROVED]);
	out_uint("no_change", NULL, d->counts[KB_ROW_NO_CHANGE]);
	out_uint("inconclusive", NULL, d->inconclusive);
	out_uint("not_compared", NULL, d->counts[KB_ROW_NA]);
	out_uint("single_run_changes", NULL, d->untrusted);
	if (!md)
		out_text("%s", kb_color(out_file(), status ? KB_BAD : KB_GOOD));
	out_text("%s%zu regressed, %zu improved, %zu no change",
		 md ? "kbench diff: " : "", d->counts[KB_ROW_REGRESSED],
		 d->counts[KB_ROW_IMPROVED],
		 d->counts[KB_ROW_NO_CHANGE] - d->inconclusive);
	if (d->inconclusive)
		out_text(", %zu inconclusive (the CI reaches across the threshold: more samples or --runs)",
			 d->inconclusive);
	if (d->counts[KB_ROW_NA])
		out_text(", %zu not compared", d->counts[KB_ROW_NA]);
	if (d->untrusted)
		out_text("; %zu change%s between single runs, not an exit 1: run-to-run noise unseen (--runs 3 or more a side measures it; --trust-single where runs repeat exactly, as under qemu icount)",
			 d->untrusted, d->untrusted == 1 ? "" : "s");
	if (d->replicated == d->nrows && d->nrows)
		out_text(" (noise threshold %g%%, 95%% t interval over the runs%s)",
			 o->threshold,
			 o->fail_on == KB_DIFF_FAIL_CHANGED ? "; fail on any change" : "");
	else if (full)
		out_text(" (noise threshold %g%%, 95%% block-bootstrap CI of the median change and its p; %s%s)",
			 o->threshold, d->replicated ?
			 "rows marked with runs: 95% t interval over the runs; others: run-to-run noise unseen" :
			 "run-to-run noise unseen without replicated runs",
			 o->fail_on == KB_DIFF_FAIL_CHANGED ? "; fail on any change" : "");
	else
		out_text(" (noise threshold %g%%%s%s)", o->threshold,
			 d->replicated ? "; rows with runs: a t interval over the runs" :
			 "; single runs: run-to-run noise unseen (--runs 3 or more on each side measures it)",
			 o->fail_on == KB_DIFF_FAIL_CHANGED ? "; fail on any change" : "");
	if (!full && d->note.n)
		out_text("; -v shows %u note%s on what else differs", d->note.n,
			 d->note.n == 1 ? "" : "s");
	out_text("%s\n", md ? "" : kb_color_end(out_file()));
	out_uint("exit_status", NULL, (uint64_t)status);
	out_close_object();
	goto out_free;

out_nomem:
	fprintf(stderr, "%s: out of memory\n", prog);
out_free:
	if (d)
		kb_diff_free(d);
	free(d);
	return err;
}
