// SPDX-License-Identifier: GPL-2.0
/*
 * Base64 of integer arrays (see b64.h).  A million samples are encoded or
 * decoded in about the time the kernel takes to copy the text: the work
 * per three 32-bit words (16 characters) is 8 table lookups and a few
 * shifts, with no branch per character.
 *
 * Encoding: 12 bits at a time through a 4096-entry table of character
 * pairs.  Decoding: a pair of characters (16 bits, read little-endian) at
 * a time through two 65536-entry tables that give the pair's bits already
 * in place in a 24-bit little-endian group, or bit 31 for a pair that is
 * not base64; one OR of all groups catches every bad character.
 *
 * On x86_64 CPUs with AVX2 (checked at run time) whole chunks of values
 * go through the vector codec of Muła and Lemire ("Faster Base64 Encoding
 * and Decoding Using AVX2 Instructions", ACM TWEB 2018): 24 bytes to 32
 * characters and back per step, with the same validation (any byte that
 * is not in the alphabet fails the chunk, which then fails the array).
 * The scalar code does the rest of the array; both give the same text.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "b64.h"

#define B64_BAD		0x80000000u

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static uint16_t enc_pair[4096];		/* 12 bits -> 2 characters */
static uint32_t dec_first[65536];	/* characters 1-2 of a group */
static uint32_t dec_second[65536];	/* characters 3-4 */
static uint8_t dec_val[256];		/* one character: 0-63, or 0xff */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
#if defined(__x86_64__)
static bool use_avx2;
#endif

static void tables_init(void)
{
	unsigned int i;

#if defined(__x86_64__)
	/* KBENCH_B64_SCALAR=1: the scalar code only (tests, comparisons) */
	use_avx2 = __builtin_cpu_supports("avx2") &&
		   !getenv("KBENCH_B64_SCALAR");
#endif

	for (i = 0; i < 4096; i++)
		enc_pair[i] = (uint16_t)((uint8_t)alphabet[i >> 6] |
					 (uint8_t)alphabet[i & 63] << 8);
	memset(dec_val, 0xff, sizeof(dec_val));
	for (i = 0; i < 64; i++)
		dec_val[(uint8_t)alphabet[i]] = (uint8_t)i;
}

/*
 * The pair tables (512 KiB) only when the scalar decoder has whole steps
 * to do: the vector codec and the last group go without them.
 */
static pthread_once_t pair_once = PTHREAD_ONCE_INIT;

static void pair_tables_init(void)
{
	uint32_t a0[256], a1[256], b0[256], b1[256];
	unsigned int i, k;

	/*
	 * Group c0 c1 c2 c3 = 24 bits v0 v1 v2 v3 = bytes
	 *   x0 = v0 << 2 | v1 >> 4, x1 = (v1 & 15) << 4 | v2 >> 2,
	 *   x2 = (v2 & 3) << 6 | v3,
	 * kept as x0 | x1 << 8 | x2 << 16: each character's share of it.
	 */
	for (i = 0; i < 256; i++) {
		uint32_t v = dec_val[i];

		if (v == 0xff) {
			a0[i] = a1[i] = b0[i] = b1[i] = B64_BAD;
			continue;
		}
		a0[i] = v << 2;
		a1[i] = v >> 4 | (v & 15) << 12;
		b0[i] = (v >> 2) << 8 | (v & 3) << 22;
		b1[i] = v << 16;
	}
	for (k = 0; k < 256; k++) {
		for (i = 0; i < 256; i++) {
			dec_first[k << 8 | i] = a0[i] | a1[k];
			dec_second[k << 8 | i] = b0[i] | b1[k];
		}
	}
}

bool kb_b64_use_vector(bool on)
{
	pthread_once(&tables_once, tables_init);
#if defined(__x86_64__)
	use_avx2 = on && __builtin_cpu_supports("avx2");
	return use_avx2;
#else
	(void)on;
	return false;
#endif
}

