// SPDX-License-Identifier: GPL-2.0
/*
 * The RUN request and its reply, SAMPLES_GET into a run's results, and the
 * INFO fields a run needs (runreq.h).  The reply's fields are parsed from
 * the schema tables (model/schema.h) by kb_fields_parse().
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fields.h"
#include "base.h"
#include "nl.h"
#include "pages.h"
#include "progress.h"
#include "runreq.h"

static void parse_result(struct nlattr *nest, struct kb_result *res)
{
	struct nlattr *tb[KBENCH_A_RESULT_MAX + 1], *a;
	int rem;

	if (nla_parse_nested(tb, KBENCH_A_RESULT_MAX, nest, NULL) < 0)
		return;
	kb_fields_parse(kb_result_fields, tb, res);
	kb_fields_parse(kb_summary_fields, tb, res);
	kb_fields_parse(kb_excl_fields, tb, res);
	res->flags = kb_u32(tb[KBENCH_A_RESULT_FLAGS], 0);
	/* EVENT is a multi-attr: each event's summary, by its index */
	nla_for_each_nested(a, nest, rem) {
		struct nlattr *eb[KBENCH_A_EVENT_SUMMARY_MAX + 1];
		uint32_t x;

		if (nla_type(a) != KBENCH_A_RESULT_EVENT ||
		    nla_parse_nested(eb, KBENCH_A_EVENT_SUMMARY_MAX, a, NULL) < 0)
			continue;
		x = kb_u32(eb[KBENCH_A_EVENT_SUMMARY_INDEX], KBENCH_EVENTS_MAX);
		if (x >= KBENCH_EVENTS_MAX)
			continue;
		kb_fields_parse(kb_ev_fields, eb, &res->ev[x]);
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

	kb_fields_parse(kb_run_fields, tb, r);
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
	const unsigned char *net;
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
	if (pg.ndivisor && !res->divs) {
		res->divs = calloc(2 * pg.ndivisor, sizeof(*res->divs));
		if (!res->divs) {
			f->err = -ENOMEM;
			return -1;
		}
		for (i = 0; i < 2 * pg.ndivisor; i++) {
			uint32_t d;

			memcpy(&d, (const char *)pg.divisor + 4 * i, sizeof(d));
			res->divs[i] = d;
		}
		res->ndivs = 2 * pg.ndivisor;
	}
	for (i = 0; i < n; i++) {
		int64_t v;
		uint32_t fv;

		kb_page_sample(&pg, i, &v, &fv);
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

/* SAMPLES_GET of @run_id into @r's results (allocating them by index). */
static int kb_run_fetch_samples(struct kb_nl *nl, uint32_t run_id, struct kb_run *r)
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

/* INFO fields a run needs (kernel release, counter flags). */
static void kb_run_fetch_info(struct kb_nl *nl, struct kb_run *r)
{
	bool quiet = nl->quiet;

	nl->quiet = true;
	r->counter_constant = true;
	kb_nl_request(nl, kb_nl_msg(nl, KBENCH_CMD_INFO, false),
		      KBENCH_A_INFO_MAX, info_cb, r);
	nl->quiet = quiet;
}

/* The RUN request of @q (and @nr @cpus: a concurrent run); NULL: no memory. */
static struct nl_msg *run_msg(struct kb_nl *nl, const struct kb_run_req *q,
			      const int32_t *cpus, unsigned int nr)
{
	struct nl_msg *msg = kb_nl_msg(nl, KBENCH_CMD_RUN, false);
	unsigned int i;

	if (!msg)
		return NULL;
	/* the answer as notifications after the ack (run_answer()) */
	if (nl->run_ntf && nla_put_flag(msg, KBENCH_A_RUN_NOTIFY) < 0)
		goto out_nomem;
	for (i = 0; i < q->n; i++)
		if (nla_put_string(msg, KBENCH_A_RUN_ROUTINE, q->names[i]) < 0)
			goto out_nomem;
#define KB_REQ_PUT(m, attr)						\
	if (q->has_##m && nla_put_u32(msg, attr, q->m) < 0)		\
		goto out_nomem;
	KB_REQ_FIELDS(KB_REQ_PUT)
#undef KB_REQ_PUT
	for (i = 0; i < q->nargs; i++)
		if (nla_put_u64(msg, KBENCH_A_RUN_ARG, q->args[i]) < 0)
			goto out_nomem;
	for (i = 0; i < q->nevents; i++)
		if (nla_put_string(msg, KBENCH_A_RUN_EVENT, q->events[i]) < 0)
			goto out_nomem;
	for (i = 0; i < nr; i++)
		if (nla_put_u32(msg, KBENCH_A_RUN_CPUS, (uint32_t)cpus[i]) < 0)
			goto out_nomem;
	return msg;

out_nomem:
	nlmsg_free(msg);
	return NULL;
}

/* One RUN: with its estimate and progress when @q asks for them. */
static int run_request_once(struct kb_nl *nl, const struct kb_run_req *q,
			    struct nl_msg *msg, kb_nl_msg_cb cb, void *arg)
{
	if (!msg)
		return kb_nl_request(nl, NULL, 0, NULL, NULL);
	if (q->progress)
		return kb_progress_request(nl, msg, KBENCH_A_RUN_MAX, cb, arg,
					   q);
	return kb_nl_request(nl, msg, KBENCH_A_RUN_MAX, cb, arg);
}

/*
 * A RUN refused with -EAGAIN names a run that is ending where this one
 * would go (its CPU, or the memory it holds): the module's handler waits
 * for nothing, so the wait is here, every KB_RUN_RETRY_US, up to
 * KB_RUN_RETRIES times (60 s: a run ends within one window and its
 * routines' teardown); then the refusal is the error.
 */
#define KB_RUN_RETRY_US		100000
#define KB_RUN_RETRIES		600

/* The RUN of @q (@nr @cpus: a concurrent run), retried while one ends. */
static int run_request(struct kb_nl *nl, const struct kb_run_req *q,
		       const int32_t *cpus, unsigned int nr, kb_nl_msg_cb cb,
		       void *arg)
{
	bool quiet = nl->quiet;
	unsigned int tries;
	int err;

	nl->quiet = true;
	for (tries = 0;; tries++) {
		err = run_request_once(nl, q, run_msg(nl, q, cpus, nr), cb, arg);
		if (err != -EAGAIN || tries == KB_RUN_RETRIES)
			break;
		if (!tries && !quiet)
			fprintf(stderr, "%s: %s: waiting up to %d s\n", prog,
				nl->extack[0] ? nl->extack : strerror(EAGAIN),
				KB_RUN_RETRIES * (KB_RUN_RETRY_US / 1000) / 1000);
		usleep(KB_RUN_RETRY_US);
	}
	nl->quiet = quiet;
	if (err < 0 && !quiet)
		kb_nl_print_error(nl);
	return err;
}

/* RUN_GET of stored run @id: its answer again, each message into @cb. */
static int run_get(struct kb_nl *nl, uint32_t id, kb_nl_msg_cb cb, void *arg)
{
	struct nl_msg *msg = kb_nl_msg(nl, KBENCH_CMD_RUN_GET, true);

	if (msg && nla_put_u32(msg, KBENCH_A_RUN_ID, id) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return kb_nl_request(nl, msg, KBENCH_A_RUN_MAX, cb, arg);
}

/*
 * Whether a RUN asks for its answer as notifications (notify): until a
 * module that predates the attribute refuses it.
 */
static bool run_notify = true;

/*
 * The RUN of @q and its answer (run_request()): asked for as
 * notifications after the ack (notify, kb_nl.run_ntf), the way the
 * kernel answers a long measurement; asked for again as the request's
 * replies when the module refuses notify (older than it).  When the
 * module could not send a message of the answer (out of memory, the
 * requester's queue full) it kept the results and its ack (or end
 * notification) says so: -errno, and the run's id as the extack's cookie
 * (for notify the ack's cookie is the id anyway).  Then @reset forgets
 * what came and the answer is read again, by RUN_GET.
 */
static int run_answer(struct kb_nl *nl, const struct kb_run_req *q,
		      const int32_t *cpus, unsigned int nr, kb_nl_msg_cb cb,
		      void (*reset)(void *arg), void *arg)
{
	int err;

	/* run_request() still says that it waits for a run that ends */
	nl->hold_error = true;
	nl->run_ntf = run_notify;
	err = run_request(nl, q, cpus, nr, cb, arg);
	if (err == -EINVAL && nl->run_ntf &&
	    nl->bad_attr == KBENCH_A_RUN_NOTIFY) {
		run_notify = false;
		nl->run_ntf = false;
		reset(arg);
		err = run_request(nl, q, cpus, nr, cb, arg);
	}
	nl->run_ntf = false;
	nl->hold_error = false;
	if (err < 0 && nl->has_cookie && nl->cookie &&
	    nl->cookie <= UINT32_MAX && strstr(nl->extack, "run-get id")) {
		if (!nl->quiet)
			fprintf(stderr, "%s: %s: reading run %u again\n", prog,
				nl->extack[0] ? nl->extack : strerror(-err),
				(uint32_t)nl->cookie);
		reset(arg);
		return run_get(nl, (uint32_t)nl->cookie, cb, arg);
	}
	if (err < 0 && !nl->quiet)
		kb_nl_print_error(nl);
	return err;
}

/* A run's reply read again: it is one message, parsed whole. */
static void run_reset(void *arg)
{
	struct kb_run *r = arg;

	r->nres = 0;
	r->nevents = 0;
	r->has_overhead = false;
}

int kb_run_kernel(struct kb_nl *nl, const struct kb_run_req *q,
		  struct kb_run *r)
{
	int err;

	memset(r, 0, sizeof(*r));
	kb_run_fetch_info(nl, r);
	err = run_answer(nl, q, NULL, 0, run_reply_cb, run_reset, r);
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
}

/* A CPU_RUN nest's own figures, into that CPU's struct kb_run. */
#define CPU_RUN(m, t, a)						\
	{ #m, KB_FT_##t, offsetof(struct kb_run, m),			\
	  sizeof(((struct kb_run *)0)->m), KBENCH_A_CPU_RUN_##a, NULL, 0,	\
	  NULL, 0 },
static const struct kb_field cpu_run_fields[] = {
	CPU_RUN(cpu, U32, CPU) CPU_RUN(run_id, U32, ID)
	CPU_RUN(iterations, U32, ITERATIONS) CPU_RUN(elapsed_ns, U64, ELAPSED_NS)
	CPU_RUN(span_cycles, U64, SPAN_CYCLES)
	CPU_RUN(routine_cycles, U64, ROUTINE_CYCLES)
	CPU_RUN(window_cycles, U64, WINDOW_CYCLES)
	CPU_RUN(mem_bytes, U64, MEM_BYTES)
	{ NULL }
};

/*
 * A concurrent RUN's answer, over its messages until the ack: @cr, and
 * the INFO fields every CPU's run starts from.
 */
struct cpus_answer {
	struct kb_cpus_run *cr;
	struct kb_run info;
	bool figures;		/* the group's figures (skew-*) came */
};

/*
 * A message of a concurrent RUN's answer: each CPU_RUN nest a run of its
 * own, the group's figures (skew-*) where they are.  The module sends a
 * message per CPU and one of the group's figures (a module before that
 * sent one message with everything): the runs accumulate until the ack.
 */
static int cpus_reply_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct cpus_answer *ca = arg;
	struct kb_cpus_run *cr = ca->cr;
	struct kb_run tmpl = ca->info;
	struct nlattr *a;
	int rem;

	kb_fields_parse(kb_run_fields, tb, &tmpl);
	tmpl.status = kb_u32(tb[KBENCH_A_RUN_STATUS], 0);
	if (tb[KBENCH_A_RUN_SKEW_MAX]) {
		cr->skew_max = kb_u64(tb[KBENCH_A_RUN_SKEW_MAX], 0);
		cr->skew_median = kb_u64(tb[KBENCH_A_RUN_SKEW_MEDIAN], 0);
		cr->skew_bound = kb_u64(tb[KBENCH_A_RUN_SKEW_BOUND], 0);
		cr->skew_flagged = kb_u32(tb[KBENCH_A_RUN_SKEW_FLAGGED], 0);
		ca->figures = true;
	}
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		struct nlattr *cb[KBENCH_A_CPU_RUN_MAX + 1], *b;
		struct kb_run *r;
		int brem;

		if (nla_type(a) != KBENCH_A_RUN_CPU_RUN || cr->nr == cr->cap ||
		    nla_parse_nested(cb, KBENCH_A_CPU_RUN_MAX, a, NULL) < 0)
			continue;
		r = &cr->run[cr->nr++];
		*r = tmpl;
		kb_fields_parse(cpu_run_fields, cb, r);
		r->status = kb_u32(cb[KBENCH_A_CPU_RUN_STATUS], 0);
		nla_for_each_nested(b, a, brem) {
			if (nla_type(b) == KBENCH_A_CPU_RUN_RESULT &&
			    r->nres < KBENCH_RUN_ROUTINES_MAX) {
				parse_result(b, &r->res[r->nres++]);
			} else if (nla_type(b) == KBENCH_A_CPU_RUN_OVERHEAD) {
				parse_result(b, &r->overhead);
				r->has_overhead = true;
			}
		}
	}
	return 0;
}

/* The answer read again (RUN_GET): from nothing. */
static void cpus_reset(void *arg)
{
	struct cpus_answer *ca = arg;
	unsigned int c;

	for (c = 0; c < ca->cr->nr; c++)
		kb_run_free(&ca->cr->run[c]);
	memset(ca->cr->run, 0, ca->cr->cap * sizeof(*ca->cr->run));
	ca->cr->nr = 0;
	ca->figures = false;
}

int kb_run_kernel_cpus(struct kb_nl *nl, const struct kb_run_req *q,
		       const int32_t *cpus, unsigned int nr,
		       struct kb_cpus_run *cr)
{
	unsigned int c;
	int err;

	struct cpus_answer ca = { .cr = cr };

	memset(cr, 0, sizeof(*cr));
	cr->run = calloc(nr, sizeof(*cr->run));
	if (!cr->run)
		return -ENOMEM;
	cr->cap = nr;
	kb_run_fetch_info(nl, &ca.info);
	err = run_answer(nl, q, cpus, nr, cpus_reply_cb, cpus_reset, &ca);
	if (!err && (cr->nr != nr || !ca.figures)) {
		fprintf(stderr, "%s: --cpus: the module answered for %u of %u CPUs%s\n",
			prog, cr->nr, nr, ca.figures ? "" : ", without the skew");
		err = -EPROTO;
	}
	/* the skews: one per sample of each series (the overhead's too) */
	if (!err)
		cr->skew_samples = cr->run[0].samples * (cr->run[0].nres +
							 cr->run[0].has_overhead);
	for (c = 0; !err && c < nr; c++) {
		struct kb_run *r = &cr->run[c];

		r->has_arg = q->nargs == 1;
		r->arg = q->nargs == 1 ? q->args[0] : 0;
		kb_run_stamp(r);
		kb_run_env(r);
		if (kb_run_fetch_samples(nl, r->run_id, r))
			fprintf(stderr, "%s: warning: samples of run %u (CPU %u) unavailable; statistics from the kernel summary only\n",
				prog, r->run_id, r->cpu);
	}
	if (err) {
		for (c = 0; c < cr->nr; c++)
			kb_run_free(&cr->run[c]);
		free(cr->run);
		cr->run = NULL;
		cr->nr = 0;
	}
	return err;
}
