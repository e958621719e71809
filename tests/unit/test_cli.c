// SPDX-License-Identifier: GPL-2.0
/*
 * The kbenchctl binary: exit codes, messages, the paths that need no module
 * (--user) and valgrind runs of them.  The module is never loaded here, so
 * every kernel subcommand must say "kbench module not loaded" and exit 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "color.h"
#include "resfile.h"
#include "tap.h"
#include "twin.h"
#include "tests.h"

/* Run "kbenchctl ARGS" through sh; output (stdout+stderr unless noted). */
static int run(const char *args, const char *redir, char **out)
{
	char cmd[1024];
	size_t cap = 4096, len = 0, r;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s %s", kbenchctl_bin, args,
		 redir ? redir : "2>&1");
	p = popen(cmd, "r");
	*out = malloc(cap);
	while ((r = fread(*out + len, 1, cap - len - 1, p)) > 0) {
		len += r;
		if (cap - len < 2048)
			*out = realloc(*out, cap *= 2);
	}
	(*out)[len] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void expect(const char *args, int code, const char *needle)
{
	char *out;
	int rc = run(args, NULL, &out);

	if (!ok(rc == code && (!needle || strstr(out, needle)),
		"kbenchctl %s -> exit %d%s%s", args, code, needle ? ", says: " : "",
		needle ? needle : ""))
		diag("exit %d, output:\n%s", rc, out);
	free(out);
}

/* As expect(), and @absent appears nowhere in the output. */
static void expect_not(const char *args, int code, const char *needle,
		       const char *absent)
{
	char *out;
	int rc = run(args, NULL, &out);

	if (!ok(rc == code && strstr(out, needle) && !strstr(out, absent),
		"kbenchctl %s -> exit %d, says: %s, never '%s'", args, code,
		needle, absent))
		diag("exit %d, output:\n%s", rc, out);
	free(out);
}

/* The whole output (stdout and stderr) is exactly @line plus a newline. */
static void expect_line(const char *args, int code, const char *line)
{
	char *out;
	int rc = run(args, NULL, &out);
	size_t n = strlen(line);

	if (!ok(rc == code && !strncmp(out, line, n) && !strcmp(out + n, "\n"),
		"kbenchctl %s -> exit %d, exactly: %s", args, code, line))
		diag("exit %d, output:\n%s", rc, out);
	free(out);
}

static bool have(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/*
 * Check a JSON document with the python3 standard library (no numpy); a
 * key given twice in one object fails the check.
 */
static void json_check(const char *args, const char *py, const char *what)
{
	char cmd[2048];
	int rc;

	if (!have("python3")) {
		skip("no python3", "%s", what);
		return;
	}
	char *out;

	/* on failure: kbenchctl's exit status and stderr, and python's */
	snprintf(cmd, sizeof(cmd),
		 "t=$(mktemp -d) || exit 99; %s %s >$t/out 2>$t/err; k=$?; "
		 "python3 -c 'import json,sys\n"
		 "def u(p):\n"
		 " k=[a for a, b in p]; assert len(k)==len(set(k)), \"duplicate keys %%r\" %% k; return dict(p)\n"
		 "d=json.load(sys.stdin, object_pairs_hook=u); %s' <$t/out 2>&1; r=$?; "
		 "[ $r = 0 ] || { echo \"kbenchctl exit $k, stderr:\"; head -c 4000 $t/err; }; "
		 "rm -rf $t; exit $r",
		 kbenchctl_bin, args, py);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == 0, "%s", what))
		diag("%s", out);
	free(out);
}

static void valgrind(const char *args, int code)
{
	char vargs[1024];
	char *out;
	int rc;

	snprintf(vargs, sizeof(vargs), "%s", args);
	if (!have("valgrind")) {
		skip("no valgrind", "valgrind kbenchctl %s", args);
		return;
	}
	{
		char cmd[1200];

		snprintf(cmd, sizeof(cmd),
			 "valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 %s %s 2>&1 >/dev/null",
			 kbenchctl_bin, vargs);
		rc = unit_cmd_out(cmd, &out);
	}
	if (!ok(rc == code && !strstr(out, "=="), "valgrind kbenchctl %s: no errors, no leaks (exit %d)",
		args, code))
		diag("exit %d:\n%s", rc, out);
	free(out);
}

/*
 * kbenchctl runs `modprobe kbench` as root when the family is missing: put a
 * stand-in modprobe first in PATH that logs its arguments, writes to stdout
 * (kbenchctl must route that to stderr) and fails.  The real modprobe is
 * never run, so nothing is ever loaded into this machine's kernel.
 */
static char fake_dir[] = "/tmp/kbench-unit-XXXXXX";
static char fake_log[64];

static void fake_modprobe_setup(void)
{
	char path[64], *newpath;
	const char *old = getenv("PATH");
	FILE *f;

	if (!mkdtemp(fake_dir))
		return;
	snprintf(fake_log, sizeof(fake_log), "%s/modprobe.log", fake_dir);
	snprintf(path, sizeof(path), "%s/modprobe", fake_dir);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "#!/bin/sh\necho \"$*\" >>%s\necho \"modprobe: stand-in, not loading $*\"\nexit 1\n",
		fake_log);
	fclose(f);
	chmod(path, 0755);
	newpath = malloc(strlen(fake_dir) + strlen(old ? old : "") + 2);
	sprintf(newpath, "%s:%s", fake_dir, old ? old : "");
	setenv("PATH", newpath, 1);
	free(newpath);
}

static void fake_modprobe_cleanup(void)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/modprobe", fake_dir);
	remove(path);
	remove(fake_log);
	rmdir(fake_dir);
}

static void test_autoload(void)
{
	char *log = NULL;
	size_t cap = 0;
	FILE *f;

	if (geteuid() != 0) {
		skip("not root", "as root, kbenchctl runs modprobe kbench and says so");
		skip("not root", "KBENCH_NO_AUTOLOAD=1: no modprobe");
		return;
	}
	remove(fake_log);
	{
		const char *want = "kbenchctl: loading the kbench module\n"
			"modprobe: stand-in, not loading kbench\n"
			"kbenchctl: kbench module not loaded (try: modprobe kbench)\n"
			"kbenchctl: without the module, 'kbenchctl info --user' reports what --user runs use\n";
		char *out;
		int rc = run("info", NULL, &out);

		if (!ok(rc == 2 && !strcmp(out, want),
			"as root: 'loading the kbench module', modprobe, then not loaded, exit 2"))
			diag("exit %d, output:\n%s", rc, out);
		free(out);
	}
	f = fopen(fake_log, "r");
	ok(f && getline(&log, &cap, f) > 0 && !strcmp(log, "kbench\n"),
	   "as root: modprobe was run once with 'kbench'");
	if (f)
		fclose(f);
	free(log);
	remove(fake_log);
	setenv("KBENCH_NO_AUTOLOAD", "1", 1);
	{
		char *out;
		int rc = run("list", NULL, &out);

		ok(rc == 2 && !strstr(out, "loading") && access(fake_log, F_OK) != 0,
		   "KBENCH_NO_AUTOLOAD=1: no modprobe, exit 2");
		free(out);
	}
	unsetenv("KBENCH_NO_AUTOLOAD");
}

/* Does "ENV kbenchctl ARGS" print an escape sequence on a terminal? */
static int colored_on_tty(const char *env, const char *args)
{
	char cmd[1024];
	char *out;
	int rc;

	snprintf(cmd, sizeof(cmd), "-qec '%s %s %s' /dev/null", env,
		 kbenchctl_bin, args);
	{
		size_t cap = 1 << 16, len = 0, r;
		char full[1200];
		FILE *p;

		snprintf(full, sizeof(full), "script %s 2>&1", cmd);
		p = popen(full, "r");
		out = malloc(cap);
		while ((r = fread(out + len, 1, cap - len - 1, p)) > 0)
			len += r;
		out[len] = '\0';
		rc = pclose(p);
	}
	rc = rc == 0 ? strstr(out, "\033[") != NULL : -1;
	free(out);
	return rc;
}

static void test_color(void)
{
	const char *run1 = "run add_chain --user --samples 40 --iterations 1000";
	char args[256], *out;
	int rc;

	ok(!kb_color_decide(KB_COLOR_AUTO, false, false, NULL, "xterm") &&
	   kb_color_decide(KB_COLOR_AUTO, false, true, NULL, "xterm") &&
	   !kb_color_decide(KB_COLOR_AUTO, false, true, "1", "xterm") &&
	   !kb_color_decide(KB_COLOR_AUTO, false, true, "no", "xterm") &&
	   kb_color_decide(KB_COLOR_AUTO, false, true, "", "xterm") &&
	   !kb_color_decide(KB_COLOR_AUTO, false, true, NULL, "dumb") &&
	   !kb_color_decide(KB_COLOR_NEVER, false, true, NULL, "xterm") &&
	   kb_color_decide(KB_COLOR_ALWAYS, false, false, "1", "dumb") &&
	   !kb_color_decide(KB_COLOR_ALWAYS, true, true, NULL, "xterm"),
	   "colour: auto on a terminal, off with NO_COLOR (any non-empty value) or TERM=dumb; --color wins; never with --json");
	snprintf(args, sizeof(args), "%s --color=always", run1);
	rc = run(args, "2>/dev/null", &out);
	ok(rc == 0 && strstr(out, "\033[") && strstr(out, "\033[0m"),
	   "--color=always: escape sequences even into a pipe");
	free(out);
	rc = run(run1, "2>/dev/null", &out);
	ok(rc == 0 && !strchr(out, '\033'), "into a pipe: no escape sequences");
	free(out);
	snprintf(args, sizeof(args), "--json --color=always %s", run1);
	rc = run(args, "2>/dev/null", &out);
	ok(rc == 0 && !strchr(out, '\033'), "--json: never coloured");
	free(out);
	if (!have("script")) {
		skip("no script(1)", "colour on a terminal");
		return;
	}
	ok(colored_on_tty("TERM=xterm", run1) == 1, "on a terminal: coloured");
	ok(colored_on_tty("TERM=xterm NO_COLOR=1", run1) == 0, "NO_COLOR=1 on a terminal: no escape sequences");
	ok(colored_on_tty("TERM=xterm NO_COLOR=0", run1) == 0, "NO_COLOR=0 (any value) on a terminal: no escape sequences");
	ok(colored_on_tty("TERM=dumb", run1) == 0, "TERM=dumb: no escape sequences");
	snprintf(args, sizeof(args), "%s --color=never", run1);
	ok(colored_on_tty("TERM=xterm", args) == 0, "--color=never on a terminal: no escape sequences");
	snprintf(args, sizeof(args), "--color always %s", run1);
	ok(colored_on_tty("TERM=xterm NO_COLOR=1", args) == 1, "--color always (before the subcommand) wins over NO_COLOR");
}

