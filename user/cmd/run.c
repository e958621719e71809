// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl run: measure routines (kernel, or the userspace twins); save
 * the result (--save) and diff it against a saved one (--baseline).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "color.h"
#include "diff.h"
#include "diffprint.h"
#include "events.h"
#include "kbenchctl.h"
#include "measure.h"
#include "output.h"
#include "replic.h"
#include "report.h"
#include "result.h"
#include "runopts.h"
#include "runprint.h"
#include "svg.h"
#include "sweep.h"
#include "until.h"
#include "verdict.h"

/*
 * The run (short, or in full with -v and --json), then the diff against
 * the baseline: {"run": ..., "diff": ...} in JSON.  0 or -errno.
 */
static int report_baseline(const struct kb_run_opts *o, const struct kb_run *r,
			   unsigned int pflags, struct kb_resfile *base,
			   struct kb_resfile *now, bool *regressed)
{
	int err;

	out_open_object(NULL);
	if (opt_json || o->verbose)
		kb_run_print_object("run", r, pflags);
	else
		kb_report_run(r, pflags);
	out_text("\ndiff against the baseline %s:\n", o->baseline);
	err = kb_diff_print("diff", o->baseline, base, "this run", now,
			    &o->diff, regressed);
	out_close_object();
	out_finish();
	return err;
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
#define KB_RUNS_WORKER_ENV	"KBENCH_RUNS_WORKER"

/* The worker: one run into @path, quietly.  An exit status. */
static int run_worker(const struct kb_run_opts *o, const char *path,
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

/*
 * The text of --runs R: a row per run and routine (median, its CI, valid
 * samples, stability), then per routine the runs' geometric mean and the
 * spread between them.
 */
static void report_runs(const struct kb_run *rs, unsigned int n)
{
	double m[KB_RUNS_MAX], gm, sp;
	struct kb_stability v;
	unsigned int i, k;

	kb_env_print(&rs[0].env, KB_ENV_VIEW_WARNINGS);
	out_text("%u runs of %u routine%s%s, each with its own probe and warm-up\n",
		 n, rs[0].nres, rs[0].nres == 1 ? "" : "s",
		 rs[0].user ? " (userspace twins, each run a process of its own)" : "");
	out_text("%-24s %4s %14s  %-24s %8s  %s\n", "routine", "run",
		 "median/iter", "95% CI of the median", "valid", "stability");
	for (k = 0; k < rs[0].nres; k++)
		for (i = 0; i < n; i++) {
			const struct kb_result *x = &rs[i].res[k];
			char lbl[KBENCH_NAME_MAX + 24], ci[48];

			snprintf(lbl, sizeof(lbl), "%s%s", x->routine,
				 x->has_arg ? ":" : "");
			if (x->has_arg)
				snprintf(lbl + strlen(lbl), sizeof(lbl) - strlen(lbl),
					 "%llu", (unsigned long long)x->arg);
			kb_result_stability(&rs[i], x, &v);
			snprintf(ci, sizeof(ci), "%.3f .. %.3f", x->st.ci_lo,
				 x->st.ci_hi);
			out_text("%-24s %4u %10.3f cyc  %-24s %8zu  %s\n",
				 i ? "" : lbl, i + 1, x->st.median, ci,
				 x->st.count, v.stable ? "stable" :
				 v.nreasons ? v.reason[0] : "unstable");
		}
	for (k = 0; k < rs[0].nres; k++) {
		const struct kb_result *x = &rs[0].res[k];

		for (i = 0; i < n; i++)
			m[i] = rs[i].res[k].st.median;
		sp = kb_runs_spread_pct(m, n, &gm);
		if (x->has_arg)
			out_text("%s:%llu", x->routine, (unsigned long long)x->arg);
		else
			out_text("%s", x->routine);
		out_text(": geometric mean of the runs' medians %.3f cycles/iter, between-run spread %.2f%% (standard deviation of ln(median) x 100)\n",
			 gm, sp);
	}
}

/* The same in JSON: {"runs": [run objects], "between_runs": [...]}. */
static void report_runs_json(const struct kb_run *rs, unsigned int n,
			     unsigned int pflags)
{
	double m[KB_RUNS_MAX], gm, sp;
	unsigned int i, k;

	out_open_array("runs");
	for (i = 0; i < n; i++)
		kb_run_print_object(NULL, &rs[i], pflags);
	out_close_array();
	out_open_array("between_runs");
	for (k = 0; k < rs[0].nres; k++) {
		for (i = 0; i < n; i++)
			m[i] = rs[i].res[k].st.median;
		sp = kb_runs_spread_pct(m, n, &gm);
		out_open_object(NULL);
		out_string("routine", NULL, rs[0].res[k].routine);
		if (rs[0].res[k].has_arg)
			out_uint("arg", NULL, rs[0].res[k].arg);
		out_uint("runs", NULL, n);
		out_open_array("median_cycles");
		for (i = 0; i < n; i++)
			out_double(NULL, NULL, m[i]);
		out_close_array();
		out_double("geomean_median_cycles", NULL, gm);
		out_double("spread_pct", NULL, sp);
		out_close_object();
	}
	out_close_array();
}

/*
 * run --runs R: R runs of the request, each its own probe and warm-up
 * (kernel or --user alike: kb_run_measure() per run), --between CMD
 * before each but the first, reported, diffed against --baseline and
 * saved in one file.  An exit status.
 */
static int run_replicated(struct kb_run_opts *o,
			  struct kb_resfile *base, int argc, char *argv[],
			  char *orig[])
{
	bool until = o->has_precision || o->has_max_time, regressed = false;
	unsigned int n = o->runs, done = 0, i;
	struct kb_results now = { 0 };
	int ret = EXIT_OK, err = 0;
	struct kb_run *rs;

	rs = calloc(n, sizeof(*rs));
	if (!rs) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_FAIL;
	}
	for (i = 0; i < n; i++) {
		struct kb_until u = { .precision_pct = o->precision,
				      .max_time_s = o->max_time };

		if (i && o->between && run_between(o->between, i + 1, n)) {
			ret = EXIT_FAIL;
			goto out_free;
		}
		/* --user: a process each; kernel: a RUN request each */
		if (o->user)
			err = run_in_process(i + 1, n, argc, orig, &rs[i]);
		else
			err = until ? kb_measure_until(&o->q, o->user, &u, &rs[i]) :
				      kb_run_measure(&o->q, o->user, &rs[i]);
		done = i + 1;
		if (err == -EIO) {
			ret = EXIT_FAIL;
			goto out_free;
		}
		if (err) {
			fprintf(stderr, "%s: run %u of %u failed: nothing saved\n",
				prog, i + 1, n);
			ret = kb_exit_status(err);
			goto out_free;
		}
		if (kb_run_analyze(&rs[i])) {
			fprintf(stderr, "%s: out of memory\n", prog);
			ret = EXIT_FAIL;
			goto out_free;
		}
		if (kb_report_no_valid(&rs[i], stderr) ||
		    rs[i].status == KBENCH_RUN_TIMEOUT) {
			fprintf(stderr, "%s: run %u of %u %s: nothing saved\n",
				prog, i + 1, n,
				rs[i].status == KBENCH_RUN_TIMEOUT ?
				"reached the module's max_run_ms (partial figures)" :
				"has no valid samples");
			ret = EXIT_FAIL;
			goto out_free;
		}
	}
	if (kb_results_build_runs(&now, rs, n, &o->q, argc, argv)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = EXIT_FAIL;
		goto out_free;
	}
	out_open_object(NULL);
	if (opt_json)
		report_runs_json(rs, n, 0);
	else
		report_runs(rs, n);
	if (o->baseline) {
		out_text("\ndiff against the baseline %s:\n", o->baseline);
		err = kb_diff_print("diff", o->baseline, base, "these runs",
				    &now.rf, &o->diff, &regressed);
		ret = kb_diff_exit_status(err, regressed);
	}
	out_close_object();
	out_finish();
	if (o->save && kb_results_save(o->save, &now) && ret == EXIT_OK)
		ret = EXIT_FAIL;
out_free:
	kb_results_free(&now);
	for (i = 0; i < done; i++)
		kb_run_free(&rs[i]);
	free(rs);
	return ret;
}

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

static int run_cmd(const struct subcommand *sc, int argc, char *argv[],
		   char *orig[]);

int run_main(const struct subcommand *sc, int argc, char *argv[])
{
	char **orig = argv_copy(argc, argv);
	int ret, i;

	if (!orig) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_FAIL;
	}
	ret = run_cmd(sc, argc, argv, orig);
	for (i = 0; i < argc; i++)
		free(orig[i]);
	free(orig);
	return ret;
}

