/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run: the RUN reply, its samples and their statistics, shared by run,
 * compare and the userspace twins.
 */
#ifndef KBENCHCTL_RUN_H
#define KBENCHCTL_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/kbench.h>

#include "env.h"
#include "stats.h"

struct kb_nl;

/* excluded samples by reason: bit i of the sample flags is excl[i] */
enum { KB_EXCL_CPU, KB_EXCL_BACKWARDS, KB_EXCL_NMI, KB_EXCL_SMI,
       KB_EXCL_WINDOW, KB_EXCL_REFERENCE, KB_EXCL_STEAL, KB_EXCL_N };

struct kb_result {
	char routine[KBENCH_NAME_MAX + 1];
	uint32_t index;
	uint32_t samples, valid;
	uint32_t excl[KB_EXCL_N];
	int64_t net_min, net_median, net_max, net_sum;
	int64_t per_iter_min_milli, per_iter_median_milli;
	int64_t corr_min_milli, corr_median_milli;
	bool has_corr;
	uint32_t flags, bytes_per_iter;

	/* raw samples in time order (SAMPLES_GET or the twin) */
	int64_t *net;
	uint32_t *sflags;
	size_t n, cap;

	/* analysis: valid samples in cycles per iteration, sorted */
	double *sorted;
	struct kb_stats st;
	bool have_stats;
};

struct kb_run {
	bool user;		/* userspace twin run */
	uint32_t cpu, samples, iterations, target_ns, warmup;
	uint32_t run_id, adaptive, status;
	char counter[32];
	uint64_t counter_hz, elapsed_ns;
	uint64_t span_cycles, routine_cycles, window_cycles, mem_bytes;
	unsigned int nres;
	struct kb_result res[KBENCH_RUN_ROUTINES_MAX];
	struct kb_result overhead;
	bool has_overhead;
	bool counter_constant;
	char kernel[80];	/* release, for plot titles */
	char date[40];
	/* what could have distorted it (the module's INFO, sysfs, procfs) */
	struct kb_kernel_env kenv;
	struct kb_env env;
	bool has_env;
};

struct kb_run_req {
	const char *names[KBENCH_RUN_ROUTINES_MAX];
	unsigned int n;
	bool has_cpu, has_samples, has_iterations, has_target, has_warmup;
	uint32_t cpu, samples, iterations, target_ns, warmup;
	bool progress;		/* show progress on stderr when a tty */
};

/* Defaults of a run, as the kernel's (kmod/kbench_internal.h). */
#define KB_RUN_DEFAULT_SAMPLES		1000
#define KB_RUN_DEFAULT_WARMUP		10
#define KB_RUN_DEFAULT_TARGET_NS	20000

/* The kernel's run (or the twins'); 0 or -errno (printed). */
int kb_run_measure(const struct kb_run_req *q, bool user, struct kb_run *r);
/* RUN then SAMPLES_GET; 0 or -errno (printed). */
int kb_run_kernel(struct kb_nl *nl, const struct kb_run_req *q,
		  struct kb_run *r);
/* SAMPLES_GET of @run_id into @r's results (allocating them by index). */
int kb_run_fetch_samples(struct kb_nl *nl, uint32_t run_id, struct kb_run *r);
/* INFO fields a run needs (kernel release, counter flags). */
void kb_run_fetch_info(struct kb_nl *nl, struct kb_run *r);

/* Append one sample to @res. */
int kb_result_push(struct kb_result *res, int64_t net, uint32_t flags);
/* Recompute the kernel-style integer summary from the samples. */
void kb_result_summarize(struct kb_result *res, uint32_t iterations);
/* Userspace statistics of the valid samples (cycles per iteration). */
int kb_run_analyze(struct kb_run *r);
/* The same for one result of a run of @iterations per sample. */
int kb_result_analyze(struct kb_result *res, uint32_t iterations);

/* Kernel release (uname when not known) and the date, for titles. */
void kb_run_stamp(struct kb_run *r);
/* The environment report of the run's CPU (after the run: r->cpu). */
void kb_run_env(struct kb_run *r);

double kb_run_ns(const struct kb_run *r, double cycles);

/* Output of a run. */
enum {
	KB_PRINT_HIST = 1 << 0,
	KB_PRINT_LOG = 1 << 1,
	KB_PRINT_RAW = 1 << 2,
	KB_PRINT_BRIEF = 1 << 3,	/* no userspace statistics */
};

/* The run-level fields (inside the current JSON object). */
void kb_run_print_header(const struct kb_run *r);
/* One routine's summary (inside the current JSON object). */
void kb_result_print(const struct kb_run *r, const struct kb_result *res,
		     unsigned int flags);
/* Whole run: one object; "routines" array when several. */
void kb_run_print(const struct kb_run *r, unsigned int flags);
/* The same as the object @key of the current one, not finished. */
void kb_run_print_object(const char *key, const struct kb_run *r,
			 unsigned int flags);
/* CSV of every sample: index,routine,net_cycles,flags. */
void kb_run_print_csv(const struct kb_run *r, FILE *f);

void kb_run_free(struct kb_run *r);

#endif /* KBENCHCTL_RUN_H */
