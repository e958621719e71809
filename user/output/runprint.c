// SPDX-License-Identifier: GPL-2.0
/*
 * The report of a run (runprint.h): per routine the kernel's summary, the
 * userspace statistics, events, histogram and raw samples, as a table or
 * JSON; and the samples as CSV.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "color.h"
#include "csv.h"
#include "hist.h"
#include "names.h"
#include "output.h"
#include "asmprint.h"
#include "coreprint.h"
#include "runprint.h"
#include "schema.h"
#include "until.h"
#include "verdict.h"

/* The run's events: what each counted, where, how long (-v, JSON). */
static void print_event_descs(const struct kb_run *r)
{
	unsigned int x;

	if (!r->nevents)
		return;
	out_open_array("events");
	out_text("  events:");
	for (x = 0; x < r->nevents; x++) {
		const struct kb_event_desc *e = &r->events[x];

		out_open_object_inline(NULL);
		out_string("name", x ? "; %s" : " %s", e->name);
		out_uint("type", " (type %llu", e->type);
		out_uint("config", ", config 0x%llx", e->config);
		if (e->pmu[0])
			out_string("pmu", ", pmu %s", e->pmu);
		if (e->read[0])
			out_string("read", ", read by %s", e->read);
		out_uint("enabled_ns", ", enabled %llu ns", e->enabled_ns);
		out_uint("running_ns", ", running %llu ns)", e->running_ns);
		out_close_object();
	}
	out_close_array();
	out_text("\n");
}

/*
 * The kernel's summary of a series (the counter's or an event's), after
 * the caller's labels: per sample {min, median, max, sum, mean} as @net,
 * per iteration {min, median, max} as @per_iter, ending with @end.
 */
static void print_summary(const char *net, const char *per_iter,
			  const char *per_iter_label, const char *end,
			  int64_t min, int64_t median, int64_t max, int64_t sum,
			  int64_t min_milli, int64_t median_milli,
			  uint32_t valid, double it)
{
	char fmt[64];

	out_open_object(net);
	out_int("min", " min %lld", min);
	out_int("median", ", median %lld", median);
	out_int("max", ", max %lld", max);
	out_int("sum", ", sum %lld", sum);
	out_double("mean", ", mean %.3f\n",
		   valid ? (double)sum / valid : NAN);
	out_close_object();
	out_open_object(per_iter);
	out_text("%s", per_iter_label);
	out_double("min", " min %.3f", (double)min_milli / 1000);
	out_double("median", ", median %.3f", (double)median_milli / 1000);
	snprintf(fmt, sizeof(fmt), ", max %%.3f%s", end);
	out_double("max", fmt, (double)max / it);
	out_close_object();
}

/* The statistics of a series in the order reports print them. */
static const struct {
	const char *key, *label;
	size_t offset;
} stat_rows[] = {
	{ "min", "min", offsetof(struct kb_stats, min) },
	{ "p1", "p1", offsetof(struct kb_stats, p1) },
	{ "p5", "p5", offsetof(struct kb_stats, p5) },
	{ "p25", "p25", offsetof(struct kb_stats, p25) },
	{ "median", "median", offsetof(struct kb_stats, median) },
	{ "p75", "p75", offsetof(struct kb_stats, p75) },
	{ "p95", "p95", offsetof(struct kb_stats, p95) },
	{ "p99", "p99", offsetof(struct kb_stats, p99) },
	{ "max", "max", offsetof(struct kb_stats, max) },
	{ "mean", "mean", offsetof(struct kb_stats, mean) },
	{ "stddev", "stddev", offsetof(struct kb_stats, stddev) },
	{ "mad", "MAD", offsetof(struct kb_stats, mad) },
	/* an event's line prints the CI as [lo, hi] and no mode */
	{ "median_ci95_lo", "median CI lo", offsetof(struct kb_stats, ci_lo) },
	{ "median_ci95_hi", "median CI hi", offsetof(struct kb_stats, ci_hi) },
	{ "mode", "mode", offsetof(struct kb_stats, mode.mode) },
};
#define STAT_ROWS_CI	12	/* the rows before the CI */

