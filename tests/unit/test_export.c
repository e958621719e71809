// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl export and history on generated result files: each format
 * read by what its consumers use (Google Benchmark's compare.py, the
 * KCIDB v5.3 JSON schema through python3-jsonschema, LKP's "key: value"
 * parsed back, BMF's and github-action-benchmark's documented shapes),
 * history's change points over series of 30 files, exit statuses and
 * valgrind runs.  Nothing here depends on timing: the files are written
 * from seeded generators.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base.h"
#include "resfile.h"
#include "stats.h"
#include "tap.h"
#include "tests.h"
#include "resfix.h"

#define PY	"/usr/bin/python3"	/* Debian's: scipy, jsonschema */
#define COMPARE_PY	"/usr/share/benchmark/compare.py"	/* libbenchmark-tools */
#define KCIDB_SCHEMA	"kcidb-v05_03.schema.json"	/* in fixtures/ */

static char tmp_dir[] = "/tmp/kbench-export-XXXXXX";

/* A standard normal deviate (Box-Muller over the suite's generator). */
static double normal(struct kb_rng *g)
{
	double u = ((double)(kb_rng_next(g) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(kb_rng_next(g) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* absolute: some commands cd */
static char *kbenchctl_abs, *fixtures_abs;

/* the commit the next write_result() records (run --save --commit) */
static char meta_commit[72], meta_commit_time[40];

/*
 * A result file at @path: one run (--user when @user) of @nres routines,
 * routine k with 31 samples whose median is @cyc[k] cycles per iteration
 * (1000 iterations a sample, +-3 ticks of noise), recorded at @date on
 * kernel @kernel.
 */
static void write_result(const char *path, const char *const *names,
			 const double *cyc, unsigned int nres, bool user,
			 const char *date, const char *kernel, uint64_t seed)
{
	const uint32_t iters = 1000;
	struct kb_saved_run s;
	struct kb_meta m;
	struct kb_run r;
	struct kb_rng g;
	unsigned int k;
	size_t len, i;
	char *buf;

	kb_rng_seed(&g, seed);
	make_meta(&m);
	snprintf(m.commit, sizeof(m.commit), "%s", meta_commit);
	snprintf(m.commit_time, sizeof(m.commit_time), "%s", meta_commit_time);
	snprintf(m.date, sizeof(m.date), "%s", date);
	snprintf(m.kernel, sizeof(m.kernel), "%s", kernel);
	make_run_header(&r, 31, iters, 2000000000);
	r.user = user;
	snprintf(r.kernel, sizeof(r.kernel), "%s", kernel);
	snprintf(r.date, sizeof(r.date), "%s", date);
	r.nres = nres;
	for (k = 0; k < nres; k++) {
		struct kb_result *res = &r.res[k];
		int64_t mid = llround(cyc[k] * iters);

		snprintf(res->routine, sizeof(res->routine), "%s", names[k]);
		res->index = k;
		for (i = 0; i < r.samples; i++)
			kb_result_push(res, mid + (int64_t)kb_rng_below(&g, 7) - 3, 0);
		kb_result_summarize(res, iters);
	}
	kb_saved_run_init(&s, &r, NULL);
	buf = write_mem(&m, &s, 1, &len);
	buf_to_file(path, buf, len);
	free(buf);
	kb_run_free(&r);
}

static int kb(const char *args, char **out)
{
	char *cmd;
	int rc;

	if (asprintf(&cmd, "%s %s 2>/dev/null", kbenchctl_bin, args) < 0) {
		*out = strdup("");
		return 128;
	}
	rc = unit_cmd_out(cmd, out);
	free(cmd);
	return rc;
}

/* "kbenchctl FMT...": its exit status; its output is not wanted */
static int __attribute__((format(printf, 1, 2))) kb_status(const char *fmt, ...)
{
	char *args, *out;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&args, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return 128;
	rc = kb(args, &out);
	free(out);
	free(args);
	return rc;
}

static bool have_file(const char *path)
{
	return access(path, R_OK) == 0;
}

/* @py (a python program, stdin: nothing) run by Debian's python3: ok? */
static bool python_ok(const char *py, char **out)
{
	char *path, cmd[512];
	FILE *f;
	int rc;

	if (asprintf(&path, "%s/check.py", tmp_dir) < 0)
		return false;
	f = fopen(path, "w");
	if (f) {
		fputs(py, f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), PY " %s 2>&1", path);
	rc = unit_cmd_out(cmd, out);
	free(path);
	return rc == 0;
}

static const char *const names2[] = { "foo", "bar" };

/* @n files DIR/PREFIX-I.json: foo at @foo (+-0.5%, seeded), bar at 50 */
static void write_reps(const char *prefix, unsigned int n, double foo,
		       bool user, uint64_t seed)
{
	struct kb_rng g;
	unsigned int i;
	char path[256], date[40];

	kb_rng_seed(&g, seed);
	for (i = 0; i < n; i++) {
		double v[2] = { foo * (1 + 0.005 * normal(&g)),
				50 * (1 + 0.005 * normal(&g)) };

		snprintf(path, sizeof(path), "%s/%s-%u.json", tmp_dir, prefix, i);
		snprintf(date, sizeof(date), "2026-11-%02uT10:00:00Z", 1 + i);
		write_result(path, names2, v, 2, user, date,
			     "6.12.0-rc1-00042-g0123456789ab", seed * 100 + i);
	}
}

static char *file_list(const char *prefix, unsigned int n)
{
	char *s = NULL, *t;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (asprintf(&t, "%s %s/%s-%u.json", s ? s : "", tmp_dir, prefix, i) < 0)
			break;
		free(s);
		s = t;
	}
	return s;
}

/*
 * @n files of write_reps() exported together: "export FILES @opts -o
 * DIR/@out"; the exit status.
 */
static int export_reps(const char *prefix, unsigned int n, double foo,
		       bool user, uint64_t seed, const char *opts,
		       const char *out)
{
	char *files;
	int rc;

	write_reps(prefix, n, foo, user, seed);
	files = file_list(prefix, n);
	if (!files)
		return 128;
	rc = kb_status("export %s %s -o %s/%s", files, opts, tmp_dir, out);
	free(files);
	return rc;
}

/*
 * gbench: the exports of two sets of 5 repetitions read by compare.py
 * benchmarks: a row per routine and repetition, the aggregates, and the
 * U test's p-value rows; foo 10% slower in the second, bar the same.
 */
static void test_gbench(void)
{
	char cmd[4096], *out;
	int rc;

	rc = export_reps("ga", 5, 100, false, 11, "--format gbench", "ga.gbench.json");
	ok(rc == 0, "export --format gbench of 5 files -> exit 0 (%d)", rc);
	rc = export_reps("gb", 5, 110, false, 12, "--format gbench", "gb.gbench.json");
	ok(rc == 0, "export --format gbench of 5 other files -> exit 0 (%d)", rc);
	/* one file each: rows, no U test */
	kb_status("export %s/ga-0.json --format gbench -o %s/g1a.json", tmp_dir, tmp_dir);
	kb_status("export %s/gb-0.json --format gbench -o %s/g1b.json", tmp_dir, tmp_dir);

	if (!have_file(COMPARE_PY) || !have_file(PY)) {
		skip("no " COMPARE_PY " (libbenchmark-tools) or " PY,
		     "compare.py reads two gbench exports: rows and U test");
		skip("no compare.py", "compare.py: foo +10%%, bar the same");
		skip("no compare.py", "compare.py on single files: rows, no U test");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 PY " " COMPARE_PY " --no-color -d %s/cmp.json benchmarks %s/ga.gbench.json %s/gb.gbench.json 2>&1",
		 tmp_dir, tmp_dir, tmp_dir);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == 0 && strstr(out, "foo_pvalue") && strstr(out, "bar_pvalue") &&
		strstr(out, "U Test") && strstr(out, "foo_median") &&
		strstr(out, "bar_mean"),
		"compare.py reads two gbench exports of 5 repetitions: rows for foo and bar, their aggregates, U test rows (foo_pvalue, bar_pvalue)"))
		diag("exit %d:\n%s", rc, out);
	free(out);
	/* the comparison's JSON: foo's time +10% (+-2%), bar's within 2%; the U test p */
	snprintf(cmd, sizeof(cmd),
		 "import json\n"
		 "d = {r['name']: r for r in json.load(open('%s/cmp.json'))}\n"
		 "foo, bar = d['foo'], d['bar']\n"
		 "assert sorted(d) == ['bar', 'bar_mean', 'bar_median', 'bar_stddev', 'bar_cv', 'foo', 'foo_mean', 'foo_median', 'foo_stddev', 'foo_cv'] or set(d) >= {'foo', 'bar'}, sorted(d)\n"
		 "assert len(foo['measurements']) == 5, foo\n"
		 "m = d['foo_median']['measurements'][0]\n"
		 "assert 0.08 < m['time'] < 0.12, m\n"
		 "m = d['bar_median']['measurements'][0]\n"
		 "assert abs(m['time']) < 0.02, m\n"
		 "assert foo['utest']['have_optimal_repetitions'] is False and foo['utest']['time_pvalue'] < 0.05, foo['utest']\n"
		 "assert bar['utest']['time_pvalue'] > 0.01, bar['utest']\n",
		 tmp_dir);
	if (!ok(python_ok(cmd, &out),
		"compare.py's comparison: foo_median +10%% (0.08..0.12), bar_median within 2%%, foo's U test p < 0.05 over 5 repetitions"))
		diag("%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd),
		 PY " " COMPARE_PY " --no-color benchmarks %s/g1a.json %s/g1b.json 2>&1",
		 tmp_dir, tmp_dir);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == 0 && strstr(out, "foo ") && strstr(out, "bar ") &&
		!strstr(out, "pvalue"),
		"compare.py on one file each: a row for foo and bar, no U test"))
		diag("exit %d:\n%s", rc, out);
	free(out);
}

