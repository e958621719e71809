// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison of two saved results (diff.h), what `kbenchctl diff`,
 * `run --baseline` and sweeps print (output/diffprint.c): per routine
 * (matched by side, name and sweep argument) the medians per iteration,
 * the relative change with its bootstrap CI, the Mann-Whitney p and a
 * verdict, criterion-style: a change counts only when its CI excludes 0
 * and it is beyond the noise threshold (single runs: the whole CI beyond
 * it, kb_compare_decide(); replicated runs: its estimate beyond it,
 * kb_compare_decide_estimate()); the p is reported, never consulted.
 * The statistics are model/stats.c's, the ones `compare` uses.  No printing but the warnings of loading and saving.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "blockboot.h"
#include "core.h"
#include "diff.h"
#include "replic.h"
#include "env.h"
#include "base.h"

const char *const kb_row_verdict_name[] = {
	"no change", "improved", "regressed", "n/a" };

static void kb_diff_note(struct kb_diff_notes *nt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void kb_diff_note(struct kb_diff_notes *nt, const char *fmt, ...)
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
	if (nt->n < KB_DIFF_NOTES_MAX)
		memcpy(nt->text[nt->n++], buf, sizeof(buf));
}

const char *const kb_diff_fail_on_choices[] = { "regressed", "changed", NULL };

void kb_diff_opts_init(struct kb_diff_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold = KB_DIFF_DEFAULT_THRESHOLD;
	o->seed = KB_DIFF_DEFAULT_SEED;
}

const char *kb_diff_opts_given(const struct kb_diff_opts *o)
{
	return o->has_threshold ? "--threshold" : o->has_seed ? "--seed" :
	       o->has_fail_on ? "--fail-on" : o->markdown ? "--markdown" :
	       o->bisect ? "--bisect" :
	       o->trust_single ? "--trust-single" :
	       o->nmatch ? "--match" : o->metric ? "--metric" : NULL;
}

int kb_diff_exit_status(int err, int status)
{
	if (err < 0)
		return EXIT_USAGE;
	return status;
}

/*
 * NAME or NAME:ARG of a --match side into @name (of @len) and its
 * argument (*@has false: none given).
 */
static void match_split(const char *spec, char *name, size_t len, bool *has,
			uint64_t *arg)
{
	const char *colon = strrchr(spec, ':');
	char *end;

	*has = false;
	snprintf(name, len, "%s", spec);
	if (!colon || !colon[1])
		return;
	*arg = strtoull(colon + 1, &end, 0);
	if (*end)
		return;
	*has = true;
	name[colon - spec < (long)len ? colon - spec : (long)len - 1] = '\0';
}

/*
 * The --match pair that @name (argument @a where @has) of the old file
 * takes part in, or -1; its new name and argument.
 */
static int match_of(const struct kb_diff_opts *o, const char *name, bool has,
		    uint64_t a, char *new_name, size_t len, bool *new_has,
		    uint64_t *new_arg)
{
	char on[KBENCH_NAME_MAX + 1];
	uint64_t oa = 0, na = 0;
	bool oh, nh;
	unsigned int i;

	for (i = 0; i < o->nmatch; i++) {
		match_split(o->match_old[i], on, sizeof(on), &oh, &oa);
		if (strcmp(on, name) || (oh && (!has || oa != a)))
			continue;
		match_split(o->match_new[i], new_name, len, &nh, &na);
		*new_has = nh || has;
		*new_arg = nh ? na : a;
		return (int)i;
	}
	return -1;
}

/*
 * The same measurement: side, sweep value, and as many CPUs at once (a
 * contended run, baseline --cpus, is not the routine alone)
 */
static bool same_key(const struct kb_saved_run *a, const struct kb_saved_run *b)
{
	return a->run.user == b->run.user && a->has_arg == b->has_arg &&
	       a->run.ncpus == b->run.ncpus &&
	       (!a->has_arg || a->arg == b->arg);
}

/*
 * The argument a result ran with: its sweep value, else its own (a routine
 * with an argument run without --arg, or NAME:ARG).  false: none.
 */
