// SPDX-License-Identifier: GPL-2.0
/*
 * Saved results, user/save.c and user/load.c: write/read round trip, the
 * Python reader of RESULTS.md, a version 1 file, a deterministic mutation
 * fuzzer of the loader (every truncation, byte flips, wrong types, huge
 * counts, mismatched arrays, foreign and future files).
 * KBENCH_FUZZ_ROUNDS scales the random rounds (the valgrind run uses
 * fewer).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kbench.h>
#include <linux/perf_event.h>

#include <kbench/summary.h>

#include "b64.h"
#include "diff.h"
#include "diffprint.h"
#include "base.h"
#include "output.h"
#include "resfile.h"
#include "runopts.h"
#include "stats.h"
#include "tap.h"
#include "tests.h"
#include "resfix.h"

static void test_roundtrip(size_t text_max, const char *form)
{
	static const char *const names[] = { "add_chain", "mul_chain" };
	static const int64_t per[] = { 6, 8 };
	struct kb_saved_run s[2];
	struct kb_run r1, r2;
	struct kb_meta m;
	struct kb_resfile rf;
	char err[512], *buf;
	size_t len, i;
	bool same = true;

	make_meta(&m);
	make_run(&r1, 2, names, per, 300, 100, 3);
	r1.res[0].net[7] = INT64_MIN;
	r1.res[0].net[8] = INT64_MAX;
	r1.res[1].net[9] = -5;
	r1.res[1].sflags[10] = 0xffffffffu;
	make_run(&r2, 1, names, per, 10, 1, 2);
	r2.user = true;
	kb_result_push(&r2.overhead, 3, 0);
	snprintf(r2.overhead.routine, sizeof(r2.overhead.routine), "empty");
	r2.has_overhead = true;
	kb_saved_run_init(&s[0], &r1, NULL);
	kb_saved_run_init(&s[1], &r2, NULL);
	s[1].has_arg = true;
	s[1].arg = 4096;
	s[1].req.has_samples = true;
	s[1].req.samples = 10;
	kb_resfile_text_max = text_max;
	buf = write_mem(&m, s, 2, &len);
	kb_resfile_text_max = KB_RESFILE_TEXT_MAX;
	ok(!!strstr(buf, "\"width\": 8,") ==
	   (text_max == 0) &&
	   !!strstr(buf, "\"width\": 4,") ==
	   (text_max == 0),
	   "round trip, %s: the arrays as asked (base64 of 4 and 8 bytes)", form);
	if (!ok(parse(buf, len, &rf, err, sizeof(err)) == 0,
		"round trip, %s: the written file loads (%zu bytes)", form, len)) {
		diag("%s", err);
		free(buf);
		kb_run_free(&r1);
		kb_run_free(&r2);
		return;
	}
	ok(rf.nruns == 2 && rf.runs[0].run.nres == 2 && rf.runs[1].run.nres == 1 &&
	   rf.runs[1].run.has_overhead && rf.runs[1].run.user && !rf.runs[0].run.user,
	   "round trip, %s: runs, routines, side and overhead", form);
	for (i = 0; i < 300; i++) {
		same &= rf.runs[0].run.res[0].net[i] == r1.res[0].net[i] &&
			rf.runs[0].run.res[1].net[i] == r1.res[1].net[i] &&
			rf.runs[0].run.res[0].sflags[i] == r1.res[0].sflags[i] &&
			rf.runs[0].run.res[1].sflags[i] == r1.res[1].sflags[i];
	}
	ok(same && rf.runs[0].run.res[0].n == 300,
	   "round trip, %s: every sample and flag (INT64_MIN, INT64_MAX, 0xffffffff) exact", form);
	ok(rf.runs[0].run.res[0].net_median == r1.res[0].net_median &&
	   rf.runs[0].run.res[0].valid == r1.res[0].valid &&
	   rf.runs[0].run.res[0].excl[KB_EXCL_NMI] == r1.res[0].excl[KB_EXCL_NMI] &&
	   rf.runs[0].run.iterations == 100 && rf.runs[0].run.counter_hz == 1000000000 &&
	   !strcmp(rf.runs[0].run.counter, "tsc"),
	   "round trip, %s: summary and run header", form);
	ok(rf.runs[1].has_arg && rf.runs[1].arg == 4096 && !rf.runs[0].has_arg &&
	   rf.runs[1].req.has_samples && rf.runs[1].req.samples == 10 &&
	   !rf.runs[1].req.has_cpu,
	   "round trip, %s: sweep argument and request (null = default)", form);
	ok(!strcmp(rf.meta.cpu_model, m.cpu_model) && rf.meta.method_version == 1 &&
	   rf.meta.nparams == 1 && rf.meta.param[0].value == 50 &&
	   rf.meta.nenv == 1 && !strcmp(rf.meta.env[0].value, "quiet kbench_icount=1"),
	   "round trip, %s: metadata (escaped strings), module parameters, environment", form);
	kb_resfile_free(&rf);
	free(buf);
	kb_run_free(&r1);
	kb_run_free(&r2);
}

/* @file with a routine's "cycles" renamed "cyclez": refused, and why. */
static bool refuses_renamed_event(const char *file, size_t len)
{
	char *m = malloc(len + 1), *p, err[512] = "";
	struct kb_resfile rf;
	bool refused = false;

	memcpy(m, file, len);
	m[len] = '\0';
	p = strstr(m, "\"cycles\": {");
	if (p) {
		memcpy(p, "\"cyclez\"", 8);
		if (!parse(m, len, &rf, err, sizeof(err)))
			kb_resfile_free(&rf);
		else
			refused = strstr(err, "event 'cyclez' is not one of the run's \"events\"");
		if (!refused)
			diag("%s", err);
	}
	free(m);
	return refused;
}