#if defined(__x86_64__)
/* kb_b64_width() 8 values a step: the same test, in four lanes */
__attribute__((target("avx2")))
static uint64_t width_or_avx2(const int64_t *v, size_t n, size_t *done)
{
	const __m256i bias = _mm256_set1_epi64x(0x80000000);
	__m256i a = _mm256_setzero_si256(), b = a;
	uint64_t l[4];
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		a = _mm256_or_si256(a, _mm256_add_epi64(
			_mm256_loadu_si256((const void *)(v + i)), bias));
		b = _mm256_or_si256(b, _mm256_add_epi64(
			_mm256_loadu_si256((const void *)(v + i + 4)), bias));
	}
	_mm256_storeu_si256((void *)l, _mm256_or_si256(a, b));
	*done = i;
	return l[0] | l[1] | l[2] | l[3];
}

__attribute__((target("avx2")))
static uint32_t or32_avx2(const uint32_t *f, size_t n, size_t *done)
{
	__m256i a = _mm256_setzero_si256(), b = a;
	uint32_t l[8];
	size_t i;

	for (i = 0; i + 16 <= n; i += 16) {
		a = _mm256_or_si256(a, _mm256_loadu_si256((const void *)(f + i)));
		b = _mm256_or_si256(b, _mm256_loadu_si256((const void *)(f + i + 8)));
	}
	_mm256_storeu_si256((void *)l, _mm256_or_si256(a, b));
	*done = i;
	return l[0] | l[1] | l[2] | l[3] | l[4] | l[5] | l[6] | l[7];
}

__attribute__((target("avx2")))
static uint64_t or64_avx2(const unsigned char *v, size_t n, size_t *done)
{
	__m256i a = _mm256_setzero_si256(), b = a;
	uint64_t l[4];
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		a = _mm256_or_si256(a, _mm256_loadu_si256((const void *)(v + 8 * i)));
		b = _mm256_or_si256(b, _mm256_loadu_si256((const void *)(v + 8 * i + 32)));
	}
	_mm256_storeu_si256((void *)l, _mm256_or_si256(a, b));
	*done = i;
	return l[0] | l[1] | l[2] | l[3];
}
#endif

uint32_t kb_or32(const uint32_t *f, size_t n)
{
	uint32_t any = 0;
	size_t i = 0;

	pthread_once(&tables_once, tables_init);
#if defined(__x86_64__)
	any = use_avx2 ? or32_avx2(f, n, &i) : 0;
#endif
	while (i < n)
		any |= f[i++];
	return any;
}

#if defined(__x86_64__)
/* kb_widen() of widths 1 and 2, 8 values a step */
__attribute__((target("avx2")))
static size_t widen_avx2(int64_t *dst, const unsigned char *src, size_t n,
			 unsigned int width)
{
	size_t i = 0;

	if (width == 1) {
		for (; i + 8 <= n; i += 8) {
			__m128i b = _mm_loadl_epi64((const void *)(src + i));

			_mm256_storeu_si256((void *)(dst + i),
					    _mm256_cvtepi8_epi64(b));
			_mm256_storeu_si256((void *)(dst + i + 4),
					    _mm256_cvtepi8_epi64(_mm_srli_si128(b, 4)));
		}
	} else if (width == 2) {
		for (; i + 8 <= n; i += 8) {
			__m128i b = _mm_loadu_si128((const void *)(src + 2 * i));

			_mm256_storeu_si256((void *)(dst + i),
					    _mm256_cvtepi16_epi64(b));
			_mm256_storeu_si256((void *)(dst + i + 4),
					    _mm256_cvtepi16_epi64(_mm_srli_si128(b, 8)));
		}
	}
	return i;
}
#endif

void kb_widen(int64_t *dst, const void *src, size_t n, unsigned int width)
{
	const unsigned char *p = src;
	size_t i = 0;

	pthread_once(&tables_once, tables_init);
#if defined(__x86_64__)
	if (use_avx2)
		i = widen_avx2(dst, p, n, width);
#endif
	for (; i < n; i++) {
		int8_t b;
		int16_t h;
		int32_t w;

		switch (width) {
		case 1:
			memcpy(&b, p + i, 1);
			dst[i] = b;
			break;
		case 2:
			memcpy(&h, p + 2 * i, 2);
			dst[i] = h;
			break;
		case 4:
			memcpy(&w, p + 4 * i, 4);
			dst[i] = w;
			break;
		default:
			memcpy(&dst[i], p + 8 * i, 8);
		}
	}
}

