// SPDX-License-Identifier: GPL-2.0
/*
 * Google Benchmark's JSON (its JSONReporter, src/json_reporter.cc): a
 * "context" and "benchmarks", read by tools/compare.py (a U test over the
 * repetitions of each name), github-action-benchmark's "googlecpp" and
 * bencher's adapter.  A benchmark is a routine ("NAME/ARG" for a sweep's
 * argument, "user:" first for a twin run); each FILE is one repetition
 * (run_type "iteration"; the files hold no replicated runs), with the
 * mean, median, stddev and cv aggregates when there are two or more, as
 * --benchmark_repetitions writes them.  Times are the median ns per
 * iteration (the counter's ticks at its recorded rate); the ticks and
 * the median's interval ride along as user counters.
 */
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "export.h"
#include "stats.h"

static struct json_object *context(const struct kb_export *x, bool with_host)
{
	const struct kb_meta *m = &x->files[0].meta;
	struct json_object *c = kb_export_meta_object(m, with_host), *a;
	const char *cpus = kb_meta_env_value(m, "cpus_online");
	const struct kb_run *r = &x->pts[0].run->run;
	size_t f;

	if (!c)
		return NULL;
	/* the keys Google Benchmark writes, where the file knows them */
	if (with_host)
		json_object_object_add(c, "host_name",
				       json_object_new_string(m->hostname));
	json_object_object_add(c, "executable", json_object_new_string(prog));
	if (cpus && atoi(cpus) > 0)
		json_object_object_add(c, "num_cpus",
				       json_object_new_int(atoi(cpus)));
	if (r->counter_hz)
		json_object_object_add(c, "mhz_per_cpu",
				       json_object_new_int64((int64_t)(r->counter_hz / 1000000)));
	json_object_object_add(c, "library_build_type",
			       json_object_new_string("release"));
	json_object_object_add(c, "counter", json_object_new_string(r->counter));
	json_object_object_add(c, "counter_hz",
			       json_object_new_uint64(r->counter_hz));
	a = json_object_new_array();
	for (f = 0; a && f < x->nfiles; f++)
		json_object_array_add(a, json_object_new_string(x->paths[f]));
	json_object_object_add(c, "files", a);
	return c;
}

static struct json_object *entry(const char *name, const char *run_name,
				 size_t family, size_t reps, double ns)
{
	struct json_object *b = json_object_new_object();

	if (!b)
		return NULL;
	json_object_object_add(b, "name", json_object_new_string(name));
	json_object_object_add(b, "family_index",
			       json_object_new_uint64(family));
	json_object_object_add(b, "per_family_instance_index",
			       json_object_new_int(0));
	json_object_object_add(b, "run_name", json_object_new_string(run_name));
	json_object_object_add(b, "repetitions", json_object_new_uint64(reps));
	json_object_object_add(b, "threads", json_object_new_int(1));
	json_object_object_add(b, "real_time", kb_json_num(ns));
	json_object_object_add(b, "cpu_time", kb_json_num(ns));
	json_object_object_add(b, "time_unit", json_object_new_string("ns"));
	return b;
}

static struct json_object *iteration(const struct kb_export *x,
				     const struct kb_export_point *p,
				     size_t reps, size_t rep)
{
	struct json_object *b = entry(p->name, p->name, p->bench, reps, p->ns);
	const struct kb_saved_run *s = p->run;
	char key[32];

	if (!b)
		return NULL;
	json_object_object_add(b, "run_type", json_object_new_string("iteration"));
	json_object_object_add(b, "repetition_index",
			       json_object_new_uint64(rep));
	json_object_object_add(b, "iterations",
			       json_object_new_uint64((uint64_t)s->run.iterations *
						      p->valid));
	/* user counters: numbers beside the times */
	snprintf(key, sizeof(key), "%s_per_iter", kb_export_unit(s, true));
	json_object_object_add(b, key, kb_json_num(p->median));
	/* the key's word is kept as it was; the unit says what it counts */
	json_object_object_add(b, "unit",
			       json_object_new_string(kb_export_unit_text(s)));
	json_object_object_add(b, "ci_lower_ns", kb_json_num(p->ns_lo));
	json_object_object_add(b, "ci_upper_ns", kb_json_num(p->ns_hi));
	json_object_object_add(b, "samples", json_object_new_uint64(p->valid));
	json_object_object_add(b, "kernel",
			       json_object_new_string(x->files[p->file].meta.kernel));
	json_object_object_add(b, "file",
			       json_object_new_string(x->paths[p->file]));
	if (s->has_replicate)	/* its index among the file's runs */
		json_object_object_add(b, "replicate",
				       json_object_new_uint64(s->replicate));
	return b;
}

static struct json_object *aggregate(const char *run_name, size_t family,
				     size_t reps, const char *agg, double v)
{
	char name[KBENCH_NAME_MAX + 48];
	struct json_object *b;

	snprintf(name, sizeof(name), "%s_%s", run_name, agg);
	b = entry(name, run_name, family, reps, v);
	if (!b)
		return NULL;
	json_object_object_add(b, "run_type", json_object_new_string("aggregate"));
	json_object_object_add(b, "aggregate_name", json_object_new_string(agg));
	/* cv is a fraction, not a time (Google Benchmark 1.7) */
	json_object_object_add(b, "aggregate_unit",
			       json_object_new_string(strcmp(agg, "cv") ?
						      "time" : "percentage"));
	json_object_object_add(b, "iterations", json_object_new_uint64(reps));
	return b;
}

int kb_export_gbench(FILE *f, const struct kb_export *x,
		     const struct kb_export_opts *o)
{
	struct json_object *doc = json_object_new_object(), *list;
	double *ns = calloc(x->npts, sizeof(*ns));
	size_t b, i, reps, rep;
	struct kb_stats st;
	const char *run_name;

	list = json_object_new_array();
	if (!doc || !ns || !list) {
		json_object_put(doc);
		json_object_put(list);
		free(ns);
		return -ENOMEM;
	}
	json_object_object_add(doc, "context", context(x, o->with_host));
	json_object_object_add(doc, "benchmarks", list);
	for (b = 0; b < x->nbench; b++) {
		reps = 0;
		run_name = NULL;
		for (i = 0; i < x->npts; i++)
			if (x->pts[i].bench == b && isfinite(x->pts[i].ns))
				reps++;
		for (i = 0, rep = 0; i < x->npts; i++) {
			const struct kb_export_point *p = &x->pts[i];

			if (p->bench != b)
				continue;
			if (!isfinite(p->ns)) {
				fprintf(stderr, "%s export: %s: '%s': the counter's rate is not recorded, no time to write: left out\n",
					prog, x->paths[p->file], p->name);
				continue;
			}
			run_name = p->name;
			ns[rep] = p->ns;
			json_object_array_add(list, iteration(x, p, reps, rep++));
		}
		if (reps < 2)
			continue;
		qsort(ns, reps, sizeof(*ns), kb_cmp_double);
		kb_stats_sorted(ns, reps, &st);
		json_object_array_add(list, aggregate(run_name, b, reps, "mean", st.mean));
		json_object_array_add(list, aggregate(run_name, b, reps, "median", st.median));
		json_object_array_add(list, aggregate(run_name, b, reps, "stddev", st.stddev));
		json_object_array_add(list, aggregate(run_name, b, reps, "cv",
						      st.mean ? st.stddev / st.mean : NAN));
	}
	free(ns);
	return kb_export_print_json(f, doc);
}