/*
 * KCIDB: a kernel run and a --user run (two files each), validated
 * against the v5.3 schema (kernelci/kcidb-io's Version.json, kept in
 * fixtures/), and what the schema leaves open checked by hand.
 */
static void test_kcidb(void)
{
	char cmd[4096], *out;
	int rc;

	rc = export_reps("ka", 2, 100, false, 21, "--format kcidb", "kernel.kcidb.json");
	ok(rc == 0, "export --format kcidb of a kernel run's two files -> exit 0 (%d)", rc);
	rc = export_reps("ku", 2, 100, true, 22,
			 "--format kcidb --origin my_ci --commit 0123456789abcdef0123456789abcdef01234567",
			 "user.kcidb.json");
	ok(rc == 0, "export --format kcidb --origin my_ci --commit HASH of a --user run -> exit 0 (%d)", rc);

	rc = kb_status("export %s/ka-0.json --format kcidb --origin Bad", tmp_dir);
	ok(rc == 2, "export --format kcidb --origin Bad (not ^[a-z0-9_]+$) -> exit 2 (%d)", rc);

	if (system(PY " -c 'import jsonschema' 2>/dev/null")) {
		skip("no python3-jsonschema", "kcidb exports validate against schema v5.3");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "import json, re, jsonschema\n"
		 "schema = json.load(open('%s/" KCIDB_SCHEMA "'))\n"
		 "v = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())\n"
		 "rfc3339 = re.compile(r'^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)$')\n"
		 "for name, origin, prefix in (('kernel', 'kbench', 'kbench.'), ('user', 'my_ci', 'kbench.user.')):\n"
		 "    d = json.load(open('%s/' + name + '.kcidb.json'))\n"
		 "    errs = sorted(v.iter_errors(d), key=str)\n"
		 "    assert not errs, '\\n'.join(str(e) for e in errs)\n"
		 "    assert d['version'] == {'major': 5, 'minor': 3}\n"
		 "    assert len(d['checkouts']) == 1 and len(d['builds']) == 1, d\n"
		 "    assert d['builds'][0]['checkout_id'] == d['checkouts'][0]['id']\n"
		 "    t = d['tests']\n"
		 "    assert len(t) == 4, t\n"
		 "    assert len({x['id'] for x in t}) == 4\n"
		 "    for x in t:\n"
		 "        assert x['origin'] == origin and x['id'].startswith(origin + ':')\n"
		 "        assert x['build_id'] == d['builds'][0]['id']\n"
		 "        assert x['status'] == 'DONE'\n"
		 "        assert x['path'] in (prefix + 'foo', prefix + 'bar'), x['path']\n"
		 "        assert x['number']['unit'] == 'tsc ticks', x['number']\n"
		 "        want = 100 if x['path'].endswith('foo') else 50\n"
		 "        assert abs(x['number']['value'] / want - 1) < 0.03, x['number']\n"
		 "        assert rfc3339.match(x['start_time']), x['start_time']\n"
		 "        assert x['environment']['misc']['arch'] == 'x86_64'\n"
		 "    c = d['checkouts'][0]\n"
		 "    assert c['misc']['commit'] == '0123456789ab', c\n"
		 "    if name == 'user':\n"
		 "        assert c['git_commit_hash'] == '0123456789abcdef0123456789abcdef01234567'\n"
		 "    assert d['builds'][0]['architecture'] == 'x86_64'\n"
		 "bad = json.load(open('%s/kernel.kcidb.json'))\n"
		 "bad['tests'][0]['status'] = 'MEASURED'\n"
		 "assert list(v.iter_errors(bad)), 'a bad status must fail the schema'\n",
		 fixtures_dir, tmp_dir, tmp_dir);
	if (!ok(python_ok(cmd, &out),
		"kcidb exports of a kernel run and a --user run validate against KCIDB schema v5.3 (jsonschema, Draft 2020-12): 1 checkout, 1 build, 4 tests DONE with number in tsc ticks, ids under the origin; a bad status fails"))
		diag("%s", out);
	free(out);
}

