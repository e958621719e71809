// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the handlers of the "kbench" generic netlink family.
 *
 * The policies and op table are generated from the spec
 * (kbench_nl_gen.[ch]): the generated source is included here, by the
 * file whose handlers its op table names, and handed to the family
 * (kbench_family.c) at registration; each handler here has the name
 * kbench_nl_gen.h declares for it.  Checks the policies cannot express
 * (the machine, the module parameters, the stored runs) are made here,
 * each with an extack message naming its attribute.  What a RUN's thread
 * sends its requester later (progress, the reply, the ack) goes through
 * kbench_reply.c.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/task_work.h>
#include <linux/utsname.h>
#include <net/genetlink.h>

#include "kbench_nl_gen.c"
#include "kbench_compat.h"
#include "kbench_internal.h"

/* cb->args of a CLOCK_GET dump: .start's verdict (kbench_clock.c uses 0) */
#define KBENCH_CLOCK_DENIED	5

/*
 * Privilege is the socket's: netlink_capable() asks both the opener of the
 * socket that sent @skb and the sender now (a socket opened without the
 * capability and handed to a privileged writer is refused: the lesson of
 * CVE-2014-0181).
 */
static bool kbench_may_measure(const struct sk_buff *skb,
			       struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_PERFMON) ||
	    netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	NL_SET_ERR_MSG(extack,
		       "measuring needs CAP_PERFMON or CAP_SYS_ADMIN");
	return false;
}

static int kbench_info_fill(struct sk_buff *msg, const void *arg)
{
	if (nla_put_string(msg, KBENCH_A_INFO_VERSION, KBENCH_VERSION) ||
	    nla_put_string(msg, KBENCH_A_INFO_ARCH, utsname()->machine) ||
	    nla_put_string(msg, KBENCH_A_INFO_COUNTER, kbench_counter.name) ||
	    nla_put_u64_64bit(msg, KBENCH_A_INFO_COUNTER_HZ, kbench_counter.hz,
			      KBENCH_A_INFO_PAD) ||
	    nla_put_u32(msg, KBENCH_A_INFO_COUNTER_FLAGS, kbench_counter.flags) ||
	    nla_put_u32(msg, KBENCH_A_INFO_DETECTORS, kbench_counter.detectors) ||
	    nla_put_u32(msg, KBENCH_A_INFO_MAX_SAMPLES, kbench_max_samples) ||
	    nla_put_u32(msg, KBENCH_A_INFO_MAX_ITERATIONS,
			KBENCH_ITERATIONS_LIMIT) ||
	    nla_put_u32(msg, KBENCH_A_INFO_MAX_WINDOW_US, kbench_max_window_us) ||
	    nla_put_u32(msg, KBENCH_A_INFO_MAX_RUN_MS, kbench_max_run_ms) ||
	    nla_put_u32(msg, KBENCH_A_INFO_DUTY_PCT, kbench_duty_pct) ||
	    nla_put_u32(msg, KBENCH_A_INFO_RUNS_KEPT, kbench_runs_kept) ||
	    nla_put_u64_64bit(msg, KBENCH_A_INFO_STORE_BYTES_MAX,
			      kbench_store_bytes_max, KBENCH_A_INFO_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_INFO_STORE_BYTES,
			      kbench_store_bytes(), KBENCH_A_INFO_PAD) ||
	    nla_put_u32(msg, KBENCH_A_INFO_NR_CPUS, nr_cpu_ids) ||
	    nla_put_string(msg, KBENCH_A_INFO_KERNEL, utsname()->release) ||
	    nla_put_u32(msg, KBENCH_A_INFO_EVENTS_MAX, KBENCH_EVENTS_MAX) ||
	    nla_put_u64_64bit(msg, KBENCH_A_INFO_SETUP_BYTES_MAX,
			      kbench_setup_bytes_max, KBENCH_A_INFO_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_INFO_SETUP_BYTES,
			      kbench_builtin_setup_bytes(), KBENCH_A_INFO_PAD))
		return -EMSGSIZE;
	return kbench_env_put(msg);
}

int kbench_nl_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;

	msg = kbench_msg(info->snd_portid, info->snd_seq, KBENCH_CMD_INFO,
			 NLMSG_GOODSIZE, kbench_info_fill, NULL);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	return genlmsg_reply(msg, info);
}

/* An EVENT_SUMMARY nest: event @x of the run summarized over series @s. */
static int kbench_put_event_summary(struct sk_buff *msg, u32 x,
				    const struct kbench_run *run,
				    const struct kbench_series *s)
{
	const struct kbench_summary *sum = &s->xsum[x];
	const struct kbench_event_id id = {
		.index = x, .name = run->events[x].name,
	};
	struct nlattr *nest;

	nest = nla_nest_start(msg, KBENCH_A_RESULT_EVENT);
	if (!nest)
		return -EMSGSIZE;
	if (kbench_put_event_id(msg, &id) ||
	    kbench_put_event_figures(msg, sum)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int kbench_put_result(struct sk_buff *msg, int type, u32 index,
			     const struct kbench_run *run,
			     const struct kbench_series *s)
{
	const struct kbench_result_id id = {
		.routine = s->name, .index = index, .flags = s->sum.flags,
		.bytes_per_iter = s->bytes_per_iter, .has_arg = s->has_arg,
		.arg = s->arg,
	};
	struct nlattr *nest;
	u32 x;

	nest = nla_nest_start(msg, type);
	if (!nest)
		return -EMSGSIZE;
	if (kbench_put_result_id(msg, &id) || kbench_put_summary(msg, &s->sum))
		goto out_cancel;
	for (x = 0; x < run->nr_events; x++)
		if (kbench_put_event_summary(msg, x, run, s))
			goto out_cancel;
	nla_nest_end(msg, nest);
	return 0;

out_cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* An EVENT nest of the RUN reply: what event @ev counted, and how long. */
static int kbench_put_event_info(struct sk_buff *msg,
				 const struct kbench_event *ev)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, KBENCH_A_RUN_EVENT_INFO);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(msg, KBENCH_A_EVENT_NAME, ev->name) ||
	    nla_put_u32(msg, KBENCH_A_EVENT_TYPE, ev->type) ||
	    nla_put_u64_64bit(msg, KBENCH_A_EVENT_CONFIG, ev->config,
			      KBENCH_A_EVENT_PAD) ||
	    nla_put_string(msg, KBENCH_A_EVENT_PMU, ev->pmu) ||
	    nla_put_u64_64bit(msg, KBENCH_A_EVENT_ENABLED_NS, ev->enabled_ns,
			      KBENCH_A_EVENT_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_EVENT_RUNNING_NS, ev->running_ns,
			      KBENCH_A_EVENT_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * The request's plain u32 attributes and their defaults: each is taken
 * into run->u32[attribute] and echoed in the reply, in this order; the
 * policy bounds it (the spec).  A new one is its attribute in the spec, a
 * row here and its use.
 */
static const struct {
	int attr;
	u32 def;
} kbench_run_u32[] = {
	{ KBENCH_A_RUN_WARMUP, KBENCH_WARMUP_DEFAULT },
	{ KBENCH_A_RUN_MAX_WINDOW_US, 0 },
};

static void kbench_run_u32_get(struct kbench_run *run, struct nlattr **tb)
{
	u32 k;

	for (k = 0; k < ARRAY_SIZE(kbench_run_u32); k++) {
		struct nlattr *a = tb[kbench_run_u32[k].attr];

		run->u32[kbench_run_u32[k].attr] = a ? nla_get_u32(a) :
							kbench_run_u32[k].def;
	}
}

static int kbench_run_u32_put(struct sk_buff *msg, const struct kbench_run *run)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(kbench_run_u32); i++)
		if (nla_put_u32(msg, kbench_run_u32[i].attr,
				run->u32[kbench_run_u32[i].attr]))
			return -EMSGSIZE;
	return 0;
}

/*
 * What the RUN reply and a CPU_RUN nest both say of a run, each under
 * its own numbers: the names are the same after the nest's prefix.
 */
struct kbench_run_nest {
	int elapsed_ns, span_cycles, routine_cycles, window_cycles, mem_bytes;
	int result, overhead, pad;
};

#define KBENCH_RUN_NEST(p) {						\
	.elapsed_ns = p##ELAPSED_NS, .span_cycles = p##SPAN_CYCLES,	\
	.routine_cycles = p##ROUTINE_CYCLES,				\
	.window_cycles = p##WINDOW_CYCLES, .mem_bytes = p##MEM_BYTES,	\
	.result = p##RESULT, .overhead = p##OVERHEAD, .pad = p##PAD,	\
}

