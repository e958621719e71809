// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl run --cpus LIST (a concurrent run: every CPU at once, their
 * windows started together; the module's, or with --user the twins') and
 * run --each-cpu (one CPU after another, kernel or --user, a row each with
 * its topology).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "measure.h"
#include "nl.h"
#include "output.h"
#include "result.h"
#include "runopts.h"
#include "runreq.h"
#include "stats.h"
#include "sysfs.h"
#include "twin.h"

/* A CPU's topology in sysfs ("-" where the kernel does not say). */
struct cpu_topo {
	char package[16], core[16], siblings[64], cluster[16], type[24];
};

static void topo_read(unsigned int cpu, struct cpu_topo *t)
{
	static const char *const what[] = {
		"physical_package_id", "core_id", "thread_siblings_list",
		"cluster_id",
	};
	char *field[] = { t->package, t->core, t->siblings, t->cluster };
	size_t len[] = { sizeof(t->package), sizeof(t->core),
			 sizeof(t->siblings), sizeof(t->cluster) };
	struct kb_cpuset set;
	unsigned int i;
	long cap;
	char path[96];

	for (i = 0; i < 4; i++)
		if (kb_sys_readf(field[i], len[i],
				 "/sys/devices/system/cpu/cpu%u/topology/%s",
				 cpu, what[i]))
			snprintf(field[i], len[i], "-");
	/* hybrid x86 (cpu_core, cpu_atom), else arm64's capacity */
	snprintf(t->type, sizeof(t->type), "-");
	if (!kb_cpulist_read("/sys/devices/cpu_core/cpus", &set) &&
	    kb_cpuset_has(&set, cpu))
		snprintf(t->type, sizeof(t->type), "core");
	else if (!kb_cpulist_read("/sys/devices/cpu_atom/cpus", &set) &&
		 kb_cpuset_has(&set, cpu))
		snprintf(t->type, sizeof(t->type), "atom");
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%u/cpu_capacity", cpu);
	if (!strcmp(t->type, "-") && !kb_sys_read_long(path, &cap))
		snprintf(t->type, sizeof(t->type), "capacity %ld", cap);
}

static double milli(int64_t v)
{
	return (double)v / 1000.0;
}

/* One routine's figures on one CPU: a table cell run or a JSON object. */
static void routine_figures(const struct kb_run *r, const struct kb_result *res)
{
	out_string("routine", "%-16s", res->routine);
	out_double("median_cycles", " %10.3f", milli(res->per_iter_median_milli));
	out_double("corrected_median_cycles", " %10.3f",
		   milli(res->corr_median_milli));
	out_double("corrected_median_ns", " %9.3f",
		   kb_run_ns(r, milli(res->corr_median_milli)));
	out_uint("valid", " %6llu", res->valid);
	out_uint("samples", "/%-6llu", res->samples);
	out_uint("excluded_skew", " %6llu", res->excl[8]);
}

static void header(const char *first)
{
	out_text("%s%-16s %10s %10s %9s %13s %6s\n", first, "routine",
		 "median", "corrected", "ns/op", "valid", "skew");
}

/* Per routine: the CPUs' corrected medians (ns), their median and range. */
static void aggregate(const struct kb_cpus_run *cr, unsigned int k)
{
	double ns[KB_TWIN_CPUS_MAX], tput = 0, med;
	unsigned int c, n = 0;

	for (c = 0; c < cr->nr; c++) {
		const struct kb_run *r = &cr->run[c];
		const struct kb_result *res = &r->res[k];

		if (!res->valid)
			continue;
		ns[n++] = kb_run_ns(r, milli(res->corr_median_milli));
		/* the loop's own rate: the uncorrected median per iteration */
		tput += 1e9 / kb_run_ns(r, milli(res->per_iter_median_milli));
	}
	qsort(ns, n, sizeof(*ns), kb_cmp_double);
	med = n ? kb_median_sorted(ns, n) : NAN;
	out_open_object(NULL);
	out_string("routine", "  all  %-16s", cr->run[0].res[k].routine);
	out_uint("cpus_valid", " per op over %llu CPUs:", n);
	out_double("per_op_ns_median", " median %.3f ns", med);
	out_double("per_op_ns_min", " (range %.3f", n ? ns[0] : NAN);
	out_double("per_op_ns_max", " .. %.3f)", n ? ns[n - 1] : NAN);
	out_double("throughput_per_s", ", throughput %.4g ops/s\n", tput);
	out_close_object();
}