/* LKP: every line "key: number", parsed back to the files' figures. */
static void test_lkp(void)
{
	char cmd[4096], *a, *out, *line, *save;
	double foo = NAN, foo_lo = NAN, foo_hi = NAN, reps = NAN, samples = NAN;
	unsigned int lines = 0, bad = 0;
	int rc;

	write_reps("la", 3, 100, false, 31);
	a = file_list("la", 3);
	snprintf(cmd, sizeof(cmd), "export %s --format lkp --prefix t.", a);
	rc = kb(cmd, &out);
	free(a);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[256], *end;
		const char *colon = strstr(line, ": ");
		double v;

		lines++;
		if (!colon || (size_t)(colon - line) >= sizeof(key) ||
		    strspn(line, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != (size_t)(colon - line)) {
			bad++;
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(colon - line), line);
		errno = 0;
		v = strtod(colon + 2, &end);
		if (errno || end == colon + 2 || *end || !isfinite(v)) {
			bad++;
			continue;
		}
		if (!strcmp(key, "t.foo.median_cycles_per_iter"))
			foo = v;
		else if (!strcmp(key, "t.foo.min_cycles_per_iter"))
			foo_lo = v;
		else if (!strcmp(key, "t.foo.max_cycles_per_iter"))
			foo_hi = v;
		else if (!strcmp(key, "t.foo.repetitions"))
			reps = v;
	}
	free(out);
	if (!ok(rc == 0 && lines == 10 && !bad && foo_lo <= foo && foo <= foo_hi &&
		fabs(foo / 100 - 1) < 0.02 && reps == 3,
		"lkp of 3 files: 10 lines 'key: number' (%u, %u bad), t.foo.median_cycles_per_iter %g within min %g .. max %g, near 100; repetitions %g",
		lines, bad, foo, foo_lo, foo_hi, reps))
		diag("exit %d", rc);

	snprintf(cmd, sizeof(cmd), "export %s/la-0.json --format lkp", tmp_dir);
	rc = kb(cmd, &out);
	foo = foo_lo = foo_hi = NAN;
	lines = 0;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lines++;
		if (sscanf(line, "foo.median_cycles_per_iter: %lf", &foo) == 1 ||
		    sscanf(line, "foo.ci_lower_cycles_per_iter: %lf", &foo_lo) == 1 ||
		    sscanf(line, "foo.ci_upper_cycles_per_iter: %lf", &foo_hi) == 1 ||
		    sscanf(line, "foo.samples: %lf", &samples) == 1)
			continue;
	}
	free(out);
	ok(rc == 0 && lines == 10 && foo_lo <= foo && foo <= foo_hi && samples == 31,
	   "lkp of one file: the median %g inside its CI %g .. %g, samples %g", foo,
	   foo_lo, foo_hi, samples);

	/*
	 * contrib/lkp's parse on the output of its run, saved: kbenchctl's
	 * report, then the export's lines marked "kbench-stat "; it prints
	 * exactly those lines, nothing of the report or of malformed ones.
	 */
	snprintf(cmd, sizeof(cmd),
		 "cd %1$s && { printf 'warning: CPU 1 device interrupts 10\\nadd_n, arg 64\\n  median: 48.7 cycles/iter\\nx: 1\\n'; "
		 "%2$s export la-0.json --format lkp | sed 's/^/kbench-stat /'; "
		 "printf 'kbench-stat bad key: 1\\nkbench-stat foo.x: 1 2\\nkbench-stat foo.y: nan\\n'; } > lkp-run.out && "
		 "%2$s export la-0.json --format lkp > lkp.want && "
		 "%3$s/../../../contrib/lkp/programs/kbench/parse < lkp-run.out > lkp.got && "
		 "%3$s/../../../contrib/lkp/programs/kbench/parse lkp-run.out | cmp - lkp.got && "
		 "cmp lkp.want lkp.got && wc -l < lkp.got",
		 tmp_dir, kbenchctl_abs, fixtures_abs);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == 0 && atoi(out) == 10,
		"contrib/lkp parse of a saved run output (report, export lines, malformed lines): exactly the 10 'key: number' lines of export --format lkp, from stdin or a file"))
		diag("exit %d: %s", rc, out);
	free(out);
}