static const struct kbench_run_nest kbench_run_reply_nest =
	KBENCH_RUN_NEST(KBENCH_A_RUN_);
static const struct kbench_run_nest kbench_cpu_run_nest =
	KBENCH_RUN_NEST(KBENCH_A_CPU_RUN_);

/* @run's times and memory */
static int kbench_put_run_figures(struct sk_buff *msg,
				  const struct kbench_run *run,
				  const struct kbench_run_nest *a)
{
	if (nla_put_u64_64bit(msg, a->elapsed_ns, run->elapsed_ns, a->pad) ||
	    nla_put_u64_64bit(msg, a->span_cycles, run->span_cycles, a->pad) ||
	    nla_put_u64_64bit(msg, a->routine_cycles, run->routine_cycles,
			      a->pad) ||
	    nla_put_u64_64bit(msg, a->window_cycles, run->window_cycles,
			      a->pad) ||
	    nla_put_u64_64bit(msg, a->mem_bytes, run->mem_bytes, a->pad))
		return -EMSGSIZE;
	return 0;
}

/* A RESULT nest per routine of @run, in order, then the OVERHEAD one. */
static int kbench_put_results(struct sk_buff *msg,
			      const struct kbench_run *run,
			      const struct kbench_run_nest *a)
{
	u32 i;

	for (i = 0; i < run->nr_series; i++)
		if (kbench_put_result(msg, i < run->nr_routines ? a->result :
				      a->overhead, i, run, &run->series[i]))
			return -EMSGSIZE;
	return 0;
}

/* The RUN reply's settings as @run used them, and the counter's. */
static int kbench_put_run_settings(struct sk_buff *msg,
				   const struct kbench_run *run)
{
	if (nla_put_u32(msg, KBENCH_A_RUN_SAMPLES, run->samples) ||
	    nla_put_u32(msg, KBENCH_A_RUN_ITERATIONS, run->iterations) ||
	    nla_put_u32(msg, KBENCH_A_RUN_TARGET_NS, run->target_ns) ||
	    kbench_run_u32_put(msg, run) ||
	    nla_put_u32(msg, KBENCH_A_RUN_ADAPTIVE, run->adaptive) ||
	    nla_put_string(msg, KBENCH_A_RUN_COUNTER, kbench_counter.name) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_COUNTER_HZ, kbench_counter.hz,
			      KBENCH_A_RUN_PAD))
		return -EMSGSIZE;
	return 0;
}

static int kbench_run_fill(struct sk_buff *msg, const void *arg)
{
	const struct kbench_run *run = arg;
	u32 i;

	if (nla_put_u32(msg, KBENCH_A_RUN_ID, run->id) ||
	    nla_put_u32(msg, KBENCH_A_RUN_CPU, run->cpu) ||
	    kbench_put_run_settings(msg, run) ||
	    kbench_put_run_figures(msg, run, &kbench_run_reply_nest) ||
	    nla_put_u32(msg, KBENCH_A_RUN_STATUS, run->status) ||
	    nla_put_u32(msg, KBENCH_A_RUN_ITERATIONS_MIN, run->iterations_min) ||
	    nla_put_u32(msg, KBENCH_A_RUN_N_CHANGES, run->n_changes) ||
	    nla_put_u32(msg, KBENCH_A_RUN_SAMPLES_REDUCED,
			run->samples_reduced))
		return -EMSGSIZE;
	for (i = 0; i < run->nr_args; i++)
		if (nla_put_u64_64bit(msg, KBENCH_A_RUN_ARG, run->args[i],
				      KBENCH_A_RUN_PAD))
			return -EMSGSIZE;
	if (kbench_put_results(msg, run, &kbench_run_reply_nest))
		return -EMSGSIZE;
	for (i = 0; i < run->nr_events; i++)
		if (kbench_put_event_info(msg, &run->events[i]))
			return -EMSGSIZE;
	return 0;
}

/* A CPU_RUN nest of a concurrent RUN's reply: CPU @i of group @g. */
static int kbench_put_cpu_run(struct sk_buff *msg,
			      const struct kbench_group *g, u32 i)
{
	const struct kbench_run *run = g->run[i];
	struct nlattr *nest;

	nest = nla_nest_start(msg, KBENCH_A_RUN_CPU_RUN);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, KBENCH_A_CPU_RUN_CPU, run->cpu) ||
	    nla_put_u32(msg, KBENCH_A_CPU_RUN_ID, run->id) ||
	    nla_put_u32(msg, KBENCH_A_CPU_RUN_ITERATIONS, run->iterations) ||
	    nla_put_u32(msg, KBENCH_A_CPU_RUN_STATUS, run->status) ||
	    kbench_put_run_figures(msg, run, &kbench_cpu_run_nest) ||
	    nla_put_u64_64bit(msg, KBENCH_A_CPU_RUN_LATE_MAX, g->late_max[i],
			      KBENCH_A_CPU_RUN_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_CPU_RUN_LATE_MEDIAN,
			      g->late_median[i], KBENCH_A_CPU_RUN_PAD) ||
	    kbench_put_results(msg, run, &kbench_cpu_run_nest)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * A concurrent RUN's reply: the request's values as used (the first
 * CPU's run id), the largest elapsed time, the sum of the memory, timeout
 * if any CPU timed out; a CPU_RUN nest per CPU, then the start skew.
 */
static int kbench_group_fill(struct sk_buff *msg, const void *arg)
{
	const struct kbench_group *g = arg;
	const struct kbench_run *run = g->run[0];
	u64 elapsed = 0, mem = 0;
	u32 i, status = run->status;

	for (i = 0; i < g->nr; i++) {
		elapsed = max(elapsed, g->run[i]->elapsed_ns);
		mem += g->run[i]->mem_bytes;
		if (g->run[i]->status != KBENCH_RUN_COMPLETE)
			status = g->run[i]->status;
	}
	if (nla_put_u32(msg, KBENCH_A_RUN_ID, run->id) ||
	    kbench_put_run_settings(msg, run) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_ELAPSED_NS, elapsed,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_MEM_BYTES, mem,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u32(msg, KBENCH_A_RUN_STATUS, status))
		return -EMSGSIZE;
	for (i = 0; i < run->nr_args; i++)
		if (nla_put_u64_64bit(msg, KBENCH_A_RUN_ARG, run->args[i],
				      KBENCH_A_RUN_PAD))
			return -EMSGSIZE;
	for (i = 0; i < g->nr; i++)
		if (kbench_put_cpu_run(msg, g, i))
			return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, KBENCH_A_RUN_SKEW_MAX, g->skew_max,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_SKEW_MEDIAN, g->skew_median,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_SKEW_BOUND, g->skew_bound,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u32(msg, KBENCH_A_RUN_SKEW_FLAGGED, g->skew_flagged))
		return -EMSGSIZE;
	return 0;
}

