// SPDX-License-Identifier: GPL-2.0
/*
 * Base64 of integer arrays (see b64.h), one scalar codec: a value's bytes
 * (little-endian) go through a bit accumulator, six bits a character.
 * Natively a million samples take a few milliseconds either way, far
 * below what reading or sorting them costs (user/RESULTS.md).
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

size_t kb_b64_encode_ints(char *dst, const int64_t *v, size_t n,
			  unsigned int width)
{
	/* bytes go into a bit accumulator, six bits at a time out of it */
	uint32_t acc = 0;
	unsigned int bits = 0, b;
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		for (b = 0; b < width; b++) {
			acc = acc << 8 | (uint8_t)((uint64_t)v[i] >> (8 * b));
			for (bits += 8; bits >= 6; bits -= 6)
				dst[o++] = alphabet[acc >> (bits - 6) & 63];
		}
	}
	if (bits)
		dst[o++] = alphabet[acc << (6 - bits) & 63];
	while (o % 4)
		dst[o++] = '=';
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
	size_t i, data = len - padding(src, len), k = 0;
	unsigned int bits = 0, nb = 0, c;
	uint64_t w = 0;
	uint32_t acc = 0;
	int8_t val[256];

	if (n < 0) {
		*bad = kb_b64_bad(src, len);
		return -1;
	}
	for (c = 0; c < 256; c++)
		val[c] = (int8_t)b64_val((unsigned char)c);
	/* six bits a character into an accumulator, a byte at a time out */
	for (i = 0; i < data; i++) {
		if (val[(uint8_t)src[i]] < 0) {
			*bad = i;
			return -1;
		}
		acc = acc << 6 | (uint32_t)val[(uint8_t)src[i]];
		bits += 6;
		if (bits < 8)
			continue;
		bits -= 8;
		w |= (uint64_t)(acc >> bits & 0xff) << (8 * nb);
		if (++nb < width)
			continue;
		/* a 4-byte value is an int32_t's */
		out[k++] = width == 4 ? (int32_t)(uint32_t)w : (int64_t)w;
		w = 0;
		nb = 0;
	}
	return n;
}