static double stat_value(const struct kb_stats *s, size_t i)
{
	double v;

	memcpy(&v, (const char *)s + stat_rows[i].offset, sizeof(v));
	return v;
}

/* The object @key of two figures, min and median. */
static void print_min_median(const char *key, const char *min_fmt,
			     const char *median_fmt, double min, double median)
{
	out_open_object(key);
	out_double("min", min_fmt, min);
	out_double("median", median_fmt, median);
	out_close_object();
}

/* One event's summary and statistics in a routine (-v, JSON). */
static void print_event(const struct kb_run *r, const struct kb_result *res,
			unsigned int x, unsigned int flags)
{
	const struct kb_ev_result *ev = &res->ev[x];
	const struct kb_stats *s = &ev->st;
	double it = r->iterations ? (double)r->iterations : 1;
	char fmt[32];
	size_t i;

	out_open_object(r->events[x].name);
	out_text("    %s per sample:", r->events[x].name);
	print_summary("net", "per_iter", "      per iteration:", "",
		      ev->net_min, ev->net_median, ev->net_max, ev->net_sum,
		      ev->per_iter_min_milli, ev->per_iter_median_milli,
		      res->valid, it);
	if (res->has_corr && res != &r->overhead)
		print_min_median("corrected_per_iter",
				 "; corrected (- empty): min %.3f", ", median %.3f",
				 (double)ev->corr_min_milli / 1000,
				 (double)ev->corr_median_milli / 1000);
	out_text("\n");
	if (ev->have_stats && !(flags & KB_PRINT_BRIEF)) {
		out_open_object("stats");
		out_uint("count", "      statistics of %llu valid samples per iteration:",
			 s->count);
		for (i = 0; i < STAT_ROWS_CI; i++) {
			snprintf(fmt, sizeof(fmt), "%s%s %%.3f", i ? ", " : " ",
				 stat_rows[i].label);
			out_double(stat_rows[i].key, fmt, stat_value(s, i));
		}
		out_double("median_ci95_lo", ", median CI [%.3f", s->ci_lo);
		out_double("median_ci95_hi", ", %.3f]", s->ci_hi);
		out_double("cv", ", CV %.4f\n", s->cv);
		out_close_object();
	}
	out_close_object();
}

/* A routine's events and the figures derived from them (-v, JSON). */
static void print_events(const struct kb_run *r, const struct kb_result *res,
			 unsigned int flags)
{
	struct kb_derived d;
	unsigned int x;

	if (!r->nevents)
		return;
	out_open_object("events");
	out_text("  events:\n");
	for (x = 0; x < r->nevents; x++)
		print_event(r, res, x, flags);
	kb_result_derived(r, res, &d);
	out_open_object("derived");
	out_double("ipc", "    IPC %.3f (instructions / cycles)", d.ipc);
	out_double("effective_hz", ", effective frequency %.0f Hz (cycles / counter ticks x counter Hz)\n",
		   d.hz);
	out_close_object();
	out_close_object();
}

/*
 * A run whose N changed after the probe (engine.h, adaptive N): how often,
 * down to what, and that every sample is the net of N iterations.
 */
void kb_report_n_adapted(const struct kb_run *r)
{
	if (!r->n_changes)
		return;
	out_text("  N adapted to keep windows within max_window_us: %u change%s, down to %u iterations; %u samples took fewer than %u, each stored as the net of %u\n",
		 r->n_changes, r->n_changes == 1 ? "" : "s", r->iterations_min,
		 r->samples_reduced, r->iterations, r->iterations);
}

void kb_run_print_partial(const struct kb_run *r)
{
	const char *why = kb_run_partial(r);

	if (!why)
		return;
	out_open_object("partial");
	out_string("reason", "partial: %s", why);
	out_uint("samples_taken", " after %llu", kb_run_samples_taken(r));
	out_uint("samples_asked", " of %llu samples per routine\n", r->samples);
	out_close_object();
}