/*
 * A request attribute with a NUL-terminated string: the policy of a
 * multi-attr string is NLA_STRING, which does not require the NUL.
 */
static bool kbench_nla_strz(const struct nlattr *nla)
{
	return nla_len(nla) && memchr(nla_data(nla), '\0', nla_len(nla));
}

/* Collect the EVENT attributes in order: at most KBENCH_EVENTS_MAX. */
static int kbench_run_event_attrs(struct genl_info *info,
				  const struct nlattr **events)
{
	const struct nlattr *nla;
	int rem, nr = 0;

	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != KBENCH_A_RUN_EVENT)
			continue;
		if (!kbench_nla_strz(nla)) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "event name is not NUL-terminated");
			return -EINVAL;
		}
		if (nr == KBENCH_EVENTS_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "at most 8 events per run");
			return -EINVAL;
		}
		events[nr++] = nla;
	}
	return nr;
}

/* The events of @run by name: known, in range, distinct. */
static int kbench_run_lookup_events(struct kbench_run *run,
				    const struct nlattr **events,
				    struct netlink_ext_ack *extack)
{
	struct kbench_event *ev;
	u32 i, k;
	int err;

	for (i = 0; i < run->nr_events; i++) {
		ev = &run->events[i];
		err = kbench_event_lookup(nla_data(events[i]), ev, extack,
					  events[i]);
		if (err)
			return err;
		for (k = 0; k < i; k++) {
			if (run->events[k].type == ev->type &&
			    run->events[k].config == ev->config) {
				NL_SET_ERR_MSG_ATTR(extack, events[i],
						    "event given twice (perhaps by another name)");
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* The routines of a RUN request and their arguments, in order. */
struct kbench_run_req {
	const struct nlattr *names[KBENCH_RUN_ROUTINES_MAX];
	const struct nlattr *args[KBENCH_RUN_ROUTINES_MAX];
	int nr, nargs;
};

/*
 * The same routine twice only at two arguments: the same code at two
 * sizes is two series with their own setup and data.
 */
static bool kbench_run_twice(const struct kbench_run_req *q, int i, int k)
{
	return !strcmp(nla_data(q->names[i]), nla_data(q->names[k])) &&
	       (q->nargs != q->nr ||
		nla_get_u64(q->args[i]) == nla_get_u64(q->args[k]));
}

/*
 * Collect the ROUTINE attributes in order (1 to 4) and the ARG ones: none,
 * one for all routines, or one per routine.
 */
static int kbench_run_req(struct genl_info *info, struct kbench_run_req *q)
{
	const struct nlattr *nla;
	int rem, i, k;

	q->nr = 0;
	q->nargs = 0;
	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) == KBENCH_A_RUN_ARG) {
			if (q->nargs == KBENCH_RUN_ROUTINES_MAX) {
				NL_SET_ERR_MSG_ATTR(info->extack, nla,
						    "arg given more often than routine");
				return -EINVAL;
			}
			q->args[q->nargs++] = nla;
			continue;
		}
		if (nla_type(nla) != KBENCH_A_RUN_ROUTINE)
			continue;
		if (!kbench_nla_strz(nla)) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "routine name is not NUL-terminated");
			return -EINVAL;
		}
		if (q->nr == KBENCH_RUN_ROUTINES_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "at most 4 routines per run");
			return -EINVAL;
		}
		q->names[q->nr++] = nla;
	}
	if (q->nargs > 1 && q->nargs != q->nr) {
		kbench_extack_fmt(info->extack, q->args[q->nargs - 1],
				  "arg given %d times: once, or once per routine (%d)",
				  q->nargs, q->nr);
		return -EINVAL;
	}
	for (k = 1; k < q->nr; k++) {
		for (i = 0; i < k; i++) {
			if (!kbench_run_twice(q, i, k))
				continue;
			if (q->nargs == q->nr)
				NL_SET_ERR_MSG_ATTR(info->extack, q->names[k],
						    "routine given twice with the same arg");
			else
				NL_SET_ERR_MSG_ATTR(info->extack, q->names[k],
						    "routine given twice");
			return -EINVAL;
		}
	}
	return 0;
}

static void kbench_run_put_routines(struct kbench_run *run)
{
	u32 i;

	for (i = 0; i < run->nr_series; i++) {
		if (run->series[i].routine)
			kbench_routine_put(run->series[i].routine);
		run->series[i].routine = NULL;
	}
}

/*
 * The argument of routine @s in this run: the request's (@arg), within the
 * routine's range, or the routine's default.
 */
static int kbench_series_arg(struct kbench_series *s, const struct nlattr *arg,
			     struct netlink_ext_ack *extack)
{
	const struct kbench_arg *a = &s->routine->arg;
	u64 v;

	s->has_arg = a->name;
	s->arg = a->def;
	if (!arg)
		return 0;
	if (!a->name) {
		kbench_extack_fmt(extack, arg, "routine '%s' takes no argument",
				  s->name);
		return -EINVAL;
	}
	v = nla_get_u64(arg);
	if (v < a->min || v > a->max) {
		kbench_extack_fmt(extack, arg, "routine '%s' takes %llu..%llu %s",
				  s->name, a->min, a->max, a->name);
		return -ERANGE;
	}
	s->arg = v;
	return 0;
}

static int kbench_run_get_routines(struct kbench_run *run,
				   const struct kbench_run_req *q,
				   struct netlink_ext_ack *extack)
{
	struct kbench_series *s;
	int err;
	u32 i;

	for (i = 0; i < run->nr_series; i++) {
		s = &run->series[i];
		if (i < run->nr_routines) {
			s->routine = kbench_routine_get(nla_data(q->names[i]));
			if (!s->routine) {
				NL_SET_ERR_MSG_ATTR(extack, q->names[i],
						    "unknown routine");
				return -ENOENT;
			}
		} else {
			/* built in: cannot be missing while kbench is loaded */
			s->routine = kbench_routine_get(kbench_builtin_empty.name);
			if (WARN_ON_ONCE(!s->routine))
				return -ENOENT;
		}
		strscpy(s->name, s->routine->name, sizeof(s->name));
		s->bytes_per_iter = s->routine->bytes_per_iter;
		if (i < run->nr_routines) {
			err = kbench_series_arg(s, q->nargs ?
						q->args[q->nargs > 1 ? i : 0] :
						NULL, extack);
			if (err)
				return err;
		}
	}
	return 0;
}

/* The samples a RUN request asks for, else the default. */
static u32 kbench_run_samples(struct nlattr **tb)
{
	return tb[KBENCH_A_RUN_SAMPLES] ?
	       nla_get_u32(tb[KBENCH_A_RUN_SAMPLES]) :
	       min(KBENCH_SAMPLES_DEFAULT, kbench_max_samples);
}

/*
 * The request's settings into each run it makes (one, or one per CPU):
 * N fixed or adaptive, the target, the plain u32s, the arguments.
 */
