// SPDX-License-Identifier: GPL-2.0
/*
 * Runs: the RUN request and reply, SAMPLES_GET, the userspace statistics of
 * the samples and the per-routine report (table or JSON).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <kbench/summary.h>

#include "color.h"
#include "csv.h"
#include "hist.h"
#include "kbenchctl.h"
#include "names.h"
#include "twin.h"
#include "until.h"
#include "verdict.h"
#include "nl.h"
#include "output.h"
#include "pages.h"
#include "progress.h"
#include "report.h"
#include "run.h"

const char *const kb_excl_key[KB_EXCL_N] = {
	"cpu_changed", "backwards", "nmi", "smi", "window", "reference", "event",
	"steal"
};

int kb_result_push(struct kb_result *res, int64_t net, uint32_t flags)
{
	if (res->n == res->cap) {
		size_t cap = res->cap ? res->cap * 2 : 1024;
		int64_t *n2 = realloc(res->net, cap * sizeof(*n2));
		uint32_t *f2;

		if (!n2)
			return -ENOMEM;
		res->net = n2;
		f2 = realloc(res->sflags, cap * sizeof(*f2));
		if (!f2)
			return -ENOMEM;
		res->sflags = f2;
		res->cap = cap;
	}
	res->net[res->n] = net;
	res->sflags[res->n] = flags;
	res->n++;
	return 0;
}

int kb_result_push_event(struct kb_result *res, unsigned int x, int64_t net)
{
	struct kb_ev_result *ev = &res->ev[x];

	if (ev->n == ev->cap) {
		size_t cap = ev->cap ? ev->cap * 2 : 1024;
		int64_t *n2 = realloc(ev->net, cap * sizeof(*n2));

		if (!n2)
			return -ENOMEM;
		ev->net = n2;
		ev->cap = cap;
	}
	ev->net[ev->n++] = net;
	return 0;
}

/*
 * The kernel's exact integer summary recomputed from the samples, with the
 * kernel's own code (include/kbench/summary.h): the same figures to the
 * last digit.  The corrected figures stay as they are.
 */
void kb_result_summarize(struct kb_result *res, uint32_t iterations)
{
	struct kbench_summary sum;
	kbench_s64 *scratch;
	unsigned int i;

	scratch = malloc((res->n ? res->n : 1) * sizeof(*scratch));
	if (!scratch)
		return;
	kbench_summarize(&sum, res->net, res->sflags, (unsigned int)res->n,
			 iterations, scratch);
	free(scratch);
	res->samples = sum.samples;
	res->valid = sum.valid;
	for (i = 0; i < KB_EXCL_N; i++)
		res->excl[i] = sum.excluded[i];
	res->net_min = sum.min;
	res->net_median = sum.median;
	res->net_max = sum.max;
	res->net_sum = sum.sum;
	res->per_iter_min_milli = sum.per_iter_min_milli;
	res->per_iter_median_milli = sum.per_iter_median_milli;
	res->flags = (res->flags & ~KBENCH_RESULT_F_EXCLUDED) | sum.flags;
}

double kb_run_ns(const struct kb_run *r, double cycles)
{
	if (r->metric[0])
		return NAN;
	return r->counter_hz ? cycles * 1e9 / (double)r->counter_hz : NAN;
}

const char *kb_run_unit(const struct kb_run *r)
{
	return r->metric[0] ? r->metric : "cycles";
}

int kb_run_event_index(const struct kb_run *r, const char *name)
{
	unsigned int x;

	for (x = 0; x < r->nevents; x++)
		if (!strcmp(r->events[x].name, name))
			return (int)x;
	return -1;
}

/*
 * The valid ones of @n samples (@net, @flags) per iteration, sorted, into
 * *@sorted (replaced), and their statistics.
 */
static int analyze_values(const int64_t *net, const uint32_t *flags, size_t n,
			  uint32_t iterations, double **sorted,
			  struct kb_stats *st)
{
	size_t i, k = 0;

	free(*sorted);
	*sorted = malloc((n ? n : 1) * sizeof(double));
	if (!*sorted)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!flags[i])
			(*sorted)[k++] = (double)net[i] /
					 (double)(iterations ? iterations : 1);
	qsort(*sorted, k, sizeof(double), kb_cmp_double);
	kb_stats_sorted(*sorted, k, st);
	return 0;
}