int kb_cpus_at_once(const struct kb_run_req *q, bool user, unsigned int nr,
		    const int32_t *cpus, struct kb_cpus_run *cr)
{
	struct kb_nl nl;
	int err;

	if (!user) {
		err = kb_nl_open(&nl);
		if (err)
			return err;
		err = kb_run_kernel_cpus(&nl, q, cpus, nr, cr);
		kb_nl_close(&nl);
		return err;
	}
	struct kb_twin_req tq = {
		.n = q->n, .cpu = -1, .nargs = q->nargs,
		.samples = q->has_samples ? q->samples : KB_RUN_DEFAULT_SAMPLES,
		.iterations = q->has_iterations ? q->iterations : 0,
		.target_ns = q->has_target_ns ? q->target_ns : KB_RUN_DEFAULT_TARGET_NS,
		.warmup = q->has_warmup ? q->warmup : KB_RUN_DEFAULT_WARMUP,
		.skew_ns = q->has_skew_ns ? q->skew_ns : 0,
	};

	memcpy(tq.names, q->names, sizeof(tq.names));
	memcpy(tq.args, q->args, sizeof(tq.args));
	return kb_twin_run_cpus(&tq, cpus, nr, cr);
}

/* The routines of @o at once on @nr @cpus into @cr: 0 or -errno (printed). */
static int at_once(const struct kb_run_opts *o, unsigned int nr,
		   const int32_t *cpus, struct kb_cpus_run *cr)
{
	return kb_cpus_at_once(&o->q, o->user, nr, cpus, cr);
}

void kb_cpus_run_free(struct kb_cpus_run *cr)
{
	unsigned int c;

	for (c = 0; c < cr->nr; c++)
		kb_run_free(&cr->run[c]);
	free(cr->run);
	cr->run = NULL;
	cr->nr = 0;
}

static int concurrent(const struct kb_run_opts *o, unsigned int nr,
		      const int32_t *cpus)
{
	struct kb_cpus_run cr;
	unsigned int c, k;
	int err;

	err = at_once(o, nr, cpus, &cr);
	if (err)
		return kb_exit_status(err);
	out_open_object(NULL);
	out_open_object("concurrent");
	out_string("cpus", "at once on CPUs %s", o->cpus.spec);
	out_bool("user", o->user ? " (userspace twins" : " (kbench.ko",
		 o->user);
	out_string("counter", ", counter %s", cr.run[0].counter);
	out_uint("counter_hz", NULL, cr.run[0].counter_hz);
	out_uint("iterations", ", N %llu", cr.run[0].iterations);
	out_uint("samples", ", %llu samples each):\n", cr.run[0].samples);
	header("  cpu  ");
	out_open_array("per_cpu");
	for (c = 0; c < nr; c++) {
		out_open_object(NULL);
		out_uint("cpu", "", cr.run[c].cpu);
		if (!o->user)	/* for kbenchctl samples */
			out_uint("run_id", NULL, cr.run[c].run_id);
		out_open_array("routines");
		for (k = 0; k < cr.run[c].nres; k++) {
			out_text("  %3u  ", cr.run[c].cpu);
			out_open_object_inline(NULL);
			routine_figures(&cr.run[c], &cr.run[c].res[k]);
			out_close_object();
			out_text("\n");
		}
		out_close_array();
		out_close_object();
	}
	out_close_array();
	out_open_array("aggregate");
	for (k = 0; k < cr.run[0].nres; k++)
		aggregate(&cr, k);
	out_close_array();
	out_open_object("skew");
	out_uint("median_ticks", "  start skew: median %llu ticks", cr.skew_median);
	out_uint("max_ticks", ", max %llu", cr.skew_max);
	out_uint("bound_ticks", ", bound %llu", cr.skew_bound);
	out_uint("flagged", "; %llu", cr.skew_flagged);
	out_uint("samples", " of %llu samples flagged skew (excluded)\n",
		 cr.skew_samples);
	out_close_object();
	out_close_object();
	out_close_object();
	out_finish();
	kb_cpus_run_free(&cr);
	return EXIT_OK;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* @k CPUs' series @res[c] merged into @out (CPU 0's, whose samples grow). */
