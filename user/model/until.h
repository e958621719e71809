/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sampling until the question is answered (--precision, --max-time): the
 * same run repeated with its first batch's CPU and iterations, every
 * batch's samples merged into one run, a look after each batch.  Kernel
 * runs repeat the RUN request; --user repeats the twins.
 */
#ifndef KBENCHCTL_UNTIL_H
#define KBENCHCTL_UNTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "result.h"
#include "stats.h"

#define KB_UNTIL_ALPHA		0.05	/* the false-alarm budget of compare */
#define KB_UNTIL_BATCH_MAX	1000000	/* samples per batch */

struct kb_until {
	/* the question */
	bool compare;		/* res[1] against res[0]; else each median */
	/*
	 * the CI half-width asked for, in % (run: of each median; compare:
	 * of the difference's anytime CI); 0: none
	 */
	double precision_pct;
	bool resolve;		/* compare: until resolved at the threshold */
	double threshold_pct;	/* compare */
	double max_time_s;
	/* the answer */
	unsigned int looks;	/* batches, each followed by a look */
	double elapsed_s;	/* wall time of the whole */
	bool answered;		/* else max_time or the looks ran out */
	bool last_look;		/* compare: KB_SEQ_LOOKS looks, unanswered */
	struct kb_compare c;	/* compare: the last look's (sequential) */
};

/*
 * Measure @q until @u is answered or its time is up; @r holds every
 * batch's samples, analyzed.  0, or -errno (printed).
 */
int kb_measure_until(const struct kb_run_req *q, bool user,
		     struct kb_until *u, struct kb_run *r);

/*
 * The look of compare over the samples in time order (a[i], b[i] of round
 * i; NAN: flagged): the anytime CI at look @look (the paired block
 * bootstrap's normal interval at level 1 - alpha / KB_SEQ_LOOKS), the
 * decision by @c->threshold_pct; true when resolved (a difference beyond
 * the threshold, or a CI within +-threshold).
 */
bool kb_until_compare_look(const double *a, size_t na, const double *b,
			   size_t nb, unsigned int look, struct kb_compare *c);

/* One line: "sampled until answered: 3 looks, 7000 samples per routine, 0.41 s". */
void kb_until_print(const struct kb_until *u, const struct kb_run *r);

#endif /* KBENCHCTL_UNTIL_H */
