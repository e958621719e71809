/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkbench internals: what counter.c gives measure.c.
 */
#ifndef KBENCH_LIB_INTERNAL_H
#define KBENCH_LIB_INTERNAL_H

#include <kbench/engine.h>

#define KB_EXPORT __attribute__((visibility("default")))

/*
 * The counter for @name (NULL: $KBENCH_COUNTER, else the first usable row
 * of the preference list), probed; NULL with errno ENOENT (no such name)
 * or ENODEV (not usable here).
 */
const struct kbench_counter *kb_counter_pick(const char *name);

/* A hardware event of a run (event.c): one instance of an event row. */
struct kb_event {
	char name[32];
	unsigned int type;		/* perf_event_attr */
	unsigned long long config;
	int fd;				/* perf_event_open(2), -1: none */
	struct perf_event_mmap_page *page;	/* its mmap page, or NULL */
	size_t page_size;
	const struct kbench_counter *row;	/* rdpmc or read */
	unsigned long long enabled, running;	/* perf's times (ns) */
};

/*
 * Open the @nr events @names (kbench_event_parse() names, distinct) on the
 * calling thread, each pinned, user mode only, and choose its row.  0, or
 * -errno with *@failed the event at fault: -EINVAL (a bad or repeated
 * name), perf_event_open(2)'s errno, -ENOSPC (no free counter).  Release
 * with kb_events_release() either way.
 */
int kb_events_open(struct kb_event *evs, unsigned int nr,
		   const char *const *names, unsigned int flags, int *failed);
/*
 * After the run: perf's times over it into enabled/running, then release.
 * 0, or -EIO when an event was not counting for part of the run.
 */
int kb_events_close(struct kb_event *evs, unsigned int nr);
void kb_events_release(struct kb_event *evs, unsigned int nr);

/*
 * One CPU's run (measure.c), in parts: kbench_measure_events() takes them
 * in a row, kbench_measure_cpus() (cpus.c) on one thread per CPU with the
 * skew between them.  kb_job_init(): 0 or an errno; free with kb_job_free()
 * either way.
 */
struct kbench_request;
struct kbench_result;
struct kbench_events_result;
struct kb_job {
	const struct kbench_request *req;
	struct kbench_engine_series series[KBENCH_ENGINE_SERIES_MAX];
	struct kbench_engine e;
	struct kbench_counter ctr;
	kbench_s64 *scratch;
	unsigned int nr;		/* series, the empty loop's included */
	unsigned long long elapsed_ns;
};

int kb_job_init(struct kb_job *j, const struct kbench_request *req,
		unsigned int nev, const struct kbench_engine_ops *ops,
		int keep_start);
int kb_job_run(struct kb_job *j, unsigned int cpu);
void kb_job_fill(struct kb_job *j, struct kbench_result *res,
		 struct kbench_events_result *evres, const struct kb_event *evs,
		 unsigned int nev);
void kb_job_free(struct kb_job *j);

/*
 * What kbenchctl adds to a run of kb_measure_ctl() (not public API):
 * @stop, when it reads non-zero between two rounds, ends the samples
 * phase there with the rounds taken kept (@stopped set, the result's
 * status KBENCH_RUN_COMPLETE, its series' samples fewer than asked);
 * before the samples phase it fails the run with EINTR.  It is only read,
 * so a signal handler may set it.  @progress, when set, is called between
 * rounds (probe and warm-up too, with @done 0) with the windows of the
 * samples phase taken and in all.
 */
#include <signal.h>
struct kb_control {
	const volatile sig_atomic_t *stop;
	void (*progress)(unsigned int done, unsigned int total, void *arg);
	void *arg;
	int stopped;			/* out: @stop ended the run */
};

struct kbench_event_request;
/* kbench_measure_events() with @ctl (NULL: none). */
int kb_measure_ctl(const struct kbench_request *req,
		   const struct kbench_event_request *ev,
		   struct kbench_result *res,
		   struct kbench_events_result *evres, struct kb_control *ctl);

/* Pin the calling thread to @cpu (-1: the current one); @old to restore. */
#include <sched.h>
int kb_pin(int cpu, cpu_set_t *old, unsigned int *pinned);
unsigned long long kb_now_ns(void);

#endif /* KBENCH_LIB_INTERNAL_H */