static void test_roundtrip_events(void)
{
	static const char *const names[] = { "add_chain", "mul_chain" };
	static const int64_t per[] = { 6, 8 }, insns[] = { 6, 7, 2 };
	struct kb_saved_run s;
	struct kb_run r, *l;
	struct kb_meta m;
	struct kb_resfile rf;
	char err[512], *buf;
	size_t len, i;
	unsigned int k, x;
	bool same = true;

	make_meta(&m);
	make_run(&r, 2, names, per, 50, 100, 3);
	snprintf(r.overhead.routine, sizeof(r.overhead.routine), "empty");
	for (i = 0; i < 50; i++)
		kb_result_push(&r.overhead, 200, 0);
	kb_result_summarize(&r.overhead, 100);
	r.has_overhead = true;
	r.res[0].has_corr = r.res[1].has_corr = true;
	add_events(&r, insns);
	kb_saved_run_init(&s, &r, NULL);
	buf = write_mem(&m, &s, 1, &len);
	if (!ok(parse(buf, len, &rf, err, sizeof(err)) == 0,
		"events: a result with events loads (%zu bytes)", len)) {
		diag("%s", err);
		free(buf);
		kb_run_free(&r);
		return;
	}
	l = &rf.runs[0].run;
	ok(l->nevents == 2 && !strcmp(l->events[0].name, "instructions") &&
	   !strcmp(l->events[1].name, "cycles") &&
	   l->events[0].config == PERF_COUNT_HW_INSTRUCTIONS &&
	   !strcmp(l->events[0].pmu, "armv8_pmuv3_0") &&
	   !strcmp(l->events[1].read, "rdpmc") &&
	   l->events[1].running_ns == 123456789 &&
	   rf.runs[0].req.nevents == 2 &&
	   !strcmp(rf.runs[0].req.events[1], "cycles"),
	   "events: the run's events (name, config, pmu, read, times) and the request's");
	for (k = 0; k < 3; k++) {
		const struct kb_result *a = k < 2 ? &r.res[k] : &r.overhead;
		const struct kb_result *b = k < 2 ? &l->res[k] : &l->overhead;

		for (x = 0; x < 2; x++) {
			same &= b->ev[x].n == a->n &&
				b->ev[x].net_median == a->ev[x].net_median &&
				b->ev[x].per_iter_min_milli ==
				a->ev[x].per_iter_min_milli &&
				b->ev[x].corr_median_milli ==
				a->ev[x].corr_median_milli;
			for (i = 0; same && i < a->n; i++)
				same &= b->ev[x].net[i] == a->ev[x].net[i];
		}
	}
	ok(same, "events: every event sample and summary of every routine exact");
	ok(l->res[1].ev[0].corr_median_milli == 5000,
	   "events: the overhead correction of an event (7 - 2 instructions)");
	kb_resfile_free(&rf);

	ok(refuses_renamed_event(buf, len),
	   "events: a routine's event not among the run's is refused");
	free(buf);
	kb_run_free(&r);
}

