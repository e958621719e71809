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
 */
#define _GNU_SOURCE
#include <endian.h>
#include <pthread.h>
#include <string.h>

#include "b64.h"

#define B64_BAD		0x80000000u

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static uint16_t enc_pair[4096];		/* 12 bits -> 2 characters */
static uint32_t dec_first[65536];	/* characters 1-2 of a group */
static uint32_t dec_second[65536];	/* characters 3-4 */
static uint8_t dec_val[256];		/* one character: 0-63, or 0xff */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
	uint32_t a0[256], a1[256], b0[256], b1[256];
	unsigned int i, k;

	for (i = 0; i < 4096; i++)
		enc_pair[i] = (uint16_t)((uint8_t)alphabet[i >> 6] |
					 (uint8_t)alphabet[i & 63] << 8);
	memset(dec_val, 0xff, sizeof(dec_val));
	for (i = 0; i < 64; i++)
		dec_val[(uint8_t)alphabet[i]] = (uint8_t)i;
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

unsigned int kb_b64_width(const int64_t *v, size_t n)
{
	uint64_t a = 0, b = 0;
	size_t i;

	/*
	 * v fits in int32 when v + 2^31 < 2^32: OR those together and look at
	 * the high half once.  No early exit: a load, an add and an OR each.
	 */
	for (i = 0; i + 2 <= n; i += 2) {
		a |= (uint64_t)v[i] + 0x80000000u;
		b |= (uint64_t)v[i + 1] + 0x80000000u;
	}
	if (i < n)
		a |= (uint64_t)v[i] + 0x80000000u;
	return (a | b) >> 32 ? 8 : 4;
}

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
	if (width == 4) {
		for (i = 0; i + 3 <= n; i += 3, o += 16)
			enc12(dst + o, (uint32_t)v[i], (uint32_t)v[i + 1],
			      (uint32_t)v[i + 2]);
	} else {
		for (i = 0; i + 3 <= n; i += 3, o += 32) {
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
	if (n < 0) {
		*bad = first_bad(src, len);
		return -1;
	}
	/* whole steps of 3 values, the last group (maybe padded) left over */
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
	if (err || (c = first_bad(src + i, len - i)) < len - i) {
		*bad = first_bad(src, len);
		return -1;
	}
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
}