/* BMF and github-action-benchmark: their documented shapes. */
static void test_bmf_gab(void)
{
	char cmd[4096], *a, *out;
	int rc1, rc2;

	write_reps("ba", 3, 100, false, 41);
	a = file_list("ba", 3);
	rc1 = kb_status("export %s --format bmf -o %s/x.bmf.json", a, tmp_dir);
	rc2 = kb_status("export %s --format gab -o %s/x.gab.json", a, tmp_dir);
	free(a);
	ok(rc1 == 0 && rc2 == 0, "export --format bmf and --format gab -> exit 0 (%d, %d)", rc1, rc2);
	if (!have_file(PY)) {
		skip("no " PY, "bmf shape");
		skip("no " PY, "gab shape");
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "import json, numbers\n"
		 "d = json.load(open('%s/x.bmf.json'))\n"
		 "assert isinstance(d, dict) and set(d) == {'foo', 'bar'}, d\n"
		 "for name, ms in d.items():\n"
		 "    assert isinstance(ms, dict) and set(ms) == {'cycles', 'latency'}, ms\n"
		 "    for m in ms.values():\n"
		 "        assert set(m) <= {'value', 'lower_value', 'upper_value'} and 'value' in m, m\n"
		 "        assert all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in m.values()), m\n"
		 "        assert m['lower_value'] <= m['value'] <= m['upper_value'], m\n"
		 "    assert abs(ms['latency']['value'] * 2 - ms['cycles']['value']) < 1e-6 * ms['cycles']['value'], ms\n"
		 "assert abs(d['foo']['cycles']['value'] / 100 - 1) < 0.02\n",
		 tmp_dir);
	if (!ok(python_ok(cmd, &out),
		"bmf: {NAME: {MEASURE: {value, lower_value, upper_value}}} for foo and bar, measures cycles and latency (ns at 2 GHz), lower <= value <= upper"))
		diag("%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd),
		 "import json, numbers\n"
		 "d = json.load(open('%s/x.gab.json'))\n"
		 "assert isinstance(d, list) and [e['name'] for e in d] == ['foo', 'bar'], d\n"
		 "for e in d:\n"
		 "    assert set(e) <= {'name', 'unit', 'value', 'range', 'extra'}, e\n"
		 "    assert {'name', 'unit', 'value'} <= set(e), e\n"
		 "    assert isinstance(e['value'], numbers.Real) and not isinstance(e['value'], bool), e\n"
		 "    assert e['unit'] == 'tsc ticks/iter' and isinstance(e['range'], str) and isinstance(e['extra'], str), e\n"
		 "assert abs(d[0]['value'] / 100 - 1) < 0.02\n",
		 tmp_dir);
	if (!ok(python_ok(cmd, &out),
		"gab (customSmallerIsBetter): a list of {name, unit, value[, range, extra]}, value a number, unit tsc ticks/iter"))
		diag("%s", out);
	free(out);
}

/*
 * A series of 30 files in DIR/series/h-I.json, foo at 100 cycles with 1% noise
 * between files (+@step_pct from the 21st, index 20), bar at 50 without a
 * step.  Dates ascend with I while the names' order (h-0, h-1, h-10, ...)
 * does not: a directory is sorted by date.
 */
/*
 * 30 files h-0 .. h-29 in @dir (under tmp_dir), foo stepping by
 * @step_pct at h-20.  @commits: each file records commit i with
 * committer dates in file order, measured in the reverse order (a
 * backfill, newest commit first); else measured in file order.
 */
static void write_series_in(const char *dir, double step_pct, uint64_t seed,
			    bool commits)
{
	struct kb_rng g;
	unsigned int i, d;
	char path[256], date[40];

	kb_rng_seed(&g, seed);
	for (i = 0; i < 30; i++) {
		double v[2] = { 100 * (1 + 0.01 * normal(&g)) * (i >= 20 ? 1 + step_pct / 100 : 1),
				50 * (1 + 0.01 * normal(&g)) };

		d = commits ? 29 - i : i;
		snprintf(path, sizeof(path), "%s/%s/h-%u.json", tmp_dir, dir, i);
		snprintf(date, sizeof(date), "2026-10-%02uT%02u:00:00Z", 1 + d, d % 24);
		if (commits) {
			snprintf(meta_commit, sizeof(meta_commit), "%02x%038x", 0xa0 + i, i);
			snprintf(meta_commit_time, sizeof(meta_commit_time),
				 "2026-09-%02uT12:00:00Z", 1 + i);
		}
		write_result(path, names2, v, 2, false, date, "6.12.0", seed * 1000 + i);
		meta_commit[0] = meta_commit_time[0] = '\0';
	}
}

static void write_series(double step_pct, uint64_t seed)
{
	write_series_in("series", step_pct, seed, false);
}

/*
 * Python over d, a history --json of a series of write_series_in(): c,
 * foo's changes, is the one step at h-20; s, foo's series, is the files
 * h-0 .. h-29 in that order.
 */
#define HISTORY_STEP_PY \
	"c = [x for x in d['changes'] if x['routine'] == 'foo']\n" \
	"assert len(c) == 1 and c[0]['index'] == 20 and c[0]['file'].endswith('/h-20.json'), c\n" \
	"s = [r for r in d['routines'] if r['routine'] == 'foo'][0]['series']\n" \
	"assert [x['file'].rsplit('/', 1)[1] for x in s] == ['h-%%d.json' %% i for i in range(30)], s\n"

/* history --json of the series: its changes (foo's and bar's). */
static int history_changes(const char *args, size_t *nchg, long *foo_index,
			   bool *other, int *rc)
{
	struct json_object *doc, *chg, *c, *v;
	char cmd[8192], *list, *out;
	size_t i;

	*nchg = 0;
	*foo_index = -1;
	*other = false;
	list = file_list("series/h", 30);
	snprintf(cmd, sizeof(cmd), "--json history %s %s", args, list);
	free(list);
	*rc = kb(cmd, &out);
	doc = json_tokener_parse(out);
	free(out);
	if (!doc || !json_object_object_get_ex(doc, "changes", &chg)) {
		json_object_put(doc);
		return -EINVAL;
	}
	*nchg = json_object_array_length(chg);
	for (i = 0; i < *nchg; i++) {
		c = json_object_array_get_idx(chg, i);
		if (json_object_object_get_ex(c, "routine", &v) &&
		    !strcmp(json_object_get_string(v), "foo") && *foo_index < 0 &&
		    json_object_object_get_ex(c, "index", &v))
			*foo_index = (long)json_object_get_int64(v);
		else
			*other = true;
	}
	json_object_put(doc);
	return 0;
}

