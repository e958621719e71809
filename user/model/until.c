// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling until answered (until.h; the method: seqtest.h and
 * Documentation/kbench.rst).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "blockboot.h"
#include "output.h"
#include "seqtest.h"
#include "uclocks.h"
#include "until.h"
#include "verdict.h"

/* Append @s's samples to @d and sum the counts; the summary redone. */
static int merge_result(struct kb_result *d, const struct kb_result *s,
			uint32_t iterations)
{
	size_t i;
	int err;

	for (i = 0; i < s->n; i++) {
		err = kb_result_push(d, s->net[i], s->sflags[i]);
		if (err)
			return err;
	}
	kb_result_summarize(d, iterations);
	return 0;
}

static int merge_run(struct kb_run *d, const struct kb_run *s)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < d->nres && !err; i++)
		err = merge_result(&d->res[i], &s->res[i], d->iterations);
	if (!err && d->has_overhead && s->has_overhead)
		err = merge_result(&d->overhead, &s->overhead, d->iterations);
	if (err)
		return err;
	d->samples += s->samples;
	d->elapsed_ns += s->elapsed_ns;
	d->cpu_ns += s->cpu_ns;
	d->wall_ns += s->wall_ns;
	d->span_cycles += s->span_cycles;
	d->routine_cycles += s->routine_cycles;
	d->window_cycles += s->window_cycles;
	d->mem_bytes += s->mem_bytes;
	if (s->status == KBENCH_RUN_TIMEOUT)
		d->status = s->status;
	d->interrupted = d->interrupted || s->interrupted;
	d->counter_constant = d->counter_constant && s->counter_constant;
	return 0;
}

bool kb_until_compare_look(const double *a, size_t na, const double *b,
			   size_t nb, unsigned int look, struct kb_compare *c)
{
	double t = c->threshold_pct;
	int err;

	/*
	 * look k at the doubling looks' exact boundary (seqtest.h): the
	 * paired block bootstrap's normal interval at that level, t at the
	 * blocks' df, rounds kept together
	 */
	err = kb_compare_series_alpha(a, na, b, nb, true, look,
				      kb_seq_alpha(KB_UNTIL_ALPHA, look), c);
	c->sequential = true;
	_Static_assert(KB_SEQ_LOOKS == 8, "the basis names 8 looks");
	c->basis = "paired block bootstrap over rounds, anytime (z 2.644, t at the blocks' df, at each of at most 8 doubling looks)";
	if (err) {
		c->verdict = KB_VERDICT_EQUAL;
		c->below_threshold = false;
		c->inconclusive = true;
		c->ci_lo_pct = c->ci_hi_pct = NAN;
		return false;
	}
	return c->verdict != KB_VERDICT_EQUAL ||
	       (c->ci_lo_pct >= -t && c->ci_hi_pct <= t);
}

/* Each routine's samples in time order (NAN: flagged); false: no memory. */
static bool look_compare(struct kb_until *u, const struct kb_run *r)
{
	const struct kb_result *a = &r->res[0], *b = &r->res[1];
	double *xa = kb_series_of(a->net, a->sflags, a->n, r->iterations);
	double *xb = kb_series_of(b->net, b->sflags, b->n, r->iterations);
	bool done = xa && xb &&
		    kb_until_compare_look(xa, a->n, xb, b->n, u->looks, &u->c);

	free(xa);
	free(xb);
	return done;
}

static bool answered(struct kb_until *u, const struct kb_run *r)
{
	unsigned int i;
	bool resolved;
	double hw;

	if (u->compare) {
		resolved = look_compare(u, r);
		/* half the width of this look's anytime CI of the difference */
		hw = (u->c.ci_hi_pct - u->c.ci_lo_pct) / 2;
		return (u->resolve && resolved) ||
		       (u->precision_pct > 0 && isfinite(hw) &&
			hw <= u->precision_pct);
	}
	for (i = 0; i < r->nres; i++)
		if (!(kb_median_precision(&r->res[i].st) * 100 <=
		      u->precision_pct))
			return false;
	return true;
}