/* The loader's unit tests (round trip, every truncation, mutations) under
 * valgrind: the binary running now, with fewer random rounds. */
static void valgrind_loader(void)
{
	char self[512], cmd[1200], *out;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int rc;

	if (!have("valgrind") || n <= 0) {
		skip("no valgrind", "valgrind: loader round trip, truncations and mutations");
		return;
	}
	self[n] = '\0';
	snprintf(cmd, sizeof(cmd),
		 "KBENCH_UNIT_ONLY=loader KBENCH_FUZZ_ROUNDS=1000 valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 %s 2>&1 | grep -v '^ok '",
		 self);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == 0 && !strstr(out, "==") && !strstr(out, "not ok") && strstr(out, "1.."),
		"valgrind: loader round trip, every truncation, 1000 mutations: no errors, no leaks"))
		diag("%s", out);
	free(out);
}

/* --events, --metric, events: the paths without a module. */
static void test_events_cli(void)
{
	char old[] = "/tmp/kbench-ev-old-XXXXXX.json", new[] = "/tmp/kbench-ev-new-XXXXXX.json";
	char args[256], *out;
	bool no_pmu;
	int rc, fd;

	expect("run add_chain --events bogus", 2,
	       "kbenchctl run: --events bogus: unknown event 'bogus' (perf's generic hardware events: cycles, instructions, ");
	expect_line("run add_chain --events instructions,,cycles", 2,
		    "kbenchctl run: --events instructions,,cycles: an empty event name (the list is comma-separated: instructions,cycles)");
	expect_line("run add_chain --events raw:0x10000", 2,
		    "kbenchctl run: --events raw:0x10000: 'raw:0x10000': raw event code above 0xffff, the widest event code of this architecture's PMUs");
	expect_line("compare a b --events raw:0xzz", 2,
		    "kbenchctl compare: --events raw:0xzz: 'raw:0xzz': a raw event is raw:0x and 1 to 16 hex digits");
	expect_line("run add_chain --events cycles,cpu-cycles", 2,
		    "kbenchctl run: --events cycles,cpu-cycles: 'cpu-cycles' counts what 'cycles' counts: give it once");
	expect("run add_chain --events cycles,instructions,raw:0x1,raw:0x2,raw:0x3,raw:0x4,raw:0x5,raw:0x6,raw:0x7",
	       2, "at most 8 events per run; 'raw:0x7' is one too many");
	expect("run add_chain --metric instructions", 2,
	       "--metric is an option of the diff against a saved result: it goes with --baseline");
	expect("compare a b --metric bogus", 2, "--metric bogus: unknown event 'bogus'");
	expect("diff a b --metric nope", 2, "--metric nope: unknown event 'nope'");
	expect_line("events extra", 2,
		    "kbenchctl events: unexpected argument 'extra' (events takes no arguments)");
	expect("events --help", 0, "--verbose");
	expect("help run", 0, "--events LIST");

	/* this machine: its PMUs, or none and why, in one line */
	rc = run("events", NULL, &out);
	no_pmu = strstr(out, "no hardware PMU: ") != NULL;
	ok(rc == 0 && (no_pmu ? !strchr(strchr(out, '\n') + 1, '\n') :
		       strstr(out, "generic:") != NULL),
	   "events: %s", no_pmu ? "no PMU, said in one line" : "the PMUs and their events");
	free(out);
	json_check("events --json",
		   "assert isinstance(d[\"pmus\"], list); "
		   "assert (d[\"pmus\"] and d[\"no_pmu\"] is None) or d[\"no_pmu\"].startswith(\"no hardware PMU: \")",
		   "events --json: the PMUs, or why there is none");
	if (no_pmu) {
		expect("run add_chain --user --events instructions", 1,
		       "kbenchctl run: --events instructions: no hardware PMU: ");
		expect("compare add_chain --kernel-vs-user --metric instructions", 1,
		       "kbenchctl compare: --events instructions: no hardware PMU: ");
		valgrind("run add_chain --user --events instructions,cycles", 1);
	} else {
		skip("this machine has a PMU", "run --user --events without a PMU");
		skip("this machine has a PMU", "compare --metric without a PMU");
		skip("this machine has a PMU", "valgrind run --user --events");
	}
	valgrind("events -v", 0);
	valgrind("--json events -v", 0);

	/* saved results with events, and diff --metric */
	fd = mkstemps(old, 5);
	if (fd >= 0)
		close(fd);
	fd = mkstemps(new, 5);
	if (fd >= 0)
		close(fd);
	test_write_event_results(old, new);
	snprintf(args, sizeof(args), "diff %s %s", old, new);
	expect(args, 0, "no change");
	snprintf(args, sizeof(args), "diff %s %s --metric instructions", old, new);
	expect(args, 0, "+16.67%");
	snprintf(args, sizeof(args), "diff %s %s --metric instructions --trust-single", old, new);
	expect(args, 1, "+16.67%");
	valgrind(args, 1);
	snprintf(args, sizeof(args), "--json diff %s %s --metric instructions -v --bisect", old, new);
	valgrind(args, 125);
	snprintf(args, sizeof(args), "diff --check %s %s", old, new);
	expect(args, 0, "ok, 1 run, 1 routine, 200 samples");
	unlink(old);
	unlink(new);
}

static char xdg_dir[] = "/tmp/kbench-xdg-XXXXXX";