/* Write the small file's arrays in base64 (else as JSON arrays). */
static bool small_b64;

/*
 * The Python reader of RESULTS.md, as printed there, on files kbenchctl
 * wrote in both forms (base64 of 4 and 8 bytes, JSON arrays): it must see
 * every sample and flag.  /usr/bin/python3 (the one Debian ships).
 */
static void test_python_reader(void)
{
	static const char *const names[] = { "add_chain", "mul_chain" };
	static const int64_t per[] = { 6, 8 };
	char dir[] = "/tmp/kbench-pyread-XXXXXX", path[256], md[512], cmd[1024];
	char line[512], expect[2][512], *code = NULL, *p;
	size_t code_len = 0, i, k, form;
	struct kb_saved_run sr;
	struct kb_meta m;
	struct kb_run r;
	bool in = false;
	FILE *f, *py;

	if (access("/usr/bin/python3", X_OK)) {
		skip("no /usr/bin/python3", "RESULTS.md's Python reader reads what kbenchctl writes");
		return;
	}
	snprintf(md, sizeof(md), "%s", kbenchctl_bin);
	p = strrchr(md, '/');
	snprintf(p ? p + 1 : md, sizeof(md) - (size_t)(p ? p + 1 - md : 0),
		 "RESULTS.md");
	f = fopen(md, "r");
	if (!f || !mkdtemp(dir)) {
		ok(0, "RESULTS.md's Python reader: cannot read %s", md);
		if (f)
			fclose(f);
		return;
	}
	/* the first ```python block */
	while (fgets(line, sizeof(line), f)) {
		if (!in) {
			in = !strncmp(line, "```python", 9);
			continue;
		}
		if (!strncmp(line, "```", 3))
			break;
		code = realloc(code, code_len + strlen(line) + 1);
		memcpy(code + code_len, line, strlen(line) + 1);
		code_len += strlen(line);
	}
	fclose(f);

	make_meta(&m);
	make_run(&r, 2, names, per, 300, 100, 3);
	r.res[0].net[7] = INT64_MIN;	/* width 8 for this routine */
	r.res[1].net[9] = -5;
	r.res[1].sflags[10] = 0xffffffffu;
	kb_saved_run_init(&sr, &r, NULL);
	/* what the reader must print: per routine n, sum, flags, valid */
	for (form = 0; form < 2; form++) {
		size_t o = 0;

		for (k = 0; k < 2; k++) {
			const struct kb_result *res = &r.res[k];
			long long sum = 0, fsum = 0, nf = 0, nv = 0;

			for (i = 0; i < res->n; i++) {
				/* wraps like Python's ints do not: sums of halves */
				sum += res->net[i] / 2;
				nf += res->sflags[i] != 0;
				fsum += res->sflags[i];
				nv += !res->sflags[i];
			}
			o += (size_t)snprintf(expect[form] + o, sizeof(expect[0]) - o,
					      "%s %zu %lld %lld %lld %lld\n",
					      res->routine, res->n, sum, nf, fsum, nv);
		}
	}
	for (form = 0; form < 2; form++) {
		char *out = NULL, got[512] = "";
		size_t len;

		snprintf(path, sizeof(path), "%s/before.json", dir);
		kb_resfile_text_max = form ? SIZE_MAX : 0;
		out = write_mem(&m, &sr, 1, &len);
		buf_to_file(path, out, len);
		kb_resfile_text_max = KB_RESFILE_TEXT_MAX;
		free(out);
		snprintf(path, sizeof(path), "%s/reader.py", dir);
		f = fopen(path, "w");
		fputs(code ? code : "", f);
		fputs("assert len(valid) == 300 - len(flags)\n"
		      "for r in run[\"routines\"]:\n"
		      "    f = dict(zip(ints(r[\"sample_flags\"][\"index\"]), ints(r[\"sample_flags\"][\"value\"])))\n"
		      "    net = ints(r[\"net\"])\n"
		      "    print(r[\"routine\"], len(net), sum(int(v / 2) for v in net), len(f), sum(f.values()), len(net) - len(f))\n",
		      f);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "cd %s && /usr/bin/python3 reader.py 2>&1", dir);
		py = popen(cmd, "r");
		len = py ? fread(got, 1, sizeof(got) - 1, py) : 0;
		got[len] = '\0';
		if (py)
			pclose(py);
		if (!ok(code && !strcmp(got, expect[form]),
			"RESULTS.md's Python reader reads every sample and flag kbenchctl writes (%s)",
			form ? "JSON arrays" : "base64 of 4 and 8 bytes"))
			diag("expected:\n%s# got:\n%s", expect[form], got);
		if (form)
			continue;
		if (system("command -v jq >/dev/null 2>&1")) {
			skip("no jq", "jq reads the file with base64 arrays");
			continue;
		}
		snprintf(cmd, sizeof(cmd),
			 "jq -e '.format == \"kbench-result\" and .runs[0].routines[0].net.width == 8 and .runs[0].routines[1].net.width == 4 and .runs[0].routines[1].summary.samples == 300' %s/before.json >/dev/null",
			 dir);
		ok(system(cmd) == 0, "jq reads the file with base64 arrays (widths 8 and 4, the summary)");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("cannot remove %s", dir);
	free(code);
	kb_run_free(&r);
}