uint64_t kb_or64(const void *v, size_t n)
{
	const unsigned char *p = v;
	uint64_t any = 0, x;
	size_t i = 0;

	pthread_once(&tables_once, tables_init);
#if defined(__x86_64__)
	any = use_avx2 ? or64_avx2(p, n, &i) : 0;
#endif
	for (; i < n; i++) {
		memcpy(&x, p + 8 * i, sizeof(x));
		any |= x;
	}
	return any;
}

unsigned int kb_b64_width(const int64_t *v, size_t n)
{
	uint64_t a = 0, b = 0;
	size_t i = 0;

	pthread_once(&tables_once, tables_init);
#if defined(__x86_64__)
	if (use_avx2)
		a = width_or_avx2(v, n, &i);
#endif

	/*
	 * v fits in int32 when v + 2^31 < 2^32: OR those together and look at
	 * the high half once.  No early exit: a load, an add and an OR each.
	 */
	for (; i + 2 <= n; i += 2) {
		a |= (uint64_t)v[i] + 0x80000000u;
		b |= (uint64_t)v[i + 1] + 0x80000000u;
	}
	if (i < n)
		a |= (uint64_t)v[i] + 0x80000000u;
	return (a | b) >> 32 ? 8 : 4;
}

#if defined(__x86_64__)
/*
 * The vector codec works on chunks of B64_CHUNK bytes (a multiple of 24:
 * 128 steps, 4096 characters), which is 768 values of 4 bytes or 384 of 8
 * - both multiples of 3, so the scalar code can go on where it stops.
 */
#define B64_CHUNK	3072
#define B64_CHARS	(B64_CHUNK / 3 * 4)