/* run --save / --baseline and diff through the binary (--user: no module). */
static void test_results_cli(void)
{
	char path[128], corrupt[128];
	FILE *f;

	if (!mkdtemp(xdg_dir))
		return;
	setenv("XDG_DATA_HOME", xdg_dir, 1);
	snprintf(corrupt, sizeof(corrupt), "%s/corrupt.json", xdg_dir);
	f = fopen(corrupt, "w");
	if (f) {
		fputs("{\"format\": \"kbench-result\", \"version\": 1, \"runs\": [{\"routines\": [{\"routine\": \"x\", \"n\": 2, \"net\": [1, ", f);
		fclose(f);
	}
	expect("diff", 2, "kbenchctl diff: which two results?");
	expect_line("diff a.json", 2, "kbenchctl diff: needs two results, OLD and NEW; 'a.json' is only the first");
	expect_line("diff a b c", 2, "kbenchctl diff: two results only; 'c' is one too many");
	expect_line("diff --threshold x a b", 2, "kbenchctl diff: --threshold x: not a number (at least 0)");
	expect_line("diff --fail-on sometimes a b", 2, "kbenchctl diff: --fail-on sometimes: want regressed or changed");
	expect("diff --match foo a b", 2, "kbenchctl diff: --match foo: want OLD=NEW");
	expect_line("diff /nonexistent/old.json b.json", 2, "kbenchctl diff: /nonexistent/old.json: No such file or directory");
	expect("diff never_saved b.json", 2, "kbenchctl diff: no saved result 'never_saved' (looked for /tmp/kbench-xdg-");
	expect("diff 'bad name' b.json", 2, "kbenchctl diff: result 'bad name': a NAME has letters, digits");
	expect("run add_chain --user --save 'bad name'", 2, "kbenchctl run: --save bad name: a NAME has letters, digits");
	expect_line("diff --check a --seed 3", 2, "kbenchctl diff: --check only loads and validates files: not with --seed");
	expect_line("diff a b --markdown --json", 2, "kbenchctl diff: --markdown and --json exclude each other");
	expect_line("run add_chain --user --threshold 3", 2, "kbenchctl run: --threshold is an option of the diff against a saved result: it goes with --baseline FILE|NAME");
	expect("run add_chain --user --match a=b", 2, "--match is an option of the diff");
	expect("run add_chain --user --csv --baseline x", 2, "--csv replaces the summary: not with --json, --verbose, --hist, --raw or --baseline");
	expect_line("run add_chain --user --baseline /nonexistent/b.json", 2,
		    "kbenchctl run: --baseline: /nonexistent/b.json: No such file or directory");
	expect("diff --check /dev/null", 2, "kbenchctl diff: /dev/null: empty file");
	{
		char args[256];

		snprintf(args, sizeof(args), "diff --check %s", corrupt);
		expect(args, 2, "corrupt.json:1:102: unexpected end of the file (truncated?)");
	}
	expect("run add_chain mul_chain --user --samples 200 --iterations 1000 --save unitbase",
	       0, "kbenchctl: saved 2 routines, 400 samples to /tmp/kbench-xdg-");
	snprintf(path, sizeof(path), "%s/kbench/unitbase.json", xdg_dir);
	ok(access(path, R_OK) == 0, "--save NAME: stored as $XDG_DATA_HOME/kbench/NAME.json");
	/* paths joined by one '/', whatever the directory ends in */
	snprintf(path, sizeof(path), "%s/", xdg_dir);
	setenv("XDG_DATA_HOME", path, 1);
	expect_not("run add_chain --user --samples 50 --iterations 100 --save unitslash",
		   0, "/kbench/unitslash.json (", "//");
	setenv("XDG_DATA_HOME", xdg_dir, 1);
	snprintf(path, sizeof(path), "%s/kbench/unitslash.json", xdg_dir);
	remove(path);
	expect_line("run add_chain --user --save /tmp/", 2,
		    "kbenchctl run: --save /tmp/: a directory: name a file in it (/tmp/NAME.json) or give a NAME");
	expect_line("run add_chain --user --save /tmp", 2,
		    "kbenchctl run: --save /tmp: a directory: name a file in it (/tmp/NAME.json) or give a NAME");
	expect("run add_chain --user --samples 200 --iterations 1000 --save unit-new.json",
	       0, "to unit-new.json");
	expect("diff --check unitbase unit-new.json", 0, "unit-new.json: ok, 1 run, 1 routine, 200 samples");
	/* the same code twice: far inside a 50 % threshold */
	expect("diff unitbase unit-new.json --threshold 50", 0, "only in old: mul_chain [user]");
	json_check("--json diff unitbase unit-new.json --threshold 50",
		   "r=d[\"routines\"]; assert len(r)==1 and r[0][\"routine\"]==\"add_chain\" and r[0][\"side\"]==\"user\"; "
		   "assert r[0][\"verdict\"]==\"no change\" and d[\"exit_status\"]==0 and d[\"only_old\"][0][\"routine\"]==\"mul_chain\"; "
		   "assert r[0][\"change_ci95_lo_pct\"]<=r[0][\"change_pct\"]<=r[0][\"change_ci95_hi_pct\"]",
		   "diff --json: routines, verdict, exit status, one-sided routines");
	json_check("run add_chain --user --samples 100 --iterations 1000 --baseline unitbase --threshold 50 --json",
		   "assert d[\"run\"][\"routine\"]==\"add_chain\" and d[\"diff\"][\"routines\"][0][\"verdict\"]==\"no change\"",
		   "run --baseline --json: {run, diff}");
	expect("run add_chain --user --samples 100 --iterations 1000 --baseline unitbase --threshold 50 --markdown",
	       0, "| `add_chain [user]` |");
	expect("run empty --user --samples 50 --iterations 100 --baseline unit-new.json", 2,
	       "kbenchctl: nothing to compare: unit-new.json and this run have no routine in common");
	expect("diff unit-new.json unit-new.json --markdown", 0, "| +0.00% |");
	/* exports go to shared databases: no hostname, no command line unless asked */
	json_check("export unit-new.json -f kcidb",
		   "import socket; s=json.dumps(d); h=socket.gethostname(); "
		   "m=d[\"tests\"][0][\"environment\"][\"misc\"]; "
		   "assert \"hostname\" not in m and \"cmdline\" not in m[\"environment\"] and json.dumps(h) not in s, s; "
		   "assert m[\"withheld\"]==\"hostname and kernel command line (export --with-host adds them)\"",
		   "export -f kcidb: no hostname or command line anywhere, and it says what it withheld");
	json_check("export unit-new.json -f gbench",
		   "import socket; s=json.dumps(d); assert json.dumps(socket.gethostname()) not in s and \"host_name\" not in d[\"context\"] and \"cmdline\" not in d[\"context\"][\"environment\"], s; "
		   "assert \"--with-host\" in d[\"context\"][\"withheld\"]",
		   "export -f gbench: no hostname or command line, and it says so");
	json_check("export unit-new.json -f kcidb --with-host",
		   "import socket; m=d[\"tests\"][0][\"environment\"][\"misc\"]; "
		   "assert m[\"hostname\"]==socket.gethostname() and \"cmdline\" in m[\"environment\"] and \"withheld\" not in m",
		   "export --with-host: the hostname and the command line are there");
	{
		char *out;
		int rc = run("diff unitbase unit-new.json --threshold 50", "2>&1", &out);

		if (!ok(rc == 0 && strstr(out, "95% CI of change      verdict\n") &&
			!strstr(out, "old: unitbase") && !strstr(out, "Mann-Whitney") &&
			strstr(out, "1 no change (noise threshold 50%; single runs: run-to-run noise unseen (--runs 3 or more on each side measures it))"),
			"diff: a short table by default (no p, no file lines)"))
			diag("%s", out);
		free(out);
		rc = run("diff unitbase unit-new.json --threshold 50 -v", "2>&1", &out);
		ok(rc == 0 && strstr(out, "old: unitbase (") && strstr(out, "      p  verdict\n") &&
		   strstr(out, "block-bootstrap CI of the median change and its p;"),
		   "diff -v: the files, the p column and the method");
		free(out);
		rc = run("diff unitbase unit-new.json --threshold 50 --color=always", "2>&1", &out);
		ok(rc == 0 && strstr(out, "\033[32mno change\033[0m"),
		   "diff --color=always: 'no change' in green, as compare's verdicts");
		free(out);
		rc = run("diff unitbase unit-new.json --threshold 50 --markdown --color=always", "2>&1", &out);
		ok(rc == 0 && !strchr(out, '\033'), "diff --markdown: never coloured");
		free(out);
		if (have("script")) {
			ok(colored_on_tty("TERM=xterm", "diff unitbase unit-new.json --threshold 50") == 1,
			   "diff on a terminal: coloured");
			ok(colored_on_tty("TERM=xterm NO_COLOR=1", "diff unitbase unit-new.json --threshold 50") == 0,
			   "diff with NO_COLOR=1 on a terminal: no escape sequences");
		} else {
			skip("no script(1)", "diff colour on a terminal");
		}
	}
	expect("compare add_chain mul_chain --user --samples 100 --iterations 1000 --save unit-cmp.json",
	       0, "saved 2 routines, 200 samples");
	valgrind("diff unitbase unit-new.json --threshold 50", 0);
	/* a --match that matches nothing is an error naming it (exit 2), freed */
	valgrind("diff unitbase unit-new.json --threshold 50 -v --color=always --match a=b --match c=d", 2);
	valgrind("--json diff unitbase unit-new.json --threshold 50", 0);
	valgrind("diff --check unitbase unit-new.json", 0);
	valgrind("diff unitbase", 2);
	valgrind("run add_chain --user --save 'bad name'", 2);
	valgrind("compare add_chain mul_chain --user --samples 50 --iterations 200 --save unit-cmp.json", 0);
	{
		char args[256];

		snprintf(args, sizeof(args), "diff --check %s", corrupt);
		valgrind(args, 2);
	}
	valgrind("run add_chain --user --samples 100 --iterations 1000 --baseline unitbase --threshold 100000 --save unit-v.json", 0);
	/* long base64 arrays (768 values and more) */
	valgrind("run add_chain --user --samples 3000 --iterations 100 --save unit-long.json", 0);
	valgrind("diff --check unit-long.json", 0);
	{
		/* a version 1 file (JSON arrays) against this kbenchctl's version 2 */
		char args[768];

		snprintf(args, sizeof(args), "diff --check %s/result-v1.json", fixtures_dir);
		expect(args, 0, "result-v1.json: ok, 1 run, 1 routine, 200 samples");
		snprintf(args, sizeof(args), "export %s/result-v2.json --format gbench", fixtures_dir);
		json_check(args, "b=d[\"benchmarks\"]; assert len(b)==1 and b[0][\"run_type\"]==\"iteration\" and b[0][\"repetitions\"]==1 and \"replicate\" not in b[0], b",
			   "export --format gbench of a file of one run (written before --runs): one repetition, no aggregates, as before");
		snprintf(args, sizeof(args), "diff %s/result-v1.json unit-new.json --threshold 100000", fixtures_dir);
		expect(args, 0, "1 no change");
		valgrind(args, 0);
	}
	{
		/*
		 * run --runs: three runs (each its own probe and warm-up) in
		 * one file, which diff reads as replicates (no timing is
		 * asserted: only what was saved and said)
		 */
		struct kb_resfile rf;
		char err[512];
		int rc;

		valgrind("run add_n:64 --user --runs 3 --samples 100 --save unit-runs.json", 0);
		expect("diff --check unit-runs.json", 0, "unit-runs.json: ok, 3 runs, 3 routines, 300 samples");
		rc = kb_resfile_load("unit-runs.json", &rf, err, sizeof(err));
		if (!ok(!rc && rf.nruns == 3 && rf.runs[0].has_replicate &&
			rf.runs[0].replicate == 0 && rf.runs[1].replicate == 1 &&
			rf.runs[2].replicate == 2 && rf.runs[2].run.user &&
			!strcmp(rf.runs[2].run.res[0].routine, "add_n") &&
			rf.runs[2].run.res[0].n == 100,
			"run add_n:64 --user --runs 3 --save: 3 runs of add_n, replicate 0, 1, 2, 100 samples each"))
			diag("%s", err);
		if (!rc)
			kb_resfile_free(&rf);
		/* each --user run is a process of its own, given the arguments as typed */
		expect("run add_n:65 --user --runs 3 --samples 50 --save unit-runs65.json", 0,
		       "add_n:65: geometric mean of the runs' medians ");
		rc = kb_resfile_load("unit-runs65.json", &rf, err, sizeof(err));
		if (!ok(!rc && rf.nruns == 3 && rf.runs[0].run.res[0].arg == 65 &&
			rf.runs[1].run.res[0].arg == 65 &&
			rf.runs[2].run.res[0].arg == 65,
			"run add_n:65 --user --runs 3: every run (a worker process each) ran add_n at 65"))
			diag("%s", err);
		if (!rc)
			kb_resfile_free(&rf);
		remove("unit-runs65.json");
		expect("diff unit-runs.json unit-runs.json --threshold 0", 0,
		       "add_n:64 [user]: 3 and 3 runs, between-run spread ");
		valgrind("diff unit-runs.json unit-runs.json", 0);
		/* a routine is NAME:ARG in every table, its units ticks */
		expect_not("diff unit-runs.json unit-runs.json", 0, "\nadd_n:64 [user] ", "cyc");
		expect_not("diff unit-runs.json unit-runs.json --markdown", 0,
			   "| `add_n:64 [user]` | ", "cyc");
		json_check("export unit-runs.json --format gbench",
			   "b=d[\"benchmarks\"]; it=[x for x in b if x[\"run_type\"]==\"iteration\"]; ag=[x for x in b if x[\"run_type\"]==\"aggregate\"]\n"
			   "assert [x[\"repetition_index\"] for x in it]==[0,1,2] and [x[\"replicate\"] for x in it]==[0,1,2], it\n"
			   "assert all(x[\"repetitions\"]==3 and x[\"name\"]==\"user:add_n/64\" for x in it), it\n"
			   "assert sorted(x[\"aggregate_name\"] for x in ag)==[\"cv\",\"mean\",\"median\",\"stddev\"], ag",
			   "export --format gbench of a file of 3 runs: 3 repetitions (iteration rows 0, 1, 2) and the 4 aggregates");
		valgrind("--json diff unit-runs.json unit-runs.json -v", 0);
		expect("run add_n:64 --user --runs 3 --samples 50 --between false", 1,
		       "kbenchctl: --between 'false' exited with status 1 before run 2 of 3: stopped, nothing saved");
		expect("run add_n:64 --user --between true", 2,
		       "kbenchctl run: --between 'true' runs between replicated runs: give --runs 2 or more");
		expect("run add_n:64 --user --runs 0", 2, "--runs 0");
		expect("run add_n:64 --user --spacing 0.5", 2,
		       "kbenchctl run: --spacing 0.5 pauses between replicated runs: give --runs 2 or more");
		expect("run add_n:64 --user --runs 2 --spacing -1", 2, "--spacing");
		json_check("run add_n:64 --user --runs 3 --samples 50 --spacing 0.2 --json",
			   "assert d[\"spacing_s\"]==0.2 and len(d[\"runs\"])==3, d[\"spacing_s\"]\n"
			   "assert d[\"runs_wall_s\"]>=0.4, d[\"runs_wall_s\"]",
			   "run --runs 3 --spacing 0.2 --json: the spacing, and a wall time that holds the two pauses (at least 0.4 s)");
		expect("run add_n:64 --user --runs 2 --samples 50 --spacing 0", 0,
		       "each with its own probe and warm-up, 0 s apart: ");
		/* the counter's units are ticks: "cycles" are core cycles only */
		expect_not("run add_n:64 --user --runs 2 --samples 50 --spacing 0", 0,
			   "2 runs of 1 routine (", "cyc");
		expect_not("run add_n:64 --user --runs 2 --samples 50 --spacing 0", 0,
			   " median ticks/iter ", "cyc");
		expect("run add_n:64 --user --runs 2 --samples 50 --spacing 0 --unit core", 0,
		       " median core cycles/iter ");
		json_check("run add_n:64 --user --runs 2 --samples 50 --spacing 0 --json",
			   "b=d[\"between_runs\"][0]; assert b[\"unit\"].endswith(\" ticks\") and len(b[\"median_cycles\"])==2, b",
			   "run --runs 2 --json: between_runs names its unit (\"tsc ticks\")");
		/* compare --runs: A and B interleaved in each run, paired by run */
		valgrind("compare add_n:64 add_n:65 --user --runs 3 --samples 50 --save unit-cruns.json", 0);
		json_check("compare add_n:64 add_n:65 --user --runs 3 --samples 50 --json",
			   "c=d[\"comparison\"]; assert len(d[\"runs\"])==3 and c[\"runs\"]==3 and c[\"runs_df\"]==2, c\n"
			   "assert c[\"ci_method\"]==\"t over runs\" and c[\"verdict\"] in (\"slower\",\"equal\",\"faster\",\"inconclusive\") and c[\"between_run_spread_pct\"] is not None, c",
			   "compare --runs 3 --json: 3 run objects, the comparison over runs (runs_df 2, the spread)");
		expect("diff unit-cruns.json unit-cruns.json", 0, "add_n:65 [user]: 3 and 3 runs, between-run spread ");
		expect_not("compare add_n:64 add_n:65 --user --runs 2 --samples 50 --spacing 0", 0,
			   "(each run's medians, ticks/iter)", "cyc");
		expect("compare add_n:64 add_n:65 --user --runs 2 --samples 50 --spacing 0", 0,
		       "paired t over the runs, 1 degree of freedom");
		json_check("compare add_n:64 add_n:65 --user --runs 2 --samples 50 --spacing 0 --json",
			   "c=d[\"comparison\"]; assert c[\"unit\"].endswith(\" ticks\"), c\n"
			   "assert c[\"verdict\"]==\"inconclusive\" if c[\"inconclusive\"] else c[\"verdict\"]!=\"inconclusive\", c",
			   "compare --runs 2 --json: the comparison names its unit; verdict 'inconclusive' exactly when inconclusive is true");
		expect("compare add_n:64 add_n:65 --user --runs 3 --kernel-vs-user", 2,
		       "kbenchctl compare: --runs 3: not with --kernel-vs-user");
		remove("unit-cruns.json");
		expect("run add_n:64 --user --runs 2 --csv", 2, "kbenchctl run: --runs 2: not with --arg sweeps");
		remove("unit-runs.json");
	}
	valgrind_loader();
	remove("unit-new.json");
	remove("unit-cmp.json");
	remove("unit-v.json");
	remove("unit-long.json");
	remove(path);
	remove(corrupt);
	snprintf(path, sizeof(path), "%s/kbench", xdg_dir);
	rmdir(path);
	rmdir(xdg_dir);
	unsetenv("XDG_DATA_HOME");
}

