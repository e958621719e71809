// SPDX-License-Identifier: GPL-2.0
/*
 * Output layer (JSON and tables from the same calls), flag names,
 * histograms, SVG, number parsing, progress lines and extack parsing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kbench.h>
#include <linux/netlink.h>

#include "b64.h"
#include "csv.h"
#include "hist.h"
#include "base.h"
#include "names.h"
#include "nl.h"
#include "opts.h"
#include "output.h"
#include "pages.h"
#include "progress.h"
#include "samples.h"
#include "stats.h"
#include "svg.h"
#include "tap.h"
#include "tests.h"
#include "until.h"

static char *capture_buf;
static size_t capture_len;
static FILE *capture_f;

static void capture_start(bool json)
{
	capture_f = open_memstream(&capture_buf, &capture_len);
	out_init(capture_f, json);
}

static char *capture_end(void)
{
	fclose(capture_f);
	out_init(stdout, false);
	return capture_buf;	/* caller frees */
}

static void expect_str(const char *got, const char *want, const char *what)
{
	if (!ok(!strcmp(got, want), "%s", what))
		diag("got:\n%s\n# want:\n%s", got, want);
}

static void test_json_escape(void)
{
	char *s;

	capture_start(true);
	json_write_string(capture_f, "a\"b\\c\n\t\r\b\f\x01\x1f\x7f \xc3\xa9/");
	s = capture_end();
	expect_str(s, "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f \xc3\xa9/\"",
		   "JSON escaping of quotes, backslash, controls; UTF-8 kept");
	free(s);

	capture_start(true);
	json_write_double(capture_f, 0.1);
	fputc(' ', capture_f);
	json_write_double(capture_f, 6);
	fputc(' ', capture_f);
	json_write_double(capture_f, -2.5e-7);
	fputc(' ', capture_f);
	json_write_double(capture_f, 1.0 / 3);
	fputc(' ', capture_f);
	json_write_double(capture_f, NAN);
	fputc(' ', capture_f);
	json_write_double(capture_f, INFINITY);
	fputc(' ', capture_f);
	json_write_double(capture_f, 1e300);
	s = capture_end();
	expect_str(s, "0.1 6 -2.5e-07 0.3333333333333333 null null 1e+300",
		   "JSON numbers: shortest round-trip form, null for NaN/inf");
	free(s);
}

/* The same calls, in JSON and in table form. */
static void emit_sample_doc(void)
{
	out_open_object(NULL);
	out_string("routine", "routine %s\n", "add\"chain");
	out_uint("samples", "samples %llu", 1000);
	out_int("net", ", net %lld", -5);
	out_double("ratio", ", ratio %.2f\n", 0.5);
	out_double("nan_value", "nan %6.2f|\n", NAN);
	out_bool("pure", "pure %s\n", true);
	out_uint("json_only", NULL, 7);
	out_text("table only\n");
	out_open_array("list");
	out_uint(NULL, "[%llu]", 1);
	out_string(NULL, "[%s]\n", "two");
	out_close_array();
	out_open_object("empty");
	out_close_object();
	out_null("nothing");
	out_close_object();
	out_finish();
}

static void test_output_layer(void)
{
	char *s;

	capture_start(true);
	emit_sample_doc();
	s = capture_end();
	expect_str(s,
		   "{\n"
		   "  \"routine\": \"add\\\"chain\",\n"
		   "  \"samples\": 1000,\n"
		   "  \"net\": -5,\n"
		   "  \"ratio\": 0.5,\n"
		   "  \"nan_value\": null,\n"
		   "  \"pure\": true,\n"
		   "  \"json_only\": 7,\n"
		   "  \"list\": [\n"
		   "    1,\n"
		   "    \"two\"\n"
		   "  ],\n"
		   "  \"empty\": {},\n"
		   "  \"nothing\": null\n"
		   "}\n", "JSON form of the output calls");
	free(s);

	capture_start(false);
	emit_sample_doc();
	s = capture_end();
	expect_str(s,
		   "routine add\"chain\n"
		   "samples 1000, net -5, ratio 0.50\n"
		   "nan      -|\n"
		   "pure yes\n"
		   "table only\n"
		   "[1][two]\n", "table form of the same output calls");
	free(s);
}