static int run_cmd(const struct subcommand *sc, int argc, char *argv[],
		   char *orig[])
{
	struct kb_resfile base = { 0 };
	struct kb_run_opts o;
	struct kb_results now;
	unsigned int pflags = 0;
	bool regressed = false;
	int ret = EXIT_OK, err;
	struct kb_run r = { 0 };
	struct kb_until u = { 0 };
	bool until;

	err = kb_run_opts_parse(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	until = o.has_precision || o.has_max_time;
	u.precision_pct = o.precision;
	u.max_time_s = o.max_time;
	if (o.hist)
		pflags |= KB_PRINT_HIST;
	if (o.log)
		pflags |= KB_PRINT_LOG;
	if (o.raw)
		pflags |= KB_PRINT_RAW;
	err = kb_pmu_check_events(sc->name, o.q.events, o.q.nevents);
	if (!err)
		err = o.user ? kb_run_opts_check_twins(&o, sc->name) :
			       kb_run_opts_check_module(&o, sc);
	if (err)
		return kb_exit_status(err);
	if (getenv(KB_RUNS_WORKER_ENV))
		return run_worker(&o, getenv(KB_RUNS_WORKER_ENV), argc, argv);
	if ((o.cpus.spec && !o.cpus.hi) || o.cpus.each)
		return kb_cpus_main(&o);
	if (kb_sweep_is_sweep(&o.sweep))
		return kb_sweep_main(sc, &o, argc, argv, false);
	/* a bad baseline fails before the measurement, not after it */
	if (o.baseline) {
		err = kb_baseline_load(sc->name, o.baseline, &base);
		if (err)
			return kb_diff_exit_status(err, false);
	}
	if (o.runs > 1) {
		ret = run_replicated(&o, &base, argc, argv, orig);
		goto out_free;
	}
	err = until ? kb_measure_until(&o.q, o.user, &u, &r) :
		      kb_run_measure(&o.q, o.user, &r);
	if (err) {
		ret = kb_exit_status(err);
		goto out_free;
	}
	if (kb_run_analyze(&r)) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = EXIT_FAIL;
		goto out_free;
	}
	if (kb_report_no_valid(&r, stderr)) {
		ret = EXIT_FAIL;
		goto out_free;
	}
	if (o.save || o.baseline)
		kb_results_build(&now, &(const struct kb_run *){ &r },
				 &(const struct kb_run_req *){ &o.q }, 1, argc,
				 argv);
	if (o.csv) {
		/* the CSV stays clean: the warnings go to stderr */
		out_init(stderr, false);
		kb_env_print(&r.env, KB_ENV_VIEW_WARNINGS);
		out_init(stdout, false);
		kb_run_print_csv(&r, stdout);
	} else if (o.baseline) {
		err = report_baseline(&o, &r, pflags, &base, &now.rf, &regressed);
	} else if (opt_json || o.verbose) {
		kb_run_print(&r, pflags);
	} else {
		kb_report_run(&r, pflags);
	}
	if (o.baseline)
		ret = kb_diff_exit_status(err, regressed);
	if (o.save && kb_results_save(o.save, &now) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	if (o.svg && kb_svg_write_file(o.svg, &r, o.log_x) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	if (r.status == KBENCH_RUN_TIMEOUT) {
		/* the result above is partial: say so and fail */
		fprintf(stderr, "%s: %sthe run reached the module's max_run_ms after %u of %u samples: the figures are partial%s (ask for fewer --samples, or load kbench with a larger max_run_ms)\n",
			prog, kb_color(stderr, KB_WARN),
			r.nres ? r.res[0].samples : 0, r.samples,
			kb_color_end(stderr));
		ret = EXIT_FAIL;
	}
out_free:
	kb_resfile_free(&base);
	kb_run_free(&r);
	return ret;
}
