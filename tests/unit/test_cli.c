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

#include "tap.h"
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

static bool have(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/* Check a JSON document with the python3 standard library (no numpy). */
static void json_check(const char *args, const char *py, const char *what)
{
	char cmd[2048];
	int rc;

	if (!have("python3")) {
		skip("no python3", "%s", what);
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "%s %s 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); %s' ",
		 kbenchctl_bin, args, py);
	rc = system(cmd);
	ok(rc == 0, "%s", what);
}

/* Run @cmd through sh; its stdout in *out (malloc'ed); its exit status. */
static int read_cmd(const char *cmd, char **out)
{
	size_t len = 0, cap = 1 << 16, r;
	FILE *p = popen(cmd, "r");
	int st;

	*out = malloc(cap);
	while (p && (r = fread(*out + len, 1, cap - len - 1, p)) > 0)
		len += r;
	(*out)[len] = '\0';
	st = p ? pclose(p) : -1;
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : 128;
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
		rc = read_cmd(cmd, &out);
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
			"kbenchctl: kbench module not loaded (try: modprobe kbench)\n";
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
	rc = read_cmd(cmd, &out);
	if (!ok(rc == 0 && !strstr(out, "==") && !strstr(out, "not ok") && strstr(out, "1.."),
		"valgrind: loader round trip, every truncation, 1000 mutations: no errors, no leaks"))
		diag("%s", out);
	free(out);
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
	expect("diff", 2, "diff needs two results");
	expect("diff a.json", 2, "diff needs two results");
	expect("diff --threshold x a b", 2, "--threshold: 'x' is not a percentage");
	expect("diff --fail-on sometimes a b", 2, "--fail-on: 'sometimes': use 'regressed' or 'changed'");
	expect("diff --match foo a b", 2, "--match: 'foo': use OLD=NEW");
	expect("diff /nonexistent/old.json b.json", 2, "/nonexistent/old.json: No such file or directory");
	expect("diff never_saved b.json", 2, "no saved result 'never_saved' (looked for /tmp/kbench-xdg-");
	expect("diff 'bad name' b.json", 2, "result name 'bad name': use letters, digits");
	expect("run add_chain --user --threshold 3", 2, "go with --baseline");
	expect("run add_chain --user --csv --baseline x", 2, "not with --baseline");
	expect("run add_chain --user --baseline /nonexistent/b.json", 2,
	       "--baseline: /nonexistent/b.json: No such file or directory");
	expect("diff --check /dev/null", 2, "/dev/null: byte 0: empty file");
	{
		char args[256];

		snprintf(args, sizeof(args), "diff --check %s", corrupt);
		expect(args, 2, "corrupt.json: byte 101, runs[0].routines[0].net: expected an integer, found the end of the file (truncated?)");
	}
	expect("run add_chain mul_chain --user --samples 200 --iterations 1000 --save unitbase",
	       0, "kbenchctl: saved 2 routines, 400 samples to /tmp/kbench-xdg-");
	snprintf(path, sizeof(path), "%s/kbench/unitbase.json", xdg_dir);
	ok(access(path, R_OK) == 0, "--save NAME: stored as $XDG_DATA_HOME/kbench/NAME.json");
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
	       "have no routine in common");
	expect("diff unit-new.json unit-new.json --markdown", 0, "| +0.00% |");
	expect("compare add_chain mul_chain --user --samples 100 --iterations 1000 --save unit-cmp.json",
	       0, "saved 2 routines, 200 samples");
	valgrind("diff unitbase unit-new.json --threshold 50", 0);
	{
		char args[256];

		snprintf(args, sizeof(args), "diff --check %s", corrupt);
		valgrind(args, 2);
	}
	valgrind("run add_chain --user --samples 100 --iterations 1000 --baseline unitbase --threshold 100000 --save unit-v.json", 0);
	valgrind_loader();
	remove("unit-new.json");
	remove("unit-cmp.json");
	remove("unit-v.json");
	remove(path);
	remove(corrupt);
	snprintf(path, sizeof(path), "%s/kbench", xdg_dir);
	rmdir(path);
	rmdir(xdg_dir);
	unsetenv("XDG_DATA_HOME");
}