static void test_history(void)
{
	unsigned int seed, step_ok = 0, flat_ok = 0, parse_err = 0;
	char cmd[1024], *out;
	bool other, py;
	long at;
	size_t n;
	int rc, err;
	/* KBENCH_HISTORY_SEEDS=N: more seeds, to measure the rates */
	unsigned int nseeds = getenv("KBENCH_HISTORY_SEEDS") ?
			      (unsigned int)atoi(getenv("KBENCH_HISTORY_SEEDS")) : 20;

	for (seed = 1; seed <= nseeds; seed++) {
		write_series(3, seed);
		if (history_changes("", &n, &at, &other, &rc))
			parse_err++;
		else if (n == 1 && !other && at >= 19 && at <= 21)
			step_ok++;
		else
			diag("seed %u, +3%% step at 20: %zu changes, foo's at %ld%s (exit %d)",
			     seed, n, at, other ? ", another" : "", rc);
		write_series(0, seed + 1000);
		if (history_changes("", &n, &at, &other, &rc))
			parse_err++;
		else if (n == 0 && rc == 0)
			flat_ok++;
		else
			diag("seed %u, no step: %zu changes, foo's at %ld (exit %d)",
			     seed + 1000, n, at, rc);
	}
	ok(!parse_err, "history --json: a document with \"changes\" every time (%u bad)", parse_err);
	ok(step_ok * 20 >= 19 * nseeds, "history: 30 files, 1%% noise, +3%% step at the 21st: that one step (index 20 +-1) and nothing else in %u of %u seeds (>= 95%%)",
	   step_ok, nseeds);
	ok(flat_ok * 20 >= 19 * nseeds, "history: 30 files, 1%% noise, no step: no change, exit 0, in %u of %u seeds (>= 95%%)",
	   flat_ok, nseeds);

	/* a +10% step: a regression beyond 2% (exit 1), not beyond 50% */
	write_series(10, 7);
	err = history_changes("--threshold 2", &n, &at, &other, &rc);
	ok(!err && n == 1 && at == 20 && rc == 1,
	   "history, +10%% step at 20, --threshold 2: step at %ld, exit 1 (%d)", at, rc);
	err = history_changes("--threshold 50", &n, &at, &other, &rc);
	ok(!err && n == 1 && rc == 0,
	   "history, +10%% step, --threshold 50: the step, exit 0 (%d)", rc);
	/* a step down is an improvement: exit 0 */
	write_series(-10, 8);
	err = history_changes("", &n, &at, &other, &rc);
	ok(!err && n == 1 && at == 20 && rc == 0,
	   "history, -10%% step at 20: found (at %ld), an improvement, exit 0 (%d)", at, rc);

	/* a directory: sorted by the dates the files record, not by name */
	write_series(10, 9);
	rc = kb_status("--json history %s/series > %s/h.json", tmp_dir, tmp_dir);
	snprintf(cmd, sizeof(cmd),
		 "import json\n"
		 "def once(p):\n"
		 "    k = [a for a, b in p]\n"
		 "    assert len(k) == len(set(k)), 'a key twice: %%r' %% k\n"
		 "    return dict(p)\n"
		 "d = json.load(open('%s/h.json'), object_pairs_hook=once)\n"
		 HISTORY_STEP_PY
		 "assert d['steps'] == len(d['changes']) and d['regressions'] >= 1, d\n"
		 "assert 8 < c[0]['change_pct'] < 12 and c[0]['ci_lower'] <= c[0]['change_pct'] <= c[0]['ci_upper'], c\n"
		 "assert c[0]['verdict'] == 'regressed'\n",
		 tmp_dir);
	py = python_ok(cmd, &out);
	if (!ok(rc == 1 && py,
		"history --json DIR: exit 1 (%d); files in date order (h-0 .. h-29), the +10%% step at index 20 (h-20.json), change_pct in 8..12 inside its CI, regressed; steps and regressions counted; no key twice", rc))
		diag("%s", out);
	free(out);

	/* files that record commits: in the order of the commits' dates */
	write_series_in("commits", 10, 9, true);
	rc = kb_status("--json history %s/commits > %s/hc.json", tmp_dir, tmp_dir);
	snprintf(cmd, sizeof(cmd),
		 "import json\n"
		 "d = json.load(open('%s/hc.json'))\n"
		 "assert d['order'] == 'commit time', d['order']\n"
		 HISTORY_STEP_PY
		 "assert s[3]['commit'] == '%%02x%%038x' %% (0xa3, 3) and s[3]['commit_time'] == '2026-09-04T12:00:00Z', s[3]\n",
		 tmp_dir);
	py = python_ok(cmd, &out);
	if (!ok(rc == 1 && py,
		"history --json DIR of files recording commits, measured newest first: ordered by the commits' dates (order \"commit time\", h-0 .. h-29), the step at h-20 (%d)", rc))
		diag("%s", out);
	free(out);

	/* KCIDB: each recorded commit its checkout, with git_commit_hash */
	rc = kb_status("export %1$s/commits/h-0.json %1$s/commits/h-1.json --format kcidb -o %1$s/commits.kcidb.json", tmp_dir);
	if (system(PY " -c 'import jsonschema' 2>/dev/null")) {
		skip("no python3-jsonschema", "kcidb export of files recording commits");
	} else {
		snprintf(cmd, sizeof(cmd),
			 "import json, jsonschema\n"
			 "d = json.load(open('%1$s/commits.kcidb.json'))\n"
			 "jsonschema.Draft202012Validator(json.load(open('%2$s/" KCIDB_SCHEMA "'))).validate(d)\n"
			 "h = ['%%02x%%038x' %% (0xa0 + i, i) for i in (0, 1)]\n"
			 "assert [c['git_commit_hash'] for c in d['checkouts']] == h, d['checkouts']\n"
			 "assert [c['id'] for c in d['checkouts']] == ['kbench:6.12.0-g' + x[:12] for x in h], d['checkouts']\n"
			 "assert [b['checkout_id'] for b in d['builds']] == [c['id'] for c in d['checkouts']]\n"
			 "assert d['tests'][0]['environment']['misc']['measured_commit'] == h[0]\n",
			 tmp_dir, fixtures_dir);
		py = python_ok(cmd, &out);
		if (!ok(rc == 0 && py,
			"export --format kcidb of two files recording commits: valid v5.3, one checkout each with its git_commit_hash, ids ORIGIN:RELEASE-gHASH12 (%d)", rc))
			diag("%s", out);
		free(out);
	}

	/* files given in any order: commit order when they record commits */
	{
		char *rev = NULL, *t;
		int k;

		for (k = 29; k >= 0; k--) {
			if (asprintf(&t, "%s %s/commits/h-%d.json", rev ? rev : "", tmp_dir, k) < 0)
				break;
			free(rev);
			rev = t;
		}
		rc = kb_status("--json history %s > %s/hr.json", rev, tmp_dir);
		snprintf(cmd, sizeof(cmd),
			 "import json\n"
			 "d = json.load(open('%s/hr.json'))\n"
			 "assert d['order'] == 'commit time', d['order']\n"
			 HISTORY_STEP_PY, tmp_dir);
		py = python_ok(cmd, &out);
		if (!ok(rc == 1 && py,
			"history --json FILE... recording commits, given newest first: taken in commit order (order \"commit time\"), the step at h-20, exit 1 (%d)", rc))
			diag("%s", out);
		free(out);
		if (asprintf(&t, "--json history --order given %s", rev) < 0)
			t = NULL;
		rc = kb(t ? t : "", &out);
		free(t);
		ok(strstr(out, "\"order\": \"as given\"") || strstr(out, "\"order\":\"as given\""),
		   "history --order given FILE...: order \"as given\" (exit %d)", rc);
		free(out);
		free(rev);
		/* no commits recorded, not given in the order measured: a warning */
		rev = NULL;
		for (k = 29; k >= 0; k--) {
			if (asprintf(&t, "%s %s/series/h-%d.json", rev ? rev : "", tmp_dir, k) < 0)
				break;
			free(rev);
			rev = t;
		}
		if (asprintf(&t, "%s history %s 2>&1 >/dev/null", kbenchctl_abs, rev) < 0)
			t = NULL;
		unit_cmd_out(t ? t : "true", &out);
		free(t);
		ok(strstr(out, "warning: the files record no commits") &&
		   strstr(out, "not given in the order they were measured"),
		   "history FILE... without commits, given newest first: a warning that says so and what to do (%s)",
		   strtok(out, "\n") ? out : "none");
		free(out);
		snprintf(cmd, sizeof(cmd), "%s history %s 2>&1 >/dev/null", kbenchctl_abs,
			 strchr(rev, ' ') ? strrchr(rev, ' ') + 1 : rev);
		unit_cmd_out(cmd, &out);
		ok(!strstr(out, "warning"), "history of one file: no order warning");
		free(out);
		snprintf(cmd, sizeof(cmd), "%s history %s 2>/dev/null", kbenchctl_abs,
			 strchr(rev, ' ') ? strrchr(rev, ' ') + 1 : rev);
		unit_cmd_out(cmd, &out);
		ok(!strncmp(out, "history: 1 file, 2 routines ", 28),
		   "history of one file: '1 file, 2 routines' (%.40s)", out);
		free(out);
		free(rev);
	}

	/* a directory given with trailing slashes: each path joined by one */
	snprintf(cmd, sizeof(cmd), "%s history %s/series// 2>/dev/null", kbenchctl_abs, tmp_dir);
	unit_cmd_out(cmd, &out);
	ok(!strncmp(out, "history: 30 files, 2 routines ", 30) &&
	   strstr(out, "/series/h-0.json") && !strstr(out, "//"),
	   "history DIR//: 30 files, 2 routines; every path DIR/FILE, never DIR//FILE");
	free(out);

	rc = kb_status("history %s/series --svg %s/h.svg", tmp_dir, tmp_dir);
	snprintf(cmd, sizeof(cmd), "grep -c 'class=\"step\"' %s/h.svg", tmp_dir);
	unit_cmd_out(cmd, &out);
	ok(rc == 1 && atoi(out) == 1, "history DIR --svg: exit 1, one step marked in the SVG (%d, %s)", rc,
	   strtok(out, "\n") ? out : "none");
	free(out);
}