int kb_result_analyze(struct kb_result *res, uint32_t iterations)
{
	unsigned int x;
	int err;

	err = analyze_values(res->net, res->sflags, res->n, iterations,
			     &res->sorted, &res->st);
	if (err)
		return err;
	res->have_stats = res->n > 0;
	for (x = 0; x < KBENCH_EVENTS_MAX; x++) {
		struct kb_ev_result *ev = &res->ev[x];

		/* an event's samples are the result's, or it has none */
		if (!ev->net || ev->n != res->n)
			continue;
		err = analyze_values(ev->net, res->sflags, ev->n, iterations,
				     &ev->sorted, &ev->st);
		if (err)
			return err;
		ev->have_stats = ev->n > 0;
	}
	return 0;
}

int kb_run_analyze(struct kb_run *r)
{
	unsigned int i;
	int err = 0;

	for (i = 0; i < r->nres; i++)
		err = err ? err : kb_result_analyze(&r->res[i], r->iterations);
	if (r->has_overhead)
		err = err ? err : kb_result_analyze(&r->overhead, r->iterations);
	return err;
}

void kb_run_correct_events(struct kb_run *r)
{
	struct kbench_summary s, o;
	unsigned int i, x;

	if (!r->has_overhead)
		return;
	for (i = 0; i < r->nres; i++) {
		for (x = 0; x < r->nevents; x++) {
			struct kb_ev_result *ev = &r->res[i].ev[x];

			memset(&s, 0, sizeof(s));
			memset(&o, 0, sizeof(o));
			s.per_iter_min_milli = ev->per_iter_min_milli;
			s.per_iter_median_milli = ev->per_iter_median_milli;
			o.per_iter_min_milli = r->overhead.ev[x].per_iter_min_milli;
			o.per_iter_median_milli =
				r->overhead.ev[x].per_iter_median_milli;
			kbench_correct(&s, &o);
			ev->corr_min_milli = s.corr_min_milli;
			ev->corr_median_milli = s.corr_median_milli;
		}
	}
}

static void ev_free(struct kb_ev_result *ev)
{
	free(ev->net);
	free(ev->sorted);
	memset(ev, 0, sizeof(*ev));
}

/* Event @x's figures in the counter's place in @res; the counter's go. */
static void result_take_event(struct kb_result *res, int x)
{
	struct kb_ev_result ev = { 0 };
	unsigned int k;

	if (x >= 0) {
		ev = res->ev[x];
		memset(&res->ev[x], 0, sizeof(res->ev[x]));
	}
	for (k = 0; k < KBENCH_EVENTS_MAX; k++)
		ev_free(&res->ev[k]);
	free(res->net);
	free(res->sorted);
	res->net_min = ev.net_min;
	res->net_median = ev.net_median;
	res->net_max = ev.net_max;
	res->net_sum = ev.net_sum;
	res->per_iter_min_milli = ev.per_iter_min_milli;
	res->per_iter_median_milli = ev.per_iter_median_milli;
	res->corr_min_milli = ev.corr_min_milli;
	res->corr_median_milli = ev.corr_median_milli;
	res->net = ev.net;
	res->sorted = NULL;
	res->have_stats = false;
	if (x < 0) {
		/* no such event: no samples at all */
		res->n = res->cap = 0;
		res->valid = 0;
		return;
	}
	res->cap = ev.cap;
	if (ev.n != res->n)
		res->n = 0;
}

void kb_run_use_metric(struct kb_run *r, const char *name)
{
	int x = kb_run_event_index(r, name);
	unsigned int i;

	kb_run_correct_events(r);
	for (i = 0; i < r->nres; i++)
		result_take_event(&r->res[i], x);
	if (r->has_overhead)
		result_take_event(&r->overhead, x);
	snprintf(r->metric, sizeof(r->metric), "%s", name);
	r->metric_missing = x < 0;
	r->nevents = 0;
}

static void result_free(struct kb_result *res)
{
	unsigned int x;

	free(res->net);
	free(res->sflags);
	free(res->sorted);
	for (x = 0; x < KBENCH_EVENTS_MAX; x++)
		ev_free(&res->ev[x]);
}

