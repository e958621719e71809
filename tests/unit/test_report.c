// SPDX-License-Identifier: GPL-2.0
/*
 * The reports of run and compare on made-up runs (so that the table and
 * the JSON come from the same numbers): the default report is short, and
 * -v prints every number that --json has.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kbench.h>

#include "output.h"
#include "report.h"
#include "result.h"
#include "runprint.h"
#include "tap.h"
#include "tests.h"
#include "resfix.h"

static char *buf;
static size_t len;
static FILE *cap;

static void capture(bool json)
{
	cap = open_memstream(&buf, &len);
	out_init(cap, json);
}

/* The captured text (caller frees). */
static char *captured(void)
{
	out_finish();
	fclose(cap);
	out_init(stdout, false);
	return buf;
}

static unsigned int lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A routine with @n samples around @base net cycles, a few flagged. */
static void fake_result(struct kb_result *res, const char *name,
			uint32_t index, int64_t base, size_t n)
{
	size_t i;

	snprintf(res->routine, sizeof(res->routine), "%s", name);
	res->index = index;
	for (i = 0; i < n; i++)
		kb_result_push(res, base + (int64_t)(i % 7) * 13 + (i % 50 == 3 ? 900 : 0),
			       i == 17 ? KBENCH_SAMPLE_F_NMI :
			       i == 40 ? KBENCH_SAMPLE_F_WINDOW : 0);
	kb_result_summarize(res, 1000);
	res->has_corr = true;
	res->corr_min_milli = (base - 2000) * 1000 / 1000;
	res->corr_median_milli = (base - 1987) * 1000 / 1000;
}

static void fake_run(struct kb_run *r, bool user, unsigned int nres)
{
	static const char *const names[] = { "add_chain", "mul_chain" };
	unsigned int i;

	make_run_header(r, 200, 1000, 2500000000ULL);
	r->user = user;
	r->run_id = user ? 0 : 7;
	r->adaptive = 1;
	r->elapsed_ns = 123456789;
	r->span_cycles = 987654321;
	r->routine_cycles = 123456789;
	r->window_cycles = 234567891;
	r->mem_bytes = 25008;
	r->nres = nres;
	for (i = 0; i < nres; i++)
		fake_result(&r->res[i], names[i], i, 6000 + 3000 * i, 200);
	fake_result(&r->overhead, "empty", nres, 2000, 200);
	r->has_overhead = true;
	kb_run_analyze(r);
}

/* Every number of the JSON appears in the text (json_in_text.py). */
static void numbers_in_text(const char *json, const char *text,
			    const char *what)
{
	char jp[] = "/tmp/kbench-json-XXXXXX", tp[] = "/tmp/kbench-text-XXXXXX";
	char cmd[256];
	int fj = mkstemp(jp), ft = mkstemp(tp);
	FILE *f;

	if (system("command -v python3 >/dev/null 2>&1")) {
		skip("no python3", "%s", what);
		return;
	}
	f = fdopen(fj, "w");
	fputs(json, f);
	fclose(f);
	f = fdopen(ft, "w");
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 %s/../json_in_text.py %s %s",
		 fixtures_dir, jp, tp);
	ok(system(cmd) == 0, "%s", what);
	remove(jp);
	remove(tp);
}

/* What -v prints: a run, a comparison, or kernel vs user. */
enum full_report { FULL_RUN, FULL_COMPARE, FULL_KVU };

static void print_full(enum full_report what, const struct kb_run *r,
		       const struct kb_run *u)
{
	switch (what) {
	case FULL_RUN:
		kb_run_print(r, 0);
		break;
	case FULL_COMPARE:
		kb_report_compare(r, &r->res[0], &r->res[1], 1, 1, true, NULL);
		break;
	case FULL_KVU:
		kb_report_kvu(r, u, true);
		break;
	}
}

/* The same report as JSON and as -v text: every JSON number in the text. */
static void full_has_json(enum full_report what, const struct kb_run *r,
			  const struct kb_run *u, const char *desc)
{
	char *json, *text;

	capture(true);
	if (what != FULL_RUN)
		out_open_object(NULL);
	print_full(what, r, u);
	json = captured();
	capture(false);
	print_full(what, r, u);
	text = captured();
	numbers_in_text(json, text, desc);
	free(json);
	free(text);
}