static int merge(struct kb_result *out, struct kb_result *const *res,
		 unsigned int k)
{
	int64_t med[KB_TWIN_CPUS_MAX], corr[KB_TWIN_CPUS_MAX];
	size_t n = 0;
	unsigned int c, b;

	for (c = 0; c < k; c++)
		n += res[c]->n;
	out->net = realloc(out->net, n * sizeof(*out->net));
	if (!out->net)
		return -ENOMEM;
	out->sflags = realloc(out->sflags, n * sizeof(*out->sflags));
	if (!out->sflags)
		return -ENOMEM;
	for (c = 0, n = 0; c < k; n += res[c]->n, c++) {
		med[c] = res[c]->per_iter_median_milli;
		corr[c] = res[c]->corr_median_milli;
		if (!c)
			continue;	/* in place */
		memcpy(out->net + n, res[c]->net, res[c]->n * sizeof(*out->net));
		memcpy(out->sflags + n, res[c]->sflags,
		       res[c]->n * sizeof(*out->sflags));
		out->samples += res[c]->samples;
		out->valid += res[c]->valid;
		for (b = 0; b < KB_EXCL_N; b++)
			out->excl[b] += res[c]->excl[b];
	}
	out->n = out->cap = n;
	qsort(med, k, sizeof(*med), cmp_i64);
	qsort(corr, k, sizeof(*corr), cmp_i64);
	out->per_iter_median_milli = med[(k - 1) / 2];
	out->corr_median_milli = corr[(k - 1) / 2];
	out->has_arg = false;	/* the sweep's x is the CPU count */
	return 0;
}

/*
 * The online CPUs of @o, cores first (the lowest-numbered thread of each
 * package's core), then their SMT siblings, into @cpus; their number.
 */
static unsigned int cores_first(const struct kb_run_opts *o, int32_t *cpus)
{
	struct kb_cpuset first = { 0 };
	unsigned int c, pass, nr = 0;
	struct cpu_topo t, u;
	unsigned int d;

	for (c = 0; c < KB_CPUS_MAX; c++) {
		if (!kb_cpuset_has(&o->cpus.set, c))
			continue;
		topo_read(c, &t);
		for (d = 0; d < c; d++) {
			if (!kb_cpuset_has(&first, d))
				continue;
			topo_read(d, &u);
			if (!strcmp(t.package, u.package) &&
			    !strcmp(t.core, u.core) && strcmp(t.core, "-"))
				break;
		}
		if (d == c)
			kb_cpuset_add(&first, c);
	}
	for (pass = 0; pass < 2; pass++)
		for (c = 0; c < KB_CPUS_MAX && c < KB_TWIN_CPUS_MAX; c++)
			if (kb_cpuset_has(&o->cpus.set, c) &&
			    kb_cpuset_has(&first, c) == !pass)
				cpus[nr++] = (int32_t)c;
	return nr;
}