/* --arg: one value, sweeps, NAME:ARG; the errors without a module */
/* run --cpus / --each-cpu: the option's errors, and runs under valgrind */
static void test_cpus_cli(void)
{
	expect_line("run add_chain --user --cpus 0,0", 2,
		    "kbenchctl run: --cpus 0,0: CPU 0 is listed twice");
	expect_line("run add_chain --user --cpus 0-1,1", 2,
		    "kbenchctl run: --cpus 0-1,1: CPU 1 is listed twice");
	expect("run add_chain --user --cpus 4095", 2,
	       "kbenchctl run: --cpus 4095: no such CPU (online: ");
	expect_line("run add_chain --user --cpus x", 2,
		    "kbenchctl run: --cpus x: not a CPU list (as taskset's: 0,2-3)");
	expect_line("run add_chain --user --cpus 0 --cpu 0", 2,
		    "kbenchctl run: --cpus and --cpu exclude each other (--cpus N runs on CPU N alone)");
	expect_line("run add_chain --each-cpu --cpu 0", 2,
		    "kbenchctl run: --each-cpu and --cpu exclude each other (--cpus N runs on CPU N alone)");
	expect_line("run add_chain --skew-ns 100", 2,
		    "kbenchctl run: --skew-ns bounds a concurrent run: it goes with --cpus");
	expect_line("run add_chain --each-cpu --skew-ns 100", 2,
		    "kbenchctl run: --skew-ns bounds a concurrent run (--cpus), not --each-cpu");
	expect_line("run add_chain --user --cpus 0..2", 2,
		    "kbenchctl run: --cpus 0..2: a scaling sweep is A..K, CPU counts from A to K (1..4)");
	expect("run add_chain --user --cpus 1..4095", 2, "--cpus 1..4095: at most ");
	expect_line("run add_chain --user --each-cpu --cpus 1..1", 2,
		    "kbenchctl run: --each-cpu takes a CPU list, not the counts 1..1");
	expect("run add_chain --user --cpus 1..1 --samples 20 --csv", 0,
	       "1,add_chain,");
	valgrind("run atomic_shared --user --cpus 1..1 --samples 20 --json", 0);
	expect("run add_chain --user --cpus 0 --save x", 2,
	       "--cpus: --save is refused: the saved-result format");
	expect("run add_chain --user --cpus 0 --events cycles", 2,
	       "--cpus: not with --events");
	expect("compare a b --cpus 0", 2, "unknown option '--cpus'");
	expect("run atomic_shared --user --cpus 0 --samples 20", 0,
	       "at once on CPUs 0");
	expect("run add_chain --user --each-cpu --cpus 0 --samples 20 --json", 0,
	       "\"each_cpu\": [");
	valgrind("run atomic_shared pingpong --user --cpus all --samples 20 --json", 0);
	valgrind("run spin_shared --user --each-cpu --samples 20", 0);
	/* each routine its own lines: the per-CPU counter is no lock */
	expect("run atomic_percpu spin_percpu atomic_shared spin_shared --user --cpus 0 --samples 20",
	       0, "spin_percpu");
}