void kb_run_print_header(const struct kb_run *r)
{
	char unit[KBENCH_NAME_MAX + 16];
	const struct kb_field *f;

	/*
	 * A run of one routine is one JSON object with the result's members,
	 * whose "arg" says it: the run's would be the same key twice.
	 */
	if (r->has_arg && !(r->nres == 1 && r->res[0].has_arg))
		out_uint("arg", "arg %llu: ", r->arg);
	out_string("side", NULL, r->user ? "user" : "kernel");
	for (f = kb_run_fields; f->key; f++) {
		const char *fmt = f->fmt;

		/* the few whose text depends on another field */
		if (f->attr == KBENCH_A_RUN_ID)
			fmt = r->user ? "userspace: " : "run %llu: ";
		else if (f->attr == KBENCH_A_RUN_TARGET_NS)
			fmt = r->adaptive ? " (adaptive, target %llu ns)" :
			      " (fixed; target %llu ns unused)";
		if (f->type == KB_FT_STR)
			out_string(f->key, fmt, (const char *)r + f->offset);
		else if (f->type == KB_FT_BOOL32)
			out_bool(f->key, fmt, kb_field_u64(f, r));
		else if (f->type == KB_FT_S64)
			out_int(f->key, fmt, kb_field_s64(f, r));
		else
			out_uint(f->key, fmt, kb_field_u64(f, r));
		if (f->attr == KBENCH_A_RUN_WINDOW_CYCLES)
			out_double("efficiency", ", efficiency %.3f",
				   r->span_cycles ? (double)r->routine_cycles /
						    (double)r->span_cycles : NAN);
	}
	out_string("status", ", %s\n", kb_run_status_name(r));
	kb_run_print_partial(r);
	kb_report_n_adapted(r);
	if (r->kernel[0])
		out_string("kernel", "  kernel %s", r->kernel);
	if (r->date[0])
		out_string("date", r->kernel[0] ? ", %s" : "  %s", r->date);
	if (r->kernel[0] || r->date[0])
		out_text("\n");
	/* "metric" keeps its old value; "unit" names the figures' unit */
	out_string("metric", NULL, r->metric[0] ? r->metric : "cycles");
	kb_run_unit_text(r, unit, sizeof(unit));
	out_string("unit", NULL, unit);
	if (r->metric[0])
		out_text("  every figure below counts %s%s\n", r->metric,
			 r->metric_missing ? " (not counted in this run)" : "");
	if (r->wall_ns && r->cpu_ns)
		out_double("cpu_share", "  the run had its CPU %.3f of the time\n",
			   (double)r->cpu_ns / (double)r->wall_ns);
	if (r->until)
		kb_until_print(r->until, r);
	kb_core_print(r);
	kb_asm_print(r);
	print_event_descs(r);
}

/* A statistics row: label, cycles per iteration and ns per iteration. */
static void stat_row(const struct kb_run *r, const char *label,
		     const char *key, double cycles)
{
	char k1[48], k2[48], f1[48];

	snprintf(k1, sizeof(k1), "%s_cycles", key);
	snprintf(k2, sizeof(k2), "%s_ns", key);
	snprintf(f1, sizeof(f1), "    %-14s %%14.3f", label);
	out_double(k1, f1, cycles);
	out_double(k2, " %14.3f\n", kb_run_ns(r, cycles));
}