static void test_flag_names(void)
{
	char buf[128];

	kb_flag_names(kb_sample_flag_names, KBENCH_SAMPLE_F_NMI | KBENCH_SAMPLE_F_SMI,
		      "|", buf, sizeof(buf));
	expect_str(buf, "nmi|smi", "sample flags joined by |");
	kb_flag_names(kb_sample_flag_names, 0, "|", buf, sizeof(buf));
	expect_str(buf, "", "no flags: empty");
	kb_flag_names(kb_counter_flag_names, KBENCH_COUNTER_F_CONSTANT | 0x80,
		      ", ", buf, sizeof(buf));
	expect_str(buf, "constant, 0x80", "unknown bits shown in hex");
}

static void test_csv_line(void)
{
	char *s;

	capture_start(false);
	kb_sample_emit(true, 3, "add_chain", 0, -12, KBENCH_SAMPLE_F_CPU_CHANGED |
		       KBENCH_SAMPLE_F_WINDOW);
	kb_sample_emit(true, 4, "add_chain", 0, 6000, 0);
	s = capture_end();
	expect_str(s, "3,add_chain,-12,cpu_changed|window\n4,add_chain,6000,\n",
		   "CSV sample lines: index,routine,net_cycles,flags");
	free(s);
}

static void test_hist(void)
{
	double x[100];
	struct kb_hist h;
	char *s;
	int i;

	for (i = 0; i < 100; i++)
		x[i] = i < 70 ? 6 : i < 90 ? 7 : i < 99 ? 8 : 9;
	ok(!kb_hist_build(&h, x, 100, 24, false) && h.nbins == 4 && h.width == 1 &&
	   h.count[0] == 70 && h.count[1] == 20 && h.count[2] == 9 && h.count[3] == 1,
	   "integer data get one bin per value");
	capture_start(false);
	kb_hist_print(capture_f, &h, 20, false, 6, 6, 6, "cycles/iter");
	s = capture_end();
	ok(strstr(s, "\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588 70 \u25c0 min median mode") != NULL,
	   "tallest bar is full width and marks min, median and mode");
	ok(strstr(s, " 1\n") != NULL && strstr(s, "\u2502") != NULL, "every bin is a row");
	free(s);
	capture_start(false);
	kb_hist_print(capture_f, &h, 20, true, 6, 6, 6, "cycles/iter");
	s = capture_end();
	ok(strstr(s, "log scale") != NULL, "log-scale counts are labelled");
	free(s);
	kb_hist_free(&h);

	/* a far tail is cut at p99 and counted separately */
	for (i = 0; i < 100; i++)
		x[i] = 100 + i * 0.01;
	x[99] = 1e6;
	ok(!kb_hist_build(&h, x, 100, 10, false) && h.over == 1 && h.nbins == 10,
	   "a far outlier goes to the 'beyond p99' row");
	kb_hist_free(&h);
}

static void test_svg(void)
{
	double sorted[50];
	int64_t net[52];
	uint32_t flags[52] = { 0 };
	struct kb_stats st;
	struct kb_svg_series s = { "add_chain", sorted, &st, net, flags, 52, 1000,
				   "tsc ticks" };
	char *out;
	int i;

	for (i = 0; i < 52; i++)
		net[i] = 6000 + (i % 5);
	net[10] = 90000;
	flags[10] = KBENCH_SAMPLE_F_NMI;
	net[20] = -3;
	flags[20] = KBENCH_SAMPLE_F_BACKWARDS;
	for (i = 0; i < 50; i++)
		sorted[i] = (6000 + (i % 5)) / 1000.0;
	qsort(sorted, 50, sizeof(double), kb_cmp_double);
	kb_stats_sorted(sorted, 50, &st);
	capture_start(false);
	kb_svg_write(capture_f, &s, 1, "add_chain <cpu 0> & more", false);
	out = capture_end();
	ok(!strncmp(out, "<?xml", 5) && strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\"") &&
	   strstr(out, "</svg>\n"), "SVG has the XML prolog and the svg root");
	ok(strstr(out, "id=\"histogram\"") && strstr(out, "id=\"timeline\"") &&
	   strstr(out, "class=\"bar\""), "SVG has the histogram and time-order panels");
	ok(strstr(out, "class=\"min\"") && strstr(out, "class=\"median\"") &&
	   strstr(out, "class=\"mode\""), "SVG marks min, median and mode");
	ok(strstr(out, "class=\"flagged\"") != NULL, "SVG shows flagged samples");
	ok(strstr(out, "tsc ticks per iteration") && !strstr(out, "cycles"),
	   "SVG axes say the counter's ticks, never cycles");
	ok(strstr(out, "add_chain &lt;cpu 0&gt; &amp; more") != NULL,
	   "SVG title is XML-escaped");
	{
		FILE *f = fopen("test.svg", "w");

		fputs(out, f);
		fclose(f);
		if (system("command -v xmllint >/dev/null 2>&1") == 0)
			ok(system("xmllint --noout test.svg") == 0, "xmllint: the SVG is well-formed XML");
		else
			skip("no xmllint", "the SVG is well-formed XML");
		remove("test.svg");
	}
	free(out);
}