static void test_sweep_cli(void)
{
	char *out;
	int rc, i;

	expect_line("run add_n --user --arg 1..10", 2,
		    "kbenchctl run: --arg 1..10: a range needs a step: 1..10:x2 (geometric) or 1..10:+1 (arithmetic)");
	expect_line("run add_n --user --arg 64..32:x2", 2,
		    "kbenchctl run: --arg 64..32:x2: the range 64..32 is reversed: the first value is the smallest");
	expect_line("run add_n --user --arg 1..64:x1", 2,
		    "kbenchctl run: --arg 1..64:x1: factor x1 never moves: at least x2");
	expect_line("run add_n --user --arg 1..64:+0", 2,
		    "kbenchctl run: --arg 1..64:+0: step +0 never moves: at least +1");
	expect_line("compare add_n add_half --arg 1..64:+-2", 2,
		    "kbenchctl compare: --arg 1..64:+-2: '-2' is negative: values are 0 or more");
	expect_line("run add_n --user --arg 1..1000:+1", 2,
		    "kbenchctl run: --arg 1..1000:+1: more than 128 values (a larger step, or a narrower range)");
	expect_line("run add_n --user --arg 99999999999999999999", 2,
		    "kbenchctl run: --arg 99999999999999999999: '99999999999999999999' is above 18446744073709551615");
	expect_line("run add_n --user --arg ''", 2,
		    "kbenchctl run: --arg '': empty: give a value (64), a list (1,3,7) or a range with a step (64..65536:x2, 0..100:+10)");
	expect_line("run add_n --user --arg", 2, "kbenchctl run: --arg needs a value (--arg SPEC)");
	expect_line("run add_n --user --arg 2000", 2,
		    "kbenchctl run: --arg 2000: routine 'add_n' takes 1..1024 adds");
	expect_line("run add_n --user --arg 1..2048:x2", 2,
		    "kbenchctl run: --arg 2048: routine 'add_n' takes 1..1024 adds");
	expect_line("run add_n --user --arg 0", 2,
		    "kbenchctl run: --arg 0: routine 'add_n' takes 1..1024 adds");
	expect_line("run add_chain --user --arg 5", 2,
		    "kbenchctl run: routine 'add_chain' takes no argument ('kbenchctl list' shows the ones that do)");
	expect_line("run add_n --user --fit n", 2,
		    "kbenchctl run: --fit goes with a sweep (--arg A..B:xK, A..B:+S or V,V,...)");
	expect_line("run add_n --user --arg 1,2 --fit x", 2,
		    "kbenchctl run: --fit x: want auto, 1, logn, n, nlogn, n2 or n3");
	expect_line("run add_n --user --arg 1,2 --hist", 2,
		    "kbenchctl run: --hist and --raw show one run: not with a sweep (-v shows every run)");
	expect_line("compare add_n:64 add_n --user", 2,
		    "kbenchctl compare: give every routine its argument (NAME:ARG), or none");
	expect_line("compare add_n:64 add_n:64", 2,
		    "kbenchctl compare: routine 'add_n' given twice: give the two their own arguments (add_n:64 add_n:128); an A/A comparison is compare --user X X, or foo foobar in the kernel");
	rc = run("compare add_n:64 add_n:64 --user --samples 200", "2>&1", &out);
	if (!ok(rc == 0 && strstr(out, "[A/A: the same routine twice]"),
		"compare add_n:64 add_n:64 --user: the A/A null experiment, labelled"))
		diag("exit %d, output:\n%s", rc, out);
	free(out);
	rc = run("compare foo foobar --user --samples 300", "2>/dev/null", &out);
	ok(rc == 0 && strstr(out, "\nfoo\n") && strstr(out, "\nfoobar\n"),
	   "compare foo foobar --user: the userspace twins of kbench_example's null experiment");
	free(out);
	rc = run("run add_chain --user --precision 50 --max-time 2", "2>/dev/null", &out);
	ok(rc == 0 && strstr(out, "sampled until answered: 1 look, 1000 samples per routine"),
	   "run --precision 50: answered at the first look");
	free(out);
	/*
	 * Whether a half-width of 0.001% is reached in 0.3 s is the CPU's
	 * business (a quiet host whose counter steps are coarse against
	 * the routines keeps the medians' ratio at every resampling, and
	 * answers at the first look); what the output says of either
	 * outcome is checked.  The unanswered line itself is checked with
	 * set outcomes in test_output.
	 */
	rc = run("compare add_chain mul_chain --user --precision 0.001 --max-time 0.3",
		 "2>/dev/null", &out);
	if (strstr(out, "sampled until answered"))
		i = ok(rc == 0 && strstr(out, "CI half-width 0.001% asked") &&
		       strstr(out, "95% anytime CI"),
		       "compare --precision 0.001 --max-time 0.3: answered, said so with the anytime CI");
	else
		i = ok(rc == 0 && strstr(out, "sampled until --max-time, unanswered") &&
		       strstr(out, "95% anytime CI"),
		       "compare --precision 0.001 --max-time 0.3: unanswered in time, said so");
	if (!i)
		diag("exit %d:\n%s", rc, out);
	free(out);
	json_check("compare add_chain mul_chain --user --precision 0.001 --max-time 0.3 --json",
		   "u=d[\"until\"]; c=d[\"comparison\"]\n"
		   "hw=(c[\"rel_diff_ci95_hi_pct\"]-c[\"rel_diff_ci95_lo_pct\"])/2\n"
		   "assert u[\"stop_rule\"]==\"precise\" and u[\"precision_pct\"]==0.001, u\n"
		   "assert (not u[\"answered\"]) or hw<=0.001, (u, hw)",
		   "compare --precision 0.001 --json: answered only when the CI half-width is within 0.001%");
	expect_line("compare add_n:16 add_n:17 --user --precision 1 --events instructions", 2,
		    "kbenchctl compare: --precision, --until-resolved and --max-time sample one run until answered: not with --events, --metric, --kernel-vs-user, --arg sweeps or --baseline");
	expect_line("compare add_n:16 add_n:17 --user --until-resolved --runs 3", 2,
		    "kbenchctl compare: --runs 3: not with --kernel-vs-user, --metric, --precision, --until-resolved or --max-time (compare --runs compares the runs' medians)");
	expect("run add_n:16 --user --until-resolved", 2,
		    "kbenchctl run: unknown option '--until-resolved'");
	/*
	 * compare --precision P stops on the half-width of the difference's
	 * anytime CI alone, at the default threshold; --until-resolved on
	 * the verdict; both: the first.  What the output says is checked,
	 * not what the CPU gives.
	 */
	json_check("compare add_n:64 add_n:65 --user --precision 0.5 --max-time 5 --json",
		   "u=d[\"until\"]; c=d[\"comparison\"]\n"
		   "assert u[\"stop_rule\"]==\"precise\" and u[\"precision_pct\"]==0.5 and c[\"threshold_pct\"]==1, (u, c[\"threshold_pct\"])\n"
		   "hw=(c[\"rel_diff_ci95_hi_pct\"]-c[\"rel_diff_ci95_lo_pct\"])/2\n"
		   "assert (not u[\"answered\"]) or hw<=0.5, (u, hw)",
		   "compare --precision 0.5: stops when the anytime CI's half-width is at most 0.5% (stop_rule precise), the threshold stays 1%");
	json_check("compare add_n:64 add_n:65 --user --until-resolved --max-time 5 --json",
		   "u=d[\"until\"]; c=d[\"comparison\"]; t=c[\"threshold_pct\"]\n"
		   "assert u[\"stop_rule\"]==\"resolved\" and \"precision_pct\" not in u, u\n"
		   "lo, hi=c[\"rel_diff_ci95_lo_pct\"], c[\"rel_diff_ci95_hi_pct\"]\n"
		   "assert (not u[\"answered\"]) or lo>t or hi<-t or (lo>=-t and hi<=t) or (c[\"verdict\"]!=\"equal\"), (u, lo, hi)",
		   "compare --until-resolved: stops when the verdict is resolved at the threshold (stop_rule resolved)");
	json_check("compare add_n:64 add_n:65 --user --until-resolved --precision 0.2 --max-time 5 --json",
		   "assert d[\"until\"][\"stop_rule\"]==\"resolved or precise\", d[\"until\"]",
		   "compare --until-resolved --precision 0.2: whichever comes first (stop_rule 'resolved or precise')");
	json_check("compare add_n:64 add_n:65 --user --max-time 0.5 --json",
		   "assert d[\"until\"][\"stop_rule\"]==\"resolved\", d[\"until\"]",
		   "compare --max-time alone: until resolved, as before");
	expect_line("compare add_n:64 empty --user", 2,
		    "kbenchctl compare: give every routine its argument (NAME:ARG), or none");
	expect_line("compare add_n:64 add_n:x --user", 2,
		    "kbenchctl compare: add_n:x: 'x' is not a whole number (digits, then K, M or G for 1024, 1024^2, 1024^3)");
	expect_line("compare add_n:1..4:x2 add_n:2 --user", 2,
		    "kbenchctl compare: add_n:1..4:x2: one value per routine (a sweep is --arg 1..4:x2)");
	expect_line("compare add_n:4 add_n:8 --user --arg 3", 2,
		    "kbenchctl compare: --arg and NAME:ARG exclude each other: --arg is every routine's");
	expect_line("compare add_n --kernel-vs-user --arg 1,2", 2,
		    "kbenchctl compare: --kernel-vs-user takes one --arg value, not a sweep");
	expect_line("compare add_n:4 add_n:2000 --user", 2,
		    "kbenchctl compare: 2000: routine 'add_n' takes 1..1024 adds");

	expect("run add_n --user --arg 16 --samples 50", 0, "\nadd_n:16\n");
	json_check("run add_n --user --arg 16 --samples 50 --json",
		   "assert d[\"arg\"]==16 and d[\"routine\"]==\"add_n\" and d[\"overhead\"][\"routine\"]==\"empty\"",
		   "run --arg 16 --json: the run and its result have the argument");
	json_check("run add_n --user --arg 1..8:x2 --samples 50 --json",
		   "s=d[\"sweep\"]; assert [r[\"arg\"] for r in s]==[1,2,4,8]; "
		   "assert all(r[\"routine\"]==\"add_n\" and r[\"samples\"]==50 and \"stats\" in r for r in s); "
		   "f=d[\"fit\"][\"add_n\"]; assert f[\"quantity\"]==\"corrected_median_cycles_per_iter\" and f[\"points\"]==4; "
		   "assert [c[\"complexity\"] for c in f[\"candidates\"]]==[\"1\",\"logn\",\"n\",\"nlogn\",\"n2\",\"n3\"]; "
		   "assert f[\"complexity\"] in [c[\"complexity\"] for c in f[\"candidates\"]] and f[\"rms\"]==min(c[\"rms\"] for c in f[\"candidates\"])",
		   "run --arg 1..8:x2 --json: sweep of four runs with their argument, the fit with six candidates");
	json_check("run add_n --user --arg 3,1,2 --samples 30 --fit n3 --json",
		   "assert [r[\"arg\"] for r in d[\"sweep\"]]==[3,1,2] and d[\"fit\"][\"add_n\"][\"complexity\"]==\"n3\"",
		   "--arg 3,1,2 keeps the order; --fit n3 fits n^3");
	json_check("run add_n --user --arg 8..8:+1 --samples 30 --json",
		   "assert d[\"fit\"][\"add_n\"] is None",
		   "a sweep of one value: no fit (null)");
	json_check("compare add_n:8 add_n:64 --user --samples 50 --iterations 1000 --json",
		   "c=d[\"comparison\"]; assert c[\"a\"]==c[\"b\"]==\"add_n\" and c[\"a_arg\"]==8 and c[\"b_arg\"]==64; "
		   "assert [r[\"arg\"] for r in d[\"routines\"]]==[8,64] and c[\"median_ratio\"]>1",
		   "compare add_n:8 add_n:64: one run, each routine at its argument, the ratio");
	expect_line("compare add_n add_n --arg 1..4:x2", 2,
		    "kbenchctl compare: routine 'add_n' given twice: give the two their own arguments (add_n:64 add_n:128); an A/A comparison is compare --user X X, or foo foobar in the kernel");
	rc = run("run add_n --user --arg 1,2,4 --samples 30 --csv", "2>/dev/null", &out);
	ok(rc == 0 && !strncmp(out, "arg,routine,min_cycles,median_cycles,", 37) &&
	   strstr(out, "\n1,add_n,") && strstr(out, "\n2,add_n,") && strstr(out, "\n4,add_n,"),
	   "run --arg 1,2,4 --csv: a header and a row per value");
	free(out);
	rc = run("run add_n --user --arg 1..4:+1 --samples 30", "2>&1", &out);
	ok(rc == 0 && strstr(out, "sweep of add_n over adds 1..4:+1 (4 values, arithmetic)") &&
	   strstr(out, "\n         4 ") &&
	   (strstr(out, "fit of add_n (its corrected median, 4 values): O(") ||
	    strstr(out, "fit of add_n (its corrected median, 4 values): cannot tell: ")),
	   "run --arg 1..4:+1: the header, a row per value, the fit (a class, or 'cannot tell' where the noise hides it)");
	free(out);
	rc = run("run add_n --user --arg 1..64:x4 --samples 30 --svg unit-sweep.svg", "2>&1 >/dev/null", &out);
	ok(rc == 0 && out[0] == '\0', "run --arg --svg writes quietly");
	free(out);
	if (have("xmllint"))
		ok(system("xmllint --noout unit-sweep.svg && grep -q 'id=\"sweep\"' unit-sweep.svg && grep -q '(log2 scale)' unit-sweep.svg") == 0,
		   "run --arg A..B:xK --svg: a well-formed SVG, log2 axis");
	else
		skip("no xmllint", "run --arg --svg: a well-formed SVG");
	remove("unit-sweep.svg");
	valgrind("run add_n --user --arg 1..16:x2 --samples 30 --json", 0);
	valgrind("run add_n --user --arg 1,4 --samples 30 -v --svg /dev/null", 0);
	valgrind("compare add_n:2 add_n:4 --user --samples 30", 0);
	valgrind("run add_n --user --arg 1..1000:+1", 2);
	valgrind("run add_n --user --arg 1..4096:x2", 2);
}