static void print_stats(const struct kb_run *r, const struct kb_result *res)
{
	const struct kb_stats *s = &res->st;
	struct kb_stability v;
	size_t excluded = res->n - s->count;
	char rate[48];
	double ops;
	unsigned int i;

	out_open_object("stats");
	out_uint("count", "  statistics of %llu valid samples", s->count);
	out_uint("excluded", " (%llu excluded; userspace):\n", excluded);
	out_text("    %-14s %10s/iter %14s\n", "", kb_run_unit(r), "ns/iter");
	for (i = 0; i < (unsigned int)(sizeof(stat_rows) / sizeof(stat_rows[0])); i++)
		stat_row(r, stat_rows[i].label, stat_rows[i].key,
			 stat_value(s, i));
	out_double("median_ci95_coverage", "    median CI coverage %.4f", s->ci_coverage);
	/* JSON only: the dependence widening of the median's interval */
	out_double("median_ci95_widening", NULL, s->ci_widen);
	out_double("cv", ", CV %.4f", s->cv);
	out_double("mode_share", ", mode share %.3f", s->mode.share);
	out_bool("mode_pure", " (pure: %s)\n", s->mode.pure);
	out_uint("outliers_mild", "    Tukey outliers (kept): %llu mild", s->mild);
	out_uint("outliers_severe", ", %llu severe", s->severe);
	out_uint("outliers_far_high", "; far above the median %llu\n",
		 s->far_high);
	out_double("robust_cv", "    robust CV (1.4826 MAD / median) %.4f",
		   kb_robust_rsd(s));
	out_double("median_ci95_half_rel", ", median CI half-width / median %.5f\n",
		   kb_median_precision(s));

	/* the counter's rate turns cycles into time, not an event's counts */
	ops = s->median > 0 && r->counter_hz && !r->metric[0] ?
	      (double)r->counter_hz / s->median : NAN;
	if (res->bytes_per_iter) {
		kb_format_rate(ops * res->bytes_per_iter, true, rate, sizeof(rate));
		out_double("throughput_bytes_per_s",
			   "    throughput (median): %.0f bytes/s",
			   ops * res->bytes_per_iter);
	} else {
		kb_format_rate(ops, false, rate, sizeof(rate));
		out_double("throughput_ops_per_s",
			   "    throughput (median): %.0f ops/s", ops);
	}
	out_string("throughput", " = %s\n", rate);

	kb_result_stability(r, res, &v);
	out_open_object("stability");
	out_bool("stable", NULL, v.stable);
	out_text("  verdict: %s%s%s\n",
		 kb_color(out_file(), v.stable ? KB_GOOD : KB_BAD),
		 v.stable ? "stable" : "UNSTABLE", kb_color_end(out_file()));
	out_open_array("reasons");
	for (i = 0; i < v.nreasons; i++) {
		out_text("    - %s", kb_color(out_file(), KB_WARN));
		out_string(NULL, "%s", v.reason[i]);
		out_text("%s\n", kb_color_end(out_file()));
	}
	out_close_array();
	out_close_object();
	out_close_object();
}

static void print_hist(const struct kb_run *r, const struct kb_result *res,
		       unsigned int flags)
{
	struct kb_hist h;
	size_t i;

	if (!res->st.count || kb_hist_build(&h, res->sorted, res->st.count, 24, false))
		return;
	if (out_json()) {
		out_open_object("histogram");
		out_double("lo_cycles", NULL, h.lo);
		out_double("bin_width_cycles", NULL, h.width);
		out_open_array("counts");
		for (i = 0; i < h.nbins; i++)
			out_uint(NULL, NULL, h.count[i]);
		out_close_array();
		out_uint("beyond", NULL, h.over);
		out_close_object();
	} else {
		char unit[KBENCH_NAME_MAX + 8];

		snprintf(unit, sizeof(unit), "%s/iter", kb_run_unit(r));
		out_text("  histogram (%s):\n", unit);
		kb_hist_print(out_file(), &h, 50, flags & KB_PRINT_LOG,
			      res->st.min, res->st.median, res->st.mode.mode,
			      unit);
	}
	kb_hist_free(&h);
}

/* Event @x's net of sample @i of @res, 0 where it has none. */
static int64_t ev_sample(const struct kb_result *res, unsigned int x, size_t i)
{
	const struct kb_ev_result *ev = &res->ev[x];

	return ev->net && i < ev->n ? ev->net[i] : 0;
}

