// SPDX-License-Identifier: GPL-2.0
/*
 * Sweeps: --arg SPEC parsing (every form and every mistake), the values'
 * formatting, the crossings of two curves, and the complexity fit against
 * synthetic data (every complexity, with noise) and against numpy's least
 * squares (fixtures/fit.txt, gen_fixtures.py).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "output.h"
#include "stats.h"
#include "sweep.h"
#include "tap.h"
#include "tests.h"

/* @spec parses to exactly @n values @v (and @kind). */
static void parses(const char *spec, enum kb_sweep_kind kind, unsigned int n,
		   const uint64_t *v)
{
	struct kb_sweep sw;
	char err[256] = "";
	bool same;
	unsigned int i;

	same = !kb_sweep_parse(spec, &sw, err, sizeof(err)) && sw.kind == kind &&
	       sw.n == n;
	for (i = 0; same && i < n; i++)
		same = sw.v[i] == v[i];
	if (!ok(same, "--arg %s: %u values, kind %d", spec, n, kind)) {
		diag("err '%s', kind %d, n %u:", err, sw.kind, sw.n);
		for (i = 0; i < sw.n && i < 8; i++)
			diag("  v[%u] = %llu", i, (unsigned long long)sw.v[i]);
	}
}

/* @spec is refused with exactly @msg. */
static void refused(const char *spec, const char *msg)
{
	struct kb_sweep sw;
	char err[256] = "";
	int ret = kb_sweep_parse(spec, &sw, err, sizeof(err));

	if (!ok(ret == -EINVAL && !strcmp(err, msg), "--arg '%s' refused: %s",
		spec ? spec : "(null)", msg))
		diag("got %d: '%s'", ret, err);
}

