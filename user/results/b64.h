/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Base64 (RFC 4648 section 4: A-Z a-z 0-9 + /, '=' padding) of the integer
 * arrays of result files (user/RESULTS.md): little-endian two's-complement
 * integers of 4 or 8 bytes, from and to the int64_t arrays the rest of
 * kbenchctl uses.  Scalar and simple: natively it costs milliseconds per
 * million samples.
 */
#ifndef KBENCHCTL_B64_H
#define KBENCHCTL_B64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Characters for @bytes bytes, padding included. */
static inline size_t kb_b64_len(size_t bytes)
{
	return (bytes + 2) / 3 * 4;
}

/* The width an array needs: 4 when every value fits in int32, else 8. */
unsigned int kb_b64_width(const int64_t *v, size_t n);

/*
 * Encode @n values of @v as @width-byte (4 or 8) little-endian integers
 * into @dst, which holds kb_b64_len(@n * @width) characters (no NUL).
 * Returns that length.  With @width 4 the values must fit in int32
 * (kb_b64_width()).  A long array may be encoded in pieces of a multiple
 * of 3 values: the pieces concatenate into the encoding of the whole.
 */
size_t kb_b64_encode_ints(char *dst, const int64_t *v, size_t n,
			  unsigned int width);

/*
 * Decode @len characters of base64 (a multiple of 4, padding only at the
 * end) holding @width-byte little-endian integers into @out, which holds
 * kb_b64_count(@src, @len, @width) values, sign-extended to 64 bits.
 * Returns the number of values, or -1 with the offset of the first bad
 * character in *@bad (@len: the characters are good, their number is not
 * for @width or base64).
 */
long long kb_b64_decode_ints(int64_t *out, const char *src, size_t len,
			     unsigned int width, size_t *bad);
/* The number of values @len characters hold, or -1 (see above). */
long long kb_b64_count(const char *src, size_t len, unsigned int width);
/* The offset of the first character that is not base64 (or padding), or @len. */
size_t kb_b64_bad(const char *src, size_t len);

#endif /* KBENCHCTL_B64_H */