/*
 * Help, usage errors and their messages: no module needed.  exact: the
 * whole output is the message and a newline; otherwise it contains it.
 */
static const struct cli_case {
	const char *args;
	int code;
	const char *says;
	bool exact;
} cli_cases[] = {
	{ "--help", 0, "Subcommands:", false },
	{ "-h", 0, "Usage:", false },
	{ "--version", 0, "kbenchctl ", false },
	{ "", 2, "Usage:", false },
	{ "frobnicate", 2,
	  "kbenchctl: unknown subcommand 'frobnicate' (subcommands: info, list, clocks, run, compare, events, samples, diff, export, history, tune, new, baseline)", false },
	{ "rnu add_chain", 2, "kbenchctl: unknown subcommand 'rnu' (did you mean 'run'?)", false },
	{ "--frob", 2, "unknown option '--frob'", false },
	{ "help run", 0, "--iterations N", false },
	{ "help nosuch", 2, "unknown subcommand 'nosuch' (subcommands: ", false },
	{ "run --help", 0, "--samples N", false },
	{ "compare -h", 0, "--kernel-vs-user", false },
	{ "samples --help", 0, "--csv", false },
	{ "diff --help", 0, "--fail-on WHAT", false },
	{ "new --help", 0, "--force", false },
	{ "new", 2, "which name?", false },
	{ "new My-Bench", 2,
	  "kbenchctl new: 'My-Bench': 'M' is not allowed: use a-z, 0-9 and _", true },
	{ "new 9lives", 2,
	  "kbenchctl new: '9lives': must begin with a letter (a-z): it names C functions", true },
	{ "new kbench", 2,
	  "kbenchctl new: 'kbench' is kbench's own module: choose another name", true },
	{ "new a b c", 2, "kbenchctl new: unexpected argument 'c' (NAME and DIR only)", true },
	{ "--json new x", 2, "kbenchctl new: --json: new writes files, it prints no result", true },
	{ "run", 2, "which routine?", false },
	{ "run add_chain --samples abc", 2,
	  "kbenchctl run: --samples abc: not a whole number (1 to 10000000)", true },
	{ "run add_chain --samples -1", 2, "kbenchctl run: --samples -1: at least 1", true },
	{ "run add_chain --samples 0", 2, "kbenchctl run: --samples 0: at least 1", true },
	{ "compare a b --samples 0", 2, "kbenchctl compare: --samples 0: at least 1", true },
	{ "run add_chain --iterations 0", 2, "kbenchctl run: --iterations 0: at least 1", true },
	{ "compare a b --iterations 0", 2, "kbenchctl compare: --iterations 0: at least 1", true },
	{ "run add_chain --iterations 100000000", 2,
	  "kbenchctl run: --iterations 100000000: at most 16777216", true },
	{ "compare a b --iterations 100000000", 2,
	  "kbenchctl compare: --iterations 100000000: at most 16777216", true },
	{ "run add_chain --target-ns 99", 2, "kbenchctl run: --target-ns 99: at least 100", true },
	{ "run add_chain --warmup 10001", 2, "kbenchctl run: --warmup 10001: at most 10000", true },
	{ "run add_chain --samples 10000001 --user", 2,
	  "kbenchctl run: --samples 10000001: at most 10000000", true },
	{ "run add_chain --cpu", 2, "kbenchctl run: --cpu needs a value (--cpu N)", true },
	{ "run add_chain --bogus", 2, "unknown option '--bogus'", false },
	{ "run add_chain --sampels 3", 2,
	  "kbenchctl run: unknown option '--sampels' (did you mean --samples?)", true },
	{ "run add_chain --s 3", 2,
	  "kbenchctl run: ambiguous option '--s': --samples, --skew-ns, --spacing, --sign-key, --sign-cert, --svg, --save, --seed", true },
	{ "run add_chain --user=1", 2, "kbenchctl run: --user takes no value", true },
	{ "run a b c d e", 2,
	  "kbenchctl run: at most 4 routines per run; 'e' is one too many", true },
	{ "run add_chain --log", 2, "--log goes with --hist", false },
	{ "run add_chain --csv --json", 2, "--csv replaces the summary", false },
	{ "run no_such_twin --user", 2, "no userspace twin for 'no_such_twin'", false },
	{ "run aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 2, "bad routine name", false },
	{ "run Add_Chain", 2,
	  "kbenchctl run: bad routine name 'Add_Chain' (names are 1 to 31 of a-z, 0-9 and _; see 'kbenchctl list')", true },
	{ "compare foo", 2, "needs two routines (or one with --kernel-vs-user)", false },
	{ "compare a b c", 2, "two routines only; 'c' is one too many", false },
	{ "compare a b --threshold x", 2,
	  "kbenchctl compare: --threshold x: not a number (at least 0)", true },
	{ "compare a b --threshold -1", 2, "kbenchctl compare: --threshold -1: at least 0", true },
	{ "compare a b --seed 99999999999999999999", 2,
	  "kbenchctl compare: --seed 99999999999999999999: at most 18446744073709551615", true },
	{ "compare a b --kernel-vs-user", 2, "--kernel-vs-user takes one routine, not 2", false },
	{ "compare a --kernel-vs-user --user", 2,
	  "--kernel-vs-user and --user exclude each other", false },
	{ "run a --kernel-vs-user", 2, "unknown option '--kernel-vs-user'", false },
	{ "run add_chain --user --max-window-us 100", 2,
	  "kbenchctl run: --max-window-us is a bound of the module's runs, which have interrupts off: not with --user", true },
	{ "compare a b --max-window-us 0", 2,
	  "kbenchctl compare: --max-window-us 0: at least 1", true },
	{ "run a --seed 3", 2,
	  "--seed is an option of the diff against a saved result: it goes with --baseline", false },
	{ "compare a b --baseline x", 2, "unknown option '--baseline'", false },
	{ "diff a b --samples 3", 2, "unknown option '--samples'", false },
	{ "compare a b --hist", 2, "unknown option '--hist'", false },
	{ "samples", 2, "which run?", false },
	{ "samples x1", 2,
	  "kbenchctl samples: 'x1' is not a run id (a number from 1, as 'kbenchctl run' prints it)", true },
	{ "samples 0", 2,
	  "kbenchctl samples: '0' is not a run id (a number from 1, as 'kbenchctl run' prints it)", true },
	{ "samples 1 2", 2,
	  "kbenchctl samples: unexpected argument '2' (one run at a time)", true },
	{ "samples 1 --csv --json", 2,
	  "kbenchctl samples: --csv and --json exclude each other", true },
	{ "clocks x", 2,
	  "kbenchctl clocks: unexpected argument 'x' (clocks takes only options)", true },
	{ "compare nosuch --kernel-vs-user", 2,
	  "kbenchctl compare: no userspace twin for 'nosuch' (twins: empty, add_chain, mul_chain, load_l1, add_n, core_cal, foo, foobar, atomic_shared, atomic_percpu, spin_shared, spin_percpu, pingpong; kbenchctl list --user)", true },
	{ "baseline --match nosuch", 2,
	  "kbenchctl baseline: --match 'nosuch': no primitive is called 'nosuch' or matches it (categories: locking, rcu, atomics, percpu, toggles, barriers, time, random, alloc, hash, copy, lookup, syscall; 'kbenchctl baseline --user -v' or 'kbenchctl list' shows the rows)", true },
	{ "baseline --match time,nosuch*", 2,
	  "kbenchctl baseline: --match 'time,nosuch*': no primitive is called 'nosuch*' or matches it", false },
	{ "baseline --match spin_lock,,", 2,
	  "kbenchctl baseline: --match 'spin_lock,,': an empty or over-long element (a comma-separated list of globs)", true },
	{ "baseline --match futex_wake", 2,
	  "kbenchctl baseline: --match 'futex_wake': no kernel row matches (the kernel side has none)", true },
	{ "baseline --user --all", 2,
	  "kbenchctl baseline: --user and --all exclude each other (--all includes the userspace counterparts)", true },
	{ "baseline extra", 2, "unexpected argument 'extra'", false },
	{ "baseline --user --cpus 0", 2,
	  "kbenchctl baseline: --cpus 0: contention needs at least two CPUs (CPUs 0 given; list two or more online CPUs, as 0,1, or use --cpu N to measure alone)", true },
	{ "baseline --cpus 0 --cpu 0", 2,
	  "kbenchctl baseline: --cpus and --cpu exclude each other: --cpu N measures every row alone on CPU N, --cpus LIST the contended rows on all of LIST at once (and the others alone on its first CPU)", true },
	{ "baseline --user --cpus 0,8000", 2,
	  "kbenchctl baseline: --cpus 0,8000: no such CPU (online: ", false },
	{ "baseline --user --cpus 0,0", 2,
	  "kbenchctl baseline: --cpus 0,0: CPU 0 is listed twice", true },
	{ "baseline --user --skew-ns 1000", 2,
	  "kbenchctl baseline: --skew-ns bounds a contended run: it goes with --cpus", true },
	{ "baseline --user --cpus 1..2", 2,
	  "kbenchctl baseline: --cpus 1..2: a CPU list here (0,1 or 0-3), not CPU counts A..K (run ROUTINE --cpus A..K sweeps the count)", true },
	{ "samples 1 --routine 5", 2, "kbenchctl samples: --routine 5: at most 4", true },
	{ "clocks --user --all", 2,
	  "kbenchctl clocks: --user and --all exclude each other (--all includes the userspace clocks)", true },
	{ "info extra", 2,
	  "kbenchctl info: unexpected argument 'extra' (info takes no arguments)", true },
};

/*
 * The man page's list of twins is the table's (user/model/twin.c): the
 * line after its marker names every twin, in order, and nothing else.
 */
static void test_twins_man(void)
{
	const char *path = "../../Documentation/kbenchctl.8";
	char line[1024], want[1024] = "", got[1024] = "";
	const struct kb_twin *t;
	bool marked = false;
	FILE *f = fopen(path, "r");

	for (t = kb_twins; t->name; t++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 "%s%s", t == kb_twins ? "" : " ", t->name);
	while (f && fgets(line, sizeof(line), f)) {
		char *p, *q;

		if (strstr(line, "The twins: user/model/twin.c's table")) {
			marked = true;
			continue;
		}
		if (!marked)
			continue;
		/* .BR a ", " b " and " c: the words outside the quotes */
		for (p = line + 3; *p; p = q) {
			while (*p == ' ')
				p++;
			if (*p == '"') {
				q = strchr(p + 1, '"');
				q = q ? q + 1 : p + strlen(p);
				continue;
			}
			q = p + strcspn(p, " \n");
			if (q == p) {
				q++;
				continue;
			}
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 "%s%.*s", got[0] ? " " : "", (int)(q - p), p);
		}
		break;
	}
	if (f)
		fclose(f);
	if (!ok(marked && !strcmp(got, want),
		"%s lists the twins of user/model/twin.c's table, in order", path))
		diag("man page: '%s'\ntable:    '%s'", got, want);
}