void kb_run_free(struct kb_run *r)
{
	unsigned int i;

	for (i = 0; i < KBENCH_RUN_ROUTINES_MAX; i++)
		result_free(&r->res[i]);
	result_free(&r->overhead);
	memset(r, 0, sizeof(*r));
}

/* --- kernel side --- */

static void parse_result(struct nlattr *nest, struct kb_result *res)
{
	struct nlattr *tb[KBENCH_A_RESULT_MAX + 1], *a;
	int rem;

	if (nla_parse_nested(tb, KBENCH_A_RESULT_MAX, nest, NULL) < 0)
		return;
	snprintf(res->routine, sizeof(res->routine), "%s",
		 kb_str(tb[KBENCH_A_RESULT_ROUTINE], "?"));
	res->index = kb_u32(tb[KBENCH_A_RESULT_INDEX], 0);
	res->samples = kb_u32(tb[KBENCH_A_RESULT_SAMPLES], 0);
	res->valid = kb_u32(tb[KBENCH_A_RESULT_VALID], 0);
	res->excl[KB_EXCL_CPU] = kb_u32(tb[KBENCH_A_RESULT_EXCL_CPU], 0);
	res->excl[KB_EXCL_BACKWARDS] = kb_u32(tb[KBENCH_A_RESULT_EXCL_BACKWARDS], 0);
	res->excl[KB_EXCL_NMI] = kb_u32(tb[KBENCH_A_RESULT_EXCL_NMI], 0);
	res->excl[KB_EXCL_SMI] = kb_u32(tb[KBENCH_A_RESULT_EXCL_SMI], 0);
	res->excl[KB_EXCL_WINDOW] = kb_u32(tb[KBENCH_A_RESULT_EXCL_WINDOW], 0);
	res->excl[KB_EXCL_REFERENCE] =
		kb_u32(tb[KBENCH_A_RESULT_EXCL_REFERENCE], 0);
	res->excl[KB_EXCL_EVENT] = kb_u32(tb[KBENCH_A_RESULT_EXCL_EVENT], 0);
	res->excl[KB_EXCL_STEAL] = kb_u32(tb[KBENCH_A_RESULT_EXCL_STEAL], 0);
	res->net_min = kb_s64(tb[KBENCH_A_RESULT_NET_MIN], 0);
	res->net_median = kb_s64(tb[KBENCH_A_RESULT_NET_MEDIAN], 0);
	res->net_max = kb_s64(tb[KBENCH_A_RESULT_NET_MAX], 0);
	res->net_sum = kb_s64(tb[KBENCH_A_RESULT_NET_SUM], 0);
	res->per_iter_min_milli = kb_s64(tb[KBENCH_A_RESULT_PER_ITER_MIN_MILLI], 0);
	res->per_iter_median_milli =
		kb_s64(tb[KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI], 0);
	res->has_corr = tb[KBENCH_A_RESULT_CORR_MIN_MILLI] != NULL;
	res->corr_min_milli = kb_s64(tb[KBENCH_A_RESULT_CORR_MIN_MILLI], 0);
	res->corr_median_milli = kb_s64(tb[KBENCH_A_RESULT_CORR_MEDIAN_MILLI], 0);
	res->flags = kb_u32(tb[KBENCH_A_RESULT_FLAGS], 0);
	res->bytes_per_iter = kb_u32(tb[KBENCH_A_RESULT_BYTES_PER_ITER], 0);
	res->has_arg = tb[KBENCH_A_RESULT_ARG] != NULL;
	res->arg = kb_u64(tb[KBENCH_A_RESULT_ARG], 0);
	/* EVENT is a multi-attr: each event's summary, by its index */
	nla_for_each_nested(a, nest, rem) {
		struct nlattr *eb[KBENCH_A_EVENT_SUMMARY_MAX + 1];
		struct kb_ev_result *ev;
		uint32_t x;

		if (nla_type(a) != KBENCH_A_RESULT_EVENT ||
		    nla_parse_nested(eb, KBENCH_A_EVENT_SUMMARY_MAX, a, NULL) < 0)
			continue;
		x = kb_u32(eb[KBENCH_A_EVENT_SUMMARY_INDEX], KBENCH_EVENTS_MAX);
		if (x >= KBENCH_EVENTS_MAX)
			continue;
		ev = &res->ev[x];
		ev->net_min = kb_s64(eb[KBENCH_A_EVENT_SUMMARY_NET_MIN], 0);
		ev->net_median = kb_s64(eb[KBENCH_A_EVENT_SUMMARY_NET_MEDIAN], 0);
		ev->net_max = kb_s64(eb[KBENCH_A_EVENT_SUMMARY_NET_MAX], 0);
		ev->net_sum = kb_s64(eb[KBENCH_A_EVENT_SUMMARY_NET_SUM], 0);
		ev->per_iter_min_milli =
			kb_s64(eb[KBENCH_A_EVENT_SUMMARY_PER_ITER_MIN_MILLI], 0);
		ev->per_iter_median_milli =
			kb_s64(eb[KBENCH_A_EVENT_SUMMARY_PER_ITER_MEDIAN_MILLI], 0);
	}
}