static void test_parse(void)
{
	static const uint64_t geo[] = { 1, 2, 4, 8, 16, 32, 64 };
	static const uint64_t bytes[] = { 65536, 131072, 262144, 524288,
					  1048576 };
	static const uint64_t ari[] = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90,
					100 };
	static const uint64_t list[] = { 1, 3, 7 };
	static const uint64_t x3[] = { 5, 15, 45 };
	static const uint64_t one[] = { 4096 };
	static const uint64_t top[] = { 18446744073709551614ULL,
					18446744073709551615ULL };
	static const uint64_t k[] = { 4096, 1073741824 };
	uint64_t many[KB_SWEEP_MAX];
	char spec[32];
	unsigned int i;

	parses("1..64:x2", KB_SWEEP_GEOM, 7, geo);
	parses("64K..1M:x2", KB_SWEEP_GEOM, 5, bytes);
	parses("0..100:+10", KB_SWEEP_ARITH, 11, ari);
	parses("0..105:+10", KB_SWEEP_ARITH, 11, ari);
	parses("5..50:x3", KB_SWEEP_GEOM, 3, x3);
	parses("1,3,7", KB_SWEEP_LIST, 3, list);
	parses("4096", KB_SWEEP_ONE, 1, one);
	parses("4K", KB_SWEEP_ONE, 1, one);
	parses("4K,1G", KB_SWEEP_LIST, 2, k);
	parses("7..7:+1", KB_SWEEP_ARITH, 1, list + 2);
	parses("18446744073709551614..18446744073709551615:+1",
	       KB_SWEEP_ARITH, 2, top);
	parses("9223372036854775808..18446744073709551615:x2", KB_SWEEP_GEOM,
	       1, (const uint64_t[]){ 9223372036854775808ULL });
	for (i = 0; i < KB_SWEEP_MAX; i++)
		many[i] = i + 1;
	snprintf(spec, sizeof(spec), "1..%d:+1", KB_SWEEP_MAX);
	parses(spec, KB_SWEEP_ARITH, KB_SWEEP_MAX, many);

	refused("", "empty: give a value (64), a list (1,3,7) or a range with a step (64..65536:x2, 0..100:+10)");
	refused(NULL, "empty: give a value (64), a list (1,3,7) or a range with a step (64..65536:x2, 0..100:+10)");
	refused("64..32:x2", "the range 64..32 is reversed: the first value is the smallest");
	refused("1..10:+0", "step +0 never moves: at least +1");
	refused("1..10:x1", "factor x1 never moves: at least x2");
	refused("1..10:x0", "factor x0 never moves: at least x2");
	refused("1..10:+-1", "'-1' is negative: values are 0 or more");
	refused("-5", "'-5' is negative: values are 0 or more");
	refused("1..10", "a range needs a step: 1..10:x2 (geometric) or 1..10:+1 (arithmetic)");
	refused("1..10:y2", "step 'y2': +S (arithmetic: add S) or xK (geometric: multiply by K)");
	refused("1..10:", "step '': +S (arithmetic: add S) or xK (geometric: multiply by K)");
	refused("0..64:x2", "a geometric range cannot start at 0 (0 x 2 is 0): start at 1 or more");
	refused("1..1000:+1", "more than 128 values (a larger step, or a narrower range)");
	refused("0..18446744073709551615:+1", "more than 128 values (a larger step, or a narrower range)");
	refused("18446744073709551616", "'18446744073709551616' is above 18446744073709551615");
	refused("17179869184G", "'17179869184G' is above 18446744073709551615");
	refused("1..99999999999999999999:x2", "'99999999999999999999' is above 18446744073709551615");
	refused("abc", "'abc' is not a whole number (digits, then K, M or G for 1024, 1024^2, 1024^3)");
	refused("4k", "'4k' is not a whole number (digits, then K, M or G for 1024, 1024^2, 1024^3)");
	refused("K", "'K' is not a whole number");
	refused("1,,3", "an empty value in the list");
	refused("1,3,", "an empty value in the list");
	refused(",1", "an empty value in the list");
	refused("1,3,3", "3 is given twice");
	refused("1..4:+1,8", "a list (1,3,7) or a range (1..7:+2), not both");
	refused("..4:+1", "a value is missing");
	refused("1..:+1", "a value is missing");
	refused("1..4:+", "a value is missing");
	refused("1..4:x2x", "'2x' is not a whole number (digits, then K, M or G for 1024, 1024^2, 1024^3)");
	refused(" 1", "' 1' is not a whole number (digits, then K, M or G for 1024, 1024^2, 1024^3)");
}

static void test_format(void)
{
	static const struct {
		uint64_t v;
		bool bytes;
		const char *want;
	} t[] = {
		{ 0, true, "0" }, { 1, true, "1" }, { 1000, true, "1000" },
		{ 1024, true, "1K" }, { 4096, true, "4K" }, { 1536, true, "1536" },
		{ 1048576, true, "1M" }, { 268435456, true, "256M" },
		{ 1073741824, true, "1G" }, { 3221225472ULL, true, "3G" },
		{ 1024, false, "1024" }, { 1048576, false, "1048576" },
	};
	char buf[32];
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		kb_sweep_format(t[i].v, t[i].bytes, buf, sizeof(buf));
		ok(!strcmp(buf, t[i].want), "format %llu%s: %s (%s)",
		   (unsigned long long)t[i].v, t[i].bytes ? " bytes" : "",
		   t[i].want, buf);
	}
}