static void test_parse(void)
{
	uint32_t v = 0;
	uint64_t w = 0;
	double d = 0;

	ok(!parse_u32("4294967295", &v) && v == 4294967295U, "parse_u32 accepts the maximum");
	ok(parse_u32("4294967296", &v) && parse_u32("-1", &v) && parse_u32("", &v) &&
	   parse_u32("12x", &v) && parse_u32(" 1", &v) && parse_u32("+1", &v),
	   "parse_u32 rejects overflow, signs, junk and blanks");
	ok(!parse_u64("18446744073709551615", &w) && parse_u64("18446744073709551616", &w),
	   "parse_u64 range");
	ok(!parse_double("2.5", &d) && d == 2.5 && parse_double("nan", &d) &&
	   parse_double("1e999", &d) && parse_double("1%", &d), "parse_double");
}

static void test_progress(void)
{
	char buf[128];

	kb_progress_format(250, 1000, 500000000ULL, buf, sizeof(buf));
	expect_str(buf, "250/1000 samples (25%), ETA 1.5 s", "progress line with ETA");
	kb_progress_format(900, 1000, 300000000ULL, buf, sizeof(buf));
	expect_str(buf, "", "runs shorter than a second show no progress");
	kb_progress_format(0, 1000, 300000000ULL, buf, sizeof(buf));
	expect_str(buf, "", "nothing done yet: nothing shown");
	kb_progress_format(1000, 100000, 10000000000ULL, buf, sizeof(buf));
	expect_str(buf, "1000/100000 samples (1%), ETA 16 min",
		   "an ETA of a minute or more in minutes");
	kb_meter_duration(42.4, buf, sizeof(buf));
	expect_str(buf, "42 s", "a duration under 90 s in seconds");
	kb_meter_duration(412, buf, sizeof(buf));
	expect_str(buf, "7 min", "... under 90 min in minutes");
	kb_meter_duration(5400, buf, sizeof(buf));
	expect_str(buf, "1.5 h", "... else in hours");
}

/* An nlmsgerr with extack TLVs, capped or with the request echoed. */
static void test_extack(void)
{
	unsigned char buf[512] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nlmsgerr *err;
	struct nlattr *a;
	char msg[128];
	uint32_t offs, offs_want = 20;
	const char *text = "routine not found";
	size_t echo = 24;	/* request: header + 8 bytes payload */
	int capped;

	for (capped = 1; capped >= 0; capped--) {
		size_t len = NLMSG_HDRLEN + sizeof(*err);

		memset(buf, 0, sizeof(buf));
		err = (struct nlmsgerr *)(buf + NLMSG_HDRLEN);
		err->error = -2;
		err->msg.nlmsg_len = (uint32_t)echo;
		if (!capped)
			len += echo - sizeof(struct nlmsghdr);
		len = NLMSG_ALIGN(len);
		a = unit_nlattr(buf + len, NLMSGERR_ATTR_MSG, text, strlen(text) + 1);
		len += NLA_ALIGN(a->nla_len);
		a = unit_nlattr(buf + len, NLMSGERR_ATTR_OFFS, &offs_want, 4);
		len += NLA_ALIGN(a->nla_len);
		nlh->nlmsg_len = (uint32_t)len;
		nlh->nlmsg_type = NLMSG_ERROR;
		nlh->nlmsg_flags = NLM_F_ACK_TLVS | (capped ? NLM_F_CAPPED : 0);
		kb_nl_parse_extack(nlh, err, msg, sizeof(msg), &offs);
		ok(!strcmp(msg, text) && offs == offs_want, "extack message and offset parsed (%s)",
		   capped ? "capped" : "request echoed");
	}
	nlh->nlmsg_flags = 0;
	kb_nl_parse_extack(nlh, err, msg, sizeof(msg), &offs);
	ok(msg[0] == '\0' && offs == 0, "no NLM_F_ACK_TLVS: no extack");
}

