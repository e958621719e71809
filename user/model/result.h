/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run: the RUN reply, its samples and their statistics, shared by run,
 * compare and the userspace twins (result.c).  Its fields from the kernel
 * are listed once in schema.h.
 */
#ifndef KBENCHCTL_RESULT_H
#define KBENCHCTL_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/kbench.h>

#include "env.h"
#include "schema.h"
#include "stats.h"

struct kb_nl;
struct kb_until;

/*
 * excluded samples by reason: bit i of the sample flags is excl[i]
 * (KB_EXCL_CPU, ..., from <kbench/schema.h>)
 */
enum {
#define KBENCH_EXCL(bit, id, key, flag, attr) KB_EXCL_##id = bit,
#include <kbench/schema.h>
	KB_EXCL_N
};

/* The names of the excluded-by-reason counts: the sample flags' names. */
extern const char *const kb_excl_key[KB_EXCL_N];

/*
 * One hardware event's figures in a result: what the counter's are in
 * struct kb_result, in counts of the event, over the same samples (the
 * result's sflags say which are valid).
 */
struct kb_ev_result {
	/* net_min, ..., corr_median_milli (minus the overhead's) */
#define KBENCH_SERIES(m, sum, attr, ev_attr) int64_t m;
#define KBENCH_CORR(m, sum, attr) int64_t m;
#include <kbench/schema.h>
	int64_t *net;		/* raw net counts, time order */
	size_t n, cap;
	double *sorted;		/* valid samples per iteration, sorted */
	struct kb_stats st;
	bool have_stats;
};

/* One hardware event of a run (RUN's event-info, or the twin's). */
struct kb_event_desc {
	char name[KBENCH_NAME_MAX + 1];
	uint32_t type;		/* perf_event_attr */
	uint64_t config;
	char pmu[32];		/* kernel: the PMU; userspace: "" */
	char read[16];		/* userspace: "rdpmc" or "read"; kernel: "" */
	uint64_t enabled_ns, running_ns;
};

struct kb_result {
	char routine[KBENCH_NAME_MAX + 1];
	uint32_t index;
	/* the integer summary: samples, valid, excl[], net_min, ... */
#define KBENCH_COUNT(m, sum, attr) uint32_t m;
#include <kbench/schema.h>
	uint32_t excl[KB_EXCL_N];
#define KBENCH_SERIES(m, sum, attr, ev_attr) int64_t m;
#define KBENCH_CORR(m, sum, attr) int64_t m;
#include <kbench/schema.h>
	bool has_corr;
	uint32_t flags, bytes_per_iter;
	bool has_arg;		/* the routine took an argument ... */
	uint64_t arg;		/* ... this one */

	/* raw samples in time order (SAMPLES_GET or the twin) */
	int64_t *net;
	uint32_t *sflags;
	size_t n, cap;
	/*
	 * where N changed (the run's n_changes): pairs of the first sample
	 * that took iterations / d iterations and d, ndivs values (twice the
	 * pairs); every net is the net of iterations iterations all the same
	 */
	int64_t *divs;
	size_t ndivs;

	/*
	 * analysis: valid samples in cycles per iteration, sorted; divided
	 * by scale when not 0 (kb_result_scale())
	 */
	double scale;
	double *sorted;
	struct kb_stats st;
	bool have_stats;

	/* each event of the run (kb_run.events) over the same samples */
	struct kb_ev_result ev[KBENCH_EVENTS_MAX];
};

/*
 * --unit core: the calibration of a run (core.h says how it is measured
 * and what it assumes).
 */
struct kb_core {
	bool have;		/* the calibration was measured */
	bool on;		/* the figures are core cycles (kb_core_apply) */
	double ratio;		/* counter ticks per core cycle (median) */
	double ci_lo, ci_hi;	/* its 95% interval */
	double ci_widen;	/* the order-statistic interval's factor (>= 1) */
	double lag1;		/* lag-1 autocorrelation of the rounds' ratios */
	uint64_t rounds;	/* rounds with both chains valid */
	uint32_t lo_adds, hi_adds;
	double lo_median, hi_median;	/* the chains, ticks per iteration */
};