static void test_crossings(void)
{
	/* add_n (a) against add_half (b) under icount: x+2 and x/2+10 */
	static const double x[] = { 4, 8, 16, 32, 64 };
	static const double d[] = { 12 - 6, 14 - 10, 0, 26 - 34, 42 - 66 };
	static const double dl[] = { 6, 4, 2, -1, -24 };
	static const double da[] = { -3, -1, 2, 2, 0, 5, -4 };
	static const double xa[] = { 0, 10, 20, 30, 40, 50, 60 };
	struct kb_crossing c[8];
	unsigned int n;

	n = kb_sweep_crossings(x, d, 5, true, c, 8);
	ok(n == 1 && c[0].low == 8 && c[0].high == 32 && c[0].at == 16 &&
	   c[0].exact && c[0].below == 1 && c[0].above == -1,
	   "crossings: equal at 16 between 8 and 32, a faster below, b above");
	n = kb_sweep_crossings(x, dl, 5, true, c, 8);
	/* log2: 4 + (5 - 4) x 2 / 3 -> 2^(4 + 2/3) */
	ok(n == 1 && c[0].low == 16 && c[0].high == 32 && !c[0].exact &&
	   close_to(c[0].at, exp2(4 + 2.0 / 3), 1e-12),
	   "crossings: log2 interpolation between 16 and 32 (%.6f)", n ? c[0].at : NAN);
	n = kb_sweep_crossings(x, dl, 5, false, c, 8);
	ok(n == 1 && close_to(c[0].at, 16 + 16 * 2.0 / 3, 1e-12),
	   "crossings: linear interpolation on a linear axis (%.6f)", n ? c[0].at : NAN);
	n = kb_sweep_crossings(xa, da, 7, false, c, 8);
	ok(n == 3 && close_to(c[0].at, 10 + 10 * -1.0 / -3, 1e-12) &&
	   c[0].below == -1 && c[0].above == 1 &&
	   c[1].low == 40 && c[1].high == 40 && c[1].exact && !c[1].below &&
	   c[2].low == 50 && c[2].high == 60 && close_to(c[2].at, 50 + 10 * 5.0 / 9, 1e-12),
	   "crossings: a sign change, a touch (equal without a change), another change");
	n = kb_sweep_crossings(x, d + 3, 2, true, c, 8);
	ok(n == 0, "crossings: none when one side is faster everywhere");
	ok(kb_sweep_crossings(xa, da, 7, false, c, 1) == 1,
	   "crossings: at most the room given");
}

/* t = coef x f(n) x (1 + noise): the fit finds f and coef (and O(1)). */
static void test_fit_synthetic(void)
{
	static const double coef[] = { 1.0, 0.25, 3.0, 12.5 };
	double n[16], t[16];
	struct kb_rng rng;
	struct kb_fit best, all[KB_O_COUNT];
	int c, k, i, pass, err;

	kb_rng_seed(&rng, 42);
	for (pass = 0; pass < 2; pass++) {
		for (c = 0; c < KB_O_COUNT; c++) {
			for (k = 0; k < 4; k++) {
				for (i = 0; i < 16; i++) {
					/* geometric 2..65536, arithmetic 10..160 */
					double noise = pass ? ((double)kb_rng_below(&rng, 2001) - 1000) / 1000 * 0.02 : 0;

					n[i] = k % 2 ? 10.0 * (i + 1) : exp2(i + 1);
					t[i] = coef[k] * kb_big_o_f(c, n[i]) * (1 + noise);
				}
				/* before ok(): its arguments print best */
				err = kb_fit(n, t, 16, KB_O_AUTO, &best, all);
				ok(!err && (int)best.complexity == c &&
				   close_to(best.coef, coef[k], pass ? 0.02 : 1e-12) &&
				   best.rms <= (pass ? 0.02 : 1e-12),
				   "fit %s of %s x %s%s: coefficient %.6g, RMS %.3g",
				   k % 2 ? "arithmetic" : "geometric",
				   kb_big_o_text(c), pass ? "(+-2% noise) " : "",
				   kb_big_o_name(c), best.coef, best.rms);
			}
		}
	}
	/* a given complexity is fitted whatever fits best */
	for (i = 0; i < 7; i++) {
		n[i] = exp2(i);
		t[i] = n[i];
	}
	ok(!kb_fit(n, t, 7, KB_O_N2, &best, NULL) && best.complexity == KB_O_N2 &&
	   best.rms > 0.1, "--fit n2 fits n^2 to linear data (RMS %.3f)", best.rms);
	ok(!kb_fit(n, t, 7, KB_O_AUTO, &best, NULL) && best.complexity == KB_O_N &&
	   best.coef == 1 && best.rms == 0,
	   "add_n corrected under icount: O(n), coefficient exactly 1, RMS 0");
	for (i = 0; i < 7; i++)
		t[i] = 7;
	ok(!kb_fit(n, t, 7, KB_O_AUTO, &best, all) && best.complexity == KB_O_1 &&
	   best.coef == 7 && best.rms == 0,
	   "a constant is O(1), coefficient 7");
	ok(kb_fit(n, t, 1, KB_O_AUTO, &best, NULL) == -EINVAL,
	   "fit: one point is not enough");
	n[3] = 0;
	ok(kb_fit(n, t, 7, KB_O_AUTO, &best, NULL) == -EINVAL,
	   "fit: n = 0 is refused (log n)");
	n[0] = 1;
	n[1] = 1;
	t[0] = t[1] = 5;
	kb_fit_one(n, t, 2, KB_O_LOGN, &best);
	ok(!best.valid && isinf(best.rms), "O(log n) of n = 1 only: no fit");
	ok(!kb_fit(n, t, 2, KB_O_AUTO, &best, NULL) &&
	   best.complexity == KB_O_1, "... and O(1) stays the best");
}