static void kbench_run_settings(struct kbench_run *run, struct nlattr **tb,
				const struct kbench_run_req *q)
{
	int i;

	run->adaptive = !tb[KBENCH_A_RUN_ITERATIONS];
	run->iterations = run->adaptive ? 0 :
			  nla_get_u32(tb[KBENCH_A_RUN_ITERATIONS]);
	run->target_ns = tb[KBENCH_A_RUN_TARGET_NS] ?
			 nla_get_u32(tb[KBENCH_A_RUN_TARGET_NS]) :
			 min(KBENCH_TARGET_NS_DEFAULT,
			     kbench_max_window_us * 1000);
	kbench_run_u32_get(run, tb);
	run->nr_args = q->nargs;
	for (i = 0; i < q->nargs; i++)
		run->args[i] = nla_get_u64(q->args[i]);
}

/* The request's limits that depend on module parameters and the machine. */
static int kbench_run_check(struct genl_info *info, u32 cpu, u32 samples,
			    u32 nr, u32 nr_events)
{
	struct nlattr **tb = info->attrs;

	if (cpu >= nr_cpu_ids) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KBENCH_A_RUN_CPU],
				    "no such CPU");
		return -EINVAL;
	}
	if (!cpu_online(cpu)) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KBENCH_A_RUN_CPU],
				    "CPU is offline");
		return -ENODEV;
	}
	if (samples > kbench_max_samples) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KBENCH_A_RUN_SAMPLES],
				    "samples above the max_samples parameter");
		return -ERANGE;
	}
	if (tb[KBENCH_A_RUN_TARGET_NS] &&
	    nla_get_u32(tb[KBENCH_A_RUN_TARGET_NS]) >
	    kbench_max_window_us * 1000ULL) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KBENCH_A_RUN_TARGET_NS],
				    "target above the max_window_us parameter");
		return -ERANGE;
	}
	if (tb[KBENCH_A_RUN_MAX_WINDOW_US] &&
	    nla_get_u32(tb[KBENCH_A_RUN_MAX_WINDOW_US]) > kbench_max_window_us) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    tb[KBENCH_A_RUN_MAX_WINDOW_US],
				    "above the max_window_us parameter");
		return -ERANGE;
	}
	if (kbench_run_charge(nr, nr_events, samples) > kbench_store_bytes_max) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KBENCH_A_RUN_SAMPLES],
				    "samples need more than store_bytes_max");
		return -E2BIG;
	}
	return 0;
}

/* run->explain as @extack's message: the run outlives the ack. */
static void kbench_run_say(struct netlink_ext_ack *extack,
			   struct kbench_run *run)
{
#ifdef KBENCH_HAVE_EXTACK_FMT
	NL_SET_ERR_MSG_FMT(extack, "%s", run->explain);
#else
	if (extack)
		extack->_msg = run->explain;
#endif
}

/*
 * The extack of a run that failed with @err; @cpu and @iterations are the
 * request's attributes in the skb the ack is built from.
 */
static void kbench_run_explain(struct netlink_ext_ack *extack,
			       struct kbench_run *run, int err,
			       const struct nlattr *cpu,
			       const struct nlattr *iterations)
{
	const struct kbench_series *s;

	if (run->setup_failed) {
		/*
		 * The routine's own words when it gave some, formatted into
		 * the run, which outlives the ack (a RUN's thread builds it
		 * before it lets go of the run).
		 */
		s = &run->series[run->setup_failed - 1];
		if (run->msg[0])
			scnprintf(run->explain, sizeof(run->explain), "%s: %s",
				  s->name, run->msg);
		else
			scnprintf(run->explain, sizeof(run->explain),
				  "%s: setup failed (%d)", s->name, err);
		kbench_run_say(extack, run);
		return;
	}
	switch (err) {
	case -ERANGE:
		/* the routine, its window and N (kbench_range_msg()) */
		strscpy(run->explain, run->msg[0] ? run->msg :
			"a window would exceed max_window_us",
			sizeof(run->explain));
		kbench_run_say(extack, run);
		if (run->window_probe && !run->adaptive)
			NL_SET_BAD_ATTR(extack, iterations);
		break;
	case -ETIME:
		NL_SET_ERR_MSG(extack,
			       "max_run_ms reached before the first sample");
		break;
	case -EBUSY:
		NL_SET_ERR_MSG_ATTR(extack, cpu,
				    "another run is using this CPU");
		break;
	case -EAGAIN:
		kbench_extack_fmt(extack, cpu,
				  "run %u is ending on this CPU, retry",
				  run->ending);
		break;
	case -ENODEV:
		NL_SET_ERR_MSG_ATTR(extack, cpu,
				    "CPU went offline during the run");
		break;
	case -EINTR:
		NL_SET_ERR_MSG(extack, "run interrupted by a signal");
		break;
	case -ECONNRESET:
		NL_SET_ERR_MSG(extack,
			       "the requester's socket was closed during the run");
		break;
	case -ESHUTDOWN:
		NL_SET_ERR_MSG(extack, "kbench is being unloaded");
		break;
	case -ECANCELED:
		NL_SET_ERR_MSG_ATTR(extack, iterations,
				    "another CPU of the run could not take this N");
		break;
	case -ENOMEM:
		NL_SET_ERR_MSG(extack, "out of memory");
		break;
	case -E2BIG:
		NL_SET_ERR_MSG(extack,
			       "store_bytes_max reached: no room for the summaries' scratch");
		break;
	}
}

/*
 * A RUN refused because run @ending, asked to end, still holds the
 * memory it needs (its teardown, a routine's, may take a while): a
 * handler runs under genetlink's cb_lock and waits for nothing there, so
 * the requester is told which run to wait for and retries (kbenchctl
 * does).
 */
static void kbench_ending_msg(struct genl_info *info, u32 ending)
{
	kbench_extack_fmt(info->extack, info->attrs[KBENCH_A_RUN_SAMPLES],
			  "store_bytes_max reached: run %u is ending, retry",
			  ending);
}

/*
 * The CPUS attributes of a concurrent RUN, in order: 1 to KBENCH_CPUS_MAX
 * distinct online CPUs, not with CPU nor EVENT.  Returns how many.
 */
static int kbench_run_cpus(struct genl_info *info, u32 *cpus,
			   const struct nlattr **nla_cpus)
{
	const struct nlattr *nla;
	int rem, nr = 0, i;
	u32 cpu;

	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != KBENCH_A_RUN_CPUS)
			continue;
		if (nr++ == KBENCH_CPUS_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "cpus: at most 32 CPUs per run");
			return -E2BIG;
		}
	}
	nr = 0;
	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != KBENCH_A_RUN_CPUS)
			continue;
		cpu = nla_get_u32(nla);
		if (cpu >= nr_cpu_ids) {
			kbench_extack_fmt(info->extack, nla,
					  "cpus: no CPU %u (nr_cpu_ids %u)",
					  cpu, nr_cpu_ids);
			return -EINVAL;
		}
		if (!cpu_online(cpu)) {
			kbench_extack_fmt(info->extack, nla,
					  "cpus: CPU %u is offline", cpu);
			return -ENODEV;
		}
		for (i = 0; i < nr; i++) {
			if (cpus[i] == cpu) {
				kbench_extack_fmt(info->extack, nla,
						  "cpus: CPU %u given twice",
						  cpu);
				return -EINVAL;
			}
		}
		nla_cpus[nr] = nla;
		cpus[nr++] = cpu;
	}
	if (info->attrs[KBENCH_A_RUN_CPU]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[KBENCH_A_RUN_CPU],
				    "cpu: not with cpus (one CPU or several)");
		return -EINVAL;
	}
	if (info->attrs[KBENCH_A_RUN_EVENT]) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[KBENCH_A_RUN_EVENT],
				    "event: not with cpus (a concurrent run counts no events)");
		return -EOPNOTSUPP;
	}
	return nr;
}