struct kb_run {
	bool user;		/* userspace twin run */
	/* run_id, cpu, samples, ..., mem_bytes: RUN's reply (schema.h) */
	KB_RUN_FIELDS(KB_MEMBER)
	uint32_t status;
	/*
	 * stopped by a signal (Ctrl-C) after the rounds taken: each routine
	 * has fewer samples than @samples asked (the status stays complete)
	 */
	bool interrupted;
	/*
	 * userspace: CPU time the process had during the run(s) and their
	 * wall time (cpu_share = cpu_ns / wall_ns; 0: not measured)
	 */
	uint64_t cpu_ns, wall_ns;
	/* sampling until answered (--precision, --max-time): batches merged */
	unsigned int batches;
	const struct kb_until *until;	/* its outcome, for the reports */
	unsigned int nres;
	struct kb_result res[KBENCH_RUN_ROUTINES_MAX];
	struct kb_result overhead;
	bool has_overhead;
	bool counter_constant;
	bool has_arg;		/* one argument for every routine (a sweep's) */
	uint64_t arg;
	/*
	 * a scaling sweep's point (--cpus A..K): the samples of this many
	 * CPUs at once, the medians the CPUs' median (0: one CPU); a
	 * contended row of baseline --cpus the same (has_ncpus: saved so)
	 */
	unsigned int ncpus;
	bool has_ncpus;
	char kernel[80];	/* release, for plot titles */
	char date[40];
	unsigned int nevents;	/* hardware events counted */
	struct kb_event_desc events[KBENCH_EVENTS_MAX];
	/*
	 * "": the figures are the counter's; else the event whose figures
	 * took the counter's place (kb_run_use_metric())
	 */
	char metric[KBENCH_NAME_MAX + 1];
	bool metric_missing;	/* the run did not count that event */
	/* what could have distorted it (the module's INFO, sysfs, procfs) */
	struct kb_kernel_env kenv;
	struct kb_env env;
	bool has_env;
	/* --unit core: the calibration, and whether the figures use it */
	struct kb_core core;
	/*
	 * --asm: the snippets' copies an iteration (0: routines), and
	 * whether the routines' figures are per copy (kb_run_per_copy())
	 */
	uint32_t unroll;
	bool per_copy;
};

/*
 * A concurrent run: the same routines at the same time on several CPUs,
 * one run per CPU (as a RUN reply: --user's twins now, a kernel reply
 * later) and the start skew between them, in counter ticks.
 */
struct kb_cpus_run {
	unsigned int nr, cap;
	struct kb_run *run;		/* [nr], in the order of --cpus */
	uint64_t skew_bound, skew_median, skew_max;
	uint32_t skew_samples, skew_flagged;	/* samples x series; over */
};

struct kb_run_req {
	const char *names[KBENCH_RUN_ROUTINES_MAX];
	unsigned int n;
	KB_REQ_FIELDS(KB_REQ_MEMBER)	/* has_cpu, cpu, ... (schema.h) */
	/* arguments: none, one for every routine, or one per routine (n) */
	unsigned int nargs;
	uint64_t args[KBENCH_RUN_ROUTINES_MAX];
	bool progress;		/* show progress on stderr when a tty */
	const char *events[KBENCH_EVENTS_MAX];	/* hardware events to count */
	unsigned int nevents;
	char events_buf[KBENCH_EVENTS_MAX][KBENCH_NAME_MAX + 1];
	bool unit_core;		/* --unit core: the calibration too (core.h) */
	uint32_t unroll;	/* --asm: copies of the snippet an iteration */
};

/* Defaults of a run, as the kernel's (kmod/kbench_internal.h). */
#define KB_RUN_DEFAULT_SAMPLES		1000
#define KB_RUN_DEFAULT_WARMUP		10
#define KB_RUN_DEFAULT_TARGET_NS	20000

/* The kernel's run (or the twins'); 0 or -errno (printed). */
int kb_run_measure(const struct kb_run_req *q, bool user, struct kb_run *r);

