/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkbench: kbench's sampling method in userspace.
 *
 *   #include <kbench.h>           cc $(pkg-config --cflags --libs kbench)
 *
 * The same engine as the kbench kernel module (probe for N, warm-up,
 * rotation, the window T(N + 2) - T(2), sample flags, the reasonableness
 * test and the exact integer summary), compiled from the same source; only
 * the counter, the irq-off primitives (none here) and the gap between
 * windows (none here) differ.  See libkbench(3).
 *
 * The structures only grow: fields are appended, and a library that
 * changes a structure's size gets a new symbol version.
 */
#ifndef KBENCH_H
#define KBENCH_H

#include <stdint.h>

#include <linux/kbench.h>	/* flag values: enum kbench_sample_flags, ... */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The minimum valid net counter ticks per iteration of @routine, which
 * executes its body exactly @iterations times (0: kbench chooses N), over
 * @samples samples on the calling thread's CPU (Apple's
 * MeasureNetTimeInCPUCycles contract).  NAN with errno set on failure:
 * EINVAL, ENOMEM, ENODEV (no usable counter, see KBENCH_COUNTER), EAGAIN
 * (no valid sample).
 */
double kbench_measure_net_cycles(void (*routine)(unsigned int iterations,
						 void *data),
				 unsigned int iterations, void *data,
				 unsigned int samples);

/* Routines measured together in one interleaved run. */
#define KBENCH_MEASURE_ROUTINES_MAX	4
/* Excluded samples are counted by reason: one slot per sample flag bit. */
#define KBENCH_MEASURE_REASONS		16
/* Longest routine name kept in a result, without the NUL. */
#define KBENCH_MEASURE_NAME_MAX		31

/* struct kbench_request flags */
enum kbench_request_flags {
	/* do not interleave the empty loop (no corrected figures) */
	KBENCH_REQUEST_F_NO_OVERHEAD	= 1U << 0,
};

struct kbench_request_routine {
	const char *name;		/* for the result; NULL: "routine<i>" */
	void (*run)(unsigned int iterations, void *data);
	void *data;			/* passed to run() */
};

/* What to measure: kbench_request_init(), then set what differs. */
struct kbench_request {
	uint32_t nr_routines;		/* 1 .. KBENCH_MEASURE_ROUTINES_MAX */
	struct kbench_request_routine routine[KBENCH_MEASURE_ROUTINES_MAX];
	int32_t cpu;			/* -1: the CPU the caller is on */
	uint32_t samples;		/* per routine (1000) */
	uint32_t iterations;		/* N per sample, 0: adaptive (0) */
	uint32_t target_ns;		/* adaptive: net time to reach (20000) */
	uint32_t warmup;		/* rounds discarded first (10) */
	uint32_t flags;			/* enum kbench_request_flags */
	const char *counter;		/* NULL: $KBENCH_COUNTER, else the first
					 * usable of the preference list */
	uint64_t counter_hz;		/* 0: the counter's own rate */
};

/* One routine's samples and their exact integer summary. */
struct kbench_series_result {
	char name[KBENCH_MEASURE_NAME_MAX + 1];
	uint32_t samples;		/* taken */
	uint32_t valid;			/* without a flag: in the figures */
	/* excluded samples by flag bit: excluded_by[5] is `reference' */
	uint32_t excluded_by[KBENCH_MEASURE_REASONS];
	int64_t net_min, net_median, net_max, net_sum;	/* lower median */
	int64_t per_iter_min_milli;	/* thousandths of a tick, rounded */
	int64_t per_iter_median_milli;	/* half away from zero */
	int64_t corr_min_milli;		/* minus the overhead routine's, */
	int64_t corr_median_milli;	/* clamped at 0 */
	uint32_t flags;			/* enum kbench_result_flags */
	int64_t *net;			/* [samples] net ticks, time order */
	uint32_t *sample_flags;		/* [samples] enum kbench_sample_flags */
};