int kb_measure_until(const struct kb_run_req *q, bool user,
		     struct kb_until *u, struct kb_run *r)
{
	uint64_t t0 = kb_mono_ns();
	double per_sample, left;
	struct kb_run_req more = *q;
	struct kb_run m;
	uint64_t batch;
	int err;

	u->looks = 0;
	u->answered = false;
	u->last_look = false;
	err = kb_run_measure(q, user, r);
	if (err)
		return err;
	/* the next batches: the first one's CPU and iterations */
	more.has_cpu = more.has_iterations = more.has_samples = true;
	more.cpu = r->cpu;
	more.iterations = r->iterations;
	more.progress = false;
	for (;;) {
		r->batches++;
		u->looks++;
		if (kb_run_analyze(r)) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return -ENOMEM;
		}
		u->elapsed_s = (double)(kb_mono_ns() - t0) / 1e9;
		if (answered(u, r)) {
			u->answered = true;
			break;
		}
		/* the false-alarm budget is spent: the last look was final */
		if (u->compare && u->looks >= KB_SEQ_LOOKS) {
			u->last_look = true;
			break;
		}
		if (r->status == KBENCH_RUN_TIMEOUT || r->interrupted ||
		    !r->nres || !r->res[0].n)
			break;
		left = u->max_time_s - u->elapsed_s;
		if (left <= 0)
			break;
		/*
		 * double the samples, but stay within the time left (at the
		 * rate seen so far) and the per-batch bound
		 */
		per_sample = u->elapsed_s / (double)r->res[0].n;
		batch = r->res[0].n;
		if (per_sample > 0 && (double)batch * per_sample > left)
			batch = (uint64_t)(left / per_sample);
		if (batch > KB_UNTIL_BATCH_MAX)
			batch = KB_UNTIL_BATCH_MAX;
		if (batch < 100)
			break;
		more.samples = (uint32_t)batch;
		err = kb_run_measure(&more, user, &m);
		if (err == -EINTR) {
			/* stopped before this batch's first sample: the others stay */
			r->interrupted = true;
			break;
		}
		if (err)
			return err;
		err = merge_run(r, &m);
		kb_run_free(&m);
		if (err) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return err;
		}
	}
	u->elapsed_s = (double)(kb_mono_ns() - t0) / 1e9;
	r->until = u;
	return 0;
}

void kb_until_print(const struct kb_until *u, const struct kb_run *r)
{
	out_open_object("until");
	out_bool("answered", NULL, u->answered);
	out_text("sampled %s", u->answered ? "until answered" :
		 u->last_look ? "until the last look, unanswered" :
		 r->interrupted ? "until interrupted, unanswered" :
		 "until --max-time, unanswered");
	out_uint("looks", ": %llu look", u->looks);
	out_text("%s", u->looks == 1 ? "" : "s");
	out_uint("samples_per_routine", ", %llu samples per routine",
		 r->nres ? r->res[0].n : 0);
	out_double("elapsed_s", ", %.2f s", u->elapsed_s);
	out_double("max_time_s", " (at most %g s", u->max_time_s);
	if (u->compare) {
		out_string("stop_rule", "; until %s",
			   u->resolve && u->precision_pct > 0 ?
			   "resolved or precise" :
			   u->resolve ? "resolved" : "precise");
		if (u->precision_pct > 0)
			out_double("precision_pct",
				   ", CI half-width %g%% asked",
				   u->precision_pct);
		out_double("alpha", "; false alarms at most %g over all looks",
			   KB_UNTIL_ALPHA);
		out_uint("looks_max", " (%llu at most)", KB_SEQ_LOOKS);
		out_double("last_look_alpha", ", %.2g at the last",
			   kb_seq_alpha(KB_UNTIL_ALPHA, u->looks));
	} else {
		out_double("precision_pct", "; median CI half-width %g%% asked",
			   u->precision_pct);
	}
	out_text(")\n");
	out_close_object();
}