/* fixtures/fit.txt: numpy.linalg.lstsq per candidate, and the best. */
static void test_fit_numpy(void)
{
	char path[512], line[16384], name[64] = "", *p, *end;
	double n[64], t[64], want_coef[KB_O_COUNT], want_rms[KB_O_COUNT];
	struct kb_fit best, all[KB_O_COUNT];
	size_t nn = 0, nt = 0;
	int cases = 0, c;
	FILE *f;

	snprintf(path, sizeof(path), "%s/fit.txt", fixtures_dir);
	f = fopen(path, "r");
	if (!ok(f != NULL, "fixtures/fit.txt opens"))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "case ", 5)) {
			sscanf(line + 5, "%63s", name);
			nn = nt = 0;
		} else if (!strncmp(line, "n ", 2) || !strncmp(line, "t ", 2)) {
			double *v = line[0] == 'n' ? n : t;
			size_t *len = line[0] == 'n' ? &nn : &nt;

			for (p = line + 2; *len < 64; p = end) {
				v[*len] = strtod(p, &end);
				if (end == p)
					break;
				(*len)++;
			}
		} else if (!strncmp(line, "best ", 5)) {
			char want[16];
			bool good;

			sscanf(line + 5, "%15s", want);
			good = nn == nt && !kb_fit(n, t, nn, KB_O_AUTO, &best, all) &&
			       !strcmp(kb_big_o_name(best.complexity), want);
			for (c = 0; good && c < KB_O_COUNT; c++)
				good = close_to(all[c].coef, want_coef[c], 1e-9) &&
				       (close_to(all[c].rms, want_rms[c], 1e-9) ||
					fabs(all[c].rms - want_rms[c]) < 1e-12);
			if (!ok(good, "fit of %s as numpy's lstsq: best %s", name, want))
				for (c = 0; c < KB_O_COUNT; c++)
					diag("%s: coef %.17g (numpy %.17g), rms %.17g (%.17g)",
					     kb_big_o_name(c), all[c].coef, want_coef[c],
					     all[c].rms, want_rms[c]);
			cases++;
		} else if (!strncmp(line, "fit ", 4)) {
			char cname[16];
			double a, b;

			if (sscanf(line + 4, "%15s %lf %lf", cname, &a, &b) != 3)
				continue;
			for (c = 0; c < KB_O_COUNT; c++)
				if (!strcmp(cname, kb_big_o_name(c))) {
					want_coef[c] = a;
					want_rms[c] = b;
				}
		}
	}
	fclose(f);
	ok(cases >= 28, "fixtures/fit.txt: %d cases", cases);
}

void test_sweep(void)
{
	test_parse();
	test_format();
	test_crossings();
	test_fit_synthetic();
	test_fit_numpy();
}