/* Append one sample to @res. */
int kb_result_push(struct kb_result *res, int64_t net, uint32_t flags);
/* Append one sample of event @x to @res. */
int kb_result_push_event(struct kb_result *res, unsigned int x, int64_t net);
/* Recompute the kernel-style integer summary from the samples. */
void kb_result_summarize(struct kb_result *res, uint32_t iterations);
/*
 * Samples in time order per iteration, NAN where flagged (the series the
 * block bootstrap resamples: sample i of each routine of a run is round
 * i), malloc'd; NULL: out of memory.
 */
double *kb_series_of(const int64_t *net, const uint32_t *flags, size_t n,
		     uint32_t iterations);
/* Userspace statistics of the valid samples (cycles per iteration). */
int kb_run_analyze(struct kb_run *r);
/* The same for one result of a run of @iterations per sample. */
int kb_result_analyze(struct kb_result *res, uint32_t iterations);

/* Kernel release (uname when not known) and the date, for titles. */
void kb_run_stamp(struct kb_run *r);
/* The environment report of the run's CPU (after the run: r->cpu). */
void kb_run_env(struct kb_run *r);

/*
 * @cycles of the run's counter (or core cycles: core.h) in ns; NAN for an
 * event's counts.
 */
double kb_run_ns(const struct kb_run *r, double cycles);
/*
 * What the run's per-iteration figures count, in one word for a label
 * ("ticks/iter"): "ticks" of the run's counter, or the event whose counts
 * took the counter's place ("cycles": core cycles).  Every printer asks
 * here; nothing else decides the word.
 */
const char *kb_run_unit(const struct kb_run *r);
/*
 * The "status" of JSON and saved files: "complete", "timeout" (the
 * module's max_run_ms) or "interrupted" (a signal stopped it).
 */
const char *kb_run_status_name(const struct kb_run *r);
/* Why @r has fewer samples than asked ("interrupted", "timeout"), or NULL. */
const char *kb_run_partial(const struct kb_run *r);
/* The samples each routine of @r took. */
uint32_t kb_run_samples_taken(const struct kb_run *r);
/* The same with the counter named ("tsc ticks"), in @buf; returns @buf. */
const char *kb_run_unit_text(const struct kb_run *r, char *buf, size_t len);
/* The index of event @name in @r, or -1. */
int kb_run_event_index(const struct kb_run *r, const char *name);
/*
 * Make event @name the metric of @r: in each result its samples, summary
 * and statistics take the counter's place, for good (the counter's and
 * the other events' are freed), so that every statistic, comparison and
 * report works on it (compare and diff --metric).  A run without the
 * event keeps no samples and gets metric_missing.  The overhead
 * correction of the event is kbench_correct()'s.  Before kb_run_analyze().
 */
void kb_run_use_metric(struct kb_run *r, const char *name);
/*
 * The kernel's overhead correction (kbench_correct()) of each event of
 * @r's routines: their corr_* figures.
 */
void kb_run_correct_events(struct kb_run *r);


/* Figures derived from a routine's events (NAN where not counted). */
struct kb_derived {
	double ipc;	/* instructions / cycles */
	double hz;	/* effective frequency: cycles / counter ticks x Hz */
};
void kb_result_derived(const struct kb_run *r, const struct kb_result *res,
		       struct kb_derived *d);


void kb_run_free(struct kb_run *r);
/*
 * Divide @res's userspace statistics and sorted samples by @k: another
 * unit (core cycles, per copy).  The integer summary stays as measured
 * (what is saved): kb_result_milli() gives its per-iteration figures in
 * the statistics' unit.
 */
void kb_result_scale(struct kb_result *res, double k);
/* A per-iteration figure of @res's integer summary, in its unit. */
double kb_result_milli(const struct kb_result *res, int64_t milli);
/*
 * --asm: the routines' analyzed figures per copy of the snippet (divided
 * by r->unroll; the overhead, the loop alone, stays per iteration).  Once.
 */
void kb_run_per_copy(struct kb_run *r);
/* One result's samples and statistics (then zeroed). */
void kb_result_free(struct kb_result *res);

#endif /* KBENCHCTL_RESULT_H */