/* The small file every mutation starts from. */
static char *small_file(size_t *len)
{
	static const char *const names[] = { "foo", "bar" };
	static const int64_t per[] = { 7, 8 };
	struct kb_saved_run s;
	struct kb_meta m;
	struct kb_run r;
	char *buf;

	make_meta(&m);
	make_run(&r, 2, names, per, 12, 10, 1);
	kb_saved_run_init(&s, &r, NULL);
	kb_resfile_text_max = small_b64 ? 0 : KB_RESFILE_TEXT_MAX;
	buf = write_mem(&m, &s, 1, len);
	kb_resfile_text_max = KB_RESFILE_TEXT_MAX;
	kb_run_free(&r);
	return buf;
}

/* Loads, or fails with a message naming the file and a byte offset. */
static bool sane_outcome(const char *buf, size_t len, bool *loaded)
{
	struct kb_resfile rf;
	char err[768];
	size_t i, k;
	bool good = true;

	err[0] = 'x';
	if (parse(buf, len, &rf, err, sizeof(err))) {
		*loaded = false;
		return !strncmp(err, "t.json:", 7) && strlen(err) > 9 && rf.nruns == 0 &&
		       !rf.runs;
	}
	*loaded = true;
	for (i = 0; i < rf.nruns; i++)
		for (k = 0; k < rf.runs[i].run.nres; k++)
			good &= rf.runs[i].run.res[k].n == 0 ||
				(rf.runs[i].run.res[k].net &&
				 rf.runs[i].run.res[k].sflags);
	kb_resfile_free(&rf);
	return good;
}