struct kbench_result {
	char counter[32];		/* "tsc", "cntvct", "timebase", ... */
	char counter_desc[32];		/* how it was read: "lfence; rdtsc" */
	uint64_t counter_hz;
	uint32_t counter_flags;		/* enum kbench_counter_flags */
	uint32_t cpu;
	uint32_t iterations;		/* N */
	uint32_t adaptive;		/* 1 if N was chosen */
	uint32_t samples, warmup, target_ns;
	uint32_t status;		/* enum kbench_run_status */
	uint64_t elapsed_ns;		/* wall time of the measurement */
	uint64_t span_ticks;		/* first sample's start to last's end */
	uint64_t routine_ticks;		/* sum of the routines' positive nets */
	uint64_t window_ticks;		/* sum of all timed parts */
	uint32_t nr_routines;
	struct kbench_series_result routine[KBENCH_MEASURE_ROUTINES_MAX];
	uint32_t has_overhead;
	struct kbench_series_result overhead;	/* the empty loop */
};

/* Defaults: one routine slot, cpu -1, 1000 samples, adaptive, 10 warm-up. */
void kbench_request_init(struct kbench_request *req);

/*
 * Measure the routines of @req, interleaved (rotated every round) with the
 * empty loop as the overhead routine, on one CPU (the calling thread is
 * pinned to it meanwhile).  0 with @res filled (free it with
 * kbench_result_free()), or -1 with errno: EINVAL (a bad request),
 * ENOENT (KBENCH_COUNTER or @req->counter names no counter), ENODEV
 * (that counter cannot be read here), ENOMEM, or what sched_setaffinity()
 * said.
 */
int kbench_measure(const struct kbench_request *req, struct kbench_result *res);

/* Free the samples of @res (not @res itself). */
void kbench_result_free(struct kbench_result *res);

/* Hardware events counted next to the counter: kbench_measure_events(). */
#define KBENCH_MEASURE_EVENTS_MAX	8

/* struct kbench_event_request flags */
enum kbench_event_flags {
	/* read the events with read(2) even where user access (rdpmc) works */
	KBENCH_EVENT_F_READ		= 1U << 0,
};

struct kbench_event_request {
	uint32_t nr_events;		/* 0 .. KBENCH_MEASURE_EVENTS_MAX */
	/* perf's generic hardware events ("instructions", "cycles", ...) or
	 * "raw:0xNN", distinct */
	const char *name[KBENCH_MEASURE_EVENTS_MAX];
	uint32_t flags;			/* enum kbench_event_flags */
};

/* One event over one routine's samples: the counter's summary, in counts. */
struct kbench_event_series {
	int64_t net_min, net_median, net_max, net_sum;	/* valid samples */
	int64_t per_iter_min_milli;	/* thousandths of a count, rounded */
	int64_t per_iter_median_milli;	/* half away from zero */
	int64_t *net;			/* [samples] net counts, time order */
};

struct kbench_event_result {
	char name[32];			/* as requested */
	uint32_t type;			/* perf_event_attr type and config */
	uint64_t config;
	char read[16];			/* how it was read: "rdpmc", "read" */
	uint64_t enabled_ns, running_ns;	/* perf's times over the run */
	struct kbench_event_series routine[KBENCH_MEASURE_ROUTINES_MAX];
	struct kbench_event_series overhead;
};

struct kbench_events_result {
	uint32_t nr_events;
	int32_t failed;			/* after an error: the event at fault,
					 * or -1 */
	struct kbench_event_result event[KBENCH_MEASURE_EVENTS_MAX];
};

/*
 * kbench_measure() that also counts the hardware events of @ev (NULL or
 * none: kbench_measure() itself), each read at the same four points of
 * every sample as the counter and summarized over the same valid samples
 * into @evres (free its samples with kbench_events_result_free()).  The
 * events are perf counters of the calling thread, pinned, user mode only.
 * -1 with errno, besides kbench_measure()'s: EINVAL (a bad or repeated
 * name), ENOENT or EOPNOTSUPP (the PMU has no such event, or there is no
 * PMU), ENOSPC (no free counter for it), EACCES (perf_event_paranoid),
 * EIO (an event stopped counting during the run); @evres->failed names
 * the event at fault.
 */
