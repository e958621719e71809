// SPDX-License-Identifier: GPL-2.0
/*
 * user/b64.c: base64 of the integer arrays of result files, against a
 * bit-by-bit reference encoder; bad characters found where they are.
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
#include "base.h"
#include "output.h"
#include "resfile.h"
#include "runopts.h"
#include "stats.h"
#include "tap.h"
#include "tests.h"
#include "resfix.h"

/* Base64 the plain way, a bit at a time: the reference for b64.c. */
static size_t ref_b64(char *d, const int64_t *v, size_t n, unsigned int width)
{
	static const char al[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t nbits = n * width * 8, bit, o = 0;
	unsigned int acc = 0, k = 0;

	for (bit = 0; bit < nbits; bit++) {
		size_t byte = bit / 8;
		uint64_t x = (uint64_t)v[byte / width];
		unsigned int b = (unsigned int)(x >> (8 * (byte % width))) & 0xff;

		acc = acc << 1 | ((b >> (7 - bit % 8)) & 1);
		if (++k == 6) {
			d[o++] = al[acc];
			acc = k = 0;
		}
	}
	if (k)
		d[o++] = al[acc << (6 - k)];
	while (o % 4)
		d[o++] = '=';
	return o;
}

static void test_b64_known(void)
{
	static const struct { int64_t v[3]; size_t n; unsigned int w; const char *s; } vec[] = {
		{ { 1 }, 1, 4, "AQAAAA==" },
		{ { -1 }, 1, 4, "/////w==" },
		{ { 1, 2 }, 2, 4, "AQAAAAIAAAA=" },
		{ { 1, 2, 3 }, 3, 4, "AQAAAAIAAAADAAAA" },
		{ { 1 }, 1, 8, "AQAAAAAAAAA=" },
		{ { INT64_MIN }, 1, 8, "AAAAAAAAAIA=" },
		{ { 0 }, 0, 4, "" },
	};
	char a[2048], b[1024];
	int64_t v[64], back[64];
	struct kb_rng rng;
	size_t i, n, k, la, lb, bad, wrong = 0, badpos = 0;
	unsigned int w;
	long long got;

	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		la = kb_b64_encode_ints(a, vec[i].v, vec[i].n, vec[i].w);
		got = kb_b64_decode_ints(back, vec[i].s, strlen(vec[i].s),
					 vec[i].w, &bad);
		if (la != strlen(vec[i].s) || memcmp(a, vec[i].s, la) ||
		    got != (long long)vec[i].n ||
		    memcmp(back, vec[i].v, vec[i].n * sizeof(*back)))
			wrong++;
	}
	ok(!wrong, "base64: known vectors (1, -1, INT64_MIN; 0-3 values; padding)");

	kb_rng_seed(&rng, 5);
	wrong = 0;
	for (w = 4; w <= 8; w += 4) {
		for (n = 0; n <= 64; n++) {
			for (i = 0; i < n; i++) {
				uint64_t x = kb_rng_next(&rng);

				v[i] = w == 4 ? (int32_t)(uint32_t)x : (int64_t)x;
			}
			if (n > 2 && w == 4) {
				v[0] = INT32_MIN;
				v[1] = INT32_MAX;
			}
			la = kb_b64_encode_ints(a, v, n, w);
			lb = ref_b64(b, v, n, w);
			/* in pieces of 3 values: the same text */
			for (k = 0, i = 0; i < n; i += 3)
				k += kb_b64_encode_ints(a + 1024 + k, v + i,
							n - i < 3 ? n - i : 3, w);
			memset(back, 0x55, sizeof(back));
			got = kb_b64_decode_ints(back, a, la, w, &bad);
			if (la != lb || memcmp(a, b, la) || k != la ||
			    memcmp(a, a + 1024, la) || got != (long long)n ||
			    kb_b64_count(a, la, w) != (long long)n ||
			    memcmp(back, v, n * sizeof(*v)) ||
			    (n && kb_b64_width(v, n) != w))
				wrong++;
		}
	}
	ok(!wrong, "base64: 0-64 random values of 4 and 8 bytes equal a bit-by-bit encoder and decode back");

	/* every position of a 40-value text: a bad character is found there */
	for (i = 0; i < 40; i++)
		v[i] = (int64_t)i * 1000 - 7;
	la = kb_b64_encode_ints(a, v, 40, 4);
	wrong = 0;
	for (i = 0; i < la; i++) {
		static const char junk[] = "\"\\=\n -.\x80";
		char c = a[i];

		a[i] = junk[i % (sizeof(junk) - 1)];
		got = kb_b64_decode_ints(back, a, la, 4, &bad);
		/*
		 * the padding replaced by itself is no error; the last '='
		 * replaced leaves the one before it out of place
		 */
		if (a[i] != c && (got != -1 || (bad != i && i != la - 1) ||
				  (i == la - 1 && bad != la - 2)) && !wrong++)
			diag("bad character at %zu: %lld, found at %zu", i, got, bad);
		a[i] = c;
	}
	badpos = wrong;
	/* 13 steps of 16 characters: 39 values */
	got = kb_b64_decode_ints(back, a, 208, 4, &bad);
	ok(!badpos && got == 39 && !memcmp(back, v, 39 * sizeof(*v)) &&
	   kb_b64_count(a, la - 1, 4) == -1 &&
	   kb_b64_count(a, 208, 8) == -1 && kb_b64_count(a, la, 5) == -1,
	   "base64: a bad character at each of %zu places is found where it is; wrong lengths and widths refused",
	   la);
	ok(kb_b64_width(v, 40) == 4 && (v[17] = (int64_t)INT32_MAX + 1, kb_b64_width(v, 40) == 8) &&
	   (v[17] = (int64_t)INT32_MIN - 1, kb_b64_width(v, 40) == 8) &&
	   (v[17] = INT32_MIN, kb_b64_width(v, 40) == 4),
	   "base64: width 4 exactly when every value fits in int32");
}

