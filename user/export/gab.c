// SPDX-License-Identifier: GPL-2.0
/*
 * github-action-benchmark's "customSmallerIsBetter" tool: a JSON array
 * of {"name", "unit", "value", "range", "extra"}, name, unit and value
 * required, range and extra free text.  Per routine its median per
 * iteration in the counter's unit; range "± HALF" of the median's 95%
 * interval (with several FILEs, of their medians' range); the ns and the
 * interval in extra.
 */
#include <json.h>
#include <math.h>

#include "export.h"

/* One benchmark: an element of the array. */
static void add_bench(struct json_object *doc, const struct kb_export_point *p,
		      size_t reps)
{
	struct json_object *e = json_object_new_object();
	char unit[64], buf[256];

	json_object_object_add(e, "name", json_object_new_string(p->name));
	snprintf(unit, sizeof(unit), "%s/iter", kb_export_unit_text(p->run));
	json_object_object_add(e, "unit", json_object_new_string(unit));
	json_object_object_add(e, "value", kb_json_num(p->median));
	snprintf(buf, sizeof(buf), "\u00b1 %.4g", (p->ci_hi - p->ci_lo) / 2);
	json_object_object_add(e, "range", json_object_new_string(buf));
	if (reps >= 2)
		snprintf(buf, sizeof(buf), "median of %zu files: %.4g ns/iter; their medians %.4g .. %.4g %s",
			 reps, p->ns, p->ci_lo, p->ci_hi, unit);
	else
		snprintf(buf, sizeof(buf), "%.4g ns/iter; 95%% CI of the median %.4g .. %.4g %s; %zu samples",
			 p->ns, p->ci_lo, p->ci_hi, unit, p->valid);
	json_object_object_add(e, "extra", json_object_new_string(buf));
	json_object_array_add(doc, e);
}

int kb_export_gab(FILE *f, const struct kb_export *x,
		  const struct kb_export_opts *o)
{
	(void)o;
	return kb_export_bench_json(f, x, json_object_new_array(), add_bench);
}