/* 24 bytes -> 32 characters (Muła-Lemire), @s readable to s[27]. */
__attribute__((target("avx2")))
static inline void enc24_avx2(char *d, const uint8_t *s)
{
	const __m256i shuf = _mm256_setr_epi8(
		1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
		1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
	const __m256i lut = _mm256_setr_epi8(
		65, 71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -19, -16, 0, 0,
		65, 71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, -19, -16, 0, 0);
	__m256i in, t0, t1, t2, t3, idx, cls;

	/* bytes 0-11 in the low lane, 12-23 in the high one */
	in = _mm256_inserti128_si256(
		_mm256_castsi128_si256(_mm_loadu_si128((const void *)s)),
		_mm_loadu_si128((const void *)(s + 12)), 1);
	/* each 32-bit lane: b1 b0 b2 b1 of its 3 bytes b0 b1 b2 */
	in = _mm256_shuffle_epi8(in, shuf);
	/* the four 6-bit fields, one per byte, in stream order */
	t0 = _mm256_and_si256(in, _mm256_set1_epi32(0x0fc0fc00));
	t1 = _mm256_mulhi_epu16(t0, _mm256_set1_epi32(0x04000040));
	t2 = _mm256_and_si256(in, _mm256_set1_epi32(0x003f03f0));
	t3 = _mm256_mullo_epi16(t2, _mm256_set1_epi32(0x01000010));
	idx = _mm256_or_si256(t1, t3);
	/*
	 * 0-25 -> +65 ('A'), 26-51 -> +71 ('a' - 26), 52-61 -> -4 ('0' -
	 * 52), 62 -> -19 ('+'), 63 -> -16 ('/'): the offset's index is
	 * 0 or 1 for the letters (saturating subtract of 51 gives 0, minus
	 * the > 25 mask), 2-11 for the digits, 12 and 13 for + and /.
	 */
	cls = _mm256_subs_epu8(idx, _mm256_set1_epi8(51));
	cls = _mm256_sub_epi8(cls, _mm256_cmpgt_epi8(idx, _mm256_set1_epi8(25)));
	idx = _mm256_add_epi8(idx, _mm256_shuffle_epi8(lut, cls));
	_mm256_storeu_si256((void *)d, idx);
}

/*
 * 32 characters -> 24 bytes, stored as 32 (8 bytes of slack at @d).
 * Returns false if any character is not in the alphabet ('=' included).
 */
__attribute__((target("avx2")))
static inline bool dec32_avx2(uint8_t *d, const char *s)
{
	/*
	 * A character is valid when the class bits of its low nibble
	 * (lut_lo) and of its high nibble (lut_hi) have none in common;
	 * then adding lut_roll[high nibble] (or [0] for '/': eq_2f - 1 is
	 * -1 + 1) gives its value.  mask_2f also keeps bit 5 of the shifted
	 * high nibble, which pshufb ignores.
	 */
	const __m256i lut_lo = _mm256_setr_epi8(
		0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
		0x11, 0x11, 0x13, 0x1a, 0x1b, 0x1b, 0x1b, 0x1a,
		0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
		0x11, 0x11, 0x13, 0x1a, 0x1b, 0x1b, 0x1b, 0x1a);
	const __m256i lut_hi = _mm256_setr_epi8(
		0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08,
		0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
		0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08,
		0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10);
	const __m256i lut_roll = _mm256_setr_epi8(
		0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
	const __m256i mask_2f = _mm256_set1_epi8(0x2f);
	const __m256i pack = _mm256_setr_epi8(
		2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
		2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
	__m256i str, hi_nib, lo_nib, lo, hi, eq_2f, roll, out;

	str = _mm256_loadu_si256((const void *)s);
	hi_nib = _mm256_and_si256(_mm256_srli_epi32(str, 4), mask_2f);
	lo_nib = _mm256_and_si256(str, mask_2f);
	lo = _mm256_shuffle_epi8(lut_lo, lo_nib);
	hi = _mm256_shuffle_epi8(lut_hi, hi_nib);
	if (!_mm256_testz_si256(lo, hi))
		return false;
	eq_2f = _mm256_cmpeq_epi8(str, mask_2f);
	roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(eq_2f, hi_nib));
	str = _mm256_add_epi8(str, roll);
	/* 4 x 6 bits -> 24 bits per 32-bit lane, then 3 bytes of each */
	out = _mm256_maddubs_epi16(str, _mm256_set1_epi32(0x01400140));
	out = _mm256_madd_epi16(out, _mm256_set1_epi32(0x00011000));
	out = _mm256_shuffle_epi8(out, pack);
	out = _mm256_permutevar8x32_epi32(out,
					  _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7));
	_mm256_storeu_si256((void *)d, out);
	return true;
}

/* One chunk of values (B64_CHUNK bytes of them) -> B64_CHARS characters. */
__attribute__((target("avx2")))
static void enc_chunk_avx2(char *d, const int64_t *v, unsigned int width)
{
	uint8_t buf[B64_CHUNK + 32] __attribute__((aligned(32)));
	unsigned int k;

	if (width == 4) {
		/* the low halves of 8 values, in order, per step */
		const __m256i lo = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);

		for (k = 0; k < B64_CHUNK / 4; k += 8) {
			__m256i a = _mm256_loadu_si256((const void *)(v + k));
			__m256i b = _mm256_loadu_si256((const void *)(v + k + 4));

			a = _mm256_permutevar8x32_epi32(a, lo);
			b = _mm256_permutevar8x32_epi32(b, lo);
			_mm256_store_si256((void *)(buf + 4 * k),
					   _mm256_permute2x128_si256(a, b, 0x20));
		}
	} else {
		memcpy(buf, v, B64_CHUNK);
	}
	/* the last step reads 4 bytes past the chunk: defined ones */
	memset(buf + B64_CHUNK, 0, 32);
	for (k = 0; k < B64_CHUNK / 24; k++)
		enc24_avx2(d + 32 * k, buf + 24 * k);
}

/* B64_CHARS characters -> one chunk of values; false if any is bad. */
__attribute__((target("avx2")))
static bool dec_chunk_avx2(int64_t *out, const char *s, unsigned int width)
{
	uint8_t buf[B64_CHUNK + 8] __attribute__((aligned(32)));
	unsigned int k;

	for (k = 0; k < B64_CHARS / 32; k++)
		if (!dec32_avx2(buf + 24 * k, s + 32 * k))
			return false;
	if (width == 8) {
		memcpy(out, buf, B64_CHUNK);
		return true;
	}
	for (k = 0; k < B64_CHUNK / 4; k += 4)
		_mm256_storeu_si256((void *)(out + k),
			_mm256_cvtepi32_epi64(_mm_load_si128((const void *)(buf + 4 * k))));
	return true;
}
#endif