/* The batch CSV writer: index counter across digit counts, flags, names. */
static void test_csv(void)
{
	static const int64_t net[] = { 7, -12, 9223372036854775807LL, 0 };
	static const uint32_t fl[] = { 0, KBENCH_SAMPLE_F_NMI, 0, 0 };
	struct kb_csv *c = malloc(sizeof(*c));
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	kb_csv_init(c, f);
	kb_csv_rows(c, "add_chain", 99999998, net, fl, 3);
	kb_csv_rows(c, "a_routine_name_of_31_characters", 0, net + 3, fl + 3, 1);
	kb_csv_rows(c, "x", 9, net, fl, 2);
	kb_csv_flush(c);
	fclose(f);
	ok(!strcmp(buf, "index,routine,net_cycles,flags\n"
		   "99999998,add_chain,7,\n"
		   "99999999,add_chain,-12,nmi\n"
		   "100000000,add_chain,9223372036854775807,\n"
		   "0,a_routine_name_of_31_characters,0,\n"
		   "9,x,7,\n10,x,-12,nmi\n"),
	   "CSV batch writer: index past 10^8, long names, flags, s64 limits");
	free(buf);
	free(c);
}

/*
 * The batch writer against the one-line reference (kb_sample_emit) on
 * 300,000 rows: values of every length and sign, flag values below and
 * above 64, batches without flags and with mostly or only small values,
 * batches of random sizes
 * from random starting indexes that cross powers of 10, names of 1 to 31
 * characters, a flush in the middle of a batch.
 */
static void test_csv_random(void)
{
	static const char *const names[] = { "x", "empty", "add_chain_14ch",
		"add_chain_15chr", "a_routine_name_of_31_characters",
		"a_name_of_22_character" };
	static const uint64_t starts[] = { 0, 95, 9990, 99999990, 999999995,
					   12345 };
	struct kb_csv *c = malloc(sizeof(*c));
	char *got = NULL, *want = NULL;
	size_t glen, wlen, total = 0;
	FILE *fg = open_memstream(&got, &glen);
	FILE *fw = open_memstream(&want, &wlen);
	int64_t net[700];
	uint32_t fl[700];
	struct kb_rng rng;
	size_t b, i;

	kb_rng_seed(&rng, 77);
	kb_csv_init(c, fg);
	out_init(fw, false);
	fputs("index,routine,net_cycles,flags\n", fw);
	/* every value of the tables first */
	for (b = 0; b < 10000; b += 500) {
		for (i = 0; i < 500; i++) {
			net[i] = (int64_t)(b + i);
			fl[i] = 0;
		}
		kb_csv_rows(c, "empty", b, net, fl, 500);
		for (i = 0; i < 500; i++)
			kb_sample_emit(true, b + i, "empty", 0, net[i], 0);
		total += 500;
	}
	for (b = 0; total < 310000; b++) {
		size_t n = 1 + (size_t)kb_rng_below(&rng, 700);
		uint64_t first = starts[b % 6] + kb_rng_below(&rng, 20);
		const char *name = names[kb_rng_below(&rng, 6)];
		/* every other batch as most are: no flags, small values */
		bool quiet = b % 2;

		for (i = 0; i < n; i++) {
			uint64_t x = kb_rng_next(&rng);
			unsigned int digits = (unsigned int)(x % 20);

			net[i] = (int64_t)(x >> 8);
			while (digits--)
				net[i] /= 10;
			net[i] = x & 1 ? -net[i] : net[i];
			if (x % 53 == 0)
				net[i] = x & 2 ? INT64_MIN : INT64_MAX;
			fl[i] = x % 7 ? 0 : (uint32_t)(x >> 40) % 70;
			if (x % 101 == 0)
				fl[i] = (uint32_t)(x >> 32);
			if (quiet) {
				fl[i] = 0;
				if (x % 61 || b % 4 == 1)
					net[i] = (int64_t)(x % (b % 4 == 1 ? 8192 : 10007));
			}
		}
		kb_csv_rows(c, name, first, net, fl, n);
		for (i = 0; i < n; i++)
			kb_sample_emit(true, first + i, name, 0, net[i], fl[i]);
		total += n;
	}
	kb_csv_flush(c);
	fclose(fg);
	fclose(fw);
	out_init(stdout, false);
	ok(glen == wlen && !memcmp(got, want, glen),
	   "CSV batch writer equals the one-line writer on %zu random rows (%zu bytes)",
	   total, glen);
	free(got);
	free(want);
	free(c);
}