/*
 * Long arrays (lengths around multiples of 3 values and of the former
 * vector codec's chunks): the same text as the bit-by-bit encoder, the
 * same values back, and a bad character found where it is.
 */
static void test_b64_long(void)
{
	static const size_t sizes[] = { 383, 384, 385, 767, 768, 769, 770,
					1536, 2305, 3 * 768 + 2, 5000 };
	size_t cap = 5000, i, j, la, lb, bad, wrong = 0, badpos = 0;
	char *a = malloc(cap * 8 / 3 * 4 + 8), *b = malloc(cap * 8 / 3 * 4 + 8);
	int64_t *v = malloc(cap * sizeof(*v)), *back = malloc(cap * sizeof(*v));
	unsigned int w;
	struct kb_rng rng;
	long long got;

	if (!a || !b || !v || !back)
		abort();
	kb_rng_seed(&rng, 11);
	{
		for (w = 4; w <= 8; w += 4) {
			for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
				size_t n = sizes[i];

				for (j = 0; j < n; j++) {
					uint64_t x = kb_rng_next(&rng);

					v[j] = w == 4 ? (int32_t)(uint32_t)x : (int64_t)x;
				}
				la = kb_b64_encode_ints(a, v, n, w);
				lb = ref_b64(b, v, n, w);
				memset(back, 0x55, n * sizeof(*back));
				got = kb_b64_decode_ints(back, a, la, w, &bad);
				if (la != lb || memcmp(a, b, la) ||
				    got != (long long)n ||
				    memcmp(back, v, n * sizeof(*v))) {
					if (!wrong++)
						diag("width %u, %zu values: %zu/%zu chars, %lld back",
						     w, n, la, lb, got);
				}
				/* bad characters in the first and second chunk */
				for (j = 1; j < la - 4; j += 613) {
					char c = a[j];

					a[j] = j % 2 ? '=' : '\x80';
					got = kb_b64_decode_ints(back, a, la, w, &bad);
					if ((got != -1 || bad != j) && !badpos++)
						diag("width %u, %zu values: bad char at %zu: %lld, found at %zu",
						     w, n, j, got, bad);
					a[j] = c;
				}
			}
		}
	}
	/* the width test: one odd value anywhere, both ways */
	for (j = 0; j < 77; j++) {
		for (i = 0; i < 77; i++)
			v[i] = (int64_t)i - 38;
		v[j] = j % 2 ? (int64_t)INT32_MAX + 1 : (int64_t)INT32_MIN - 1;
		if ((kb_b64_width(v, 77) != 8 || kb_b64_width(v, j) != 4) &&
		    !badpos++)
			diag("width: odd value at %zu", j);
	}
	ok(!wrong, "base64: 383-5000 values of 4 and 8 bytes equal a bit-by-bit encoder and decode back");
	ok(!badpos, "base64: a bad character in a long array is found where it is; the width test sees one odd value anywhere in 77");
	free(a);
	free(b);
	free(v);
	free(back);
}

void test_b64(void)
{
	test_b64_known();
	test_b64_long();
}