/*
 * The rates of history's "Done when" on generated series of 30 files
 * (1% normal noise between files, seeded; foo carries the profile, bar
 * is flat): the series' multipliers by @kind, the noise independent or
 * AR(1) with coefficient @phi across commits.
 */
enum series_kind { SER_FLAT, SER_STEP3, SER_BUMP4, SER_BAD_FILE };

static void write_profile(const char *dir, enum series_kind kind, double phi,
			  uint64_t seed)
{
	struct kb_rng g;
	unsigned int i;
	char path[256], date[40];
	double e = 0;

	kb_rng_seed(&g, seed);
	for (i = 0; i < 30; i++) {
		double mult = kind == SER_STEP3 && i >= 20 ? 1.03 :
			      kind == SER_BUMP4 && i >= 10 && i < 20 ? 1.04 :
			      kind == SER_BAD_FILE && i == 15 ? 1.10 : 1;
		double v[2];

		e = i ? phi * e + sqrt(1 - phi * phi) * normal(&g) : normal(&g);
		v[0] = 100 * (1 + 0.01 * e) * mult;
		v[1] = 50 * (1 + 0.01 * normal(&g));
		snprintf(path, sizeof(path), "%s/%s/h-%u.json", tmp_dir, dir, i);
		snprintf(date, sizeof(date), "2026-10-%02uT%02u:00:00Z", 1 + i, i % 24);
		write_result(path, names2, v, 2, false, date, "6.12.0", seed * 1000 + i);
	}
}

struct hist_outcome {
	int rc;
	unsigned int nfoo, nother;	/* foo's steps, the others' */
	long at[4];			/* foo's first steps */
	bool straddle_within;		/* "within" while the CI crosses +-2% */
	bool bad_label;			/* a verdict its CI does not support */
	bool dependent;			/* foo's series reported dependent */
};

static int history_outcome(const char *dir, const char *args,
			   struct hist_outcome *h)
{
	struct json_object *doc, *arr, *c, *v;
	char cmd[512], *out;
	size_t i, n;

	memset(h, 0, sizeof(*h));
	snprintf(cmd, sizeof(cmd), "--json history %s %s/%s", args, tmp_dir, dir);
	h->rc = kb(cmd, &out);
	doc = json_tokener_parse(out);
	if (!doc || !json_object_object_get_ex(doc, "changes", &arr)) {
		diag("history %s of %s: exit %d, not a document: %.200s", args,
		     dir, h->rc, out);
		free(out);
		json_object_put(doc);
		return -EINVAL;
	}
	free(out);
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		const char *verdict = "";
		double lo = NAN, hi = NAN;

		c = json_object_array_get_idx(arr, i);
		if (json_object_object_get_ex(c, "verdict", &v))
			verdict = json_object_get_string(v);
		if (json_object_object_get_ex(c, "ci_lower", &v))
			lo = json_object_get_double(v);
		if (json_object_object_get_ex(c, "ci_upper", &v))
			hi = json_object_get_double(v);
		if (!strcmp(verdict, "within the threshold") && (lo < -2 || hi > 2))
			h->straddle_within = true;
		if ((!strcmp(verdict, "regressed") && !(lo > 2)) ||
		    (!strcmp(verdict, "improved") && !(hi < -2)) ||
		    (!strcmp(verdict, "inconclusive") && (lo > 2 || hi < -2 ||
							 (lo >= -2 && hi <= 2))))
			h->bad_label = true;
		if (json_object_object_get_ex(c, "routine", &v) &&
		    !strcmp(json_object_get_string(v), "foo")) {
			if (h->nfoo < 4 && json_object_object_get_ex(c, "index", &v))
				h->at[h->nfoo] = (long)json_object_get_int64(v);
			h->nfoo++;
		} else {
			h->nother++;
		}
	}
	if (json_object_object_get_ex(doc, "routines", &arr) &&
	    json_object_array_length(arr) &&
	    json_object_object_get_ex(json_object_array_get_idx(arr, 0), "dependent", &v))
		h->dependent = json_object_get_boolean(v);
	json_object_put(doc);
	return 0;
}