static void kbench_nl_group_complete(struct kbench_group *g);

/*
 * A concurrent RUN (kbench_nl_run_doit() with cpus): one run per CPU, each
 * prepared as a run on one CPU is, in one group; the group's last thread
 * replies (kbench_nl_group_complete()).
 */
static int kbench_nl_run_group(struct sk_buff *skb, struct genl_info *info,
			       const struct kbench_run_req *q)
{
	const struct nlattr *nla_cpus[KBENCH_CPUS_MAX];
	struct nlattr **tb = info->attrs;
	u32 cpus[KBENCH_CPUS_MAX], samples, i, bad = 0;
	struct kbench_group *g;
	struct kbench_run *run;
	int nr, err;
	u64 in_use, window;
	u32 ending = 0;

	nr = kbench_run_cpus(info, cpus, nla_cpus);
	if (nr < 0)
		return nr;
	if (tb[KBENCH_A_RUN_SKEW_NS] &&
	    !nla_get_u32(tb[KBENCH_A_RUN_SKEW_NS])) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KBENCH_A_RUN_SKEW_NS],
				    "skew-ns: at least 1");
		return -EINVAL;
	}
	samples = kbench_run_samples(tb);
	err = kbench_run_check(info, cpus[0], samples, q->nr, 0);
	if (err)
		return err;
	if ((kbench_run_charge(q->nr, 0, samples) +
	     (u64)(q->nr + 1) * samples * sizeof(u64)) * nr +
	    kbench_group_skew_bytes(nr, q->nr + 1, samples) >
	    kbench_store_bytes_max) {
		kbench_extack_fmt(info->extack, tb[KBENCH_A_RUN_SAMPLES],
				  "samples of %d CPUs need more than store_bytes_max",
				  nr);
		return -E2BIG;
	}
	g = kbench_group_alloc(nr);
	if (!g) {
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	/* the run's bound (max-window-us, at most the module's) */
	window = kbench_ns_to_ticks((u64)(tb[KBENCH_A_RUN_MAX_WINDOW_US] ?
				    nla_get_u32(tb[KBENCH_A_RUN_MAX_WINDOW_US]) :
				    kbench_max_window_us) * NSEC_PER_USEC,
				    kbench_counter.hz);
	g->rv.spin_limit = window / KBENCH_SPIN_SHARE;
	for (i = 0; i < nr; i++) {
		run = kbench_run_alloc_err(q->nr, 0, samples, &in_use, &ending);
		err = IS_ERR(run) ? PTR_ERR(run) : 0;
		if (!err) {
			g->run[i] = run;
			kref_get(&g->ref);
			run->group = g;
			run->group_index = i;
			err = kbench_run_alloc_starts(run, &in_use, &ending);
		}
		if (err == -EAGAIN) {
			kbench_ending_msg(info, ending);
			goto out_put;
		}
		if (err == -E2BIG) {
			kbench_extack_fmt(info->extack, tb[KBENCH_A_RUN_SAMPLES],
					  "store_bytes_max reached: %llu bytes in use, %d CPUs' runs need more",
					  in_use, nr);
			goto out_put;
		}
		if (err) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    tb[KBENCH_A_RUN_SAMPLES],
					    "cannot allocate the sample buffers");
			goto out_put;
		}
		run->cpu = cpus[i];
		kbench_run_settings(run, tb, q);
		err = kbench_run_get_routines(run, q, info->extack);
		if (err)
			goto out_put;
	}
	/* the skew's scratch, before the group starts: then it finishes */
	g->scratch_bytes = kbench_group_skew_bytes(nr, q->nr + 1, samples);
	err = kbench_mem_charge(g->scratch_bytes, &in_use, &ending);
	if (err == -EAGAIN) {
		g->scratch_bytes = 0;
		kbench_ending_msg(info, ending);
		goto out_put;
	}
	if (err) {
		g->scratch_bytes = 0;
		kbench_extack_fmt(info->extack, tb[KBENCH_A_RUN_SAMPLES],
				  "store_bytes_max reached: %llu bytes in use, %d CPUs' runs need more",
				  in_use, nr);
		goto out_put;
	}
	g->skew_bound = tb[KBENCH_A_RUN_SKEW_NS] ?
		kbench_ns_to_ticks(nla_get_u32(tb[KBENCH_A_RUN_SKEW_NS]),
				   kbench_counter.hz) :
		kbench_ns_to_ticks(g->run[0]->target_ns,
				   kbench_counter.hz) / KBENCH_SKEW_SHARE;
	/* the first CPU's run answers: it holds the request */
	run = g->run[0];
	err = kbench_run_hold_request(run, skb, info, NULL);
	if (err)
		goto out_put;
	for (i = 0; i < nr; i++) {
		g->run[i]->nla_cpu = kbench_nla_in(run->req_skb, info->nlhdr,
						   nla_cpus[i]);
		g->run[i]->nla_iterations = run->nla_iterations;
	}
	g->complete = kbench_nl_group_complete;
	err = kbench_group_start(g, &bad);
	if (err) {
		if (err == -ENODEV)
			kbench_extack_fmt(info->extack, nla_cpus[bad],
					  "cpus: CPU %u is offline", cpus[bad]);
		else if (err == -EBUSY)
			kbench_extack_fmt(info->extack, nla_cpus[bad],
					  "cpus: another run is using CPU %u",
					  cpus[bad]);
		else if (err == -EAGAIN)
			kbench_extack_fmt(info->extack, nla_cpus[bad],
					  "cpus: run %u is ending on CPU %u, retry",
					  g->run[bad]->ending, cpus[bad]);
		else
			kbench_run_explain(info->extack, run, err, NULL,
					   NULL);
		goto out_put;
	}
	return 0;

out_put:
	for (i = 0; i < nr; i++) {
		run = g->run[i];
		if (!run)
			continue;
		g->run[i] = NULL;
		kbench_run_put_routines(run);
		kbench_run_put(run);
	}
	kbench_group_put(g);
	return err;
}