/* Does file @path hold a line that contains @needle? */
static bool file_has(const char *path, const char *needle)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen(path, "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, needle) != NULL;
	if (f)
		fclose(f);
	return found;
}

/*
 * One version (include/kbench/version.h): the DKMS package, the module,
 * kbenchctl, the man pages and the README's DKMS commands say the same,
 * so that a release changes it in one place and this test names the rest.
 */
static void test_versions(void)
{
	static const struct { const char *path, *needle; } uses[] = {
		{ "../../dkms.conf", "PACKAGE_VERSION=\"" KBENCH_VERSION "\"" },
		{ "../../dkms.conf", "dkms add kbench/" KBENCH_VERSION },
		{ "../../kmod/kbench_main.c", "MODULE_VERSION(KBENCH_VERSION);" },
		{ "../../Documentation/kbenchctl.8", "\"kbench " KBENCH_VERSION "\"" },
		{ "../../Documentation/libkbench.3", "\"kbench " KBENCH_VERSION "\"" },
		{ "../../README.md", "sudo dkms add kbench/" KBENCH_VERSION " " },
		{ "../../README.md", "sudo mkdir /usr/src/kbench-" KBENCH_VERSION "\n" },
	};
	size_t i;

	for (i = 0; i < sizeof(uses) / sizeof(uses[0]); i++)
		ok(file_has(uses[i].path, uses[i].needle),
		   "version %s (include/kbench/version.h): %s says %s",
		   KBENCH_VERSION, uses[i].path, uses[i].needle);
	expect("--version", 0, "kbenchctl " KBENCH_VERSION " (netlink family kbench v");
}