static bool near(long at, long want)
{
	return at >= want - 2 && at <= want + 2;
}

static void test_history_rates(void)
{
	unsigned int seed, bump = 0, step = 0, bad = 0, labels = 0, perr = 0;
	unsigned int ar_dep = 0, ar_fail = 0, ar_steps = 0, flat_dep = 0;
	struct hist_outcome h;
	char cmd[256];
	/* KBENCH_HISTORY_SEEDS=N: more seeds, to measure the rates */
	unsigned int nseeds = getenv("KBENCH_HISTORY_SEEDS") ?
			      (unsigned int)atoi(getenv("KBENCH_HISTORY_SEEDS")) : 20;

	snprintf(cmd, sizeof(cmd), "%s/rates", tmp_dir);
	if (mkdir(cmd, 0700) && errno != EEXIST)
		diag("mkdir %s: %s", cmd, strerror(errno));
	for (seed = 1; seed <= nseeds; seed++) {
		write_profile("rates", SER_BUMP4, 0, 100 + seed);
		if (history_outcome("rates", "", &h))
			perr++;
		else if (h.rc == 1 && h.nfoo == 2 && near(h.at[0], 10) && near(h.at[1], 20))
			bump++;
		else
			diag("seed %u, +4%% for files 10-19: %u steps of foo (%ld, %ld), exit %d",
			     100 + seed, h.nfoo, h.at[0], h.at[1], h.rc);
		labels += !h.straddle_within && !h.bad_label;

		write_profile("rates", SER_STEP3, 0, 200 + seed);
		if (history_outcome("rates", "", &h))
			perr++;
		else if (h.rc == 1)
			step++;
		else
			diag("seed %u, +3%% step at 20: %u steps of foo (first %ld), exit %d",
			     200 + seed, h.nfoo, h.at[0], h.rc);
		labels += !h.straddle_within && !h.bad_label;

		write_profile("rates", SER_BAD_FILE, 0, 300 + seed);
		if (history_outcome("rates", "", &h))
			perr++;
		else if (h.rc == 0)
			bad++;
		else
			diag("seed %u, one file +10%%: %u steps of foo, exit %d",
			     300 + seed, h.nfoo, h.rc);
		labels += !h.straddle_within && !h.bad_label;
		flat_dep += h.dependent;

		write_profile("rates", SER_FLAT, 0.5, 400 + seed);
		if (history_outcome("rates", "", &h))
			perr++;
		ar_dep += h.dependent;
		ar_fail += h.rc != 0;
		ar_steps += h.nfoo > 0;
	}
	ok(!perr, "history --json of the generated series: a document every time (%u bad)", perr);
	ok(bump * 20 >= 18 * nseeds, "history: +4%% for files 10-19 of 30 (a regression fixed 10 commits later), 1%% noise: both steps (10 and 20, +-2), exit 1, in %u of %u seeds (>= 18 of 20)",
	   bump, nseeds);
	ok(step * 20 >= 14 * nseeds, "history: +3%% step at 20 of 30, 1%% noise: exit 1 in %u of %u seeds (>= 14 of 20)",
	   step, nseeds);
	ok(bad * 20 >= 19 * nseeds, "history: one file +10%% in a flat series: exit 0 in %u of %u seeds (>= 19 of 20)",
	   bad, nseeds);
	ok(labels == 3 * nseeds, "history: every step's verdict matches its 90%% CI (within only when wholly inside +-2%%) in %u of %u series",
	   labels, 3 * nseeds);
	diag("history, AR(1) phi 0.5 across commits, no step: dependent %u, a step %u, exit 1 %u of %u; independent with one bad file: dependent %u",
	     ar_dep, ar_steps, ar_fail, nseeds, flat_dep);
	ok(ar_fail * 20 <= 2 * nseeds && ar_dep * 2 >= nseeds && flat_dep * 20 <= 2 * nseeds,
	   "history: AR(1) phi 0.5 series without a step: exit 1 in %u of %u (<= 2 of 20), reported dependent in %u (>= half); independent ones dependent in %u (<= 2 of 20)",
	   ar_fail, nseeds, ar_dep, flat_dep);
}

/*
 * run --save --commit REV: the full hash and committer date git gives
 * for REV in the repository of the current directory; a REV git does not
 * know, or --commit without --save, is refused before measuring.
 */
