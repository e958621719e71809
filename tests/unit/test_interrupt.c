// SPDX-License-Identifier: GPL-2.0
/*
 * Long runs of the kbenchctl binary (--user): the estimate line on stderr,
 * no progress into a pipe, and Ctrl-C (SIGINT) or SIGTERM during a run:
 * the samples taken are reported, saved marked partial, and the exit
 * status is 128 + the signal.  The estimate line is the point where the
 * signal is sent: no sleep stands in for the run's progress, and every
 * wait is bounded, so that a run that ends early or never prints the line
 * fails with what it printed instead of hanging.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "tap.h"
#include "tests.h"

/* The estimate line a long run prints on stderr, and where it starts. */
#define ESTIMATE	"kbenchctl: about "

/* Bounds of the waits (ms): for the estimate line, and for the exit. */
#define WAIT_LINE_MS	(120 * 1000)
#define WAIT_LINE_VG_MS	(600 * 1000)
#define WAIT_EXIT_MS	(60 * 1000)
#define WAIT_EXIT_VG_MS	(600 * 1000)

struct child {
	pid_t pid;
	int err_fd;		/* its stderr, read here */
	char *err;		/* what it wrote there */
	size_t len, cap;
	int status;		/* waitpid()'s, once reaped */
	bool reaped;
};

static uint64_t now_ms(void)
{
	return kb_mono_ns() / 1000000;
}

/*
 * Start "[valgrind ...] kbenchctl ARGS" with its stdout in @out_path and
 * its stderr in a pipe.  exec, not a shell around it: the signal goes to
 * kbenchctl (or valgrind, which hands it to kbenchctl's handler).
 */
static bool start(struct child *c, bool vg, const char *args,
		  const char *out_path)
{
	char cmd[1024];
	int p[2], fd;

	memset(c, 0, sizeof(*c));
	snprintf(cmd, sizeof(cmd), "exec %s%s %s",
		 vg ? "valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 " : "",
		 kbenchctl_bin, args);
	if (pipe(p))
		return false;
	c->pid = fork();
	if (c->pid < 0)
		return false;
	if (!c->pid) {
		fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(p[1], 2) < 0)
			_exit(127);
		close(p[0]);
		close(p[1]);
		close(fd);
		/* the signals as a terminal's foreground job has them */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	c->err_fd = p[0];
	c->cap = 4096;
	c->err = calloc(1, c->cap);
	return c->err != NULL;
}

/*
 * Read the child's stderr until @needle appears in it (NULL: until EOF),
 * for at most @ms: true when found (or EOF reached for NULL).
 */
static bool read_until(struct child *c, const char *needle, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	struct pollfd pfd = { .fd = c->err_fd, .events = POLLIN };
	ssize_t n;

	for (;;) {
		uint64_t t = now_ms();

		if (needle && strstr(c->err, needle) &&
		    strchr(strstr(c->err, needle), '\n'))
			return true;
		if (c->err_fd < 0)
			return !needle;
		if (t >= end)
			return false;
		if (poll(&pfd, 1, (int)(end - t)) < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (c->cap - c->len < 1024) {
			char *bigger = realloc(c->err, c->cap * 2);

			if (!bigger)
				return false;
			c->err = bigger;
			c->cap *= 2;
		}
		n = read(c->err_fd, c->err + c->len, c->cap - c->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(c->err_fd);
			c->err_fd = -1;
			continue;
		}
		c->len += (size_t)n;
		c->err[c->len] = '\0';
	}
}

/* Reap the child within @ms; else kill it (SIGKILL) and say so. */
static bool reap(struct child *c, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	pid_t r;

	while (!c->reaped) {
		r = waitpid(c->pid, &c->status, WNOHANG);
		if (r == c->pid) {
			c->reaped = true;
			break;
		}
		if (r < 0 || now_ms() >= end) {
			kill(c->pid, SIGKILL);
			waitpid(c->pid, &c->status, 0);
			c->reaped = true;
			return false;
		}
		/* stderr to its end meanwhile: EOF comes with the exit */
		read_until(c, NULL, 100);
	}
	read_until(c, NULL, 1000);
	return true;
}

static void finish(struct child *c)
{
	if (!c->reaped) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &c->status, 0);
	}
	if (c->err_fd >= 0)
		close(c->err_fd);
	free(c->err);
}