/*
 * kb_page_decode: packed pages of each width,
 * the flag list at the page's ends and cleared for the next page,
 * malformed pages refused, unpacked pages passed through.
 */
static void test_page_decode(void)
{
	static unsigned char b[4][8192] __attribute__((aligned(8)));
	static const int64_t want[37] = {
		0, 5, -3, 127, -128, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
		-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, 100, 101, 102, 103,
		104, 105, 106, 107, 108 };
	static const int64_t big[3] = { INT64_MIN, INT64_MAX, -40000 };
	static const unsigned int widths[4] = { 1, 2, 4, 8 };
	struct nlattr *tb[KBENCH_A_SAMPLES_MAX + 1];
	unsigned char packed[37 * 8];
	uint32_t pairs[4] = { 0, KBENCH_SAMPLE_F_NMI, 36, 3 };
	uint32_t flags[3] = { 0, 7, 0 };
	struct kb_page pg;
	int w, bad = 0;
	size_t i;

	for (w = 0; w < 4; w++) {
		uint8_t width = (uint8_t)widths[w];

		for (i = 0; i < 37; i++) {
			int8_t c = (int8_t)want[i];
			int16_t h = (int16_t)want[i];
			int32_t l = (int32_t)want[i];

			memcpy(packed + i * width,
			       width == 1 ? (void *)&c : width == 2 ? (void *)&h :
			       width == 4 ? (void *)&l : (void *)&want[i], width);
		}
		memset(tb, 0, sizeof(tb));
		tb[KBENCH_A_SAMPLES_NET_WIDTH] =
			unit_nlattr(b[0], KBENCH_A_SAMPLES_NET_WIDTH, &width, 1);
		tb[KBENCH_A_SAMPLES_NET_PACKED] =
			unit_nlattr(b[1], KBENCH_A_SAMPLES_NET_PACKED, packed, 37u * width);
		tb[KBENCH_A_SAMPLES_FLAG_LIST] = w % 2 ? NULL :
			unit_nlattr(b[2], KBENCH_A_SAMPLES_FLAG_LIST, pairs, sizeof(pairs));
		if (kb_page_decode(tb, &pg) != 1 || pg.n != 37 ||
		    memcmp(pg.net, want, sizeof(want)))
			bad++;
		for (i = 0; i < 37; i++) {
			uint32_t f;

			memcpy(&f, (const char *)pg.flags + 4 * i, 4);
			if (f != (w % 2 ? 0 : i == 0 ? KBENCH_SAMPLE_F_NMI :
				  i == 36 ? 3 : 0))
				bad++;
		}
	}
	ok(!bad, "packed pages of widths 1, 2, 4, 8: values, flag list at both ends, cleared for the next page");

	/* width 8 extremes */
	{
		uint8_t width = 8;

		memset(tb, 0, sizeof(tb));
		tb[KBENCH_A_SAMPLES_NET_WIDTH] = unit_nlattr(b[0], KBENCH_A_SAMPLES_NET_WIDTH, &width, 1);
		tb[KBENCH_A_SAMPLES_NET_PACKED] = unit_nlattr(b[1], KBENCH_A_SAMPLES_NET_PACKED, big, sizeof(big));
		ok(kb_page_decode(tb, &pg) == 1 && pg.n == 3 && !memcmp(pg.net, big, sizeof(big)) &&
		   !memcmp(pg.flags, (uint32_t[3]){ 0 }, 12), "a packed page of width 8: s64 limits");
	}
	/* malformed */
	{
		static const struct {
			uint8_t width;
			size_t len, flen;
			uint32_t idx0, idx1;
			const char *what;
		} cases[] = {
			{ 3, 6, 0, 0, 0, "width 3" },
			{ 2, 5, 0, 0, 0, "5 bytes of width 2" },
			{ 1, 4, 12, 0, 1, "a flag list of 12 bytes" },
			{ 1, 4, 8, 4, 0, "a flag index past the page" },
			{ 1, 4, 16, 2, 1, "flag indexes out of order" },
			{ 1, 4, 16, 1, 1, "a flag index twice" },
		};
		unsigned int k, nbad = 0;

		for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			uint32_t fl2[4] = { cases[k].idx0, 1, cases[k].idx1, 2 };
			uint8_t width = cases[k].width;

			memset(tb, 0, sizeof(tb));
			tb[KBENCH_A_SAMPLES_NET_WIDTH] = unit_nlattr(b[0], KBENCH_A_SAMPLES_NET_WIDTH, &width, 1);
			tb[KBENCH_A_SAMPLES_NET_PACKED] = unit_nlattr(b[1], KBENCH_A_SAMPLES_NET_PACKED, packed, cases[k].len);
			if (cases[k].flen)
				tb[KBENCH_A_SAMPLES_FLAG_LIST] = unit_nlattr(b[2], KBENCH_A_SAMPLES_FLAG_LIST, fl2, cases[k].flen);
			if (kb_page_decode(tb, &pg) != -EPROTO) {
				diag("accepted: %s", cases[k].what);
				nbad++;
			}
		}
		ok(!nbad, "malformed packed pages are refused with EPROTO (%u cases)", k);
	}
	/* unpacked: the message's arrays as they are */
	memset(tb, 0, sizeof(tb));
	tb[KBENCH_A_SAMPLES_NET] = unit_nlattr(b[0], KBENCH_A_SAMPLES_NET, big, sizeof(big));
	tb[KBENCH_A_SAMPLES_FLAGS] = unit_nlattr(b[1], KBENCH_A_SAMPLES_FLAGS, flags, sizeof(flags));
	ok(kb_page_decode(tb, &pg) == 1 && pg.n == 3 &&
	   !memcmp(pg.net, big, sizeof(big)) && !memcmp(pg.flags, flags, sizeof(flags)),
	   "an unpacked page passes through");
	memset(tb, 0, sizeof(tb));
	ok(kb_page_decode(tb, &pg) == 0, "a message without samples: no page");
}