static void test_run_commit(void)
{
	const char *bin = kbenchctl_abs;
	char cmd[2048], *out, *want = NULL;
	int rc;

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd %s && git init -q repo && cd repo && "
		 "git -c user.name=t -c user.email=t@invalid commit -q --allow-empty -m one && "
		 "GIT_COMMITTER_DATE='2026-09-01T10:00:00+02:00' git -c user.name=t -c user.email=t@invalid commit -q --allow-empty -m two && "
		 "git rev-parse HEAD~1", tmp_dir);
	if (unit_cmd_out(cmd, &want) || strlen(want) < 40) {
		skip("no git", "run --commit");
		free(want);
		return;
	}
	want[40] = '\0';
	snprintf(cmd, sizeof(cmd),
		 "cd %1$s/repo && %2$s run add_n:64 --user --samples 20 --commit HEAD~1 --save %1$s/rc.json >/dev/null 2>&1 && "
		 "%2$s run add_n:64 --user --samples 20 --commit HEAD --save %1$s/rc2.json >/dev/null 2>&1 && cd / && "
		 PY " -c \"import json; m = json.load(open('%1$s/rc.json'))['meta']; "
		 "n = json.load(open('%1$s/rc2.json'))['meta']; print(m['commit'], n['commit_time'])\"",
		 tmp_dir, bin);
	rc = unit_cmd_out(cmd, &out);
	if (!ok(rc == 0 && !strncmp(out, want, 40) &&
		strstr(out, " 2026-09-01T08:00:00Z"),
		"run --user --save --commit HEAD~1 in a repository: meta.commit is its full hash; HEAD's commit_time its committer date in UTC (2026-09-01T08:00:00Z)"))
		diag("want %s, exit %d: %s", want, rc, out);
	free(out);
	free(want);

	snprintf(cmd, sizeof(cmd),
		 "cd %1$s/repo && %2$s run add_n:64 --user --commit nonsuch --save %1$s/rc3.json 2>&1; echo \"exit $?\"; test ! -e %1$s/rc3.json && echo none",
		 tmp_dir, bin);
	unit_cmd_out(cmd, &out);
	ok(strstr(out, "--commit nonsuch: 'nonsuch': not a commit") && strstr(out, "exit 2") &&
	   strstr(out, "none"), "run --commit nonsuch: exit 2 naming it, nothing measured or saved");
	free(out);
	snprintf(cmd, sizeof(cmd),
		 "cd / && %2$s run add_n:64 --user --samples 20 --commit 0123456789abcdef0123456789abcdef01234567 --save %1$s/rc4.json >/dev/null 2>&1 && "
		 "grep -c '\"commit\": \"0123456789abcdef0123456789abcdef01234567\"' %1$s/rc4.json; "
		 "cd %1$s/repo && %2$s run add_n:64 --user --commit HEAD 2>&1; echo \"exit $?\"",
		 tmp_dir, bin);
	unit_cmd_out(cmd, &out);
	ok(!strncmp(out, "1\n", 2) && strstr(out, "--commit is recorded in a saved result: add --save") &&
	   strstr(out, "exit 2"),
	   "run --commit: a full hash outside a repository kept as given; --commit without --save: exit 2");
	free(out);

	/* a real --user run (not a generated file) exported for KCIDB */
	if (system(PY " -c 'import jsonschema' 2>/dev/null")) {
		skip("no python3-jsonschema", "kcidb export of a measured --user run");
		return;
	}
	rc = kb_status("export %s/rc.json --format kcidb -o %s/rc.kcidb.json", tmp_dir, tmp_dir);
	snprintf(cmd, sizeof(cmd),
		 "import json, jsonschema\n"
		 "d = json.load(open('%1$s/rc.kcidb.json'))\n"
		 "jsonschema.Draft202012Validator(json.load(open('%2$s/" KCIDB_SCHEMA "'))).validate(d)\n"
		 "t = d['tests']\n"
		 "assert len(t) == 1 and t[0]['path'] == 'kbench.user.add_n.64' and t[0]['number']['value'] > 0, t\n"
		 "assert d['checkouts'][0]['git_commit_hash'] == json.load(open('%1$s/rc.json'))['meta']['commit']\n",
		 tmp_dir, fixtures_abs);
	if (!ok(rc == 0 && python_ok(cmd, &out),
		"export --format kcidb of a measured --user run (run --commit): valid v5.3, kbench.user.add_n.64, the commit recorded as git_commit_hash (%d)", rc))
		diag("%s", out);
	free(out);
}

/* Exit statuses, --help and valgrind. */
static void test_cli_export(void)
{
	static const struct {
		const char *args;
		int code;
	} cases[] = {
		{ "export --help", 0 },
		{ "history --help", 0 },
		{ "export %s/la-0.json", 2 },			/* no --format */
		{ "export %s/la-0.json --format csv", 2 },
		{ "export --format lkp", 2 },			/* no file */
		{ "export %s/nothing.json --format lkp", 2 },
		{ "export %s/check.py --format lkp", 2 },	/* not a result */
		{ "export %s/la-0.json --format kcidb --commit abc", 2 },
		{ "history", 2 },
		{ "history %s/nothing.json", 2 },
		{ "history %s/la-0.json --threshold -1", 2 },
	};
	char args[512], cmd[1024], *out;
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(args, sizeof(args), cases[i].args, tmp_dir);
		rc = kb(args, &out);
		free(out);
		snprintf(args, sizeof(args), cases[i].args, "T");
		ok(rc == cases[i].code, "kbenchctl %s -> exit %d (%d)", args,
		   cases[i].code, rc);
	}
	if (system("command -v valgrind >/dev/null 2>&1")) {
		skip("no valgrind", "valgrind export and history");
		return;
	}
	{
		static const char *const vg[] = {
			"export %1$s/la-0.json %1$s/la-1.json %1$s/la-2.json --format gbench",
			"export %1$s/la-0.json %1$s/ku-0.json --format kcidb",
			"export %1$s/la-0.json %1$s/la-1.json --format lkp",
			"export %1$s/la-0.json %1$s/la-1.json --format bmf",
			"export %1$s/la-0.json --format gab",
			"history %1$s/series --svg %1$s/vg.svg",
			"--json history %1$s/series",
			"history %1$s/nothing.json",
		};
		static const int code[] = { 0, 0, 0, 0, 0, 1, 1, 2 };

		for (i = 0; i < sizeof(vg) / sizeof(vg[0]); i++) {
			snprintf(args, sizeof(args), vg[i], tmp_dir);
			snprintf(cmd, sizeof(cmd),
				 "valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 %s %s 2>&1 >/dev/null",
				 kbenchctl_bin, args);
			rc = unit_cmd_out(cmd, &out);
			snprintf(args, sizeof(args), vg[i], "T");
			if (!ok(rc == code[i] && !strstr(out, "=="),
				"valgrind kbenchctl %s: no errors, no leaks (exit %d)",
				args, code[i]))
				diag("exit %d:\n%s", rc, out);
			free(out);
		}
	}
}

void test_export(void)
{
	char cmd[256];

	kbenchctl_abs = realpath(kbenchctl_bin, NULL);
	fixtures_abs = realpath(fixtures_dir, NULL);
	if (!kbenchctl_abs || !fixtures_abs || !mkdtemp(tmp_dir)) {
		skip("kbenchctl, fixtures or mkdtemp missing", "export and history tests");
		free(kbenchctl_abs);
		free(fixtures_abs);
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s/series", tmp_dir);
	if (mkdir(cmd, 0700))
		diag("mkdir %s: %s", cmd, strerror(errno));
	snprintf(cmd, sizeof(cmd), "%s/commits", tmp_dir);
	if (mkdir(cmd, 0700))
		diag("mkdir %s: %s", cmd, strerror(errno));
	test_gbench();
	test_kcidb();
	test_lkp();
	test_bmf_gab();
	test_history();
	test_history_rates();
	test_run_commit();
	test_cli_export();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp_dir);
	if (system(cmd))
		diag("could not remove %s", tmp_dir);
	free(kbenchctl_abs);
	free(fixtures_abs);
}