/* A RUN: 0 once its run has started (its thread answers), or -errno. */
static int kbench_nl_run(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *events[KBENCH_EVENTS_MAX];
	struct nlattr **tb = info->attrs;
	struct kbench_run_req q;
	struct kbench_run *run;
	u32 cpu, samples, ending = 0;
	int nr_events, err;
	u64 in_use;

	if (!kbench_may_measure(skb, info->extack))
		return -EPERM;
	if (GENL_REQ_ATTR_CHECK(info, KBENCH_A_RUN_ROUTINE))
		return -EINVAL;
	err = kbench_run_req(info, &q);
	if (err)
		return err;
	nr_events = kbench_run_event_attrs(info, events);
	if (nr_events < 0)
		return nr_events;
	if (tb[KBENCH_A_RUN_CPUS])
		return kbench_nl_run_group(skb, info, &q);
	if (tb[KBENCH_A_RUN_SKEW_NS]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[KBENCH_A_RUN_SKEW_NS],
				    "skew-ns: only with cpus");
		return -EINVAL;
	}

	cpu = tb[KBENCH_A_RUN_CPU] ? nla_get_u32(tb[KBENCH_A_RUN_CPU]) :
				     raw_smp_processor_id();
	samples = kbench_run_samples(tb);
	err = kbench_run_check(info, cpu, samples, q.nr, nr_events);
	if (err)
		return err;

	run = kbench_run_alloc_err(q.nr, nr_events, samples, &in_use, &ending);
	if (IS_ERR(run)) {
		err = PTR_ERR(run);
		if (err == -EAGAIN)
			kbench_ending_msg(info, ending);
		else if (err == -E2BIG)
			kbench_extack_fmt(info->extack, tb[KBENCH_A_RUN_SAMPLES],
					  "store_bytes_max reached: %llu bytes in use, %llu more needed",
					  in_use, kbench_run_charge(q.nr, nr_events,
								    samples));
		else
			NL_SET_ERR_MSG_ATTR(info->extack,
					    tb[KBENCH_A_RUN_SAMPLES],
					    "cannot allocate the sample buffers");
		return err;
	}
	run->cpu = cpu;
	err = kbench_run_hold_request(run, skb, info, events);
	if (err)
		goto out_put_run;
	kbench_run_settings(run, tb, &q);

	err = kbench_run_lookup_events(run, events, info->extack);
	if (err)
		goto out_put_run;
	err = kbench_run_get_routines(run, &q, info->extack);
	if (err)
		goto out_put_routines;
	err = kbench_events_open(run, events, info->extack);
	if (err)
		goto out_put_routines;

	/* the run's thread sends the reply and the ack when the run ends */
	run->complete = kbench_nl_run_complete;
	err = kbench_run_start(run);
	if (err) {
		kbench_run_explain(info->extack, run, err, tb[KBENCH_A_RUN_CPU],
				   tb[KBENCH_A_RUN_ITERATIONS]);
		goto out_release_events;
	}
	kbench_run_put(run);
	return 0;

out_release_events:
	kbench_events_release(run);
out_put_routines:
	kbench_run_put_routines(run);
out_put_run:
	kbench_run_put(run);
	return err;
}

int kbench_nl_run_doit(struct sk_buff *skb, struct genl_info *info)
{
	int err = kbench_nl_run(skb, info);

	/*
	 * Started: like a dump that has started, -EINTR tells
	 * netlink_rcv_skb() to send no ack now; genetlink's cb_lock is
	 * released on return, the run goes on in its thread, which answers.
	 * A real -EINTR (the sender has a fatal signal pending, which makes
	 * kthread_create_on_cpu() fail) would be swallowed the same way: it
	 * is acked here, for whoever else holds the socket.
	 */
	if (!err)
		return -EINTR;
	if (err == -EINTR)
		netlink_ack(skb, nlmsg_hdr(skb), err, info->extack);
	return err;
}

/**
 * kbench_nl_run_complete() - the end of a RUN, in the run's thread
 * @run: the run, its err set
 *
 * Keeps a successful run in the store, then sends the requester what a
 * synchronous doit would have: the RUN reply (on success) and the ack
 * (always on error, else when asked for), with the request's sequence
 * number, so clients that wait for the reply and the ack see no
 * difference.  The extack of a failure is built here, on this stack.
 */
void kbench_nl_run_complete(struct kbench_run *run)
{
	struct netlink_ext_ack extack = { };
	int err = run->err;

	if (err) {
		kbench_run_explain(&extack, run, err, run->nla_cpu,
				   run->nla_iterations);
		kbench_events_release(run);
		kbench_run_put_routines(run);
	} else {
		kbench_run_put_routines(run);
		err = kbench_events_close(run, run->nla_events, &extack);
		if (!err)
			kbench_store_add(run);
	}
	kbench_answer(run, err, &extack, kbench_run_fill, run);
}

/*
 * The end of a concurrent RUN, in its group's last thread: as
 * kbench_nl_run_complete() for the group's runs, every one stored on
 * success, one reply (kbench_group_fill()) and the ack.  A failure is
 * explained by the run that caused it, its CPU's cpus attribute named.
 */
static void kbench_nl_group_complete(struct kbench_group *g)
{
	struct kbench_run *lead = g->run[0], *cause = g->run[g->cause];
	struct netlink_ext_ack extack = { };
	int err = atomic_read(&g->err);
	u32 i;

	for (i = 0; i < g->nr; i++)
		kbench_run_put_routines(g->run[i]);
	if (err)
		kbench_run_explain(&extack, cause, err, cause->nla_cpu,
				   cause->nla_iterations);
	else
		for (i = 0; i < g->nr; i++)
			kbench_store_add(g->run[i]);
	kbench_answer(lead, err, &extack, kbench_group_fill, g);
}

struct kbench_samples_ctx {
	struct kbench_run *run;
	u32 series;		/* next series to send */
	u32 end;		/* series to stop at */
	u32 next;		/* its next sample */
	bool packed;		/* the request's PACKED */
	u8 width;		/* packed: the last page's net width */
	bool denied;		/* .start found no privilege */
};

static struct kbench_samples_ctx *kbench_samples_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct kbench_samples_ctx) > sizeof(cb->ctx));
	return (struct kbench_samples_ctx *)cb->ctx;
}

/*
 * The checks of a SAMPLES_GET request: privilege in .start
 * (kbench_nl_samples_start()), at the request, the rest here in the first
 * dumpit call, which reports it: 6.1 reports the extended ack of dumpit
 * (in NLMSG_DONE) but drops .start's.
 */
static int kbench_samples_begin(struct netlink_callback *cb,
				struct kbench_samples_ctx *ctx)
{
	struct nlattr **tb = kbench_dump_attrs(cb);

	if (!tb[KBENCH_A_SAMPLES_RUN_ID]) {
		NL_SET_ERR_ATTR_MISS(cb->extack, NULL, KBENCH_A_SAMPLES_RUN_ID);
		NL_SET_ERR_MSG(cb->extack, "missing run id");
		return -EINVAL;
	}
	ctx->run = kbench_store_get(nla_get_u32(tb[KBENCH_A_SAMPLES_RUN_ID]));
	if (!ctx->run) {
		NL_SET_ERR_MSG_ATTR(cb->extack, tb[KBENCH_A_SAMPLES_RUN_ID],
				    "no stored run with this id");
		return -ENOENT;
	}
	ctx->end = ctx->run->nr_series;
	ctx->packed = nla_get_flag(tb[KBENCH_A_SAMPLES_PACKED]);
	ctx->width = 1;
	if (tb[KBENCH_A_SAMPLES_ROUTINE]) {
		ctx->series = nla_get_u32(tb[KBENCH_A_SAMPLES_ROUTINE]);
		if (ctx->series >= ctx->run->nr_series) {
			kbench_run_put(ctx->run);
			ctx->run = NULL;
			NL_SET_ERR_MSG_ATTR(cb->extack,
					    tb[KBENCH_A_SAMPLES_ROUTINE],
					    "no routine with this index in the run");
			return -EINVAL;
		}
		ctx->end = ctx->series + 1;
	}
	return 0;
}

/*
 * Samples per message within NLMSG_GOODSIZE: the arrays (an s64 and a u32
 * per sample, an s64 more per event) after 128 bytes of the other
 * attributes and each event's name and array header.
 */
static u32 kbench_samples_per_msg(const struct kbench_run *run)
{
	return (NLMSG_GOODSIZE - NLMSG_HDRLEN - GENL_HDRLEN - 128 -
		run->nr_events * (NLA_HDRLEN +
				  nla_total_size(KBENCH_NAME_MAX + 1))) /
	       (sizeof(s64) + sizeof(u32) + run->nr_events * sizeof(s64));
}