static void print_raw(const struct kb_run *r, const struct kb_result *res)
{
	char buf[96], fmt[48];
	unsigned int x;
	size_t i;

	out_open_array("raw");
	out_text("  samples (index, routine, net %s, flags%s):\n", kb_run_unit(r),
		 r->nevents ? ", events" : "");
	for (i = 0; i < res->n; i++) {
		kb_flag_names(kb_sample_flag_names, res->sflags[i], "|", buf,
			      sizeof(buf));
		out_open_object_inline(NULL);
		out_uint("index", "    %llu", i);
		out_string("routine", " %s", res->routine);
		out_int("net_cycles", " %lld", res->net[i]);
		out_string("flags", " %s", buf);
		if (r->nevents) {
			out_open_object("events");
			for (x = 0; x < r->nevents; x++) {
				snprintf(fmt, sizeof(fmt), " %.31s=%%lld",
					 r->events[x].name);
				out_int(r->events[x].name, fmt,
					ev_sample(res, x, i));
			}
			out_close_object();
		}
		out_text("\n");
		out_close_object();
	}
	out_close_array();
}

void kb_result_print(const struct kb_run *r, const struct kb_result *res,
		     unsigned int flags)
{
	uint32_t excl = 0;
	char buf[64], label[64];
	unsigned int i;
	double it = r->iterations ? (double)r->iterations : 1;

	out_string("routine", "%s", res->routine);
	if (res->has_arg)
		out_uint("arg", ":%llu", res->arg);
	out_uint("index", " [%llu]", res->index);
	out_text(res == &r->overhead ? " (overhead)\n" : "\n");
	out_uint("samples_taken", "  samples: %llu taken", res->samples);
	out_uint("valid", ", %llu valid", res->valid);
	/* a sample may carry several flags: count samples, not reasons */
	excl = res->samples - res->valid;
	out_uint("excluded", ", %llu excluded", excl);
	out_open_object("excluded_by_reason");
	for (i = 0; i < KB_EXCL_N; i++) {
		char fmt[32];

		snprintf(fmt, sizeof(fmt), "%s%s %%llu", i ? ", " : " (by reason: ",
			 kb_excl_key[i]);
		out_uint(kb_excl_key[i], fmt, res->excl[i]);
	}
	out_text(")");
	out_close_object();
	kb_flag_names(kb_result_flag_names, res->flags, ",", buf, sizeof(buf));
	out_text("%s%s", buf[0] ? "; flags " : "", buf);
	kb_flags_json("flags", kb_result_flag_names, res->flags);
	out_uint("bytes_per_iter", "; %llu bytes/iter\n", res->bytes_per_iter);

	out_text("  %s:\n", r->user ? "integer summary (the kernel's method, computed in userspace)" :
		 "kernel summary");
	/* the integer summary is the counter's, as measured */
	out_text("    net %s/sample:", res->scale > 0 ? "ticks" : kb_run_unit(r));
	snprintf(label, sizeof(label), "    %s/iter:",
		 res->scale > 0 ? "ticks" : kb_run_unit(r));
	print_summary("net_cycles", "net_cycles_per_iter", label, "\n",
		      res->net_min, res->net_median, res->net_max, res->net_sum,
		      res->per_iter_min_milli, res->per_iter_median_milli,
		      res->valid, it);
	out_open_object("ns_per_iter");
	out_double("min", "    ns/iter:           min %.3f",
		   kb_run_ns(r, kb_result_milli(res, res->per_iter_min_milli)));
	out_double("median", ", median %.3f",
		   kb_run_ns(r, kb_result_milli(res, res->per_iter_median_milli)));
	out_double("max", ", max %.3f\n",
		   kb_run_ns(r, (double)res->net_max / it /
			     (res->scale > 0 ? res->scale : 1)));
	out_close_object();
	if (res->has_corr && res != &r->overhead) {
		double min = kb_result_milli(res, res->corr_min_milli);
		double median = kb_result_milli(res, res->corr_median_milli);

		print_min_median("corrected_cycles_per_iter",
				 "    corrected (- empty): min %.3f",
				 ", median %.3f", min, median);
		out_text(" %s/iter", kb_run_unit(r));
		print_min_median("corrected_ns_per_iter", " = min %.3f",
				 ", median %.3f ns/iter\n", kb_run_ns(r, min),
				 kb_run_ns(r, median));
	}
	if (res->have_stats && !(flags & KB_PRINT_BRIEF))
		print_stats(r, res);
	print_events(r, res, flags);
	kb_result_print_extras(r, res, flags);
}