static void test_fuzz(void)
{
	const char *rounds_env = getenv("KBENCH_FUZZ_ROUNDS");
	unsigned long rounds = rounds_env ? strtoul(rounds_env, NULL, 10) : 20000;
	size_t len, cut, bad = 0, loaded_n = 0;
	char *buf = small_file(&len), *m = malloc(len);
	struct kb_rng rng;
	unsigned long i;
	bool loaded;

	/* every prefix is a truncated file, in an exact-size copy (valgrind
	 * sees a read past it); only dropping the final newline still loads */
	for (cut = 0; cut < len; cut++) {
		char *t = malloc(cut ? cut : 1);

		memcpy(t, buf, cut);
		if (!sane_outcome(t, cut, &loaded) || loaded != (cut == len - 1)) {
			if (!bad++)
				diag("truncation at %zu: %s", cut,
				     loaded ? "loaded" : "bad message");
		}
		free(t);
	}
	ok(!bad, "loader, %s arrays: each of the %zu truncations is refused with 'file:LINE:COLUMN: ...' or 'file: PATH: ...' (no crash)",
	   small_b64 ? "base64" : "JSON", len);

	kb_rng_seed(&rng, 13);
	bad = 0;
	for (i = 0; i < rounds; i++) {
		size_t nflip = 1 + (size_t)kb_rng_below(&rng, 4), f;
		static const char junk[] = "\"{}[],:-0123456789eE.tfn\\ \x01\xff=+/AQw";

		memcpy(m, buf, len);
		for (f = 0; f < nflip; f++) {
			size_t at = (size_t)kb_rng_below(&rng, len);

			m[at] = kb_rng_below(&rng, 2) ?
				junk[kb_rng_below(&rng, sizeof(junk) - 1)] :
				(char)kb_rng_below(&rng, 256);
		}
		if (!sane_outcome(m, len, &loaded))
			bad++;
		loaded_n += loaded;
	}
	ok(!bad, "loader, %s arrays: %lu random byte mutations: each loads or fails cleanly (%zu loaded)",
	   small_b64 ? "base64" : "JSON", rounds, loaded_n);
	free(m);
	free(buf);
}

/* @buf with the first @from replaced by @to; parse; the error or "". */
static void expect_error(const char *from, const char *to, const char *needle,
			 const char *what)
{
	size_t len, nlen;
	char *buf = small_file(&len), *p = strstr(buf, from), *m;
	struct kb_resfile rf;
	char err[768] = "";
	int rc;

	if (!p) {
		ok(0, "%s (pattern '%s' not in the file)", what, from);
		free(buf);
		return;
	}
	nlen = len - strlen(from) + strlen(to);
	m = malloc(nlen);
	memcpy(m, buf, (size_t)(p - buf));
	memcpy(m + (p - buf), to, strlen(to));
	memcpy(m + (p - buf) + strlen(to), p + strlen(from),
	       len - (size_t)(p - buf) - strlen(from));
	rc = parse(m, nlen, &rf, err, sizeof(err));
	if (!ok(rc != 0 && strstr(err, needle), "%s: '%s'", what, needle))
		diag("rc %d, error: %s", rc, err);
	if (!rc)
		kb_resfile_free(&rf);
	free(m);
	free(buf);
}

static void expect_text(const char *text, const char *needle, const char *what)
{
	struct kb_resfile rf;
	char err[768] = "";
	int rc = parse(text, strlen(text), &rf, err, sizeof(err));

	if (!ok(rc != 0 && strstr(err, needle), "%s: '%s'", what, needle))
		diag("rc %d, error: %s", rc, err);
	if (!rc)
		kb_resfile_free(&rf);
}

/*
 * The flags of the small file's first routine as kbenchctl writes them
 * (json-c's layout: a value per line, two spaces a level).
 */