/*
 * "kbenchctl ARGS" (under valgrind with @vg), @sig sent once the estimate
 * line is on its stderr; true when it exited with 128 + @sig (valgrind:
 * without errors or leaks).  Its stdout is in @out_path.
 */
static bool interrupted_run(const char *what, bool vg, const char *args,
			    int sig, const char *out_path)
{
	struct child c;
	bool ok_ = false;

	if (!start(&c, vg, args, out_path)) {
		ok(0, "%s: started", what);
		finish(&c);
		return false;
	}
	if (!read_until(&c, ESTIMATE, vg ? WAIT_LINE_VG_MS : WAIT_LINE_MS)) {
		ok(0, "%s: the estimate line came before the run ended", what);
		diag("no line starting '%s' within %d s, or the run ended first; stderr:\n%s",
		     ESTIMATE, (vg ? WAIT_LINE_VG_MS : WAIT_LINE_MS) / 1000,
		     c.err);
		finish(&c);
		return false;
	}
	/* a run that already ended (a zombie till reaped) is no partial run */
	if (waitpid(c.pid, &c.status, WNOHANG) == c.pid) {
		c.reaped = true;
		ok(0, "%s: still running at the estimate line", what);
		diag("it ended before the signal (status 0x%x); stderr:\n%s",
		     c.status, c.err);
		finish(&c);
		return false;
	}
	kill(c.pid, sig);
	if (!reap(&c, vg ? WAIT_EXIT_VG_MS : WAIT_EXIT_MS)) {
		ok(0, "%s: exits after the signal", what);
		diag("still running %d s after it (killed); stderr:\n%s",
		     (vg ? WAIT_EXIT_VG_MS : WAIT_EXIT_MS) / 1000, c.err);
		finish(&c);
		return false;
	}
	ok_ = WIFEXITED(c.status) && WEXITSTATUS(c.status) == 128 + sig &&
	      (!vg || !strstr(c.err, "=="));
	if (!ok(ok_, "%s: exit %d after the signal%s", what, 128 + sig,
		vg ? ", no valgrind errors or leaks" : ""))
		diag("status: %s %d; stderr:\n%s",
		     WIFEXITED(c.status) ? "exit" : "signal",
		     WIFEXITED(c.status) ? WEXITSTATUS(c.status) :
		     WTERMSIG(c.status), c.err);
	ok(strstr(c.err, "interrupted after ") != NULL,
	   "%s: stderr says it was interrupted after so many samples", what);
	finish(&c);
	return ok_;
}

/* Whether the file @path holds @needle. */
static bool file_has(const char *path, const char *needle)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "grep -qF -- '%s' '%s'", needle, path);
	return system(cmd) == 0;
}

/* python3 @py on the JSON document in @path (as d): true when it passes. */
static bool json_file(const char *path, const char *py)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json\nd=json.load(open(\"%s\"))\n%s' 2>&1",
		 path, py);
	return system(cmd) == 0;
}

static bool have_cmd(const char *name)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* Run "kbenchctl ARGS" (stdout and stderr); its exit status and output. */
static int kbenchctl(const char *args, char **out)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", kbenchctl_bin, args);
	return unit_cmd_out(cmd, out);
}

/* The saved file of an interrupted run: partial, and diff takes it. */
static void check_partial_file(const char *what, const char *path,
			       unsigned int routines)
{
	char py[1024], args[512], *out;
	int rc;

	if (!have_cmd("python3"))
		skip("no python3", "%s: the file's \"partial\" key", what);
	else
		ok(snprintf(py, sizeof(py),
			    "r=d[\"runs\"][0]; p=r[\"partial\"]\n"
			    "assert r[\"status\"]==\"interrupted\" and p[\"reason\"]==\"interrupted\", r[\"status\"]\n"
			    "assert p[\"samples_asked\"]==10000000==r[\"samples\"], p\n"
			    "assert 0<p[\"samples_taken\"]<p[\"samples_asked\"], p\n"
			    "rs=r[\"routines\"]; assert len(rs)==%u, len(rs)\n"
			    "assert all(x[\"n\"]==p[\"samples_taken\"] for x in rs), [x[\"n\"] for x in rs]\n",
			    routines + 1) > 0 && json_file(path, py),
		   "%s: the file says \"partial\": interrupted, 0 < samples_taken < samples_asked, every routine that many samples",
		   what);
	snprintf(args, sizeof(args), "diff --check %s", path);
	rc = kbenchctl(args, &out);
	if (!ok(rc == 0 && strstr(out, ": ok, ") &&
		strstr(out, "partial: 1 run with fewer samples than asked"),
		"%s: diff --check loads it (exit 0) and says it is partial", what))
		diag("exit %d:\n%s", rc, out);
	free(out);
	snprintf(args, sizeof(args), "diff %s %s", path, path);
	rc = kbenchctl(args, &out);
	if (!ok(rc == 0 && strstr(out, "the old side is partial: interrupted after ") &&
		strstr(out, "the new side is partial: interrupted after "),
		"%s: diff F F runs (exit 0) and warns that both sides are partial", what))
		diag("exit %d:\n%s", rc, out);
	free(out);
}