void kb_result_print_extras(const struct kb_run *r, const struct kb_result *res,
			    unsigned int flags)
{
	if (flags & KB_PRINT_HIST)
		print_hist(r, res, flags);
	if (flags & KB_PRINT_RAW)
		print_raw(r, res);
}

void kb_run_print_object(const char *key, const struct kb_run *r,
			 unsigned int flags)
{
	out_open_object(key);
	kb_run_print_members(r, flags);
	out_close_object();
}

void kb_run_print_members(const struct kb_run *r, unsigned int flags)
{
	unsigned int i;

	if (r->has_env) {
		kb_env_print(&r->env, KB_ENV_VIEW_ALL);
		out_text("\n");
	}
	kb_run_print_header(r);
	if (r->ncpus)
		out_uint("cpus", "CPUs at once: %llu\n", r->ncpus);
	if (r->nres == 1) {
		kb_result_print(r, &r->res[0], flags);
	} else {
		out_open_array("routines");
		for (i = 0; i < r->nres; i++) {
			out_text("\n");
			out_open_object(NULL);
			kb_result_print(r, &r->res[i], flags);
			out_close_object();
		}
		out_close_array();
	}
	if (r->has_overhead) {
		out_text("\n");
		out_open_object("overhead");
		kb_result_print(r, &r->overhead, KB_PRINT_BRIEF);
		out_close_object();
	}
}

void kb_run_print(const struct kb_run *r, unsigned int flags)
{
	kb_run_print_object(NULL, r, flags);
	out_finish();
}

/* The CSV of a run with events: a column per event after the flags. */
static void print_csv_events(const struct kb_run *r, FILE *f)
{
	unsigned int k, x;
	char buf[96];
	size_t i;

	fputs("index,routine,net_cycles,flags", f);
	for (x = 0; x < r->nevents; x++)
		fprintf(f, ",%s", r->events[x].name);
	fputc('\n', f);
	for (k = 0; k <= r->nres; k++) {
		const struct kb_result *res = k < r->nres ? &r->res[k] :
				     r->has_overhead ? &r->overhead : NULL;

		for (i = 0; res && i < res->n; i++) {
			kb_flag_names(kb_sample_flag_names, res->sflags[i], "|",
				      buf, sizeof(buf));
			fprintf(f, "%zu,%s,%lld,%s", i, res->routine,
				(long long)res->net[i], buf);
			for (x = 0; x < r->nevents; x++)
				fprintf(f, ",%lld", (long long)ev_sample(res, x, i));
			fputc('\n', f);
		}
	}
}

void kb_run_print_csv(const struct kb_run *r, FILE *f)
{
	struct kb_csv *c;
	unsigned int k;

	if (r->nevents) {
		print_csv_events(r, f);
		return;
	}
	c = malloc(sizeof(*c));
	if (!c)
		return;
	kb_csv_init(c, f);
	for (k = 0; k <= r->nres; k++) {
		const struct kb_result *res = k < r->nres ? &r->res[k] :
				     r->has_overhead ? &r->overhead : NULL;

		if (res)
			kb_csv_rows(c, res->routine, 0, res->net, res->sflags,
				    res->n);
	}
	kb_csv_flush(c);
	free(c);
}