/* One EVENT_INFO nest of the RUN reply into @e. */
static void parse_event_info(struct nlattr *nest, struct kb_event_desc *e)
{
	struct nlattr *tb[KBENCH_A_EVENT_MAX + 1];

	if (nla_parse_nested(tb, KBENCH_A_EVENT_MAX, nest, NULL) < 0)
		return;
	snprintf(e->name, sizeof(e->name), "%s",
		 kb_str(tb[KBENCH_A_EVENT_NAME], "?"));
	snprintf(e->pmu, sizeof(e->pmu), "%s",
		 kb_str(tb[KBENCH_A_EVENT_PMU], ""));
	e->type = kb_u32(tb[KBENCH_A_EVENT_TYPE], 0);
	e->config = kb_u64(tb[KBENCH_A_EVENT_CONFIG], 0);
	e->enabled_ns = kb_u64(tb[KBENCH_A_EVENT_ENABLED_NS], 0);
	e->running_ns = kb_u64(tb[KBENCH_A_EVENT_RUNNING_NS], 0);
}

static int run_reply_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct kb_run *r = arg;
	struct nlattr *a;
	int rem;

	r->cpu = kb_u32(tb[KBENCH_A_RUN_CPU], 0);
	r->samples = kb_u32(tb[KBENCH_A_RUN_SAMPLES], 0);
	r->iterations = kb_u32(tb[KBENCH_A_RUN_ITERATIONS], 0);
	r->target_ns = kb_u32(tb[KBENCH_A_RUN_TARGET_NS], 0);
	r->warmup = kb_u32(tb[KBENCH_A_RUN_WARMUP], 0);
	r->run_id = kb_u32(tb[KBENCH_A_RUN_ID], 0);
	r->adaptive = kb_u32(tb[KBENCH_A_RUN_ADAPTIVE], 0);
	snprintf(r->counter, sizeof(r->counter), "%s",
		 kb_str(tb[KBENCH_A_RUN_COUNTER], "?"));
	r->counter_hz = kb_u64(tb[KBENCH_A_RUN_COUNTER_HZ], 0);
	r->elapsed_ns = kb_u64(tb[KBENCH_A_RUN_ELAPSED_NS], 0);
	r->span_cycles = kb_u64(tb[KBENCH_A_RUN_SPAN_CYCLES], 0);
	r->routine_cycles = kb_u64(tb[KBENCH_A_RUN_ROUTINE_CYCLES], 0);
	r->window_cycles = kb_u64(tb[KBENCH_A_RUN_WINDOW_CYCLES], 0);
	r->mem_bytes = kb_u64(tb[KBENCH_A_RUN_MEM_BYTES], 0);
	r->status = kb_u32(tb[KBENCH_A_RUN_STATUS], 0);
	r->nres = 0;
	/* RESULT is a multi-attr: walk them all, in request order */
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) == KBENCH_A_RUN_RESULT &&
		    r->nres < KBENCH_RUN_ROUTINES_MAX)
			parse_result(a, &r->res[r->nres++]);
		else if (nla_type(a) == KBENCH_A_RUN_OVERHEAD) {
			parse_result(a, &r->overhead);
			r->has_overhead = true;
		} else if (nla_type(a) == KBENCH_A_RUN_EVENT_INFO &&
			   r->nevents < KBENCH_EVENTS_MAX) {
			parse_event_info(a, &r->events[r->nevents++]);
		}
	}
	kb_run_correct_events(r);
	return 0;
}