#define FLAG_INDEX(v) "\"index\": [\n              " v "\n"
#define FLAG_VALUE(v) "\"value\": [\n              " v "\n"

static void test_errors(void)
{
	char *deep;
	size_t i;

	expect_text("", "empty file", "empty file");
	expect_text("\x89PNG\r\n", "not a kbench result file (not a JSON object: starts with byte 0x89)",
		    "foreign binary file");
	expect_text("{\"side\": \"kernel\", \"run_id\": 3, \"routine\": \"foo\"}",
		    "not a kbench result file (no \"format\"", "'run --json' output");
	expect_text("{\"format\": \"pyperf\", \"version\": 1, \"runs\": []}",
		    "format 'pyperf', want 'kbench-result'", "another tool's file");
	expect_error("\"version\": 2", "\"version\": 3",
		     ": version: result format version 3; this kbenchctl (" KBENCHCTL_VERSION ") reads versions 1 to 2: written by a newer kbenchctl",
		     "a future version");
	expect_error("\"n\": 12,", "\"n\": \"12\",",
		     "runs[0].routines[0].n: expected an integer, found a string", "wrong type (string for a count)");
	expect_error("\"net\": [", "\"net\": \"a\", \"x\": [",
		     "runs[0].routines[0].net: expected an array, found a string", "wrong type (string for the samples)");
	expect_error("\"routines\": [\n        {", "\"routines\": 7, \"x\": [\n        {",
		     "runs[0].routines: expected an array, found a number", "wrong type (number for routines)");
	expect_error("\"samples\": 12,", "\"samples\": 1.5,",
		     "runs[0].samples: expected an integer, found a fraction", "a fraction for a count");
	expect_error("\"n\": 12,", "\"n\": 4294967295,",
		     "\"n\" is 4294967295 but \"net\" holds 12 samples", "a huge count");
	expect_error("\"n\": 12,", "\"n\": 99999999999999999999999,",
		     "runs[0].routines[0].n: integer 18446744073709551615 out of range 0..4294967295", "an overflowing count (json-c reads it as UINT64_MAX)");
	expect_error("\"n\": 12,", "\"n\": 13,",
		     "\"n\" is 13 but \"net\" holds 12 samples", "n and net disagree");
	expect_error(FLAG_INDEX("5"), FLAG_INDEX("5,\n              6"),
		     "sample_flags.index holds 2 entries, sample_flags.value 1", "flag arrays of different lengths");
	expect_error(FLAG_INDEX("5"), FLAG_INDEX("50"),
		     "sample_flags.index[0] = 50 is past the last sample", "a flag past the last sample");
	expect_error(FLAG_VALUE("4"), FLAG_VALUE("0"),
		     "runs[0].routines[0].sample_flags.value: value [0] = 0 out of range 1..4294967295", "a zero flag value");
	/* the scalars read by the field tables: null only where it means "not there" */
	expect_error("\"cpu\": ", "\"cpu\": null, \"x\": ",
		     "runs[0].cpu: expected an integer, found null", "null for the run's CPU");
	expect_error("\"per_iter_median_milli\": ", "\"corr_min_milli\": null, \"per_iter_median_milli\": ",
		     "runs[0].routines[0].summary.corr_min_milli: expected an integer, found null",
		     "null for a corrected figure");
	expect_error("\"request\": {", "\"request\": { \"args\": [ 1, -2 ],",
		     "runs[0].request.args: value [1] = -2 out of range 0..9223372036854775807",
		     "a negative sweep argument in the request");
	expect_error("\"request\": {", "\"request\": { \"args\": [ 1, \"x\" ],",
		     "runs[0].request.args[1]: expected an integer, found a string",
		     "a string among the request's arguments");
	expect_error("\"cpu_changed\": 0", "\"cpu_changed\": -1",
		     "runs[0].routines[0].summary.excluded_by_reason.cpu_changed: integer -1 out of range 0..4294967295",
		     "a negative excluded count");
	expect_error("\"counter_constant\": true", "\"counter_constant\": 1",
		     "runs[0].counter_constant: expected true or false, found a number",
		     "a number for a boolean");
	expect_error("\"flags\": [", "\"flags\": [ 3, \"x\", ",
		     "runs[0].routines[0].flags[0]: expected a string, found a number",
		     "a number among flag names");
	expect_error("\"routine\": \"foo\"", "\"routine\": \"\"",
		     "without a valid \"routine\" name", "an empty routine name");
	expect_error("\"side\": \"kernel\"", "\"side\": \"gpu\"",
		     "\"side\" is 'gpu'", "an unknown side");
	expect_error("\"cpu_model\": \"Test", "\"cpu_model\": \"\\xTest",
		     "t.json:11:20: invalid string sequence", "a bad escape: line and column");
	/* the same file with its arrays in base64 */
	small_b64 = true;
	expect_error("\"n\": 12,", "\"n\": 13,",
		     "\"n\" is 13 but \"net\" holds 12 samples", "base64: n and net disagree");
	expect_error("\"data\": \"", "\"data\": \"A",
		     "runs[0].routines[0].net: base64 data of 65 characters is not whole 4-byte integers",
		     "base64: a character too many");
	expect_error("\"data\": \"", "\"data\": \"A.A",
		     "runs[0].routines[0].net: '.' in base64 data", "base64: a bad character");
	expect_error("\"width\": 4,", "\"width\": 8,",
		     "routine 'foo': \"n\" is 12 but \"net\" holds 6 samples",
		     "base64: the wrong width");
	expect_error("\"width\": 4,", "\"width\": 2,",
		     "runs[0].routines[0].net: width 2: integers of 4 or 8 bytes", "base64: width 2");
	expect_error("\"encoding\": \"base64\",", "\"encoding\": \"base85\",",
		     "runs[0].routines[0].net: encoding 'base85': this kbenchctl reads 'base64'",
		     "base64: another encoding");
	expect_error("\"encoding\": \"base64\",", "\"x\": 0,",
		     "runs[0].routines[0].net: an array of integers is [...] or {\"encoding\": \"base64\", \"width\": 4 or 8, \"data\": \"...\"}; this object has no \"encoding\"",
		     "base64: no encoding");
	expect_error("\"data\": \"", "\"data\": 7, \"x\": \"",
		     "runs[0].routines[0].net.data: expected a string, found a number",
		     "base64: data not a string");
	expect_error("\"data\": \"BQAAAA==\"", "\"data\": \"/////w==\"",
		     "runs[0].routines[0].sample_flags.index: value [0] = -1 out of range 0..9223372036854775807",
		     "base64: a negative flag index");
	small_b64 = false;
	/* deep nesting in an unknown key: bounded, not a stack overflow */
	deep = malloc(300100);
	i = (size_t)sprintf(deep, "{\"format\": \"kbench-result\", \"x\": ");
	memset(deep + i, '[', 300000);
	deep[i + 300000] = '\0';
	expect_text(deep, "nested more than 64 deep", "300000 nested arrays");
	free(deep);
}