void test_cli(void)
{
	char *out;
	int rc;

	fake_modprobe_setup();

	expect("--help", 0, "Subcommands:");
	expect("-h", 0, "Usage:");
	expect("--version", 0, "kbenchctl ");
	expect("", 2, "Usage:");
	expect("frobnicate", 2, "unknown subcommand 'frobnicate'");
	expect("--frob", 2, "unknown option '--frob'");
	expect("help run", 0, "--iterations N");
	expect("help nosuch", 2, "unknown subcommand");
	expect("run --help", 0, "--samples N");
	expect("compare -h", 0, "--kernel-vs-user");
	expect("samples --help", 0, "--csv");
	expect("run", 2, "which routine?");
	expect("run add_chain --samples abc", 2, "--samples: 'abc' is not a number");
	expect("run add_chain --samples -1", 2, "is not a number");
	expect("run add_chain --samples 0", 2, "at least 1");
	expect("run add_chain --cpu", 2, "needs a value");
	expect("run add_chain --bogus", 2, "unknown option '--bogus'");
	expect("run a b c d e", 2, "at most 4 routines");
	expect("run add_chain --log", 2, "--log goes with --hist");
	expect("run add_chain --csv --json", 2, "--csv replaces the summary");
	expect("run no_such_twin --user", 2, "no userspace twin for 'no_such_twin'");
	expect("run aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 2, "bad routine name");
	expect("compare foo", 2, "needs two routines");
	expect("compare a b c", 2, "unexpected argument 'c'");
	expect("compare a b --threshold x", 2, "--threshold");
	expect("compare a b --kernel-vs-user", 2, "takes one routine");
	expect("samples", 2, "which run?");
	expect("samples x1", 2, "is not a run id");
	expect("clocks --user --all", 2, "exclude each other");
	expect("info extra", 2, "unexpected argument");

	/* the module is absent on the build machine */
	expect("info", 2, "kbenchctl: kbench module not loaded (try: modprobe kbench)");
	expect("list", 2, "kbench module not loaded");
	expect("clocks", 2, "kbench module not loaded");
	expect("run add_chain", 2, "kbench module not loaded");
	expect("compare foo foobar", 2, "kbench module not loaded");
	expect("compare add_chain --kernel-vs-user", 2, "kbench module not loaded");
	expect("samples 1", 2, "kbench module not loaded");
	rc = run("info", "2>/dev/null", &out);
	ok(rc == 2 && out[0] == '\0', "errors go to stderr only");
	free(out);
	test_autoload();

	/* --user: no module needed */
	expect("clocks --user", 0, "CLOCK_MONOTONIC_RAW");
	json_check("clocks --user --json",
		   "n=[c[\"name\"] for c in d]; assert \"CLOCK_MONOTONIC\" in n and \"gettimeofday\" in n and \"time\" in n; "
		   "assert all(c[\"side\"]==\"user\" and \"latency_ns\" in c and \"resolution_min_ns\" in c for c in d)",
		   "clocks --user --json: every clock with resolution and latency");
	expect("run add_chain --user --samples 200", 0, "statistics of");
	expect("run add_chain --user --samples 300 --iterations 1000 --hist", 0, "\u25c0");
	expect("run add_chain --user --samples 300 --iterations 1000 --hist --log", 0, "log scale");
	expect("run mul_chain --user --samples 20 --iterations 100 --raw", 0,
	       "samples (index, routine, net cycles, flags)");
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

	test_results_cli();

	/* valgrind: the paths that need no module */
	valgrind("--help", 0);
	valgrind("run --samples abc add_chain", 2);
	valgrind("run add_chain --user --samples 200", 0);
	valgrind("run add_chain mul_chain --user --samples 100 --json --hist --raw", 0);
	valgrind("compare add_chain load_l1 --user --samples 100 --iterations 200", 0);
	valgrind("clocks --user", 0);
	valgrind("info", 2);
	valgrind("samples 3 --csv", 2);
	fake_modprobe_cleanup();
}
