// SPDX-License-Identifier: GPL-2.0
/*
 * Base64 of integer arrays (see b64.h), one scalar codec: a value's bytes
 * (little-endian) go through a 24-bit accumulator, four characters per
 * three bytes.  Natively a million samples take a few milliseconds either
 * way, far below what reading or sorting them costs (user/RESULTS.md).
 */
#include <string.h>

#include "b64.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* A character's 6 bits, or -1 when it is not in the alphabet. */
static int b64_val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

unsigned int kb_b64_width(const int64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] < INT32_MIN || v[i] > INT32_MAX)
			return 8;
	return 4;
}

/* @n bytes (a multiple of 3, or the last piece) into characters. */
static size_t enc_bytes(char *d, const uint8_t *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i + 3 <= n; i += 3) {
		uint32_t x = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];

		d[o++] = alphabet[x >> 18];
		d[o++] = alphabet[x >> 12 & 63];
		d[o++] = alphabet[x >> 6 & 63];
		d[o++] = alphabet[x & 63];
	}
	if (i < n) {
		uint32_t x = (uint32_t)s[i] << 16 |
			     (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0);

		d[o++] = alphabet[x >> 18];
		d[o++] = alphabet[x >> 12 & 63];
		d[o++] = i + 1 < n ? alphabet[x >> 6 & 63] : '=';
		d[o++] = '=';
	}
	return o;
}

size_t kb_b64_encode_ints(char *dst, const int64_t *v, size_t n,
			  unsigned int width)
{
	/* a piece of values as little-endian bytes, a multiple of 3 bytes */
	uint8_t buf[3 * 8 * 128];
	size_t i, o = 0, per = sizeof(buf) / width;
	unsigned int b;

	for (i = 0; i < n; i += per) {
		size_t k, m = n - i < per ? n - i : per, nb = 0;

		for (k = 0; k < m; k++) {
			uint64_t x = (uint64_t)v[i + k];

			for (b = 0; b < width; b++)
				buf[nb++] = (uint8_t)(x >> (8 * b));
		}
		o += enc_bytes(dst + o, buf, nb);
	}
	return o;
}

/* The '=' padding at the end of @len characters: 0, 1 or 2. */
static size_t padding(const char *src, size_t len)
{
	if (len < 4 || src[len - 1] != '=')
		return 0;
	return src[len - 2] == '=' ? 2 : 1;
}

long long kb_b64_count(const char *src, size_t len, unsigned int width)
{
	size_t bytes;

	if (len % 4 || (width != 4 && width != 8))
		return -1;
	bytes = len / 4 * 3 - padding(src, len);
	if (bytes % width)
		return -1;
	return (long long)(bytes / width);
}

size_t kb_b64_bad(const char *src, size_t len)
{
	size_t i, data = len - padding(src, len);

	for (i = 0; i < data; i++)
		if (b64_val((unsigned char)src[i]) < 0)
			return i;
	return len;
}

long long kb_b64_decode_ints(int64_t *out, const char *src, size_t len,
			     unsigned int width, size_t *bad)
{
	long long n = kb_b64_count(src, len, width);
	size_t i, o = 0, pad = padding(src, len);
	uint8_t *bytes = (uint8_t *)out, val[256];
	unsigned int c;

	if (n < 0) {
		*bad = kb_b64_bad(src, len);
		return -1;
	}
	/* a character's 6 bits; 0x80 for one outside the alphabet */
	for (c = 0; c < 256; c++) {
		int v = b64_val((unsigned char)c);

		val[c] = v < 0 ? 0x80 : (uint8_t)v;
	}
	/*
	 * The bytes first, into @out's own memory (8 bytes a value, at
	 * least @width), four characters to three bytes, none for '='.
	 */
	for (i = 0; i < len; i += 4) {
		uint8_t a = val[(uint8_t)src[i]], b = val[(uint8_t)src[i + 1]];
		uint8_t x = val[(uint8_t)src[i + 2]], d = val[(uint8_t)src[i + 3]];

		if (i + 4 == len && pad) {
			d = 0;
			if (pad == 2)
				x = 0;
		}
		if ((a | b | x | d) & 0x80) {
			*bad = kb_b64_bad(src, len);
			return -1;
		}
		bytes[o++] = (uint8_t)(a << 2 | b >> 4);
		if (i + 4 < len || pad < 2)
			bytes[o++] = (uint8_t)(b << 4 | x >> 2);
		if (i + 4 < len || !pad)
			bytes[o++] = (uint8_t)(x << 6 | d);
	}
	/* then the values, from the last: each lies at or after its bytes */
	for (i = (size_t)n; i-- > 0;) {
		uint64_t w = 0;

		for (c = width; c-- > 0;)
			w = w << 8 | bytes[width * i + c];
		/* a 4-byte value is an int32_t's */
		out[i] = width == 4 ? (int32_t)(uint32_t)w : (int64_t)w;
	}
	return n;
}