struct fetch {
	struct kb_run *r;
	uint32_t first_mismatch;
	int err;
};

static int samples_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct fetch *f = arg;
	struct kb_result *res;
	uint32_t idx = kb_u32(tb[KBENCH_A_SAMPLES_ROUTINE], 0);
	size_t n, i;
	const unsigned char *net, *fl;
	unsigned int x = 0;
	struct kb_page pg;
	struct nlattr *a;
	int rem, err;

	if (idx < f->r->nres)
		res = &f->r->res[idx];
	else if (idx == f->r->nres)
		res = &f->r->overhead;
	else
		return 0;
	err = kb_page_decode(tb, &pg);
	if (err <= 0) {
		f->err = err;
		return err;
	}
	n = pg.n;
	if (pg.first != res->n)
		f->first_mismatch++;
	net = pg.net;
	fl = pg.flags;
	for (i = 0; i < n; i++) {
		int64_t v;
		uint32_t fv;

		memcpy(&v, net + i * sizeof(v), sizeof(v));
		memcpy(&fv, fl + i * sizeof(fv), sizeof(fv));
		if (kb_result_push(res, v, fv)) {
			f->err = -ENOMEM;
			return -1;
		}
	}
	/* EVENT_NET: one array per event of the run, in its order */
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) != KBENCH_A_SAMPLES_EVENT_NET)
			continue;
		if (x < f->r->nevents &&
		    (size_t)nla_len(a) / sizeof(int64_t) >= n) {
			net = nla_data(a);
			for (i = 0; i < n; i++) {
				int64_t v;

				memcpy(&v, net + i * sizeof(v), sizeof(v));
				if (kb_result_push_event(res, x, v)) {
					f->err = -ENOMEM;
					return -1;
				}
			}
		}
		x++;
	}
	return 0;
}

int kb_run_fetch_samples(struct kb_nl *nl, uint32_t run_id, struct kb_run *r)
{
	struct fetch f = { r, 0, 0 };
	int err;

	err = kb_samples_dump(nl, run_id, false, 0, samples_cb, &f);
	if (err)
		return f.err ? f.err : err;
	if (f.first_mismatch)
		fprintf(stderr, "%s: warning: %u sample pages out of order\n",
			prog, f.first_mismatch);
	return f.err;
}

static int info_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct kb_run *r = arg;

	(void)nlh;
	snprintf(r->kernel, sizeof(r->kernel), "%s",
		 kb_str(tb[KBENCH_A_INFO_KERNEL], ""));
	r->counter_constant = kb_u32(tb[KBENCH_A_INFO_COUNTER_FLAGS], 0) &
			      KBENCH_COUNTER_F_CONSTANT;
	kb_kernel_env_parse(tb, &r->kenv);
	return 0;
}

void kb_run_fetch_info(struct kb_nl *nl, struct kb_run *r)
{
	bool quiet = nl->quiet;

	nl->quiet = true;
	r->counter_constant = true;
	kb_nl_request(nl, kb_nl_msg(nl, KBENCH_CMD_INFO, false),
		      KBENCH_A_INFO_MAX, info_cb, r);
	nl->quiet = quiet;
}