bool kb_diff_arg_of(const struct kb_saved_run *s, const struct kb_result *r,
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
 * the argument @a (where @has), or NULL.
 */
static const struct kb_result *find_arg(const struct kb_resfile *rf,
					const struct kb_saved_run *s,
					const char *name, bool has, uint64_t a,
					const struct kb_saved_run **in)
{
	const struct kb_result *r;
	uint64_t b = 0;
	size_t i;
	unsigned int k;

	for (i = 0; i < rf->nruns; i++) {
		if (!same_key(&rf->runs[i], s))
			continue;
		for (k = 0; k < rf->runs[i].run.nres; k++) {
			r = &rf->runs[i].run.res[k];
			if (strcmp(r->routine, name) ||
			    kb_diff_arg_of(&rf->runs[i], r, &b) != has || a != b)
				continue;
			*in = &rf->runs[i];
			return r;
		}
	}
	return NULL;
}

/* The same with the argument of @key. */
static const struct kb_result *find(const struct kb_resfile *rf,
				    const struct kb_saved_run *s,
				    const char *name,
				    const struct kb_result *key,
				    const struct kb_saved_run **in)
{
	uint64_t a = 0;
	bool has = kb_diff_arg_of(s, key, &a);

	return find_arg(rf, s, name, has, a, in);
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

/*
 * The runs of @rf that replicate @s (run --runs: those keyed like it,
 * side and sweep value, that carry a replicate index; @s alone when it
 * does not) holding routine @r of @s with valid samples: their medians
 * per iteration in the row's unit into @m (ns when @ns_unit), in the
 * file's unit into @raw, the valid samples summed into *@valid.  How
 * many (at most KB_RUNS_MAX).
 */
static unsigned int run_medians(const struct kb_resfile *rf,
				const struct kb_saved_run *s,
				const struct kb_result *r, const char *metric,
				bool ns_unit, double *m, double *raw,
				size_t *valid)
{
	const struct kb_stats *st;
	const double *sorted;
	unsigned int n = 0, k;
	uint64_t a = 0, b = 0;
	bool has = kb_diff_arg_of(s, r, &a);
	size_t i;

	*valid = 0;
	for (i = 0; i < rf->nruns && n < KB_RUNS_MAX; i++) {
		const struct kb_saved_run *x = &rf->runs[i];

		if (x != s && (!s->has_replicate || !x->has_replicate ||
			       !same_key(x, s)))
			continue;
		for (k = 0; k < x->run.nres; k++) {
			const struct kb_result *y = &x->run.res[k];

			if (strcmp(y->routine, r->routine) ||
			    kb_diff_arg_of(x, y, &b) != has || a != b)
				continue;
			if (metric_of(x, y, metric, &sorted, &st) && st->count) {
				raw[n] = st->median;
				m[n++] = ns_unit ? kb_run_ns(&x->run, st->median) :
						   st->median;
				*valid += st->count;
			}
			break;
		}
	}
	return n;
}

/*
 * Replicated runs: both sides at least KB_RUNS_MIN runs, the change of
 * the geometric means of the runs' medians with Welch's t interval over
 * the runs; one side a single run, the t prediction interval of one more
 * run of the replicated side (model/replic.h).  The threshold is the
 * declared one (--threshold, default 2%), as for single runs: the
 * spread between runs is what the runs resolve (resolvable_pct), not
 * what the user calls a change.  The call is the estimate rule's
 * (stats.h, kb_compare_decide_estimate()): a significant change whose
 * estimate is beyond the threshold; the interval holds the run-to-run
 * noise, so a significant change is one the runs see.  Single runs keep
 * the whole-CI rule: their interval does not hold that noise.  false: one
 * run a side.
 */
static bool compare_runs(struct kb_diff_row *w, const struct kb_diff_opts *o,
			 const struct kb_resfile *old,
			 const struct kb_resfile *new)
{
	double ma[KB_RUNS_MAX], mb[KB_RUNS_MAX];
	double ra[KB_RUNS_MAX], rb[KB_RUNS_MAX];
	struct kb_runs_ci ci = { 0 };
	unsigned int na, nb;
	double ga, gb;
	size_t va, vb;
	int err;

	na = run_medians(old, w->os, w->o, o->metric, w->ns_unit, ma, ra, &va);
	nb = run_medians(new, w->ns, w->n, o->metric, w->ns_unit, mb, rb, &vb);
	w->c.runs_a = na;
	w->c.runs_b = nb;
	if (na < KB_RUNS_MIN && nb < KB_RUNS_MIN)
		return false;
	ci.threshold_pct = o->threshold;
	w->predicted = na < KB_RUNS_MIN || nb < KB_RUNS_MIN;
	if (!w->predicted)
		err = kb_runs_interval(ma, na, mb, nb, &ci);
	else if (na < KB_RUNS_MIN)
		err = kb_runs_predict(mb, nb, ma[0], false, &ci);
	else
		err = kb_runs_predict(ma, na, mb[0], true, &ci);
	if (err)
		return false;
	w->threshold_is_spread = false;
	w->replicated = true;
	w->threshold_used = ci.threshold_pct;
	w->old_med = ci.gm_a;
	w->new_med = ci.gm_b;
	kb_runs_spread_pct(ra, na, &ga);
	kb_runs_spread_pct(rb, nb, &gb);
	w->old_med_cyc = na > 1 ? ga : ra[0];
	w->new_med_cyc = nb > 1 ? gb : rb[0];
	w->old_valid = va;
	w->new_valid = vb;
	w->spread_old_pct = ci.spread_a_pct;
	w->spread_new_pct = ci.spread_b_pct;
	w->df = ci.df;
	w->resolvable_pct = ci.resolvable_est_pct;
	w->c.threshold_pct = ci.threshold_pct;
	w->c.rel_median_pct = ci.est_pct;
	w->c.ci_lo_pct = ci.lo_pct;
	w->c.ci_hi_pct = ci.hi_pct;
	/* the p of what decides significance: H0 change = 0 */
	w->c.p = ci.p_zero;
	w->c.mw_p = NAN;
	w->u = NAN;
	w->c.block = NAN;
	w->c.spread_pct = ci.spread_pct;
	w->c.basis = w->predicted ?
		     "t prediction interval of one more run of the replicated side (each run's log median one value)" :
		     "Welch t interval over the runs (each run's log median one value)";
	kb_compare_decide_estimate(&w->c);
	w->verdict = w->c.verdict == KB_VERDICT_FASTER ? KB_ROW_IMPROVED :
		     w->c.verdict == KB_VERDICT_SLOWER ? KB_ROW_REGRESSED :
		     KB_ROW_NO_CHANGE;
	w->why_na = NULL;
	return true;
}

static int compute_row(struct kb_diff_row *w, const struct kb_diff_opts *o,
		       const struct kb_resfile *old,
		       const struct kb_resfile *new,
		       struct kb_diff_notes *warn, struct kb_diff_notes *note)
{
	const struct kb_run *or = &w->os->run, *nr = &w->ns->run;
	bool o_has = metric_of(w->os, w->o, o->metric, &w->osorted, &w->ost);
	bool n_has = metric_of(w->ns, w->n, o->metric, &w->nsorted, &w->nst);
	const double *a = w->osorted, *b = w->nsorted;
	double *a2 = NULL, *b2 = NULL, *xa = NULL, *xb = NULL;
	size_t na = w->ost->count, nb = w->nst->count, i;
	int err = 0;

	/* an event's counts need no conversion between counters */
	w->ns_unit = !o->metric && (strcmp(or->counter, nr->counter) ||
				    !hz_close(or->counter_hz, nr->counter_hz));
	if (w->ns_unit)
		kb_diff_note(warn, "counters differ (%s @ %llu Hz, %s @ %llu Hz): comparing ns per iteration, which depends on the counter's calibration",
			 or->counter, (unsigned long long)or->counter_hz,
			 nr->counter, (unsigned long long)nr->counter_hz);
	else if (or->counter_hz != nr->counter_hz)
		kb_diff_note(note, "counter rate differs slightly (%llu Hz, %llu Hz): comparing %s",
			 (unsigned long long)or->counter_hz,
			 (unsigned long long)nr->counter_hz, kb_run_unit(or));
	if (or->iterations != nr->iterations)
		kb_diff_note(note, "%s: %u iterations per sample, now %u",
			 w->o->routine, or->iterations, nr->iterations);
	if (or->cpu != nr->cpu)
		kb_diff_note(note, "measured on cpu %u, now cpu %u", or->cpu, nr->cpu);
	if (or->status == KBENCH_RUN_TIMEOUT || nr->status == KBENCH_RUN_TIMEOUT)
		kb_diff_note(warn, "%s: a run timed out: partial samples", w->o->routine);
	if (or->interrupted)
		kb_diff_note(warn, "%s: the old side is partial: interrupted after %u of %u samples",
			     w->o->routine, kb_run_samples_taken(or), or->samples);
	if (nr->interrupted)
		kb_diff_note(warn, "%s: the new side is partial: interrupted after %u of %u samples",
			     w->o->routine, kb_run_samples_taken(nr), nr->samples);
	w->verdict = KB_ROW_NA;
	w->old_med_ns = o->metric ? NAN : kb_run_ns(or, w->ost->median);
	w->new_med_ns = o->metric ? NAN : kb_run_ns(nr, w->nst->median);
	w->old_med_cyc = w->ost->median;
	w->new_med_cyc = w->nst->median;
	w->old_valid = w->ost->count;
	w->new_valid = w->nst->count;
	w->threshold_used = o->threshold;
	w->c.spread_pct = NAN;
	w->spread_old_pct = w->spread_new_pct = w->df = NAN;
	w->resolvable_pct = NAN;
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
	if (compare_runs(w, o, old, new)) {
		if (!o->metric) {
			w->old_med_ns = kb_run_ns(or, w->old_med_cyc);
			w->new_med_ns = kb_run_ns(nr, w->new_med_cyc);
		}
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
	/* two runs: blocks of samples within each, the runs independent */
	xa = kb_series_of(w->o->net, w->o->sflags, w->o->n, or->iterations);
	xb = kb_series_of(w->n->net, w->n->sflags, w->n->n, nr->iterations);
	if (o->metric) {
		int x = kb_run_event_index(or, o->metric);
		int y = kb_run_event_index(nr, o->metric);

		free(xa);
		free(xb);
		xa = kb_series_of(w->o->ev[x].net, w->o->sflags, w->o->n,
				  or->iterations);
		xb = kb_series_of(w->n->ev[y].net, w->n->sflags, w->n->n,
				  nr->iterations);
	}
	err = -ENOMEM;
	if (!xa || !xb)
		goto out_free;
	/* core cycles: each side's samples divided by its own calibration */
	for (i = 0; !o->metric && or->core.on && i < w->o->n; i++)
		xa[i] /= or->core.ratio;
	for (i = 0; !o->metric && nr->core.on && i < w->n->n; i++)
		xb[i] /= nr->core.ratio;
	for (i = 0; w->ns_unit && i < w->o->n; i++)
		xa[i] = kb_run_ns(or, xa[i]);
	for (i = 0; w->ns_unit && i < w->n->n; i++)
		xb[i] = kb_run_ns(nr, xb[i]);
	err = kb_compare_series(xa, w->o->n, xb, w->n->n, false, o->seed, &w->c);
	/* one run each side: run-to-run noise unseen */
	w->c.runs_a = w->c.runs_b = 1;
	w->single = true;
	if (err == -EINVAL) {
		w->why_na = "no interval could be made";
		err = 0;
		goto out_free;
	}
	if (!err)
		err = kb_mann_whitney_sorted(a, na, b, nb, &w->u, &w->c.mw_p);
	if (err)
		goto out_free;
	w->c.rel_median_pct = (w->new_med - w->old_med) / w->old_med * 100;
	kb_compare_decide(&w->c);
	w->verdict = w->c.verdict == KB_VERDICT_FASTER ? KB_ROW_IMPROVED :
		     w->c.verdict == KB_VERDICT_SLOWER ? KB_ROW_REGRESSED :
		     KB_ROW_NO_CHANGE;
	w->why_na = NULL;
out_free:
	free(a2);
	free(b2);
	free(xa);
	free(xb);
	return err;
}

/* What differs between the two files' metadata. */
static void compare_meta(const struct kb_meta *a, const struct kb_meta *b,
			 struct kb_diff_notes *warn, struct kb_diff_notes *note)
{
	unsigned int i, k;

#define DIFFERS(field) (a->field[0] && b->field[0] && strcmp(a->field, b->field))
	if (DIFFERS(arch))
		kb_diff_note(warn, "architecture differs: %s, %s", a->arch, b->arch);
	if (DIFFERS(cpu_model))
		kb_diff_note(warn, "CPU model differs: %s, %s", a->cpu_model, b->cpu_model);
	if (strcmp(a->hypervisor, b->hypervisor))
		kb_diff_note(warn, "hypervisor differs: %s, %s",
			 a->hypervisor[0] ? a->hypervisor : "none",
			 b->hypervisor[0] ? b->hypervisor : "none");
	if (a->method_version != b->method_version)
		kb_diff_note(warn, "sampling method differs (method version %u, %u): kbench itself changed how it measures",
			 a->method_version, b->method_version);
	if (DIFFERS(kernel))
		kb_diff_note(note, "kernel release differs: %s, %s", a->kernel, b->kernel);
	if (DIFFERS(kbench_version))
		kb_diff_note(note, "kbench module version differs: %s, %s",
			 a->kbench_version, b->kbench_version);
	if (DIFFERS(kbenchctl_version))
		kb_diff_note(note, "kbenchctl version differs: %s, %s",
			 a->kbenchctl_version, b->kbenchctl_version);
	if (DIFFERS(hostname))
		kb_diff_note(note, "hostname differs: %s, %s", a->hostname, b->hostname);
#undef DIFFERS
	for (i = 0; i < a->nparams; i++)
		for (k = 0; k < b->nparams; k++)
			if (!strcmp(a->param[i].name, b->param[k].name) &&
			    a->param[i].value != b->param[k].value)
				kb_diff_note(note, "module parameter %s differs: %llu, %llu",
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
				kb_diff_note(moves ? warn : note,
					 "environment %s differs (see the files)",
					 key);
			else
				kb_diff_note(moves ? warn : note,
					 "environment %s differs: %s, %s%s", key,
					 a->env[i].value, b->env[k].value,
					 moves ? " (it changes what the code costs)" : "");
		}
}

/* Does every run of @rf carry a core-cycle calibration (--unit core)? */
static bool all_core(const struct kb_resfile *rf)
{
	size_t i;

	for (i = 0; i < rf->nruns; i++)
		if (!rf->runs[i].run.core.have)
			return false;
	return rf->nruns > 0;
}

/*
 * Statistics of the routines (not of the overhead: diff does not use it),
 * in core cycles when @core (both files carry the calibration: each run
 * divided by its own), else in the counter's ticks.
 */
static int analyze(struct kb_resfile *rf, bool core)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < rf->nruns; i++) {
		struct kb_run *r = &rf->runs[i].run;

		if (!rf->runs[i].analyzed) {
			for (k = 0; k < r->nres; k++)
				if (kb_result_analyze(&r->res[k], r->iterations))
					return -ENOMEM;
			rf->runs[i].analyzed = true;
		}
		if (core)
			kb_core_apply(r);
		else
			kb_core_unapply(r);
	}
	return 0;
}

/* One row per routine of @old found in @new; the counts per verdict. */
static int match_rows(struct kb_diff *d, const char *old_name,
		      struct kb_resfile *old, const char *new_name,
		      struct kb_resfile *new, const struct kb_diff_opts *o)
{
	size_t i, cap = 0;
	unsigned int k;

	for (i = 0; i < old->nruns; i++) {
		const struct kb_saved_run *os = &old->runs[i];

		for (k = 0; k < os->run.nres; k++) {
			const struct kb_result *o_res = &os->run.res[k], *n_res;
			const struct kb_saved_run *ns = NULL, *first_in;
			struct kb_diff_row *w;
			char nn[KBENCH_NAME_MAX + 1];
			uint64_t a = 0;
			bool has;
			size_t ni;
			int mi;

			/*
			 * a routine twice on one side: the first one counts
			 * (a replicated run's are its replicates)
			 */
			if (find(old, os, o_res->routine, o_res, &first_in) != o_res) {
				if (!os->has_replicate || !first_in->has_replicate)
					kb_diff_note(&d->note, "%s appears more than once in %s: compared the first",
						 o_res->routine, old_name);
				d->used_old[i][k] = true;
				continue;
			}
			has = kb_diff_arg_of(os, o_res, &a);
			mi = match_of(o, o_res->routine, has, a, nn, sizeof(nn),
				      &has, &a);
			n_res = find_arg(new, os, mi < 0 ? o_res->routine : nn,
					 has, a, &ns);
			if (mi >= 0 && n_res)
				d->match_used[mi] = true;
			if (!n_res)
				continue;
			d->used_old[i][k] = true;
			ni = (size_t)(ns - new->runs);
			d->used_new[ni][n_res - ns->run.res] = true;
			if (d->nrows == cap) {
				cap = cap ? cap * 2 : 8;
				w = realloc(d->rows, cap * sizeof(*w));
				if (!w)
					return -ENOMEM;
				d->rows = w;
			}
			w = &d->rows[d->nrows++];
			memset(w, 0, sizeof(*w));
			w->os = os;
			w->ns = ns;
			w->o = o_res;
			w->n = n_res;
			if (compute_row(w, o, old, new, &d->warn, &d->note))
				return -ENOMEM;
			d->replicated += w->replicated;
			d->counts[w->verdict]++;
			d->inconclusive += w->verdict == KB_ROW_NO_CHANGE &&
					   w->c.inconclusive;
		}
	}
	/* the duplicates on the new side (already-matched ones stay used) */
	for (i = 0; i < new->nruns; i++)
		for (k = 0; k < new->runs[i].run.nres; k++) {
			const struct kb_saved_run *first_in;
			const struct kb_result *r = &new->runs[i].run.res[k];

			if (find(new, &new->runs[i], r->routine, r, &first_in) != r) {
				if (!new->runs[i].has_replicate ||
				    !first_in->has_replicate)
					kb_diff_note(&d->note, "%s appears more than once in %s: compared the first",
						 r->routine, new_name);
				d->used_new[i][k] = true;
			}
		}
	return 0;
}

int kb_diff_compute(struct kb_diff *d, const char *old_name,
		    struct kb_resfile *old, const char *new_name,
		    struct kb_resfile *new, const struct kb_diff_opts *o)
{
	size_t i;
	bool core;

	memset(d, 0, sizeof(*d));
	d->used_old = calloc(old->nruns ? old->nruns : 1, sizeof(*d->used_old));
	d->used_new = calloc(new->nruns ? new->nruns : 1, sizeof(*d->used_new));
	if (!d->used_old || !d->used_new)
		return -ENOMEM;
	core = all_core(old) && all_core(new);
	if (analyze(old, core) || analyze(new, core))
		return -ENOMEM;
	compare_meta(&old->meta, &new->meta, &d->warn, &d->note);
	if (core)
		kb_diff_note(&d->note, "both results carry a core-cycle calibration (--unit core): comparing core cycles, each run divided by its own");
	else if (all_core(old) || all_core(new))
		kb_diff_note(&d->note, "only the %s result carries a core-cycle calibration: comparing counter ticks",
			     all_core(old) ? "old" : "new");
	if (match_rows(d, old_name, old, new_name, new, o))
		return -ENOMEM;
	for (i = 0; i < d->nrows; i++) {
		const struct kb_diff_row *w = &d->rows[i];
		bool counts = w->verdict == KB_ROW_REGRESSED ||
			      (o->fail_on == KB_DIFF_FAIL_CHANGED &&
			       w->verdict == KB_ROW_IMPROVED);

		if (!counts)
			continue;
		if (w->single && !o->trust_single)
			d->untrusted++;
		else
			d->regressed = true;
	}
	d->status = d->regressed ? EXIT_REGRESSED :
		    o->bisect && (d->inconclusive || d->untrusted) ?
		    KB_DIFF_EXIT_SKIP : EXIT_OK;
	return 0;
}

void kb_diff_free(struct kb_diff *d)
{
	free(d->used_old);
	free(d->used_new);
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

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

int kb_results_build_runs(struct kb_results *x, const struct kb_run *runs,
			  unsigned int n, const struct kb_run_req *q,
			  int argc, char *argv[])
{
	unsigned int i;

	kb_results_build(x, &(const struct kb_run *){ &runs[0] }, &q, 1, argc,
			 argv);
	x->many = calloc(n ? n : 1, sizeof(*x->many));
	if (!x->many)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		kb_saved_run_init(&x->many[i], &runs[i], q);
		x->many[i].analyzed = true;
		x->many[i].has_replicate = n > 1;
		x->many[i].replicate = i;
	}
	x->rf.runs = x->many;
	x->rf.nruns = n;
	return 0;
}

void kb_results_free(struct kb_results *x)
{
	free(x->many);
	x->many = NULL;
}

int kb_results_save(const char *arg, const struct kb_results *x)
{
	return kb_resfile_save(arg, &x->rf.meta, x->rf.runs, x->rf.nruns);
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
