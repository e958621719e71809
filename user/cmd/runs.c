// SPDX-License-Identifier: GPL-2.0
/*
 * Replicated runs (runs.h): R runs of one request for run --runs and
 * compare --runs, --between CMD before each but the first, and --user
 * runs each in a worker process of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"
#include "cmd.h"
#include "measure.h"
#include "report.h"
#include "core.h"
#include "result.h"
#include "runopts.h"
#include "runs.h"
#include "until.h"

/*
 * The subcommand's arguments as given: the option parser edits and
 * permutes argv (NAME:ARG is cut at the colon), and a --runs worker must
 * be given the arguments the user gave.  NULL when out of memory.
 */
static char **argv_copy(int argc, char *argv[])
{
	char **c = calloc((size_t)argc + 1, sizeof(*c));
	int i;

	for (i = 0; c && i < argc; i++) {
		c[i] = strdup(argv[i]);
		if (!c[i]) {
			while (i--)
				free(c[i]);
			free(c);
			return NULL;
		}
	}
	return c;
}

static void argv_free(int argc, char **c)
{
	int i;

	for (i = 0; c && i < argc; i++)
		free(c[i]);
	free(c);
}

int kb_with_argv(kb_argv_cmd fn, const struct subcommand *sc, int argc,
		 char *argv[])
{
	char **orig = argv_copy(argc, argv);
	int ret;

	if (!orig) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_FAIL;
	}
	ret = fn(sc, argc, argv, orig);
	argv_free(argc, orig);
	return ret;
}

void kb_runs_free(struct kb_run *rs, unsigned int done)
{
	unsigned int i;

	for (i = 0; i < done; i++)
		kb_run_free(&rs[i]);
	free(rs);
}

const char *kb_runs_worker_path(void)
{
	const char *p = getenv(KB_RUNS_WORKER_ENV);

	return p && p[0] ? p : NULL;
}

/*
 * --between CMD before run @i (1-based) of @n: /bin/sh -c CMD with its
 * output on stderr (stdout stays the report's).  0, or -EIO after a
 * message naming the command and how it ended.
 */
static int run_between(const char *cmd, unsigned int i, unsigned int n)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "%s: --between '%s': fork: %s\n", prog, cmd,
			strerror(errno));
		return -EIO;
	}
	if (!pid) {
		dup2(2, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "%s: --between '%s': waitpid: %s\n", prog,
				cmd, strerror(errno));
			return -EIO;
		}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFEXITED(status))
		fprintf(stderr, "%s: --between '%s' exited with status %d before run %u of %u: stopped, nothing saved (fix the command, or check it alone with sh -c)\n",
			prog, cmd, WEXITSTATUS(status), i, n);
	else
		fprintf(stderr, "%s: --between '%s' was killed by signal %d before run %u of %u: stopped, nothing saved\n",
			prog, cmd, WTERMSIG(status), i, n);
	return -EIO;
}

/*
 * run --user --runs R runs each run in a process of its own: kbenchctl
 * executes itself with the same arguments and this variable naming a
 * file, and the worker measures one run, writes it there as a result
 * file and prints nothing on stdout.  A fresh process is a fresh layout
 * (ASLR: code, stack, heap and their physical pages), what separate
 * invocations differ by; runs in one process share it, and measured on
 * this project's machines their spread missed most of the noise between
 * invocations (RESULTS.md).  pyperf's worker processes are the model.
 */

int kb_runs_worker(const struct kb_run_opts *o, const char *path,
		      int argc, char *argv[])
{
	struct kb_until u = { .precision_pct = o->precision,
			      .max_time_s = o->max_time };
	struct kb_run r = { 0 };
	struct kb_results x;
	FILE *f;
	int err;

	err = o->has_precision || o->has_max_time ?
	      kb_measure_until(&o->q, o->user, &u, &r) :
	      kb_run_measure(&o->q, o->user, &r);
	if (err)
		return kb_exit_status(err);
	kb_results_build(&x, &(const struct kb_run *){ &r },
			 &(const struct kb_run_req *){ &o->q }, 1, argc, argv);
	f = fopen(path, "w");
	err = f ? kb_resfile_write(f, &x.rf.meta, x.rf.runs, 1) : -errno;
	if (f && fclose(f) && !err)
		err = -EIO;
	if (err)
		fprintf(stderr, "%s: run worker: cannot write %s: %s\n", prog,
			path, strerror(-err));
	kb_run_free(&r);
	return err ? EXIT_FAIL : EXIT_OK;
}

/*
 * Run @i of @n in a worker process (above) into @r (analyzed by the
 * caller).  0, or -EIO after a message.
 */