static void test_run_report(void)
{
	struct kb_run r;
	char *text;

	fake_run(&r, false, 1);
	capture(false);
	kb_report_run(&r, 0);
	text = captured();
	if (!ok(lines(text) <= 12 && strstr(text, "run 7 on cpu 1: 200 samples x 1000 iterations (adaptive), ticks of tsc at 2.500 GHz\n") &&
		strstr(text, "95% CI [") && strstr(text, "samples    198 valid, 2 excluded (nmi 1, window 1)\n") &&
		strstr(text, "  verdict    ") && strstr(text, " ticks/iter ") &&
		!strstr(text, "cycles"),
		"default report of one routine: at most 12 lines with median, CI, exclusions by reason, verdict; the counter's figures in ticks, never cycles"))
		diag("%u lines:\n%s", lines(text), text);
	free(text);
	full_has_json(FULL_RUN, &r, NULL, "-v of a kernel run: every number of its JSON is in the text");
	kb_run_free(&r);

	fake_run(&r, true, 2);
	full_has_json(FULL_RUN, &r, NULL, "-v of a userspace run of two routines: every number of its JSON is in the text");
	kb_run_free(&r);
}

/* A routine none of whose samples is valid: no median, the run fails. */
static void test_no_valid_report(void)
{
	struct kb_run r;
	char *text, *err = NULL;
	size_t elen = 0;
	FILE *f;
	size_t i;
	bool none;

	fake_run(&r, false, 1);
	r.res[0].n = 0;
	r.res[0].net_median = r.res[0].net_min = 0;
	r.res[0].per_iter_median_milli = r.res[0].per_iter_min_milli = 0;
	for (i = 0; i < 50; i++)
		kb_result_push(&r.res[0], 15000000, KBENCH_SAMPLE_F_WINDOW);
	kb_result_summarize(&r.res[0], 1);
	kb_run_analyze(&r);
	capture(false);
	kb_report_run(&r, 0);
	text = captured();
	if (!ok(!strstr(text, "0.000") && strstr(text, "median     none: no valid sample\n") &&
		!strstr(text, "corrected") &&
		strstr(text, "samples    0 valid, 50 excluded (window 50)\n"),
		"default report of a routine without a valid sample: no median, no figure, why"))
		diag("%s", text);
	free(text);
	f = open_memstream(&err, &elen);
	none = kb_report_no_valid(&r, f);
	fclose(f);
	if (!ok(none && !strcmp(err, "kbenchctl: routine 'add_chain': none of 50 samples valid (window 50) at N = 1000: no figure\n"),
		"run: a routine without a valid sample fails, saying why"))
		diag("%s", err);
	free(err);
	kb_run_free(&r);
	fake_run(&r, false, 1);
	f = open_memstream(&err, &elen);
	none = kb_report_no_valid(&r, f);
	fclose(f);
	ok(!none && !elen, "run: ... and nothing is said when every routine has some");
	free(err);
	kb_run_free(&r);
}

static void test_compare_report(void)
{
	struct kb_run r, u;
	char *text;

	fake_run(&r, false, 2);
	capture(false);
	kb_report_compare(&r, &r.res[0], &r.res[1], 1, 1, false, NULL);
	text = captured();
	if (!ok(lines(text) == 2 &&
		strstr(text, "mul_chain - add_chain: +3.000 ticks/iter = +1.200 ns/iter (medians)\nmul_chain is 49.7% slower than add_chain"),
		"compare: the difference, then the verdict as the last line"))
		diag("%s", text);
	free(text);
	full_has_json(FULL_COMPARE, &r, NULL, "compare -v: every number of the comparison is in the text");
	fake_run(&u, true, 1);
	full_has_json(FULL_KVU, &r, &u, "compare --kernel-vs-user -v: every number of kernel_vs_user is in the text");
	capture(false);
	kb_report_kvu(&r, &u, false);
	text = captured();
	ok(lines(text) == 1 && strstr(text, "userspace samples above the kernel's max: "),
	   "compare --kernel-vs-user: one line of inflation by default");
	free(text);
	kb_run_free(&r);
	kb_run_free(&u);
}

void test_report(void)
{
	test_run_report();
	test_no_valid_report();
	test_compare_report();
}
