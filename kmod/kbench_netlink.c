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

/* Why a run that is ending (-EAGAIN: run->ending) was asked to end. */
static const char *kbench_ending_why(int err)
{
	switch (err) {
	case -ECONNRESET:
		return "its requester closed";
	case -ENODEV:
		return "its CPU went offline";
	default:
		return "it was stopped";
	}
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
				  "run %u is ending on this CPU (%s), retry",
				  run->ending, kbench_ending_why(run->ending_err));
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
			       const struct kbench_run_req *q, u32 *id)
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
	err = kbench_run_hold_request(run, skb, info, NULL,
				      &kbench_group_answer, g);
	if (err)
		goto out_put;
	for (i = 0; i < nr; i++) {
		g->run[i]->nla_cpu = kbench_nla_in(run->req_skb, info->nlhdr,
						   nla_cpus[i]);
		g->run[i]->nla_iterations = run->nla_iterations;
	}
	g->complete = kbench_nl_group_complete;
	*id = run->id;
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
					  "cpus: run %u is ending on CPU %u (%s), retry",
					  g->run[bad]->ending, cpus[bad],
					  kbench_ending_why(g->run[bad]->ending_err));
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

/*
 * A RUN: 0 once its run has started (its thread answers; *@id its run
 * id, the group's first CPU's for cpus), or -errno.
 */
static int kbench_nl_run(struct sk_buff *skb, struct genl_info *info,
			 u32 *id)
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
		return kbench_nl_run_group(skb, info, &q, id);
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
	err = kbench_run_hold_request(run, skb, info, events,
				      &kbench_run_answer, run);
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
	*id = run->id;
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
	u32 id = 0;
	int err = kbench_fault_no_notify(info) ?: kbench_nl_run(skb, info, &id);

	/*
	 * Started, with notify: as nl80211's peer measurement, the ack now,
	 * the run id in its cookie; the run's thread sends the answer as
	 * RUN_NTF notifications and a RUN_END_NTF.
	 */
	if (!err && nla_get_flag(info->attrs[KBENCH_A_RUN_NOTIFY])) {
		nl_set_extack_cookie_u64(info->extack, id);
		return 0;
	}
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
 * difference; or, for notify, the same as RUN_NTF notifications and a
 * RUN_END_NTF (kbench_answer()).  The extack of a failure is built
 * here, on this stack.
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
	kbench_answer(run, err, &extack);
}

/*
 * The end of a concurrent RUN, in its group's last thread: as
 * kbench_nl_run_complete() for the group's runs, every one stored on
 * success with the group's figures (kbench_group_sum(): run-get finds
 * them from any of its runs), the answer (kbench_group_answer: a
 * message per CPU, then the group's) and the ack.  A failure is
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
	kbench_group_sum(g);
	if (err)
		kbench_run_explain(&extack, cause, err, cause->nla_cpu,
				   cause->nla_iterations);
	else
		for (i = 0; i < g->nr; i++)
			kbench_store_add(g->run[i]);
	kbench_answer(lead, err, &extack);
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