/* A short run into a pipe: no estimate, no progress line. */
static void test_short_quiet(void)
{
	char *out;
	int rc = kbenchctl("run add_chain --user --samples 300 --iterations 1000", &out);

	if (!ok(rc == 0 && !strstr(out, ESTIMATE) && !strchr(out, '\r') &&
		!strstr(out, "ETA ") && !strstr(out, "partial"),
		"a short run prints no estimate and no progress into a pipe"))
		diag("exit %d:\n%s", rc, out);
	free(out);
}

void test_interrupt(void)
{
	const char *file = "unit-partial.json", *out = "unit-partial.out";
	const char *cfile = "unit-cpartial.json";
	bool vg = have_cmd("valgrind");

	test_short_quiet();

	/* Ctrl-C in a run of 10M samples (minutes) with --save */
	remove(file);
	if (interrupted_run("run --user --samples 10000000 --save, SIGINT", false,
			    "run add_chain --user --samples 10000000 --save unit-partial.json",
			    SIGINT, out)) {
		ok(file_has(out, "partial: interrupted after ") &&
		   file_has(out, "of 10000000 samples per routine") &&
		   file_has(out, "add_chain") && file_has(out, "median"),
		   "SIGINT: the report of what was measured, with its 'partial: interrupted after M of N samples' line");
		check_partial_file("run, SIGINT", file, 1);
	}
	remove(file);

	/* SIGTERM, no --save: the report alone, exit 143 */
	if (interrupted_run("run --user --samples 10000000 --json, SIGTERM", false,
			    "run add_chain --user --samples 10000000 --json",
			    SIGTERM, out) && have_cmd("python3"))
		ok(json_file(out,
			     "p=d[\"partial\"]; assert d[\"status\"]==\"interrupted\" and p[\"reason\"]==\"interrupted\"\n"
			     "assert p[\"samples_asked\"]==10000000 and 0<p[\"samples_taken\"]<10000000 and d[\"samples_taken\"]==p[\"samples_taken\"]\n"),
		   "SIGTERM --json: stdout is one JSON document (no estimate in it) with \"partial\"");

	/* compare: both routines stop at the same round */
	remove(cfile);
	if (interrupted_run("compare --user --samples 10000000 --save, SIGINT", false,
			    "compare add_chain mul_chain --user --samples 10000000 --save unit-cpartial.json",
			    SIGINT, out)) {
		ok(file_has(out, "partial: interrupted after "),
		   "compare, SIGINT: the report says it is partial");
		check_partial_file("compare, SIGINT", cfile, 2);
	}
	remove(cfile);

	/* under valgrind: the handler, the partial analysis and the save */
	if (!vg) {
		skip("no valgrind", "valgrind: run interrupted by SIGINT");
	} else {
		remove(file);
		if (interrupted_run("valgrind run --user --samples 1000000 --save --json, SIGINT",
				    true,
				    "run add_chain --user --samples 1000000 --save unit-partial.json --json",
				    SIGINT, out) && have_cmd("python3"))
			ok(json_file(out, "assert d[\"partial\"][\"reason\"]==\"interrupted\"\n") &&
			   json_file(file, "assert d[\"runs\"][0][\"partial\"][\"samples_taken\"]>0\n"),
			   "valgrind, SIGINT: the JSON report and the file say partial");
		remove(file);
	}
	remove(out);
}
