// SPDX-License-Identifier: GPL-2.0
/*
 * LKP's stats (intel/lkp-tests, doc/add-testcase.md): a program's parse
 * script prints "key: value" lines, one number each, that LKP keeps
 * under the program's name (kbench.KEY) and compares across commits.
 * Per routine (ROUTINE, ROUTINE.ARG, user_ROUTINE for a twin run: '/' a dot,
 * other signs '_'):
 * median_UNIT_per_iter, its interval, median_ns_per_iter and samples
 * (UNIT: cycles, or ticks for a counter that is not the TSC).  Several
 * FILEs give one value per key: the median of their medians, the
 * interval their range.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "export.h"

static void line(FILE *f, const char *prefix, const char *key,
		 const char *what, double v)
{
	if (isfinite(v))
		fprintf(f, "%s%s.%s: %.6g\n", prefix, key, what, v);
}

int kb_export_lkp(FILE *f, const struct kb_export *x,
		  const struct kb_export_opts *o)
{
	const char *prefix = o->prefix ? o->prefix : "";
	struct kb_export_point p;
	char key[KBENCH_NAME_MAX + 48], what[48];
	const char *unit;
	size_t b, reps;
	int err;

	for (b = 0; b < x->nbench; b++) {
		err = kb_export_bench_figures(x, b, &p, &reps);
		if (err)
			return err;
		kb_export_key(p.name, key, sizeof(key));
		unit = kb_export_unit(p.run, true);
		snprintf(what, sizeof(what), "median_%s_per_iter", unit);
		line(f, prefix, key, what, p.median);
		snprintf(what, sizeof(what), "%s_%s_per_iter",
			 reps >= 2 ? "min" : "ci_lower", unit);
		line(f, prefix, key, what, p.ci_lo);
		snprintf(what, sizeof(what), "%s_%s_per_iter",
			 reps >= 2 ? "max" : "ci_upper", unit);
		line(f, prefix, key, what, p.ci_hi);
		line(f, prefix, key, "median_ns_per_iter", p.ns);
		if (reps >= 2)
			line(f, prefix, key, "repetitions", (double)reps);
		else
			line(f, prefix, key, "samples", (double)p.valid);
	}
	return ferror(f) ? -EIO : 0;
}