void test_cli(void)
{
	char *out;
	size_t i;
	int rc;

	fake_modprobe_setup();

	for (i = 0; i < sizeof(cli_cases) / sizeof(cli_cases[0]); i++) {
		const struct cli_case *c = &cli_cases[i];

		if (c->exact)
			expect_line(c->args, c->code, c->says);
		else
			expect(c->args, c->code, c->says);
	}
	test_sweep_cli();
	test_cpus_cli();

	/* the module is absent on the build machine */
	expect("info", 2, "kbenchctl: kbench module not loaded (try: modprobe kbench)");
	expect("list", 2, "kbench module not loaded");
	expect("clocks", 2, "kbench module not loaded");
	expect("run add_chain", 2, "kbench module not loaded");
	expect("compare foo foobar", 2, "kbench module not loaded");
	expect("compare add_chain --kernel-vs-user", 2, "kbench module not loaded");
	expect("samples 1", 2, "kbench module not loaded");
	expect("list", 2, "without the module, 'kbenchctl list --user' lists the userspace twins");
	expect("info", 2, "without the module, 'kbenchctl info --user' reports");
	rc = run("info", "2>/dev/null", &out);
	ok(rc == 2 && out[0] == '\0', "errors go to stderr only");
	free(out);
	expect("list --user", 0, "pingpong");
	expect("list --user", 0, "add_n                adds 1..1024 (64)");
	json_check("list --user --json",
		   "n=[r[\"name\"] for r in d]; assert n[0]==\"empty\" and \"add_n\" in n and \"pingpong\" in n; "
		   "assert all(r[\"side\"]==\"user\" and \"description\" in r for r in d); "
		   "assert [r for r in d if r[\"name\"]==\"add_n\"][0][\"arg\"]==dict(unit=\"adds\", min=1, max=1024, default=64)",
		   "list --user --json: every twin with its side, argument and description");
	expect("info --user", 0, "user counter:");
	expect("info --user", 0, "version:          " KBENCHCTL_VERSION);
	expect("info --user --cpu 0", 0, "environment of CPU 0");
	test_twins_man();
	test_versions();
	test_autoload();
	test_events_cli();

	/* --user: no module needed */
	expect("clocks --user", 0, "CLOCK_MONOTONIC_RAW");
	json_check("clocks --user --json",
		   "n=[c[\"name\"] for c in d]; assert \"CLOCK_MONOTONIC\" in n and \"gettimeofday\" in n and \"time\" in n; "
		   "assert all(c[\"side\"]==\"user\" and \"latency_ns\" in c and \"resolution_min_ns\" in c for c in d)",
		   "clocks --user --json: every clock with resolution and latency");
	/* baseline: the kernel side needs the module, --user does not */
	expect("baseline", 2, "kbench module not loaded");
	json_check("baseline --user --match getpid,ktime_get,locking --samples 30 --json",
		   "r=d[\"rows\"]; assert [x[\"primitive\"] for x in r]==[\"spin_lock\",\"raw_spin_lock\",\"read_lock\",\"ktime_get\",\"getpid\"]; "
		   "assert d[\"measured\"]==5 and d[\"wanted\"]==5 and d[\"missing\"]==0 and \"kernel_run\" not in d; "
		   "u=[x[\"user\"] for x in r]; assert [x[\"routine\"] for x in u]==[\"u_mutex\",\"u_spinlock\",\"u_rwlock_read\",\"u_clock_gettime\",\"u_getpid\"]; "
		   "assert all(\"kernel\" not in x and x[\"ci_lo_ticks\"]<=x[\"ticks_per_call\"]<=x[\"ci_hi_ticks\"] and x[\"verdict\"] in (\"stable\",\"unstable\") and x[\"samples\"]==30 and x[\"description\"] for x in u); "
		   "assert all(x[\"category\"] and x[\"configs\"] for x in r)",
		   "baseline --user --json: the rows asked for, in the suite's order, each with its twin's figures");
	expect("baseline --user --match futex_wake --samples 20 -v", 0,
	       "      userspace: futex(FUTEX_WAKE_PRIVATE) with no waiter");
	{
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "baseline --user --match copy --samples 20 --save %s/bl.json --svg %s/bl.svg",
			 fake_dir, fake_dir);
		valgrind(cmd, 0);
		snprintf(cmd, sizeof(cmd), "--json diff %s/bl.json %s/bl.json --threshold 50", fake_dir, fake_dir);
		json_check(cmd, "assert len(d[\"routines\"])==4",
			   "baseline --save: diff reads it, a row per routine");
		snprintf(cmd, sizeof(cmd), "python3 -c 'import xml.dom.minidom,sys; d=xml.dom.minidom.parse(sys.argv[1]); assert len(d.getElementsByTagName(\"rect\"))>=6' %s/bl.svg",
			 fake_dir);
		ok(!have("python3") || system(cmd) == 0, "baseline --svg: well-formed, a bar per routine");
	}
	/*
	 * baseline --cpus: the structure of a contended table (keys, never
	 * figures: a row whose every sample the start skew flagged says
	 * failed), its saved file and valgrind, where two CPUs are online
	 */
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		char cmd[512];

		json_check("baseline --user --cpus 0,1 --match atomic_inc,spin_lock,jhash_64 --samples 30 --json",
			   "assert d[\"cpus\"]==[0,1]; r=d[\"rows\"]; assert [x[\"primitive\"] for x in r]==[\"spin_lock\",\"atomic_inc\",\"jhash_64\"]; "
			   "u=[x[\"user\"] for x in r]; assert [x[\"contended\"] for x in u]==[True,True,False]; "
			   "assert \"per_cpu\" not in u[2] and (u[2].get(\"failed\") or (u[2][\"cpu\"]==0 and \"ticks_per_call\" in u[2])); "
			   "assert all(\"per_cpu\" in x and \"skew\" in x for x in u[:2]); c=[x for x in u[:2] if not x.get(\"failed\")]; "
			   "assert all([p[\"cpu\"] for p in x[\"per_cpu\"]]==[0,1] and all(k in p for p in x[\"per_cpu\"] for k in (\"samples\",\"valid\",\"excluded_skew\",\"iterations\")) for x in c); "
			   "assert all(all(k in x[\"skew\"] for k in (\"median_ticks\",\"max_ticks\",\"bound_ticks\",\"flagged\",\"samples\")) and \"ticks_per_call\" in x and x[\"verdict\"] in (\"stable\",\"unstable\") and x[\"samples\"]==60 for x in c); "
			   "assert d[\"wanted\"]==3 and d[\"measured\"]+d[\"missing\"]==3",
			   "baseline --user --cpus 0,1 --json: the CPUs, contended rows with per-CPU figures and skew, the others alone on CPU 0");
		rc = run("baseline --user --cpus 0,1 --match atomic_inc,jhash_64 --samples 20", NULL, &out);
		if (!ok((rc == 0 || rc == 1) &&
			strstr(out, "contended: the locking and atomics rows ran on CPUs 0-1 at once") &&
			strstr(out, "u_atomic_inc at once: cpu 0 ") &&
			strstr(out, "(alone on CPU 0)"),
			"baseline --user --cpus 0,1: the table says which rows ran at once, each CPU's figure, and which alone"))
			diag("exit %d:\n%s", rc, out);
		free(out);
		/*
		 * valgrind serializes the threads: the skew may flag every
		 * sample of the contended row (exit 1), never an error
		 */
		snprintf(cmd, sizeof(cmd), "valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 %s baseline --user --cpus 0,1 --match atomic_inc,jhash_64 --samples 20 --json --save %s/blv.json 2>&1 >/dev/null",
			 kbenchctl_bin, fake_dir);
		if (!have("valgrind")) {
			skip("no valgrind", "valgrind kbenchctl baseline --user --cpus 0,1");
		} else {
			rc = unit_cmd_out(cmd, &out);
			if (!ok((rc == 0 || rc == 1) && !strstr(out, "=="),
				"valgrind kbenchctl baseline --user --cpus 0,1 --json --save: no errors, no leaks"))
				diag("exit %d:\n%s", rc, out);
			free(out);
		}
		snprintf(cmd, sizeof(cmd), "baseline --user --cpus 0,1 --match atomic_inc,jhash_64 --samples 20 --save %s/blc.json",
			 fake_dir);
		rc = run(cmd, "2>/dev/null", &out);
		free(out);
		snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d[\"runs\"]; "
			 "assert all(x.get(\"ncpus\")==(2 if x[\"routines\"][0][\"routine\"]==\"u_atomic_inc\" else None) for x in r) and r' %s/blc.json",
			 fake_dir);
		ok((rc == 0 || rc == 1) && (!have("python3") || system(cmd) == 0),
		   "baseline --cpus --save: a contended row saved as one run with ncpus 2, the others without");
		snprintf(cmd, sizeof(cmd), "diff %s/blc.json %s/blc.json --threshold 50", fake_dir, fake_dir);
		expect(cmd, 0, "u_jhash_64 [user]");
	} else {
		skip("one CPU online", "baseline --user --cpus 0,1: contended rows need two CPUs");
	}
	expect("run add_chain --user --samples 200 -v", 0, "statistics of");
	expect("run add_chain --user --samples 200 --verbose", 0, "median CI coverage");
	rc = run("run add_chain --user --samples 200", "2>&1", &out);
	{
		unsigned int n = 0;
		char *p;

		for (p = out; *p; p++)
			n += *p == '\n';
		if (!ok(rc == 0 && n <= 12 && strstr(out, "\nadd_chain\n  median ") &&
			strstr(out, "  verdict    "),
			"run of one routine: at most 12 lines (%u) in all, median first, verdict last", n))
			diag("%s", out);
	}
	free(out);
	rc = run("compare add_chain mul_chain --user --samples 200 --iterations 1000 | tail -n 1", "2>/dev/null", &out);
	ok(rc == 0 && !strncmp(out, "mul_chain is ", 13) && strstr(out, "% slower than add_chain"),
	   "compare: the verdict is the last line");
	free(out);
	expect("run add_chain --user --samples 300 --iterations 1000 --hist", 0, "\u25c0");
	expect("run add_chain --user --samples 300 --iterations 1000 --hist --log", 0, "log scale");
	expect("run mul_chain --user --samples 20 --iterations 100 --raw", 0,
	       "samples (index, routine, net ticks, flags)");
	rc = run("run empty --user --samples 30 --iterations 100 --csv", "2>/dev/null", &out);
	ok(rc == 0 && !strncmp(out, "index,routine,net_cycles,flags\n0,empty,", 39),
	   "run --csv prints the CSV header and samples");
	free(out);
	json_check("run add_chain --user --samples 200 --iterations 1000 --json",
		   "assert d[\"routine\"]==\"add_chain\" and d[\"iterations\"]==1000 and d[\"samples\"]==200; "
		   "assert isinstance(d[\"cpu\"],int) and d[\"counter\"] and d[\"counter_hz\"]>0; "
		   "assert d[\"net_cycles_per_iter\"][\"min\"]<=d[\"net_cycles_per_iter\"][\"median\"]; "
		   "assert d[\"ns_per_iter\"][\"min\"]>0; s=d[\"stats\"]; "
		   "assert s[\"count\"]+s[\"excluded\"]==200 and s[\"min_cycles\"]<=s[\"median_cycles\"]<=s[\"max_cycles\"]; "
		   "assert s[\"median_ci95_lo_cycles\"]<=s[\"median_cycles\"]<=s[\"median_ci95_hi_cycles\"]; "
		   "assert s[\"median_ci95_widening\"]>=1; "
		   "assert \"stable\" in s[\"stability\"] and \"throughput_ops_per_s\" in s; "
		   "assert d[\"overhead\"][\"routine\"]==\"empty\" and \"corrected_cycles_per_iter\" in d",
		   "run --user --json: required keys and consistent values");
	json_check("--json run add_chain mul_chain --user --samples 50 --iterations 500",
		   "assert [r[\"routine\"] for r in d[\"routines\"]]==[\"add_chain\",\"mul_chain\"]",
		   "global --json, several routines: a 'routines' array");
	json_check("run add_chain --user --samples 50 --iterations 500 --json --hist --raw",
		   "assert len(d[\"raw\"])==50 and sum(d[\"histogram\"][\"counts\"])+d[\"histogram\"][\"beyond\"]==d[\"stats\"][\"count\"]",
		   "--json --hist --raw stay JSON (histogram bins, raw samples)");
	json_check("compare add_chain mul_chain --user --samples 300 --iterations 1000 --json --seed 5",
		   "c=d[\"comparison\"]; assert c[\"a\"]==\"add_chain\" and c[\"b\"]==\"mul_chain\"; "
		   "assert c[\"median_rel_diff_pct\"]>0 and c[\"verdict\"]==\"slower\" and c[\"seed\"]==5; "
		   "assert c[\"rel_diff_ci95_lo_pct\"]<=c[\"rel_diff_ci95_hi_pct\"] and 0<=c[\"p_value\"]<=1",
		   "compare --user: mul_chain (imul chain) is slower than add_chain");
	expect("compare add_chain mul_chain --user --samples 200 --iterations 1000", 0,
	       "mul_chain is ");
	rc = run("run load_l1 --user --samples 100 --iterations 1000 --svg unit-test.svg", "2>&1 >/dev/null", &out);
	ok(rc == 0 && out[0] == '\0', "run --svg writes quietly");
	free(out);
	if (have("xmllint"))
		ok(system("xmllint --noout unit-test.svg && grep -q 'id=\"timeline\"' unit-test.svg") == 0,
		   "run --svg: a well-formed SVG with both panels");
	else
		skip("no xmllint", "run --svg: a well-formed SVG");
	remove("unit-test.svg");
	expect("run add_chain --user --svg /nonexistent/dir/x.svg --samples 10", 1,
	       "/nonexistent/dir/x.svg");

	test_color();
	expect_line("--color sometimes info", 2, "kbenchctl: --color sometimes: want auto, never or always");

	test_results_cli();

	/* valgrind: the paths that need no module */
	valgrind("--help", 0);
	valgrind("run --samples abc add_chain", 2);
	valgrind("run add_chain --user --samples 200", 0);
	valgrind("run add_chain mul_chain --user --samples 100 --json --hist --raw", 0);
	valgrind("compare add_chain load_l1 --user --samples 100 --iterations 200", 0);
	valgrind("clocks --user", 0);
	valgrind("info", 2);
	valgrind("run add_chain --sampels 3", 2);
	valgrind("run add_chain --cpu 99", 2);
	valgrind("rnu", 2);
	valgrind("help run", 0);
	valgrind("--color=always run add_chain --user --samples 50 -v", 0);
	valgrind("compare add_chain mul_chain --user --samples 50 --iterations 200 --color=always", 0);
	valgrind("compare add_chain --kernel-vs-user", 2);
	valgrind("samples 3 --csv", 2);
	fake_modprobe_cleanup();
}