static int run_in_process(unsigned int i, unsigned int n, int argc,
			  char *argv[], struct kb_run *r)
{
	char path[] = "/tmp/kbench-run-XXXXXX", err[768];
	const char *tmp = getenv("TMPDIR");
	char tpath[4096], exe[4096];
	struct kb_resfile rf;
	char **args;
	int fd, status, k;
	pid_t pid;

	if (tmp && tmp[0] == '/' &&
	    (size_t)snprintf(tpath, sizeof(tpath), "%s/kbench-run-XXXXXX", tmp) < sizeof(tpath))
		fd = mkstemp(tpath);
	else
		fd = mkstemp(strcpy(tpath, path));
	if (fd < 0) {
		fprintf(stderr, "%s: run %u of %u: cannot make a temporary file for its worker (%s): set TMPDIR to a writable directory\n",
			prog, i, n, strerror(errno));
		return -EIO;
	}
	close(fd);
	args = calloc((size_t)argc + 2, sizeof(*args));
	if (!args) {
		unlink(tpath);
		return -ENOMEM;
	}
	args[0] = (char *)prog;
	for (k = 0; k < argc; k++)
		args[k + 1] = argv[k];
	/* the path, not /proc/self/exe itself: under valgrind that is its tool */
	k = (int)readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	snprintf(exe + (k > 0 ? k : 0), sizeof(exe) - (k > 0 ? (size_t)k : 0),
		 "%s", k > 0 ? "" : "/proc/self/exe");
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, 1);
		setenv(KB_RUNS_WORKER_ENV, tpath, 1);
		execv(exe, args);
		fprintf(stderr, "%s: run %u of %u: cannot execute %s: %s\n",
			prog, i, n, exe, strerror(errno));
		_exit(127);
	}
	free(args);
	if (pid < 0) {
		fprintf(stderr, "%s: run %u of %u: fork: %s\n", prog, i, n,
			strerror(errno));
		unlink(tpath);
		return -EIO;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			unlink(tpath);
			return -EIO;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: run %u of %u (a process of its own) failed: %s %d: nothing saved\n",
			prog, i, n, WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		unlink(tpath);
		return -EIO;
	}
	fd = kb_resfile_load(tpath, &rf, err, sizeof(err));
	unlink(tpath);
	if (fd || rf.nruns != 1) {
		fprintf(stderr, "%s: run %u of %u: its worker's result: %s\n", prog,
			i, n, fd ? err : "not one run");
		if (!fd)
			kb_resfile_free(&rf);
		return -EIO;
	}
	/* the run leaves the file's array: it is freed with the rest */
	*r = rf.runs[0].run;
	memset(&rf.runs[0].run, 0, sizeof(rf.runs[0].run));
	kb_resfile_free(&rf);
	kb_run_env(r);
	return 0;
}

/* --spacing: sleep @s seconds, whatever signals come meanwhile. */
static void pause_s(double s)
{
	struct timespec t = { .tv_sec = (time_t)s,
			      .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static int runs_measure(const struct kb_run_opts *o, int argc, char *orig[],
			struct kb_run *rs, unsigned int *done)
{
	bool until = o->has_precision || o->has_max_time;
	unsigned int n = o->runs, i;
	int err;

	*done = 0;
	for (i = 0; i < n; i++) {
		struct kb_until u = { .precision_pct = o->precision,
				      .max_time_s = o->max_time };

		if (i && o->between && run_between(o->between, i + 1, n)) {
			return EXIT_FAIL;
		}
		if (i && o->spacing > 0)
			pause_s(o->spacing);
		/* --user: a process each; kernel: a RUN request each */
		if (o->user)
			err = run_in_process(i + 1, n, argc, orig, &rs[i]);
		else
			err = until ? kb_measure_until(&o->q, o->user, &u, &rs[i]) :
				      kb_run_measure(&o->q, o->user, &rs[i]);
		*done = i + 1;
		if (err == -EIO) {
			return EXIT_FAIL;
		}
		if (err) {
			fprintf(stderr, "%s: run %u of %u failed: nothing saved\n",
				prog, i + 1, n);
			return kb_exit_status(err);
		}
		if (kb_run_analyze(&rs[i])) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return EXIT_FAIL;
		}
		kb_core_apply(&rs[i]);
		kb_run_per_copy(&rs[i]);
		if (kb_report_no_valid(&rs[i], stderr) ||
		    rs[i].status == KBENCH_RUN_TIMEOUT) {
			fprintf(stderr, "%s: run %u of %u %s: nothing saved\n",
				prog, i + 1, n,
				rs[i].status == KBENCH_RUN_TIMEOUT ?
				"reached the module's max_run_ms (partial figures)" :
				"has no valid samples");
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

int kb_runs_measure(const struct kb_run_opts *o, int argc, char *orig[],
		    struct kb_run *rs, unsigned int *done, double *wall_s)
{
	uint64_t t0 = kb_mono_ns();
	int ret = runs_measure(o, argc, orig, rs, done);

	*wall_s = (double)(kb_mono_ns() - t0) / 1e9;
	return ret;
}