/* The EVENT_NET arrays and EVENT_NAMEs of samples @first.. (@count). */
static int kbench_put_event_samples(struct sk_buff *skb,
				    const struct kbench_run *run,
				    const struct kbench_series *s, u32 first,
				    u32 count)
{
	u32 x;

	for (x = 0; x < run->nr_events; x++)
		if (nla_put_string(skb, KBENCH_A_SAMPLES_EVENT_NAME,
				   run->events[x].name) ||
		    nla_put(skb, KBENCH_A_SAMPLES_EVENT_NET,
			    count * sizeof(*s->eng.xnet[x]),
			    &s->eng.xnet[x][first]))
			return -EMSGSIZE;
	return 0;
}

/*
 * Packed pages (the request's PACKED): each net value in the fewest bytes
 * that hold every value of the page, and the flags as a list of the
 * flagged samples only.  Short routines' samples take 1 or 2 bytes instead
 * of 12: the copy into the skb, the skb's zeroing (init_on_alloc) and the
 * copy to userspace shrink with them.
 *
 * @acc is the OR of the page's values, none negative: the width is where
 * its highest bit fits below a sign bit.
 */
static u8 kbench_width_of(u64 acc)
{
	if (acc < 0x80)
		return 1;
	if (acc < 0x8000)
		return 2;
	if (acc < 0x80000000ULL)
		return 4;
	return 8;
}

/*
 * The width of @n values some of which are negative: x ^ (x >> 63) is x
 * for x >= 0 and -x - 1 below, which fits in 7, 15 or 31 bits exactly when
 * x fits in 1, 2 or 4 bytes signed.
 */
static u8 kbench_width_signed(const s64 *v, u32 n)
{
	u64 acc = 0;
	u32 i;

	for (i = 0; i < n; i++)
		acc |= (u64)(v[i] ^ (v[i] >> 63));
	return kbench_width_of(acc);
}

/*
 * Four values a step: a load, an OR, a store each, and an OR of the flags
 * (no test per sample: the page's width and flags are decided after it).
 */
#define KBENCH_PACK(type)						\
	do {								\
		const s64 *p = v, *end4 = v + (n & ~3U), *end = v + n;	\
		const unsigned int *q = f;				\
		type *d = dst;						\
									\
		for (; p < end4; p += 4, q += 4, d += 4) {		\
			s64 a = p[0], b = p[1], c = p[2], e = p[3];	\
									\
			acc |= a | b | c | e;				\
			fo |= q[0] | q[1] | q[2] | q[3];		\
			d[0] = (type)a;					\
			d[1] = (type)b;					\
			d[2] = (type)c;					\
			d[3] = (type)e;					\
		}							\
		for (; p < end; p++, q++, d++) {			\
			acc |= *p;					\
			fo |= *q;					\
			*d = (type)*p;					\
		}							\
	} while (0)

/*
 * @n values of @v into @dst as @width-byte integers (truncated where they
 * do not fit).  Returns the OR of the values (negative ones set its top
 * bit); *@flags gets the OR of the flags @f.
 */
static u64 kbench_pack_net(void *dst, const s64 *v, const unsigned int *f,
			   u32 n, u8 width, unsigned int *flags)
{
	unsigned int fo = 0;
	u64 acc = 0;

	switch (width) {
	case 1:
		KBENCH_PACK(s8);
		break;
	case 2:
		KBENCH_PACK(s16);
		break;
	case 4:
		KBENCH_PACK(s32);
		break;
	default:
		KBENCH_PACK(s64);
	}
	*flags = fo;
	return acc;
}

/*
 * Bytes left in @skb for a packed page's arrays once their attribute
 * headers (NET_PACKED with its padding, NET_WIDTH, FLAG_LIST) and each
 * event's name and array header are counted.
 */
static u32 kbench_packed_room(const struct kbench_run *run,
			      const struct sk_buff *skb)
{
	int room = skb_tailroom(skb) - NLA_HDRLEN - NLA_ALIGNTO -
		   nla_total_size(sizeof(u8)) - NLA_HDRLEN -
		   (int)(run->nr_events * (NLA_HDRLEN +
					   nla_total_size(KBENCH_NAME_MAX + 1)));

	return room > 0 ? room : 0;
}

/*
 * How many of @n samples fit in @room bytes at @per bytes each and a flag
 * pair more for each flagged one (flags @f); *@nflag gets how many of
 * those are flagged.
 */
static u32 kbench_packed_fit(const unsigned int *f, u32 n, u32 per, u32 room,
			     u32 *nflag)
{
	u32 i, pair, used = 0;

	*nflag = 0;
	for (i = 0; i < n; i++) {
		pair = f[i] ? 2 * sizeof(u32) : 0;
		if (used + per + pair > room)
			break;
		used += per + pair;
		*nflag += !!pair;
	}
	return i;
}

/*
 * NET_PACKED, NET_WIDTH and FLAG_LIST of as many samples from @first, at
 * most *@count, as the room left in @skb holds at the page's width: the
 * count goes back in *@count.  The width tried is the last page's; a page
 * whose values need another is packed again at it (with fewer samples if
 * it is wider), a page with flags cut where its flag list fits.  At most
 * three passes: a count only shrinks after the first, and a prefix of
 * the values never needs more bytes than the whole.  -EMSGSIZE without
 * room for one sample.
 */
static int kbench_put_packed(struct sk_buff *skb,
			     struct kbench_samples_ctx *ctx,
			     const struct kbench_run *run,
			     const struct kbench_series *s, u32 first,
			     u32 *count)
{
	const s64 *v = &s->eng.net[first];
	const unsigned int *f = &s->eng.flags[first];
	u32 ev = run->nr_events * sizeof(s64);
	u32 room = kbench_packed_room(run, skb);
	unsigned char *mark = skb_tail_pointer(skb);
	u32 i, n, packed, nflag, *pair;
	struct nlattr *a;
	unsigned int fo;
	u8 w = ctx->width, need;
	u64 acc;

	n = min(*count, room / (w + ev));
	for (;;) {
		if (!n)
			return -EMSGSIZE;
		a = nla_reserve(skb, KBENCH_A_SAMPLES_NET_PACKED, n * w);
		if (!a)
			return -EMSGSIZE;
		acc = kbench_pack_net(nla_data(a), v, f, n, w, &fo);
		need = acc >> 63 ? kbench_width_signed(v, n) :
				   kbench_width_of(acc);
		packed = n;
		/* this pass's count of flagged samples, or 0 */
		nflag = 0;
		if (need == w && fo) {
			n = kbench_packed_fit(f, n, w + ev, room, &nflag);
			/* fewer samples: their width may be less */
			if (n < packed)
				need = kbench_width_signed(v, n);
		}
		if (need == w && n == packed)
			break;
		nlmsg_trim(skb, mark);
		w = need;
		n = min(n, room / (w + ev));
	}
	ctx->width = w;
	*count = n;
	if (nla_put_u8(skb, KBENCH_A_SAMPLES_NET_WIDTH, w))
		return -EMSGSIZE;
	/*
	 * nflag belongs to the pass that ended the loop: reset by every
	 * pass, counted over exactly these n samples when any is flagged
	 * (need == w and fo), 0 otherwise
	 */
	if (!nflag)
		return 0;
	a = nla_reserve(skb, KBENCH_A_SAMPLES_FLAG_LIST,
			nflag * 2 * sizeof(u32));
	if (!a)
		return -EMSGSIZE;
	pair = nla_data(a);
	for (i = 0; i < n; i++) {
		if (f[i]) {
			*pair++ = i;
			*pair++ = f[i];
		}
	}
	return 0;
}