int kbench_measure_events(const struct kbench_request *req,
			  const struct kbench_event_request *ev,
			  struct kbench_result *res,
			  struct kbench_events_result *evres);

/* Free the samples of @evres (not @evres itself). */
void kbench_events_result_free(struct kbench_events_result *evres);

/* A counter of the preference list. */
struct kbench_counter_info {
	const char *name;		/* what KBENCH_COUNTER= takes */
	const char *desc;		/* how it is read */
	uint64_t hz;			/* 0 where not usable */
	uint32_t flags;			/* enum kbench_counter_flags */
	int usable;			/* it can be read here */
	unsigned long long (*read)(void);	/* an ordered read */
};

/*
 * The @index-th counter of the preference list of this architecture
 * (0 is the most preferred): 0, or -1 with errno ENOENT past the end.
 */
int kbench_counter_get(unsigned int index, struct kbench_counter_info *info);

/*
 * The counter kbench_measure() would use for @name (NULL: $KBENCH_COUNTER,
 * else the first usable one): 0, or -1 with errno ENOENT / ENODEV.  The
 * first call for a counter whose rate must be calibrated takes 20 ms.
 */
int kbench_counter_select(const char *name, struct kbench_counter_info *info);

/*
 * A concurrent run (kbench_measure_cpus()): the same request at the same
 * time on several CPUs, one pinned thread and engine each.  Before every
 * window the CPUs meet at a rendezvous (each waits, at most @spin_limit
 * ticks, until all have reached the same window); after the run each
 * sample's start skew - the latest start on the counter minus the
 * earliest - is computed and a sample over @skew_bound is flagged
 * KBENCH_SAMPLE_F_SKEW on every CPU (excluded_by[8]), as is a window whose
 * wait gave up.  The counter must be synchronized across CPUs.
 */
struct kbench_cpus_request {
	uint32_t nr_cpus;		/* 1 .. CPU_SETSIZE */
	const int32_t *cpus;		/* [nr_cpus], distinct, online */
	/*
	 * per-CPU data: routine i on the c-th CPU gets data[c * nr_routines
	 * + i]; NULL: each routine's data of the request, shared by all
	 */
	void *const *data;
	uint64_t skew_bound;		/* ticks; 0: a tenth of the mean window */
	uint64_t spin_limit;		/* ticks a window may wait; 0: 1 ms */
};

struct kbench_cpus_result {
	uint32_t nr_cpus;
	struct kbench_result *cpu;	/* [nr_cpus], in the request's order */
	uint64_t skew_bound;		/* ticks, as applied */
	uint32_t skew_samples;		/* skew[]'s length: samples x series */
	uint32_t skew_flagged;		/* of them flagged skew on some CPU */
	uint64_t skew_max, skew_median;	/* ticks, lower median */
	uint64_t *skew;			/* [skew_samples] series by series */
};

/*
 * Measure @req on each CPU of @cr at once (@req->cpu is ignored), the
 * iterations N the smallest any CPU's probe chose.  0 with @res filled
 * (free it with kbench_cpus_result_free()), or -1 with errno: EINVAL (a
 * bad request, a CPU repeated or out of range), what sched_setaffinity()
 * said of a CPU (EINVAL: offline), ENOMEM, EAGAIN (no thread), EIO.  Any
 * thread's failure stops the others at once: none waits for it.
 */
int kbench_measure_cpus(const struct kbench_request *req,
			const struct kbench_cpus_request *cr,
			struct kbench_cpus_result *res);

/* Free what @res holds (not @res itself). */
void kbench_cpus_result_free(struct kbench_cpus_result *res);

#ifdef __cplusplus
}
#endif

#endif /* KBENCH_H */