void kb_run_stamp(struct kb_run *r)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;

	if (!r->kernel[0] && !uname(&u))
		snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
	gmtime_r(&now, &tm);
	strftime(r->date, sizeof(r->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void kb_run_env(struct kb_run *r)
{
	kb_env_collect(&r->env, &r->kenv, (int)r->cpu);
	r->has_env = true;
}

int kb_run_kernel(struct kb_nl *nl, const struct kb_run_req *q,
		  struct kb_run *r)
{
	struct nl_msg *msg;
	unsigned int i;
	int err;

	memset(r, 0, sizeof(*r));
	kb_run_fetch_info(nl, r);
	msg = kb_nl_msg(nl, KBENCH_CMD_RUN, false);
	if (!msg)
		return kb_nl_request(nl, NULL, 0, NULL, NULL);
	for (i = 0; i < q->n; i++)
		if (nla_put_string(msg, KBENCH_A_RUN_ROUTINE, q->names[i]) < 0)
			goto out_nomem;
	if ((q->has_cpu && nla_put_u32(msg, KBENCH_A_RUN_CPU, q->cpu) < 0) ||
	    (q->has_samples && nla_put_u32(msg, KBENCH_A_RUN_SAMPLES, q->samples) < 0) ||
	    (q->has_iterations &&
	     nla_put_u32(msg, KBENCH_A_RUN_ITERATIONS, q->iterations) < 0) ||
	    (q->has_target && nla_put_u32(msg, KBENCH_A_RUN_TARGET_NS, q->target_ns) < 0) ||
	    (q->has_warmup && nla_put_u32(msg, KBENCH_A_RUN_WARMUP, q->warmup) < 0))
		goto out_nomem;
	for (i = 0; i < q->nargs; i++)
		if (nla_put_u64(msg, KBENCH_A_RUN_ARG, q->args[i]) < 0)
			goto out_nomem;
	for (i = 0; i < q->nevents; i++)
		if (nla_put_string(msg, KBENCH_A_RUN_EVENT, q->events[i]) < 0)
			goto out_nomem;
	if (q->progress)
		err = kb_progress_request(nl, msg, KBENCH_A_RUN_MAX,
					  run_reply_cb, r);
	else
		err = kb_nl_request(nl, msg, KBENCH_A_RUN_MAX, run_reply_cb, r);
	if (err)
		return err;
	r->has_arg = q->nargs == 1;
	r->arg = q->nargs == 1 ? q->args[0] : 0;
	kb_run_stamp(r);
	kb_run_env(r);
	err = kb_run_fetch_samples(nl, r->run_id, r);
	if (err)
		fprintf(stderr, "%s: warning: samples of run %u unavailable; statistics from the kernel summary only\n",
			prog, r->run_id);
	return 0;

out_nomem:
	nlmsg_free(msg);
	return kb_nl_request(nl, NULL, 0, NULL, NULL);
}

/* --- output --- */

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

/* Event @x of @r is perf's generic @config (by any of its names)? */
static bool event_is(const struct kb_run *r, unsigned int x,
		     unsigned long long config)
{
	return r->events[x].type == PERF_TYPE_HARDWARE &&
	       r->events[x].config == config;
}

void kb_result_derived(const struct kb_run *r, const struct kb_result *res,
		       struct kb_derived *d)
{
	int64_t insns = 0, cycles = 0;
	bool has_i = false, has_c = false;
	unsigned int x;

	d->ipc = NAN;
	d->hz = NAN;
	if (r->metric[0] || !res->valid)
		return;
	for (x = 0; x < r->nevents; x++) {
		if (event_is(r, x, PERF_COUNT_HW_INSTRUCTIONS)) {
			insns = res->ev[x].net_sum;
			has_i = true;
		} else if (event_is(r, x, PERF_COUNT_HW_CPU_CYCLES)) {
			cycles = res->ev[x].net_sum;
			has_c = true;
		}
	}
	if (has_i && has_c && cycles > 0)
		d->ipc = (double)insns / (double)cycles;
	if (has_c && res->net_sum > 0 && r->counter_hz)
		d->hz = (double)cycles / (double)res->net_sum *
			(double)r->counter_hz;
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

/* One event's summary and statistics in a routine (-v, JSON). */
static void print_event(const struct kb_run *r, const struct kb_result *res,
			unsigned int x, unsigned int flags)
{
	const struct kb_ev_result *ev = &res->ev[x];
	const struct kb_stats *s = &ev->st;
	double it = r->iterations ? (double)r->iterations : 1;

	out_open_object(r->events[x].name);
	out_text("    %s per sample:", r->events[x].name);
	print_summary("net", "per_iter", "      per iteration:", "",
		      ev->net_min, ev->net_median, ev->net_max, ev->net_sum,
		      ev->per_iter_min_milli, ev->per_iter_median_milli,
		      res->valid, it);
	if (res->has_corr && res != &r->overhead) {
		out_open_object("corrected_per_iter");
		out_double("min", "; corrected (- empty): min %.3f",
			   (double)ev->corr_min_milli / 1000);
		out_double("median", ", median %.3f",
			   (double)ev->corr_median_milli / 1000);
		out_close_object();
	}
	out_text("\n");
	if (ev->have_stats && !(flags & KB_PRINT_BRIEF)) {
		out_open_object("stats");
		out_uint("count", "      statistics of %llu valid samples per iteration:",
			 s->count);
		out_double("min", " min %.3f", s->min);
		out_double("p1", ", p1 %.3f", s->p1);
		out_double("p5", ", p5 %.3f", s->p5);
		out_double("p25", ", p25 %.3f", s->p25);
		out_double("median", ", median %.3f", s->median);
		out_double("p75", ", p75 %.3f", s->p75);
		out_double("p95", ", p95 %.3f", s->p95);
		out_double("p99", ", p99 %.3f", s->p99);
		out_double("max", ", max %.3f", s->max);
		out_double("mean", ", mean %.3f", s->mean);
		out_double("stddev", ", stddev %.3f", s->stddev);
		out_double("mad", ", MAD %.3f", s->mad);
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

void kb_run_print_header(const struct kb_run *r)
{
	/*
	 * A run of one routine is one JSON object with the result's members,
	 * whose "arg" says it: the run's would be the same key twice.
	 */
	if (r->has_arg && !(r->nres == 1 && r->res[0].has_arg))
		out_uint("arg", "arg %llu: ", r->arg);
	out_string("side", NULL, r->user ? "user" : "kernel");
	out_uint("run_id", r->user ? "userspace: " : "run %llu: ", r->run_id);
	out_uint("cpu", "cpu %llu, ", r->cpu);
	out_uint("samples", "%llu samples", r->samples);
	out_uint("iterations", " x %llu iterations", r->iterations);
	out_bool("adaptive", NULL, r->adaptive);
	if (r->adaptive)
		out_uint("target_ns", " (adaptive, target %llu ns)", r->target_ns);
	else
		out_uint("target_ns", " (fixed; target %llu ns unused)",
			 r->target_ns);
	out_uint("warmup", ", warmup %llu\n", r->warmup);
	out_string("counter", "  counter %s", r->counter);
	out_uint("counter_hz", " @ %llu Hz", r->counter_hz);
	out_uint("elapsed_ns", ", elapsed %llu ns", r->elapsed_ns);
	out_uint("span_cycles", ", span %llu cycles", r->span_cycles);
	out_uint("routine_cycles", " (in the routines %llu", r->routine_cycles);
	out_uint("window_cycles", ", in the windows %llu)", r->window_cycles);
	out_double("efficiency", ", efficiency %.3f",
		   r->span_cycles ? (double)r->routine_cycles /
				    (double)r->span_cycles : NAN);
	out_uint("mem_bytes", ", memory %llu bytes", r->mem_bytes);
	out_string("status", ", %s\n",
		   r->status == KBENCH_RUN_TIMEOUT ? "timeout" : "complete");
	if (r->kernel[0])
		out_string("kernel", "  kernel %s", r->kernel);
	if (r->date[0])
		out_string("date", r->kernel[0] ? ", %s" : "  %s", r->date);
	if (r->kernel[0] || r->date[0])
		out_text("\n");
	out_string("metric", NULL, kb_run_unit(r));
	if (r->metric[0])
		out_text("  every cycles figure below counts %s%s\n", r->metric,
			 r->metric_missing ? " (not counted in this run)" : "");
	if (r->wall_ns && r->cpu_ns)
		out_double("cpu_share", "  the run had its CPU %.3f of the time\n",
			   (double)r->cpu_ns / (double)r->wall_ns);
	if (r->until)
		kb_until_print(r->until, r);
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
	stat_row(r, "min", "min", s->min);
	stat_row(r, "p1", "p1", s->p1);
	stat_row(r, "p5", "p5", s->p5);
	stat_row(r, "p25", "p25", s->p25);
	stat_row(r, "median", "median", s->median);
	stat_row(r, "p75", "p75", s->p75);
	stat_row(r, "p95", "p95", s->p95);
	stat_row(r, "p99", "p99", s->p99);
	stat_row(r, "max", "max", s->max);
	stat_row(r, "mean", "mean", s->mean);
	stat_row(r, "stddev", "stddev", s->stddev);
	stat_row(r, "MAD", "mad", s->mad);
	stat_row(r, "median CI lo", "median_ci95_lo", s->ci_lo);
	stat_row(r, "median CI hi", "median_ci95_hi", s->ci_hi);
	stat_row(r, "mode", "mode", s->mode.mode);
	out_double("median_ci95_coverage", "    median CI coverage %.4f", s->ci_coverage);
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

	(void)r;
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
		out_text("  histogram (cycles/iter):\n");
		kb_hist_print(out_file(), &h, 50, flags & KB_PRINT_LOG,
			      res->st.min, res->st.median, res->st.mode.mode,
			      "cycles/iter");
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
	out_uint("index", " [%llu]", res->index);
	if (res->has_arg)
		out_uint("arg", ", arg %llu", res->arg);
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

	out_text("  kernel summary%s:\n", r->user ? " (computed in userspace)" : "");
	out_text("    net %s/sample:", kb_run_unit(r));
	snprintf(label, sizeof(label), "    %s/iter:", kb_run_unit(r));
	print_summary("net_cycles", "net_cycles_per_iter", label, "\n",
		      res->net_min, res->net_median, res->net_max, res->net_sum,
		      res->per_iter_min_milli, res->per_iter_median_milli,
		      res->valid, it);
	out_open_object("ns_per_iter");
	out_double("min", "    ns/iter:           min %.3f",
		   kb_run_ns(r, (double)res->per_iter_min_milli / 1000));
	out_double("median", ", median %.3f",
		   kb_run_ns(r, (double)res->per_iter_median_milli / 1000));
	out_double("max", ", max %.3f\n", kb_run_ns(r, (double)res->net_max / it));
	out_close_object();
	if (res->has_corr && res != &r->overhead) {
		out_open_object("corrected_cycles_per_iter");
		out_double("min", "    corrected (- empty): min %.3f",
			   (double)res->corr_min_milli / 1000);
		out_double("median", ", median %.3f",
			   (double)res->corr_median_milli / 1000);
		out_text(" %s/iter", kb_run_unit(r));
		out_close_object();
		out_open_object("corrected_ns_per_iter");
		out_double("min", " = min %.3f",
			   kb_run_ns(r, (double)res->corr_min_milli / 1000));
		out_double("median", ", median %.3f ns/iter\n",
			   kb_run_ns(r, (double)res->corr_median_milli / 1000));
		out_close_object();
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

/*
 * Measure @q: in the kernel, or with @user the userspace twins (the same
 * defaults as the kernel's).  0 with @r filled, or -errno (printed): the
 * module missing or no such twin is -ENOENT.
 */
int kb_run_measure(const struct kb_run_req *q, bool user, struct kb_run *r)
{
	struct kb_nl nl;
	int err;

	if (user) {
		struct kb_twin_req tq = {
			.n = q->n,
			.cpu = q->has_cpu ? (int)q->cpu : -1,
			.samples = q->has_samples ? q->samples : KB_RUN_DEFAULT_SAMPLES,
			.iterations = q->has_iterations ? q->iterations : 0,
			.target_ns = q->has_target ? q->target_ns :
				     KB_RUN_DEFAULT_TARGET_NS,
			.warmup = q->has_warmup ? q->warmup : KB_RUN_DEFAULT_WARMUP,
			.nargs = q->nargs,
		};

		memcpy(tq.names, q->names, sizeof(tq.names));
		memcpy(tq.args, q->args, sizeof(tq.args));
		memcpy(tq.events, q->events, sizeof(tq.events));
		tq.nevents = q->nevents;
		err = kb_twin_run(&tq, r);
		if (err) {
			kb_run_free(r);
			return err;
		}
		r->has_arg = q->nargs == 1;
		r->arg = q->nargs == 1 ? q->args[0] : 0;
		kb_run_stamp(r);
		kb_run_env(r);
		return 0;
	}
	err = kb_nl_open(&nl);
	if (err)
		return err;
	err = kb_run_kernel(&nl, q, r);
	kb_nl_close(&nl);
	if (err)
		kb_run_free(r);
	return err;
}