/* Three 32-bit words (12 bytes, little-endian) -> 16 characters. */
static inline void enc12(char *d, uint32_t w0, uint32_t w1, uint32_t w2)
{
	/* the 96 bits in stream order: the bytes of each word reversed */
	uint64_t hi = (uint64_t)__builtin_bswap32(w0) << 32 |
		      __builtin_bswap32(w1);
	uint32_t lo = __builtin_bswap32(w2);
	uint64_t o0, o1;

	o0 = (uint64_t)enc_pair[hi >> 52] |
	     (uint64_t)enc_pair[(hi >> 40) & 0xfff] << 16 |
	     (uint64_t)enc_pair[(hi >> 28) & 0xfff] << 32 |
	     (uint64_t)enc_pair[(hi >> 16) & 0xfff] << 48;
	o1 = (uint64_t)enc_pair[(hi >> 4) & 0xfff] |
	     (uint64_t)enc_pair[(hi & 0xf) << 8 | lo >> 24] << 16 |
	     (uint64_t)enc_pair[(lo >> 12) & 0xfff] << 32 |
	     (uint64_t)enc_pair[lo & 0xfff] << 48;
	o0 = htole64(o0);
	o1 = htole64(o1);
	memcpy(d, &o0, 8);
	memcpy(d + 8, &o1, 8);
}

/* Any bytes, '=' padded: the tail of an array. */
static size_t enc_bytes(char *d, const uint8_t *s, size_t n)
{
	size_t o = 0;

	for (; n >= 3; n -= 3, s += 3, o += 4) {
		uint32_t x = (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];

		d[o] = alphabet[x >> 18];
		d[o + 1] = alphabet[(x >> 12) & 63];
		d[o + 2] = alphabet[(x >> 6) & 63];
		d[o + 3] = alphabet[x & 63];
	}
	if (n) {
		uint32_t x = (uint32_t)s[0] << 16 | (n > 1 ? (uint32_t)s[1] << 8 : 0);

		d[o] = alphabet[x >> 18];
		d[o + 1] = alphabet[(x >> 12) & 63];
		d[o + 2] = n > 1 ? alphabet[(x >> 6) & 63] : '=';
		d[o + 3] = '=';
		o += 4;
	}
	return o;
}

size_t kb_b64_encode_ints(char *dst, const int64_t *v, size_t n,
			  unsigned int width)
{
	uint8_t tail[3 * 8];
	size_t i, o = 0, k;

	pthread_once(&tables_once, tables_init);
	i = 0;
#if defined(__x86_64__)
	if (use_avx2) {
		size_t per = B64_CHUNK / width;

		for (; i + per <= n; i += per, o += B64_CHARS)
			enc_chunk_avx2(dst + o, v + i, width);
	}
#endif
	if (width == 4) {
		for (; i + 3 <= n; i += 3, o += 16)
			enc12(dst + o, (uint32_t)v[i], (uint32_t)v[i + 1],
			      (uint32_t)v[i + 2]);
	} else {
		for (; i + 3 <= n; i += 3, o += 32) {
			uint64_t a = (uint64_t)v[i], b = (uint64_t)v[i + 1],
				 c = (uint64_t)v[i + 2];

			enc12(dst + o, (uint32_t)a, (uint32_t)(a >> 32),
			      (uint32_t)b);
			enc12(dst + o + 16, (uint32_t)(b >> 32), (uint32_t)c,
			      (uint32_t)(c >> 32));
		}
	}
	/* 0-2 values left: their bytes, then the padding */
	for (k = 0; i < n; i++) {
		uint64_t x = (uint64_t)v[i];
		unsigned int b;

		for (b = 0; b < width; b++)
			tail[k++] = (uint8_t)(x >> (8 * b));
	}
	return o + enc_bytes(dst + o, tail, k);
}

long long kb_b64_count(const char *src, size_t len, unsigned int width)
{
	size_t bytes, pad = 0;

	if (len % 4 || (width != 4 && width != 8))
		return -1;
	if (len && src[len - 1] == '=')
		pad = len > 1 && src[len - 2] == '=' ? 2 : 1;
	bytes = len / 4 * 3 - pad;
	if (bytes % width)
		return -1;
	return (long long)(bytes / width);
}

