// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: what a RUN's answer says (kbench_run_answer and
 * kbench_group_answer, which kbench_netlink.c hands to kbench_answer(),
 * and which run-get sends again): each routine's result and summary, its
 * events, the run's figures and settings, and a concurrent run's CPUs
 * and skew, a message per CPU and one of the group's figures, each with
 * a bound on its size under KBENCH_MSG_MAX.  The request's plain u32
 * attributes are read with the table that echoes them
 * (kbench_run_u32_get()).
 */
#include <net/genetlink.h>

#include "kbench_compat.h"
#include "kbench_internal.h"

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

void kbench_run_u32_get(struct kbench_run *run, struct nlattr **tb)
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

int kbench_run_fill(struct sk_buff *msg, const struct kbench_run *run)
{
	u32 i;

	if (nla_put_u32(msg, KBENCH_A_RUN_ID, run->id) ||
	    nla_put_u32(msg, KBENCH_A_RUN_CPU, run->cpu) ||
	    kbench_put_run_settings(msg, run) ||
	    kbench_put_run_figures(msg, run, &kbench_run_reply_nest) ||
	    nla_put_u32(msg, KBENCH_A_RUN_STATUS, run->status) ||
	    nla_put_u32(msg, KBENCH_A_RUN_ITERATIONS_MIN, run->iterations_min) ||
	    nla_put_u32(msg, KBENCH_A_RUN_N_CHANGES, run->n_changes) ||
	    nla_put_u32(msg, KBENCH_A_RUN_SAMPLES_REDUCED,
			run->samples_reduced) ||
	    nla_put_u32(msg, KBENCH_A_RUN_ENV_FLAGS, kbench_env_flags()))
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

/* A CPU_RUN nest of a concurrent RUN's answer: @run, CPU @i of group @g. */
static int kbench_put_cpu_run(struct sk_buff *msg,
			      const struct kbench_group *g,
			      const struct kbench_run *run, u32 i)
{
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
 * What every message of a concurrent RUN's answer says first: the group
 * (its first CPU's run id, as id too, as it always was), the request's
 * values as @run used them (the same on every CPU), the environment.
 */
static int kbench_put_group_head(struct sk_buff *msg,
				 const struct kbench_group *g,
				 const struct kbench_run *run)
{
	u32 i;

	if (nla_put_u32(msg, KBENCH_A_RUN_ID, g->id[0]) ||
	    nla_put_u32(msg, KBENCH_A_RUN_GROUP_ID, g->id[0]) ||
	    kbench_put_run_settings(msg, run) ||
	    nla_put_u32(msg, KBENCH_A_RUN_ENV_FLAGS, kbench_env_flags()))
		return -EMSGSIZE;
	for (i = 0; i < run->nr_args; i++)
		if (nla_put_u64_64bit(msg, KBENCH_A_RUN_ARG, run->args[i],
				      KBENCH_A_RUN_PAD))
			return -EMSGSIZE;
	return 0;
}

/**
 * kbench_cpu_msg_fill() - a message of a concurrent RUN's answer per CPU
 * @msg: the message, its header put
 * @g: the group
 * @run: its run on CPU @i (g->run[@i] while the group ends, else the
 *	stored run of g->id[@i])
 * @i: the CPU's index in the group
 *
 * Return: 0, or -EMSGSIZE.
 */
int kbench_cpu_msg_fill(struct sk_buff *msg, const struct kbench_group *g,
			const struct kbench_run *run, u32 i)
{
	if (kbench_put_group_head(msg, g, run))
		return -EMSGSIZE;
	return kbench_put_cpu_run(msg, g, run, i);
}

/**
 * kbench_group_msg_fill() - the last message of a concurrent RUN's answer
 * @msg: the message, its header put
 * @g: the group, summed (kbench_group_sum())
 * @run: any of its runs, for the settings
 *
 * The figures of the whole group: the largest elapsed time, the sum of
 * the memory, timeout if any CPU timed out, how many CPUs, the start
 * skew (each CPU's lateness is in its own message).
 *
 * Return: 0, or -EMSGSIZE.
 */
int kbench_group_msg_fill(struct sk_buff *msg, const struct kbench_group *g,
			  const struct kbench_run *run)
{
	if (kbench_put_group_head(msg, g, run) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_ELAPSED_NS, g->elapsed_max,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_MEM_BYTES, g->mem_sum,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u32(msg, KBENCH_A_RUN_STATUS, g->status) ||
	    nla_put_u32(msg, KBENCH_A_RUN_CPU_COUNT, g->nr) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_SKEW_MAX, g->skew_max,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_SKEW_MEDIAN, g->skew_median,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u64_64bit(msg, KBENCH_A_RUN_SKEW_BOUND, g->skew_bound,
			      KBENCH_A_RUN_PAD) ||
	    nla_put_u32(msg, KBENCH_A_RUN_SKEW_FLAGGED, g->skew_flagged))
		return -EMSGSIZE;
	return 0;
}

/**
 * kbench_group_sum() - keep what the group's figures say of all its runs
 * @g: a group that has ended, its runs still held (g->run[])
 *
 * Its runs' ids, the largest elapsed time, the sum of the memory, and
 * timeout if any CPU timed out: the group's message says them, from the
 * group, after its runs have been let go of (run-get).
 */
void kbench_group_sum(struct kbench_group *g)
{
	const struct kbench_run *run;
	u32 i;

	g->elapsed_max = 0;
	g->mem_sum = 0;
	g->status = g->run[0]->status;
	for (i = 0; i < g->nr; i++) {
		run = g->run[i];
		g->id[i] = run->id;
		g->elapsed_max = max(g->elapsed_max, run->elapsed_ns);
		g->mem_sum += run->mem_bytes;
		if (run->status != KBENCH_RUN_COMPLETE)
			g->status = run->status;
	}
}

/*
 * Bounds of the messages' attributes, in bytes: a number at most a u64
 * and a pad attribute before it (KBENCH_NLA_NUM), a string at most a
 * name (KBENCH_NLA_STR: routine, event, PMU and counter names have at
 * most KBENCH_NAME_MAX characters).  Each nest has at most every
 * attribute of its set once (its MAX), but the multi-attrs counted
 * apart.
 */
#define KBENCH_NLA_NUM		(NLA_ALIGN(NLA_HDRLEN + sizeof(u64)) + NLA_HDRLEN)
#define KBENCH_NLA_STR		NLA_ALIGN(NLA_HDRLEN + KBENCH_NAME_MAX + 1)
/* A RESULT nest without its events, and each EVENT_SUMMARY nest in it */
#define KBENCH_RESULT_SIZE						\
	(NLA_HDRLEN + KBENCH_A_RESULT_MAX * KBENCH_NLA_NUM + KBENCH_NLA_STR)
#define KBENCH_EVENT_SUMMARY_SIZE					\
	(NLA_HDRLEN + KBENCH_A_EVENT_SUMMARY_MAX * KBENCH_NLA_NUM +	\
	 KBENCH_NLA_STR)
/* A RUN message's own attributes: numbers, the counter, the args */
#define KBENCH_RUN_HEAD_SIZE						\
	(KBENCH_A_RUN_MAX * KBENCH_NLA_NUM + KBENCH_NLA_STR +		\
	 KBENCH_RUN_ROUTINES_MAX * KBENCH_NLA_NUM)
/* An EVENT_INFO nest: numbers, its name and PMU */
#define KBENCH_EVENT_INFO_SIZE						\
	(NLA_HDRLEN + KBENCH_A_EVENT_MAX * KBENCH_NLA_NUM +		\
	 2 * KBENCH_NLA_STR)
/* A concurrent run's message of one CPU: the head and a CPU_RUN nest */
#define KBENCH_CPU_MSG_SIZE(series)					\
	(KBENCH_RUN_HEAD_SIZE + NLA_HDRLEN +				\
	 KBENCH_A_CPU_RUN_MAX * KBENCH_NLA_NUM +			\
	 (size_t)(series) * KBENCH_RESULT_SIZE)

/* A message's whole length, headers included, for @size of attributes */
#define KBENCH_MSG_LEN(size)	NLMSG_ALIGN(NLMSG_HDRLEN + GENL_HDRLEN + (size))

/*
 * The largest message, whatever the request: a run of 4 routines with 8
 * events (kbench_run_msg_size(), written out), and a CPU's message of a
 * concurrent run of as many routines.  Neither depends on the number of
 * CPUs: a group of 32 CPUs answers in 33 messages, each of these bounds
 * at most.
 */
static_assert(KBENCH_MSG_LEN(KBENCH_RUN_HEAD_SIZE + KBENCH_SERIES_MAX *
			     (KBENCH_RESULT_SIZE + KBENCH_EVENTS_MAX *
			      KBENCH_EVENT_SUMMARY_SIZE) +
			     KBENCH_EVENTS_MAX * KBENCH_EVENT_INFO_SIZE) <=
	      KBENCH_MSG_MAX);
static_assert(KBENCH_MSG_LEN(KBENCH_CPU_MSG_SIZE(KBENCH_SERIES_MAX)) <=
	      KBENCH_MSG_MAX);

size_t kbench_run_msg_size(u32 nr_series, u32 nr_events)
{
	return KBENCH_RUN_HEAD_SIZE + (size_t)nr_series *
	       (KBENCH_RESULT_SIZE + nr_events * KBENCH_EVENT_SUMMARY_SIZE) +
	       (size_t)nr_events * KBENCH_EVENT_INFO_SIZE;
}

size_t kbench_cpu_msg_size(u32 nr_series)
{
	return KBENCH_CPU_MSG_SIZE(nr_series);
}

size_t kbench_group_msg_size(void)
{
	return KBENCH_RUN_HEAD_SIZE;
}

/* The answer of a RUN on one CPU: its reply, one message. */
static u32 kbench_run_parts(const void *arg)
{
	return 1;
}

static size_t kbench_run_part_size(const void *arg, u32 i)
{
	const struct kbench_run *run = arg;

	return kbench_run_msg_size(run->nr_series, run->nr_events);
}

static int kbench_run_part_fill(struct sk_buff *msg, const void *arg, u32 i)
{
	return kbench_run_fill(msg, arg);
}

const struct kbench_answer_ops kbench_run_answer = {
	.parts = kbench_run_parts,
	.size = kbench_run_part_size,
	.fill = kbench_run_part_fill,
};

/*
 * The answer of a concurrent RUN while it ends (its runs held): a
 * message per CPU, in the order of the request's cpus, then the group's
 * figures.
 */
static u32 kbench_group_parts(const void *arg)
{
	const struct kbench_group *g = arg;

	return g->nr + 1;
}

static size_t kbench_group_part_size(const void *arg, u32 i)
{
	const struct kbench_group *g = arg;

	return i < g->nr ? kbench_cpu_msg_size(g->run[0]->nr_series) :
			   kbench_group_msg_size();
}

static int kbench_group_part_fill(struct sk_buff *msg, const void *arg, u32 i)
{
	const struct kbench_group *g = arg;

	if (i < g->nr)
		return kbench_cpu_msg_fill(msg, g, g->run[i], i);
	return kbench_group_msg_fill(msg, g, g->run[0]);
}

const struct kbench_answer_ops kbench_group_answer = {
	.parts = kbench_group_parts,
	.size = kbench_group_part_size,
	.fill = kbench_group_part_fill,
};
