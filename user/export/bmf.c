// SPDX-License-Identifier: GPL-2.0
/*
 * Bencher Metric Format (bencher.dev, "BMF JSON"): {"NAME": {"MEASURE":
 * {"value", "lower_value", "upper_value"}}}.  Per routine two measures:
 * the counter's per iteration ("cycles", or e.g. "cntvct-ticks") and
 * "latency", bencher's built-in measure in nanoseconds; the bounds are
 * the median's 95% interval, or with several FILEs the range of their
 * medians around the median of the medians.
 */
#include <json.h>
#include <math.h>
#include <string.h>

#include "export.h"

static struct json_object *measure(double v, double lo, double hi)
{
	struct json_object *m = json_object_new_object();

	if (!m)
		return NULL;
	json_object_object_add(m, "value", kb_json_num(v));
	if (isfinite(lo))
		json_object_object_add(m, "lower_value", kb_json_num(lo));
	if (isfinite(hi))
		json_object_object_add(m, "upper_value", kb_json_num(hi));
	return m;
}

/* One benchmark: its name holding its measures. */
static void add_bench(struct json_object *doc, const struct kb_export_point *p,
		      size_t reps)
{
	struct json_object *b = json_object_new_object();
	char slug[64];
	size_t k;

	(void)reps;
	/* a measure's slug: lower case, '-' for anything else */
	snprintf(slug, sizeof(slug), "%s", kb_export_unit(p->run, false));
	for (k = 0; slug[k]; k++)
		if (slug[k] == ' ')
			slug[k] = '-';
	json_object_object_add(b, slug, measure(p->median, p->ci_lo, p->ci_hi));
	if (isfinite(p->ns))
		json_object_object_add(b, "latency",
				       measure(p->ns, p->ns_lo, p->ns_hi));
	json_object_object_add(doc, p->name, b);
}

int kb_export_bmf(FILE *f, const struct kb_export *x,
		  const struct kb_export_opts *o)
{
	(void)o;
	return kb_export_bench_json(f, x, json_object_new_object(), add_bench);
}
