// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: hardware events - further counters of a run, read next to the
 * CPU counter at the same four points of every window (the engine's
 * struct kbench_extra, include/kbench/engine.h).
 *
 * Each event of a run is a pinned perf counter on the run's CPU, created
 * before the run in process context (the RUN handler) with
 * perf_event_create_kernel_counter() and released after it with
 * perf_event_release_kernel(), on every path.  Inside the window it is
 * read the way perf_event_read_local() reads it; that function is not
 * exported to modules (6.1, 6.12), so kbench does what it does, with the
 * exported pieces only:
 *
 *	if (event->oncpu == smp_processor_id())
 *		event->pmu->read(event);
 *	value = local64_read(&event->count);
 *
 * perf_event_read_local() (kernel/events/core.c, 6.1 and 6.12) disables
 * interrupts because that "avoids all counter scheduling (context
 * switches, timer based rotation and IPIs)": every change of a CPU
 * context's events happens on that CPU with interrupts off.  A kbench
 * window already has them off, on the run's CPU, and the event is a
 * per-CPU event of that CPU (not inherited, not a task's); so, as there,
 * an event with oncpu equal to this CPU is ACTIVE on this CPU's PMU for
 * as long as interrupts stay off, and its PMU's read callback
 * (x86_pmu_read, armpmu_read, power_pmu_read: no locks, no allocation, no
 * sleeping) folds the hardware counter into event->count.  The read is
 * the same instructions in both timed spans of a sample, so its cost
 * cancels in every counter's net.
 *
 * An event that is not counting on the run's CPU at one end of a window
 * (pinned events are never rotated, but one that found no free counter is
 * in ERROR, and hotplug or a PMU reset takes it off) flags the window
 * `event' (kbench_event_check()); the reads of such an event leave
 * event->count alone.  After the run, perf's own times of each event must
 * agree: time running = time enabled over the run, or the run fails.
 *
 * A kernel without CONFIG_PERF_EVENTS (none of Debian's) refuses every
 * run with events, with a message saying so.
 */
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/string.h>

#include <kbench/events.h>

#include "kbench_internal.h"

/**
 * kbench_event_lookup() - the perf type and config of an event name
 * @name: as kbench_event_parse() takes it
 * @ev: filled with the name, type and config
 * @extack: for the message
 * @nla: the attribute the message names
 *
 * Return: 0, or -EINVAL after an extack message naming @nla.
 */
int kbench_event_lookup(const char *name, struct kbench_event *ev,
			struct netlink_ext_ack *extack, const struct nlattr *nla)
{
	int err = kbench_event_parse(name, &ev->type, &ev->config);

	switch (err) {
	case 0:
		strscpy(ev->name, name, sizeof(ev->name));
		return 0;
	case -ERANGE:
		NL_SET_ERR_MSG_ATTR(extack, nla, KBENCH_EVENT_RAW_RANGE_MSG);
		break;
	case -EINVAL:
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "raw event code: raw:0x and 1 to 16 hex digits");
		break;
	default:
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "unknown event (a perf generic hardware event, or raw:0xNN)");
		break;
	}
	return -EINVAL;
}

#if IS_ENABLED(CONFIG_PERF_EVENTS)

/* The row's read: inside a window, interrupts off, on the run's CPU. */
static unsigned long long kbench_event_read(void *ctx)
{
	struct perf_event *pe = ctx;

	if (READ_ONCE(pe->oncpu) == raw_smp_processor_id())
		pe->pmu->read(pe);
	return local64_read(&pe->count);
}

/* At both ends of a window: ACTIVE on @cpu, or the window is flagged. */
static unsigned int kbench_event_check(void *ctx, unsigned int cpu)
{
	struct perf_event *pe = ctx;

	if (READ_ONCE(pe->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(pe->oncpu) != (int)cpu)
		return KBENCH_SAMPLE_F_EVENT;
	return 0;
}

/* The kernel's event row: one instance per event and run. */
const struct kbench_counter kbench_event_row = {
	.name = "perf",
	.desc = "pmu->read(event); local64_read(&event->count)",
	.read_ctx = kbench_event_read,
	.check_ctx = kbench_event_check,
};

/* Is there any hardware PMU for @cpu?  (Does it count cycles?) */
static bool kbench_event_cpu_has_pmu(u32 cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
	};
	struct perf_event *pe;

	pe = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(pe))
		return false;
	perf_event_release_kernel(pe);
	return true;
}

/* The extack message for perf's refusal @err to create an event. */
static void kbench_event_refused(int err, u32 cpu,
				 struct netlink_ext_ack *extack,
				 const struct nlattr *nla)
{
	switch (err) {
	case -ENOENT:
	case -EOPNOTSUPP:
		if (!kbench_event_cpu_has_pmu(cpu))
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "no hardware PMU for this CPU (a virtual machine without PMU passthrough?): software events only");
		else
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "event not supported by the PMU of the run's CPU");
		break;
	case -ENODEV:
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "cannot count on the run's CPU: it is offline");
		break;
	case -EBUSY:
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "the PMU is held exclusively by another perf user");
		break;
	case -ENOMEM:
		NL_SET_ERR_MSG_ATTR(extack, nla, "out of memory");
		break;
	default:
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "perf refused this event on the run's CPU");
		break;
	}
}

/**
 * kbench_events_open() - create the run's events on its CPU
 * @run: with cpu and events[0 .. nr_events) named (kbench_event_lookup())
 * @nla: the request attribute of each event, for the messages
 * @extack: the message on failure, naming the event
 *
 * Process context.  Each event is a pinned per-CPU perf counter on
 * @run->cpu, counting from now on; each must be ACTIVE on its PMU at once
 * (a pinned event that finds no free counter is put in ERROR state): the
 * PMU, not kbench, says how many events fit.  On failure none is left.
 *
 * Return: 0, or -errno after an extack message naming the event.
 */
int kbench_events_open(struct kbench_run *run, const struct nlattr **nla,
		       struct netlink_ext_ack *extack)
{
	struct perf_event *pe;
	u64 enabled, running;
	u32 i;
	int err;

	for (i = 0; i < run->nr_events; i++) {
		struct kbench_event *ev = &run->events[i];
		struct perf_event_attr attr = {
			.type = ev->type,
			.size = sizeof(attr),
			.config = ev->config,
			.pinned = 1,
		};

		pe = perf_event_create_kernel_counter(&attr, run->cpu, NULL,
						      NULL, NULL);
		if (IS_ERR(pe)) {
			err = PTR_ERR(pe);
			kbench_event_refused(err, run->cpu, extack, nla[i]);
			/* perf's "no PMU takes it" is no missing name here */
			if (err == -ENOENT)
				err = -EOPNOTSUPP;
			goto out_release;
		}
		ev->pe = pe;
		strscpy(ev->pmu, pe->pmu->name ? pe->pmu->name : "",
			sizeof(ev->pmu));
		/*
		 * Installing it scheduled the CPU's pinned events in, on that
		 * CPU (an IPI we waited for): ACTIVE, or ERROR without a free
		 * counter.
		 */
		if (READ_ONCE(pe->state) != PERF_EVENT_STATE_ACTIVE) {
			NL_SET_ERR_MSG_ATTR(extack, nla[i],
					    "no free PMU counter for this event on the run's CPU (more events than the PMU has counters, or another perf user pins some)");
			err = -ENOSPC;
			goto out_release;
		}
		perf_event_read_value(pe, &enabled, &running);
		ev->enabled_ns = enabled;
		ev->running_ns = running;
	}
	return 0;

out_release:
	kbench_events_release(run);
	return err;
}

/**
 * kbench_events_close() - after the run: perf's times, then release
 * @run: a run that ended without error
 * @nla: the request attribute of each event, for the message
 * @extack: the message on failure
 *
 * Process context.  Each event must have been running for all the time it
 * was enabled during the run; @run->events get perf's times over the run.
 *
 * Return: 0, or -EIO after an extack message.  The events are released
 * either way.
 */
int kbench_events_close(struct kbench_run *run, const struct nlattr **nla,
			struct netlink_ext_ack *extack)
{
	u64 enabled, running;
	int err = 0;
	u32 i;

	for (i = 0; i < run->nr_events; i++) {
		struct kbench_event *ev = &run->events[i];

		if (!ev->pe)
			continue;
		perf_event_read_value(ev->pe, &enabled, &running);
		ev->enabled_ns = enabled - ev->enabled_ns;
		ev->running_ns = running - ev->running_ns;
		if (ev->running_ns != ev->enabled_ns && !err) {
			NL_SET_ERR_MSG_ATTR(extack, nla[i],
					    "event stopped counting during the run (perf's time running below time enabled): its counter was taken away");
			err = -EIO;
		}
	}
	kbench_events_release(run);
	return err;
}

/* Release the events of @run that exist; any context that may sleep. */
void kbench_events_release(struct kbench_run *run)
{
	u32 i;

	for (i = 0; i < run->nr_events; i++) {
		if (run->events[i].pe)
			perf_event_release_kernel(run->events[i].pe);
		run->events[i].pe = NULL;
	}
}

#else /* !CONFIG_PERF_EVENTS */

/* A kernel without perf events counts none: a run with events is refused. */
const struct kbench_counter kbench_event_row = {
	.name = "perf",
	.desc = "none: the kernel has no perf events",
};

int kbench_events_open(struct kbench_run *run, const struct nlattr **nla,
		       struct netlink_ext_ack *extack)
{
	if (!run->nr_events)
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, nla[0],
			    "this kernel was built without perf events (CONFIG_PERF_EVENTS): no hardware events");
	return -EOPNOTSUPP;
}

int kbench_events_close(struct kbench_run *run, const struct nlattr **nla,
			struct netlink_ext_ack *extack)
{
	return 0;
}

void kbench_events_release(struct kbench_run *run)
{
}

#endif /* CONFIG_PERF_EVENTS */