/*
 * The changes of N in series @x of @run (adaptive N after the probe), as
 * DIVISOR pairs: the first sample of the series that took N / d
 * iterations, and d, in sample order (engine.h, kbench_div_of()).  Put in
 * the series' first page only; 0 when N never changed.
 */
static int kbench_put_divisors(struct sk_buff *skb,
			       const struct kbench_run *run, u32 x)
{
	u32 pair[2 * KBENCH_DIV_LOG_MAX], nr = run->nr_series, n = 0, i, j;
	u32 taken = run->series[x].eng.taken;
	u64 at, g;

	for (i = 0; i < run->div_log_nr; i++) {
		at = run->div_log[i].at;
		j = div_u64(at, nr);
		g = (u64)j * nr + kbench_engine_pos(nr, j, x);
		if (g < at)
			j++;
		if (j >= taken)
			break;
		if (n && pair[2 * n - 2] == j)
			n--;
		pair[2 * n] = j;
		pair[2 * n + 1] = run->div_log[i].div;
		n++;
	}
	if (!n)
		return 0;
	return nla_put(skb, KBENCH_A_SAMPLES_DIVISOR, n * 2 * sizeof(u32),
		       pair);
}

/*
 * Whether a packed page has room for one sample at the most a sample can
 * take (8 bytes of net, a flag pair, 8 bytes per event) after 128 bytes
 * of the other attributes: its count is then kbench_put_packed()'s.
 */
static bool kbench_packed_fits_one(const struct kbench_run *run,
				   const struct sk_buff *skb)
{
	return kbench_packed_room(run, skb) >=
	       NLMSG_HDRLEN + GENL_HDRLEN + 128 + 2 * sizeof(s64) +
	       run->nr_events * sizeof(s64);
}

int kbench_nl_samples_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct kbench_samples_ctx *ctx = kbench_samples_ctx(cb);
	const struct kbench_series *s;
	struct nlattr *net, *flags;
	struct kbench_run *run;
	u32 count;
	void *hdr;
	int err;

	if (ctx->denied) {
		NL_SET_ERR_MSG(cb->extack,
			       "measuring needs CAP_PERFMON or CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (!ctx->run) {
		err = kbench_samples_begin(cb, ctx);
		if (err)
			return err;
	}
	run = ctx->run;

	/* seq changes if the run is evicted during the dump */
	cb->seq = kbench_store_has(run) ? 1 : 2;
	while (ctx->series < ctx->end) {
		s = &run->series[ctx->series];
		if (ctx->next >= s->eng.taken) {
			ctx->series++;
			ctx->next = 0;
			continue;
		}
		count = s->eng.taken - ctx->next;
		if (!ctx->packed)
			count = min(count, kbench_samples_per_msg(run));
		if (!count || (ctx->packed && !kbench_packed_fits_one(run, skb)))
			break;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &kbench_genl_family,
				  NLM_F_MULTI, KBENCH_CMD_SAMPLES_GET);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (nla_put_u32(skb, KBENCH_A_SAMPLES_RUN_ID, run->id) ||
		    nla_put_u32(skb, KBENCH_A_SAMPLES_ROUTINE, ctx->series) ||
		    nla_put_string(skb, KBENCH_A_SAMPLES_NAME, s->name) ||
		    nla_put_u32(skb, KBENCH_A_SAMPLES_FIRST, ctx->next) ||
		    nla_put_u32(skb, KBENCH_A_SAMPLES_ITERATIONS,
				run->iterations))
			goto out_cancel;
		/* at most 512 bytes: a full page leaves the room of 128 samples */
		if (!ctx->next && run->div_log_nr) {
			if (kbench_put_divisors(skb, run, ctx->series))
				goto out_cancel;
			if (!ctx->packed)
				count = min_t(u32, count,
					      kbench_samples_per_msg(run) -
					      min_t(u32, kbench_samples_per_msg(run) - 1,
						    128));
		}
		if (ctx->packed) {
			if (kbench_put_packed(skb, ctx, run, s, ctx->next,
					      &count))
				goto out_cancel;
		} else {
			net = nla_reserve(skb, KBENCH_A_SAMPLES_NET,
					  count * sizeof(*s->eng.net));
			flags = nla_reserve(skb, KBENCH_A_SAMPLES_FLAGS,
					    count * sizeof(*s->eng.flags));
			if (!net || !flags)
				goto out_cancel;
			memcpy(nla_data(net), &s->eng.net[ctx->next],
			       count * sizeof(*s->eng.net));
			memcpy(nla_data(flags), &s->eng.flags[ctx->next],
			       count * sizeof(*s->eng.flags));
		}
		if (kbench_put_event_samples(skb, run, s, ctx->next, count))
			goto out_cancel;
		genlmsg_end(skb, hdr);
		ctx->next += count;
	}
	return skb->len;

out_cancel:
	genlmsg_cancel(skb, hdr);
	return skb->len;
}

/*
 * Privilege of a dump is decided in .start, on the request's skb, by the
 * requester; the refusal is reported by the first dumpit, whose extack
 * every kernel sends (6.1 drops .start's message, not its errno).
 */
int kbench_nl_samples_start(struct netlink_callback *cb)
{
	kbench_samples_ctx(cb)->denied = !kbench_may_measure(cb->skb, NULL);
	return 0;
}

int kbench_nl_samples_done(struct netlink_callback *cb)
{
	struct kbench_samples_ctx *ctx = kbench_samples_ctx(cb);

	kbench_run_put(ctx->run);
	ctx->run = NULL;
	return 0;
}

int kbench_nl_routine_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return kbench_routine_dump(skb, cb);
}

int kbench_nl_clock_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb)
{
	/* decided by kbench_nl_clock_start() */
	if (cb->args[KBENCH_CLOCK_DENIED]) {
		NL_SET_ERR_MSG(cb->extack,
			       "measuring needs CAP_PERFMON or CAP_SYS_ADMIN");
		return -EPERM;
	}
	return kbench_clock_dump(skb, cb);
}

/* As kbench_nl_samples_start(): the clocks' cursor is args[0] */
int kbench_nl_clock_start(struct netlink_callback *cb)
{
	cb->args[KBENCH_CLOCK_DENIED] = !kbench_may_measure(cb->skb, NULL);
	return 0;
}

static int kbench_netlink_notify(struct notifier_block *nb,
				 unsigned long state, void *ptr)
{
	struct netlink_notify *n = ptr;

	if (state == NETLINK_URELEASE && n->protocol == NETLINK_GENERIC)
		kbench_abort_requester(n->net, n->portid);
	return NOTIFY_DONE;
}

/* A requester's socket released: its runs end (kbench_abort_requester()) */
static struct notifier_block kbench_netlink_notifier = {
	.notifier_call = kbench_netlink_notify,
};

int kbench_netlink_init(void)
{
	int err;

	err = netlink_register_notifier(&kbench_netlink_notifier);
	if (err)
		return err;
	err = kbench_family_register(kbench_nl_ops, kbench_nl_mcgrps,
				     ARRAY_SIZE(kbench_nl_mcgrps));
	if (err)
		netlink_unregister_notifier(&kbench_netlink_notifier);
	return err;
}

void kbench_netlink_exit(void)
{
	kbench_family_unregister();
	netlink_unregister_notifier(&kbench_netlink_notifier);
}
