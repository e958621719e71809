/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sweeps: a routine's argument over a list or a range of values, one run
 * per value (--arg), with a table, JSON, CSV, an SVG line plot and a
 * complexity fit of the results (fit.h).
 */
#ifndef KBENCHCTL_SWEEP_H
#define KBENCHCTL_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most values of one sweep: each is a run of its own. */
#define KB_SWEEP_MAX	128

enum kb_sweep_kind {
	KB_SWEEP_ONE,		/* V: one run with that argument, no sweep */
	KB_SWEEP_LIST,		/* V,V,...: the values as given */
	KB_SWEEP_ARITH,		/* A..B:+S: A, A+S, A+2S, ... up to B */
	KB_SWEEP_GEOM,		/* A..B:xK: A, AK, AK^2, ... up to B */
};

struct kb_sweep {
	const char *spec;		/* as given */
	enum kb_sweep_kind kind;
	uint64_t step;			/* S or K */
	unsigned int n;
	uint64_t v[KB_SWEEP_MAX];
};

/*
 * Parse an --arg SPEC: V, V,V,..., A..B:+S or A..B:xK, where every number
 * is a whole decimal number, optionally followed by K, M or G (times 1024,
 * 1024^2, 1024^3).  0, or -EINVAL with what is wrong and how to write it
 * in @err.
 */
int kb_sweep_parse(const char *spec, struct kb_sweep *sw, char *err,
		   size_t errlen);

/* A sweep is more than one value (or a range or a list of one). */
static inline bool kb_sweep_is_sweep(const struct kb_sweep *sw)
{
	return sw->n && sw->kind != KB_SWEEP_ONE;
}


/*
 * Where two curves cross: b - a (@d, the difference of the medians at the
 * arguments @x, in sweep order) changes sign from one value to a later
 * one.  @at is where the medians meet: a value where they are equal when
 * there is one in between (@exact), else interpolated linearly between
 * the two values (in log2 of the argument when @log).  A value where they
 * are equal without a change of sign is a crossing of its own with
 * @low = @high = @at and @exact (a touch).  @below and @above say which
 * side is faster: -1 b, +1 a (0 for a touch).
 */
struct kb_crossing {
	double low, high, at;
	bool exact;
	int below, above;
};

/* Up to @max crossings into @c; returns how many. */
unsigned int kb_sweep_crossings(const double *x, const double *d, size_t n,
				bool log, struct kb_crossing *c,
				unsigned int max);

struct kb_opt;
/* The .parse of the --arg row: the field is a struct kb_sweep. */
int kb_sweep_opt_parse(const struct kb_opt *o, const char *arg, void *field);

struct kb_run_opts;
struct subcommand;
/*
 * run ... --arg SWEEP (compare A B --arg SWEEP with @compare) after
 * kb_run_opts_check_*(): the exit status (errors printed; a run that
 * fails stops the sweep).
 */
int kb_sweep_main(const struct subcommand *sc, struct kb_run_opts *o,
		  int argc, char *argv[], bool compare);

#endif /* KBENCHCTL_SWEEP_H */