/*
 * The line of sampling until answered, in its three outcomes: what it
 * says must not depend on the CPU's noise, so the outcomes are set here.
 */
static void test_until_line(void)
{
	static struct kb_run r;
	struct kb_until u = {
		.compare = true, .precision_pct = 0.001, .threshold_pct = 1,
		.max_time_s = 0.3, .looks = 3, .elapsed_s = 0.31,
	};
	char *s;

	r.nres = 2;
	r.res[0].n = 7000;
	capture_start(false);
	kb_until_print(&u, &r);
	s = capture_end();
	expect_str(s, "sampled until --max-time, unanswered: 3 looks, 7000 samples per routine, 0.31 s "
		   "(at most 0.3 s; until precise, CI half-width 0.001% asked; false alarms at most 0.05 over all looks "
		   "(8 at most), 0.0082 at the last)\n",
		   "until: out of time, the line says unanswered, what was asked and the last look's alarm budget");
	free(s);

	u.looks = 8;
	u.last_look = true;
	capture_start(false);
	kb_until_print(&u, &r);
	s = capture_end();
	ok(!strncmp(s, "sampled until the last look, unanswered: 8 looks", 48),
	   "until: the looks ran out, said so (%.48s)", s);
	free(s);

	u.last_look = false;
	u.answered = true;
	u.looks = 1;
	capture_start(true);
	kb_until_print(&u, &r);
	s = capture_end();
	if (!ok(strstr(s, "\"answered\": true,\n") && strstr(s, "\"looks\": 1,\n") &&
		strstr(s, "\"stop_rule\": \"precise\",\n") &&
		strstr(s, "\"precision_pct\": 0.001,\n"),
		"until --json: answered, its looks, stop rule and precision"))
		diag("%s", s);
	free(s);
}

void test_output(void)
{
	test_until_line();
	test_page_decode();
	test_csv();
	test_csv_random();
	test_json_escape();
	test_output_layer();
	test_flag_names();
	test_csv_line();
	test_hist();
	test_svg();
	test_parse();
	test_progress();
	test_extack();
}
