// SPDX-License-Identifier: GPL-2.0
/*
 * The field lists (model/schema.h, include/kbench/schema.h): the tables
 * point at the members they name, the accessors keep every value in its
 * range, and kb_fields_parse() (nl/fields.c) fills a run and a result
 * from netlink attributes as the RUN reply carries them.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <netlink/attr.h>

#include "fields.h"
#include "names.h"
#include "result.h"
#include "schema.h"
#include "tap.h"
#include "tests.h"

static void test_tables(void)
{
	const struct kb_field *f;
	size_t n = 0, bad = 0;

	/* 1.0's 14 and any added since: each its own attribute and key */
	for (f = kb_run_fields; f->key; f++, n++) {
		bad += !f->attr || f->attr > KBENCH_A_RUN_MAX ||
		       f->offset + f->size > sizeof(struct kb_run);
		bad += kb_field_find(kb_run_fields, f->key) != f;
		for (const struct kb_field *g = kb_run_fields; g != f; g++)
			bad += g->attr == f->attr;
	}
	ok(n >= 14 && !bad, "kb_run_fields: %zu fields, each with its own attribute and key, inside struct kb_run", n);
	f = kb_field_find(kb_run_fields, "span_cycles");
	ok(f && f->type == KB_FT_U64 && f->attr == KBENCH_A_RUN_SPAN_CYCLES &&
	   f->offset == offsetof(struct kb_run, span_cycles) &&
	   f->size == sizeof(uint64_t),
	   "span_cycles: u64 at its member, KBENCH_A_RUN_SPAN_CYCLES");
	f = kb_field_find(kb_summary_fields, "per_iter_median_milli");
	ok(f && f->type == KB_FT_S64 &&
	   f->offset == offsetof(struct kb_result, per_iter_median_milli) &&
	   f->attr == KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI,
	   "per_iter_median_milli: s64 of the result, its RESULT attribute");
	f = kb_field_find(kb_ev_fields, "per_iter_median_milli");
	ok(f && f->offset == offsetof(struct kb_ev_result, per_iter_median_milli) &&
	   f->attr == KBENCH_A_EVENT_SUMMARY_PER_ITER_MEDIAN_MILLI &&
	   kb_field_find(kb_ev_fields, "corr_min_milli")->attr == 0,
	   "an event's figures: EVENT_SUMMARY attributes; the corrected ones computed");
	ok(!kb_field_find(kb_run_fields, "no_such_key") &&
	   kb_field_find(kb_result_fields, "arg")->has ==
	   offsetof(struct kb_result, has_arg),
	   "an unknown key is NULL; arg is optional (has_arg)");
	for (n = 0, bad = 0; n < KB_EXCL_N; n++)
		bad += kb_sample_flag_names[n].bit != 1u << n ||
		       strcmp(kb_excl_key[n], kb_sample_flag_names[n].name);
	ok(!bad && !strcmp(kb_excl_key[KB_EXCL_CPU], "cpu_changed"),
	   "excluded-by-reason keys in flag-bit order, the sample flags' names");
}

static void test_accessors(void)
{
	const struct kb_field *cpu = kb_field_find(kb_run_fields, "cpu");
	const struct kb_field *ad = kb_field_find(kb_run_fields, "adaptive");
	const struct kb_field *hz = kb_field_find(kb_run_fields, "counter_hz");
	const struct kb_field *mn = kb_field_find(kb_summary_fields, "net_min");
	const struct kb_field *corr = kb_field_find(kb_summary_fields,
						    "corr_min_milli");
	static struct kb_run r;
	static struct kb_result res;

	ok(!kb_field_set(cpu, &r, UINT32_MAX, 0) && r.cpu == UINT32_MAX &&
	   kb_field_set(cpu, &r, (uint64_t)UINT32_MAX + 1, 0) == -ERANGE &&
	   kb_field_set(cpu, &r, (uint64_t)-1, 1) == -ERANGE &&
	   r.cpu == UINT32_MAX,
	   "u32: UINT32_MAX kept, 2^32 and -1 refused (-ERANGE), the value unchanged");
	ok(!kb_field_set(ad, &r, 1, 0) && r.adaptive == 1 &&
	   kb_field_set(ad, &r, 2, 0) == -ERANGE,
	   "bool32: 1 kept, 2 refused");
	ok(!kb_field_set(hz, &r, UINT64_MAX, 0) &&
	   kb_field_u64(hz, &r) == UINT64_MAX &&
	   kb_field_set(hz, &r, (uint64_t)-5, 1) == -ERANGE,
	   "u64: UINT64_MAX kept, negative refused");
	ok(!kb_field_set(mn, &res, (uint64_t)INT64_MIN, 1) &&
	   res.net_min == INT64_MIN &&
	   kb_field_set(mn, &res, (uint64_t)INT64_MAX + 1, 0) == -ERANGE &&
	   kb_field_s64(mn, &res) == INT64_MIN,
	   "s64: INT64_MIN kept, 2^63 refused");
	ok(!kb_field_present(corr, &res) && !kb_field_set(corr, &res, 7, 0) &&
	   kb_field_present(corr, &res) && res.has_corr && res.corr_min_milli == 7,
	   "an optional field: absent until set, then has_corr");
}

/* A RESULT nest's attributes and a RUN reply's, as the kernel puts them. */
static void test_parse(void)
{
	static unsigned char b[8][64] __attribute__((aligned(8)));
	static struct kb_result res;
	static struct kb_run r;
	struct nlattr *tb[KBENCH_A_RESULT_MAX + 1] = { 0 };
	struct nlattr *rb[KBENCH_A_RUN_MAX + 1] = { 0 };
	uint32_t idx = 3, cpu = 2;
	int64_t mn = -42, med = 1234;
	uint64_t span = 1ULL << 40;

	tb[KBENCH_A_RESULT_ROUTINE] = unit_nlattr(b[0], KBENCH_A_RESULT_ROUTINE,
						"add_chain", 10);
	tb[KBENCH_A_RESULT_INDEX] = unit_nlattr(b[1], KBENCH_A_RESULT_INDEX, &idx, 4);
	tb[KBENCH_A_RESULT_NET_MIN] = unit_nlattr(b[2], KBENCH_A_RESULT_NET_MIN, &mn, 8);
	tb[KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI] =
		unit_nlattr(b[3], KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI, &med, 8);
	res.has_corr = true;
	res.has_arg = true;
	kb_fields_parse(kb_result_fields, tb, &res);
	kb_fields_parse(kb_summary_fields, tb, &res);
	ok(!strcmp(res.routine, "add_chain") && res.index == 3 &&
	   res.net_min == -42 && res.per_iter_median_milli == 1234 &&
	   res.net_max == 0 && !res.has_corr && !res.has_arg,
	   "a RESULT nest: present fields set, absent ones 0, optional ones absent");
	rb[KBENCH_A_RUN_CPU] = unit_nlattr(b[4], KBENCH_A_RUN_CPU, &cpu, 4);
	rb[KBENCH_A_RUN_SPAN_CYCLES] = unit_nlattr(b[5], KBENCH_A_RUN_SPAN_CYCLES,
						 &span, 8);
	kb_fields_parse(kb_run_fields, rb, &r);
	ok(r.cpu == 2 && r.span_cycles == 1ULL << 40 && !strcmp(r.counter, "?"),
	   "a RUN reply: cpu and span_cycles set, an absent counter \"?\"");
}

void test_schema(void)
{
	test_tables();
	test_accessors();
	test_parse();
}
