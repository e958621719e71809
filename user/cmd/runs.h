/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replicated runs of run and compare (--runs R, --between CMD): R runs of
 * one request, each its own probe and warm-up; with --user each in a
 * process of its own, kbenchctl executing itself as a worker.
 */
#ifndef KBENCHCTL_RUNS_H
#define KBENCHCTL_RUNS_H

#include "result.h"

/*
 * Set by kbenchctl for its own workers (never by users): the file the
 * worker writes its one run to.  A fresh process is a fresh layout
 * (ASLR: code, stack, heap and their physical pages), what separate
 * invocations differ by; runs in one process share it (RESULTS.md,
 * "Replicated runs").  pyperf's worker processes are the model.
 */
#define KB_RUNS_WORKER_ENV	"KBENCH_RUNS_WORKER"

/*
 * @fn(@sc, @argc, @argv, orig) with orig a copy of @argv as typed (the
 * option parser edits argv; --user workers are given the original): its
 * exit status, or EXIT_FAIL when the copy cannot be made.
 */
struct subcommand;
typedef int (*kb_argv_cmd)(const struct subcommand *sc, int argc,
			   char *argv[], char *orig[]);
int kb_with_argv(kb_argv_cmd fn, const struct subcommand *sc, int argc,
		 char *argv[]);

/* The first @done runs of @rs freed, then @rs. */
void kb_runs_free(struct kb_run *rs, unsigned int done);

/* The worker's file, or NULL when this process is no worker. */
const char *kb_runs_worker_path(void);

/*
 * The worker: one run of @o's request written to @path as a result file,
 * nothing on stdout.  An exit status.
 */
struct kb_run_opts;
int kb_runs_worker(const struct kb_run_opts *o, const char *path, int argc,
		   char *argv[]);

/*
 * The o->runs runs into @rs (zeroed, o->runs of them), each analyzed and
 * with valid samples; --between and --spacing before each but the first;
 * with --user each a worker process given @orig (the arguments as
 * typed).  *@done: the runs to free with kb_run_free(); *@wall_s: the
 * seconds all of it took.  0, or an exit status after a message saying
 * which run failed (nothing is saved then).
 */
int kb_runs_measure(const struct kb_run_opts *o, int argc, char *orig[],
		    struct kb_run *rs, unsigned int *done, double *wall_s);

#endif /* KBENCHCTL_RUNS_H */