int kb_cpus_merge(struct kb_cpus_run *cr, struct kb_run *r)
{
	struct kb_result *res[KB_TWIN_CPUS_MAX];
	unsigned int c, i, k = cr->nr;
	int err = 0;

	for (i = 0; i <= cr->run[0].nres && !err; i++) {
		for (c = 0; c < k; c++)
			res[c] = i < cr->run[c].nres ? &cr->run[c].res[i] :
				 &cr->run[c].overhead;
		err = merge(res[0], res, k);
	}
	*r = cr->run[0];
	memset(&cr->run[0], 0, sizeof(cr->run[0]));
	kb_cpus_run_free(cr);
	r->ncpus = k;
	if (err)
		kb_run_free(r);
	return err;
}

int kb_cpus_scale(const struct kb_run_opts *o, unsigned int k,
		  struct kb_run *r)
{
	int32_t cpus[KB_TWIN_CPUS_MAX];
	struct kb_cpus_run cr;
	int err;

	if (cores_first(o, cpus) < k)
		return -EINVAL;
	err = at_once(o, k, cpus, &cr);
	if (err)
		return err;
	err = kb_cpus_merge(&cr, r);
	if (err)
		return err;
	r->has_arg = false;
	kb_run_stamp(r);
	kb_run_env(r);
	return 0;
}

/* --each-cpu: the single-CPU run (kernel or --user) on each in turn. */
static int each_cpu(const struct kb_run_opts *o, unsigned int nr,
		    const int32_t *cpus)
{
	struct kb_run_req q = o->q;
	struct cpu_topo t;
	struct kb_run r;
	unsigned int c, k;
	int err;

	out_open_object(NULL);
	out_open_array("each_cpu");
	out_text("  cpu  pkg  core  siblings  cluster  type           ");
	header("");
	for (c = 0; c < nr; c++) {
		q.has_cpu = true;
		q.cpu = (uint32_t)cpus[c];
		err = kb_run_measure(&q, o->user, &r);
		if (err) {
			out_finish();
			fprintf(stderr, "%s run --each-cpu: stopped at CPU %d\n",
				prog, cpus[c]);
			return kb_exit_status(err);
		}
		topo_read(r.cpu, &t);
		out_open_object(NULL);
		for (k = 0; k < r.nres; k++) {
			out_text(k ? "%52s" : "", "");
			if (!k) {
				out_uint("cpu", "  %3llu", r.cpu);
				out_string("package", "  %3s", t.package);
				out_string("core", "  %4s", t.core);
				out_string("siblings", "  %-8s", t.siblings);
				out_string("cluster", "  %-7s", t.cluster);
				out_string("type", "  %-13s  ", t.type);
				out_bool("user", NULL, r.user);
				out_open_array("routines");
			}
			out_open_object_inline(NULL);
			routine_figures(&r, &r.res[k]);
			out_close_object();
			out_text("\n");
		}
		out_close_array();
		out_close_object();
		kb_run_free(&r);
	}
	out_close_array();
	out_close_object();
	out_finish();
	return EXIT_OK;
}

int kb_cpus_main(const struct kb_run_opts *o)
{
	struct kb_cpuset set = o->cpus.set;
	int32_t *cpus;
	unsigned int c, nr = 0;
	int ret;

	if (!o->cpus.spec &&
	    kb_cpulist_read("/sys/devices/system/cpu/online", &set)) {
		fprintf(stderr, "%s run --each-cpu: cannot read the online CPUs\n",
			prog);
		return EXIT_FAIL;
	}
	cpus = calloc(kb_cpuset_count(&set) + 1, sizeof(*cpus));
	if (!cpus)
		return EXIT_FAIL;
	for (c = 0; c < KB_CPUS_MAX; c++)
		if (kb_cpuset_has(&set, c))
			cpus[nr++] = (int32_t)c;
	ret = o->cpus.each ? each_cpu(o, nr, cpus) : concurrent(o, nr, cpus);
	free(cpus);
	return ret;
}