/* The sum of @res's valid (unflagged) samples, as its summary counts. */
static int64_t sum_valid(const struct kb_result *res)
{
	int64_t sum = 0;
	size_t i;

	for (i = 0; i < res->n; i++)
		sum += res->sflags[i] ? 0 : res->net[i];
	return sum;
}

/* The indices of @res's flagged samples, "6:32 51:32" (value after ':'). */
static void flagged(const struct kb_result *res, char *out, size_t len)
{
	size_t i, at = 0;

	out[0] = '\0';
	for (i = 0; i < res->n && at < len; i++) {
		if (res->sflags[i])
			at += (size_t)snprintf(out + at, len - at, "%s%zu:%u",
					       at ? " " : "", i, res->sflags[i]);
	}
}

/*
 * A version 1 file, from the kbenchctl before base64 arrays (main at
 * cf97053: `kbenchctl run add_chain --user --samples 200 --iterations 100
 * --save result-v1.json`, with environment.cmdline shortened): every
 * array a JSON array of up to 200 values.  It loads; its samples agree
 * with the summary that kbenchctl computed when it saved them; written
 * again it becomes version 2 with base64 arrays and reads back the same.
 */
static void test_old_format(void)
{
	struct kb_resfile rf, rf2;
	const struct kb_run *r;
	char path[512], err[768], fl[2][128];
	char *buf = NULL;
	size_t len, i;
	bool same = true;

	snprintf(path, sizeof(path), "%s/result-v1.json", fixtures_dir);
	if (!ok(kb_resfile_load(path, &rf, err, sizeof(err)) == 0,
		"old format: a version 1 file (JSON arrays of 200 samples) loads")) {
		diag("%s", err);
		return;
	}
	r = &rf.runs[0].run;
	ok(rf.nruns == 1 && r->nres == 1 && r->user && r->has_overhead &&
	   r->iterations == 100 && !strcmp(r->res[0].routine, "add_chain") &&
	   r->res[0].n == 200 && r->overhead.n == 200,
	   "old format: one userspace run of add_chain and its overhead, 200 samples each");
	flagged(&r->res[0], fl[0], sizeof(fl[0]));
	flagged(&r->overhead, fl[1], sizeof(fl[1]));
	if (!ok(!strcmp(fl[0], "6:32 51:32") && !strcmp(fl[1], "62:32"),
		"old format: the flagged samples where the file lists them (add_chain 6, 51; empty 62)"))
		diag("add_chain '%s', empty '%s'", fl[0], fl[1]);
	if (!ok(sum_valid(&r->res[0]) == 55406 && r->res[0].net_sum == 55406 &&
		sum_valid(&r->overhead) == 22074 && r->overhead.net_sum == 22074 &&
		r->res[0].net_median == 260 && r->res[0].valid == 198,
		"old format: the valid samples add up to the summary saved with them (net_sum 55406 and 22074)"))
		diag("sums %lld %lld", (long long)sum_valid(&r->res[0]),
		     (long long)sum_valid(&r->overhead));
	buf = write_mem(&rf.meta, rf.runs, rf.nruns, &len);
	ok(strstr(buf, "\"version\": 2,") && strstr(buf, "\"width\": 4,"),
	   "old format: written again, it is version 2 with base64 arrays");
	if (ok(parse(buf, len, &rf2, err, sizeof(err)) == 0,
	       "old format: the version 2 file written from it loads")) {
		const struct kb_run *r2 = &rf2.runs[0].run;

		for (i = 0; i < 200; i++)
			same &= r2->res[0].net[i] == r->res[0].net[i] &&
				r2->res[0].sflags[i] == r->res[0].sflags[i] &&
				r2->overhead.net[i] == r->overhead.net[i] &&
				r2->overhead.sflags[i] == r->overhead.sflags[i];
		ok(same && r2->res[0].n == 200 && r2->overhead.n == 200,
		   "old format: version 2 holds every sample and flag of version 1");
		kb_resfile_free(&rf2);
	} else {
		diag("%s", err);
	}
	free(buf);
	kb_resfile_free(&rf);
}

/* The loader alone (KBENCH_UNIT_ONLY=loader: the valgrind run). */
void test_results_loader(void)
{
	test_b64();
	test_roundtrip(SIZE_MAX, "JSON arrays");
	test_roundtrip(0, "base64 arrays");
	test_roundtrip_events();
	test_old_format();
	test_errors();
	test_fuzz();
	small_b64 = true;
	test_fuzz();
	small_b64 = false;
}

void test_resfile(void)
{
	test_results_loader();
	test_python_reader();
}