/* 16 characters -> three 32-bit words; B64_BAD in the result if any bad. */
static inline uint32_t dec16(const char *s, uint32_t *w)
{
	uint64_t q0, q1;
	uint32_t g0, g1, g2, g3;

	memcpy(&q0, s, 8);
	memcpy(&q1, s + 8, 8);
	q0 = le64toh(q0);
	q1 = le64toh(q1);
	g0 = dec_first[q0 & 0xffff] | dec_second[(q0 >> 16) & 0xffff];
	g1 = dec_first[(q0 >> 32) & 0xffff] | dec_second[q0 >> 48];
	g2 = dec_first[q1 & 0xffff] | dec_second[(q1 >> 16) & 0xffff];
	g3 = dec_first[(q1 >> 32) & 0xffff] | dec_second[q1 >> 48];
	/* a bad group's bit 31 may spill into the words: they are dropped */
	w[0] = g0 | g1 << 24;
	w[1] = g1 >> 8 | g2 << 16;
	w[2] = g2 >> 16 | g3 << 8;
	return (g0 | g1 | g2 | g3) & B64_BAD;
}

/* The first character of @s that is not base64 (or '=' where allowed). */
static size_t first_bad(const char *s, size_t len)
{
	size_t i, pad_from = len;

	if (len >= 4 && s[len - 1] == '=')
		pad_from = s[len - 2] == '=' ? len - 2 : len - 1;
	for (i = 0; i < len; i++)
		if (dec_val[(uint8_t)s[i]] == 0xff && i < pad_from)
			return i;
	return len;
}

size_t kb_b64_bad(const char *src, size_t len)
{
	pthread_once(&tables_once, tables_init);
	return first_bad(src, len);
}

long long kb_b64_decode_ints(int64_t *out, const char *src, size_t len,
			     unsigned int width, size_t *bad)
{
	long long n = kb_b64_count(src, len, width);
	size_t i = 0, k = 0, c, step = width == 4 ? 16 : 32, nb = 0;
	uint8_t tail[(32 + 4) / 4 * 3];
	uint32_t err = 0, w[6];

	pthread_once(&tables_once, tables_init);
	if (n < 0)
		goto fail;
#if defined(__x86_64__)
	/* whole chunks, the last group (maybe padded) left over */
	if (use_avx2) {
		size_t per = B64_CHUNK / width;

		for (; i + B64_CHARS + 4 <= len; i += B64_CHARS, k += per)
			if (!dec_chunk_avx2(out + k, src + i, width))
				goto fail;
	}
#endif
	/* whole steps of 3 values, the last group (maybe padded) left over */
	if (i + step + 4 <= len)
		pthread_once(&pair_once, pair_tables_init);
	if (width == 4) {
		for (; i + step + 4 <= len; i += step, k += 3) {
			err |= dec16(src + i, w);
			out[k] = (int32_t)w[0];
			out[k + 1] = (int32_t)w[1];
			out[k + 2] = (int32_t)w[2];
		}
	} else {
		for (; i + step + 4 <= len; i += step, k += 3) {
			err |= dec16(src + i, w);
			err |= dec16(src + i + 16, w + 3);
			out[k] = (int64_t)((uint64_t)w[1] << 32 | w[0]);
			out[k + 1] = (int64_t)((uint64_t)w[3] << 32 | w[2]);
			out[k + 2] = (int64_t)((uint64_t)w[5] << 32 | w[4]);
		}
	}
	if (err || (c = first_bad(src + i, len - i)) < len - i)
		goto fail;
	/* the rest, one group at a time: at most 3 values */
	for (c = i; c < len; c += 4) {
		uint32_t x = (uint32_t)dec_val[(uint8_t)src[c]] << 18 |
			     (uint32_t)dec_val[(uint8_t)src[c + 1]] << 12 |
			     (uint32_t)(dec_val[(uint8_t)src[c + 2]] & 63) << 6 |
			     (dec_val[(uint8_t)src[c + 3]] & 63);

		tail[nb++] = (uint8_t)(x >> 16);
		tail[nb++] = (uint8_t)(x >> 8);
		tail[nb++] = (uint8_t)x;
	}
	for (c = 0; k < (size_t)n; k++) {
		uint64_t x = 0;
		unsigned int b;

		for (b = 0; b < width; b++)
			x |= (uint64_t)tail[c++] << (8 * b);
		out[k] = width == 4 ? (int32_t)(uint32_t)x : (int64_t)x;
	}
	return n;

fail:
	*bad = first_bad(src, len);
	return -1;
}
