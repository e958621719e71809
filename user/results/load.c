// SPDX-License-Identifier: GPL-2.0
/*
 * Loading saved results: a strict, bounded JSON reader walked by the
 * schema of user/RESULTS.md.  Every error names the file, the byte offset
 * and the key path ("runs[0].routines[1].net[17]") and says what was
 * expected; nothing a file holds can make it crash, loop or allocate more
 * than the file's size in samples.  Unknown keys are skipped (newer files
 * of the same version add keys), unknown versions refused.  Versions 1
 * (integer arrays as JSON arrays) and 2 (long ones in base64) differ only
 * in the arrays, and jp_ints reads both forms wherever it meets them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "b64.h"
#include "kbenchctl.h"
#include "names.h"
#include "resfile.h"

#define JP_DEPTH_MAX	64
#define JP_PATH_MAX	256

struct jp {
	const char *buf, *p, *end;
	const char *name;	/* file, for messages */
	char path[JP_PATH_MAX];
	size_t plen[JP_DEPTH_MAX];
	int depth;
	char *err;
	size_t errlen;
	bool failed;
};

static void jp_error(struct jp *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void jp_error(struct jp *j, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (j->failed)
		return;
	j->failed = true;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(j->err, j->errlen, "%s: byte %zu%s%s: %s", j->name,
		 (size_t)(j->p - j->buf), j->path[0] ? ", " : "", j->path, what);
}

/* Key path: push ".key" or "[i]", pop back to the previous length. */
static void jp_push(struct jp *j, const char *key, size_t index)
{
	size_t n = strlen(j->path);

	if (j->depth < JP_DEPTH_MAX)
		j->plen[j->depth] = n;
	j->depth++;
	if (key)
		snprintf(j->path + n, sizeof(j->path) - n, "%s%s", n ? "." : "", key);
	else
		snprintf(j->path + n, sizeof(j->path) - n, "[%zu]", index);
}

static void jp_pop(struct jp *j)
{
	if (j->failed)
		return;	/* keep the path of the error */
	j->depth--;
	if (j->depth >= 0 && j->depth < JP_DEPTH_MAX)
		j->path[j->plen[j->depth]] = '\0';
}

static void jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' ||
				 *j->p == '\r' || *j->p == '\t'))
		j->p++;
}

/* What is at the cursor, for "expected X, found Y". */
static const char *jp_found(struct jp *j)
{
	static char buf[32];
	unsigned char c;

	jp_ws(j);
	if (j->p >= j->end)
		return "the end of the file (truncated?)";
	c = (unsigned char)*j->p;
	switch (c) {
	case '"': return "a string";
	case '{': return "an object";
	case '[': return "an array";
	case 't': case 'f': return "a boolean";
	case 'n': return "null";
	case ']': case '}': return "the end of the enclosing value";
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return "a number";
		if (c >= 0x20 && c < 0x7f)
			snprintf(buf, sizeof(buf), "'%c'", c);
		else
			snprintf(buf, sizeof(buf), "byte 0x%02x", c);
		return buf;
	}
}

static bool jp_lit(struct jp *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, lit, n)) {
		j->p += n;
		return true;
	}
	return false;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool jp_hex4(struct jp *j, unsigned int *v)
{
	int i, h;

	*v = 0;
	if (j->end - j->p < 4) {
		jp_error(j, "truncated \\u escape");
		return false;
	}
	for (i = 0; i < 4; i++) {
		h = hexval(j->p[i]);
		if (h < 0) {
			jp_error(j, "bad \\u escape");
			return false;
		}
		*v = *v << 4 | (unsigned int)h;
	}
	j->p += 4;
	return true;
}

static size_t utf8_put(char *d, unsigned int c)
{
	if (c < 0x80) {
		d[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		d[0] = (char)(0xc0 | c >> 6);
		d[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		d[0] = (char)(0xe0 | c >> 12);
		d[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		d[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	d[0] = (char)(0xf0 | c >> 18);
	d[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	d[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	d[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/*
 * A string into @out (NUL-terminated; NULL: skip it).  Longer than
 * @cap - 1 bytes is an error: every string we keep has a bounded field.
 */
static bool jp_string(struct jp *j, char *out, size_t cap)
{
	size_t n = 0;

	jp_ws(j);
	if (j->p >= j->end || *j->p != '"') {
		jp_error(j, "expected a string, found %s", jp_found(j));
		return false;
	}
	j->p++;
	for (;;) {
		char tmp[4];
		size_t k = 1;
		unsigned char c;

		if (j->p >= j->end) {
			jp_error(j, "unterminated string (truncated?)");
			return false;
		}
		c = (unsigned char)*j->p++;
		if (c == '"')
			break;
		if (c < 0x20) {
			j->p--;
			jp_error(j, "control character 0x%02x in a string", c);
			return false;
		}
		tmp[0] = (char)c;
		if (c == '\\') {
			unsigned int u, lo;

			if (j->p >= j->end) {
				jp_error(j, "unterminated string (truncated?)");
				return false;
			}
			c = (unsigned char)*j->p++;
			switch (c) {
			case '"': case '\\': case '/': tmp[0] = (char)c; break;
			case 'b': tmp[0] = '\b'; break;
			case 'f': tmp[0] = '\f'; break;
			case 'n': tmp[0] = '\n'; break;
			case 'r': tmp[0] = '\r'; break;
			case 't': tmp[0] = '\t'; break;
			case 'u':
				if (!jp_hex4(j, &u))
					return false;
				if (u >= 0xd800 && u < 0xdc00) {
					if (!jp_lit(j, "\\u") || !jp_hex4(j, &lo) ||
					    lo < 0xdc00 || lo > 0xdfff) {
						jp_error(j, "unpaired surrogate in a \\u escape");
						return false;
					}
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
				} else if (u >= 0xdc00 && u < 0xe000) {
					jp_error(j, "unpaired surrogate in a \\u escape");
					return false;
				}
				if (!u) {
					jp_error(j, "\\u0000 in a string");
					return false;
				}
				k = utf8_put(tmp, u);
				break;
			default:
				j->p--;
				jp_error(j, "bad escape '\\%c'", c >= 0x20 && c < 0x7f ? c : '?');
				return false;
			}
		}
		if (out) {
			if (n + k >= cap) {
				jp_error(j, "string longer than %zu bytes", cap - 1);
				return false;
			}
			memcpy(out + n, tmp, k);
			n += k;
		}
	}
	if (out)
		out[n] = '\0';
	return true;
}

/* An integer (no fraction or exponent) within [min, max]. */
static bool jp_int(struct jp *j, int64_t min, uint64_t max, bool *neg_out,
		   uint64_t *mag_out)
{
	const char *s;
	uint64_t v = 0;
	bool neg = false;

	jp_ws(j);
	s = j->p;
	if (j->p < j->end && *j->p == '-') {
		neg = true;
		j->p++;
	}
	if (j->p >= j->end || *j->p < '0' || *j->p > '9') {
		j->p = s;
		jp_error(j, "expected an integer, found %s", jp_found(j));
		return false;
	}
	if (*j->p == '0' && j->p + 1 < j->end && j->p[1] >= '0' && j->p[1] <= '9') {
		jp_error(j, "number with a leading zero");
		return false;
	}
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
		unsigned int d = (unsigned int)(*j->p - '0');

		if (v > (UINT64_MAX - d) / 10) {
			j->p = s;
			jp_error(j, "integer out of range");
			return false;
		}
		v = v * 10 + d;
		j->p++;
	}
	if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E')) {
		j->p = s;
		jp_error(j, "expected an integer, found a fraction");
		return false;
	}
	if ((neg && v > (uint64_t)-(min + 1) + 1) || (!neg && v > max)) {
		j->p = s;
		jp_error(j, "integer out of range %lld..%llu", (long long)min,
			 (unsigned long long)max);
		return false;
	}
	*neg_out = neg && v;
	*mag_out = v;
	return true;
}

static bool jp_u64(struct jp *j, uint64_t max, uint64_t *v)
{
	bool neg;

	return jp_int(j, 0, max, &neg, v);
}

static bool jp_u32(struct jp *j, uint32_t *v)
{
	uint64_t x;

	if (!jp_u64(j, UINT32_MAX, &x))
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool jp_s64(struct jp *j, int64_t *v)
{
	uint64_t mag;
	bool neg;

	if (!jp_int(j, INT64_MIN, INT64_MAX, &neg, &mag))
		return false;
	*v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return true;
}

static bool jp_bool(struct jp *j, bool *v)
{
	jp_ws(j);
	if (jp_lit(j, "true"))
		*v = true;
	else if (jp_lit(j, "false"))
		*v = false;
	else {
		jp_error(j, "expected true or false, found %s", jp_found(j));
		return false;
	}
	return true;
}

static bool jp_null(struct jp *j)
{
	jp_ws(j);
	return jp_lit(j, "null");
}

static bool jp_number_any(struct jp *j)
{
	const char *s = j->p;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		goto bad;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			goto bad;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			goto bad;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	return true;
bad:
	j->p = s;
	jp_error(j, "malformed number");
	return false;
}

static bool jp_expect(struct jp *j, char c, const char *what)
{
	jp_ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	jp_error(j, "expected %s, found %s", what, jp_found(j));
	return false;
}

/*
 * Before the next member of an object or array (@open, @close): call with
 * *first = true first.  1: a member follows (after its ','), 0: @close
 * (consumed), -1: an error.
 */
static int jp_next(struct jp *j, bool *first, char open, char close)
{
	bool was_first = *first;

	jp_ws(j);
	if (was_first) {
		if (!jp_expect(j, open, open == '{' ? "an object" : "an array"))
			return -1;
		*first = false;
		jp_ws(j);
	}
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	if (!was_first &&
	    !jp_expect(j, ',', close == '}' ? "',' or '}'" : "',' or ']'"))
		return -1;
	return 1;
}

/*
 * Object iteration: 1 with the next key in @key (and the ':' consumed), 0
 * at the closing '}', -1 on an error.  The caller reads or skips the value.
 */
static int jp_obj_next(struct jp *j, bool *first, char *key, size_t cap)
{
	int r = jp_next(j, first, '{', '}');

	if (r != 1)
		return r;
	jp_ws(j);
	if (j->p < j->end && *j->p != '"') {
		jp_error(j, "expected a key (a string), found %s", jp_found(j));
		return -1;
	}
	if (!jp_string(j, key, cap))
		return -1;
	return jp_expect(j, ':', "':'") ? 1 : -1;
}

/* Array iteration, as jp_obj_next: 1 an element follows, 0 at ']'. */
static int jp_arr_next(struct jp *j, bool *first)
{
	return jp_next(j, first, '[', ']');
}

/* Skip any value, iteratively, with a bounded depth. */
static bool jp_skip(struct jp *j)
{
	char stack[JP_DEPTH_MAX];
	int d = 0;
	bool want_value = true;

	for (;;) {
		jp_ws(j);
		if (j->p >= j->end) {
			jp_error(j, "unexpected end of the file (truncated?)");
			return false;
		}
		if (want_value) {
			switch (*j->p) {
			case '{':
			case '[':
				if (d == JP_DEPTH_MAX) {
					jp_error(j, "nested more than %d deep", JP_DEPTH_MAX);
					return false;
				}
				stack[d++] = *j->p == '{' ? '}' : ']';
				j->p++;
				jp_ws(j);
				if (j->p < j->end && *j->p == stack[d - 1]) {
					j->p++;
					d--;
					want_value = false;
					break;
				}
				if (stack[d - 1] == '}') {
					if (!jp_string(j, NULL, 0) ||
					    !jp_expect(j, ':', "':'"))
						return false;
				}
				continue;
			case '"':
				if (!jp_string(j, NULL, 0))
					return false;
				break;
			case 't':
			case 'f':
			case 'n':
				if (!jp_lit(j, "true") && !jp_lit(j, "false") &&
				    !jp_lit(j, "null")) {
					jp_error(j, "expected a value, found %s", jp_found(j));
					return false;
				}
				break;
			default:
				if (!jp_number_any(j))
					return false;
			}
			want_value = false;
		}
		if (!d)
			return true;
		jp_ws(j);
		if (j->p < j->end && *j->p == stack[d - 1]) {
			j->p++;
			d--;
			continue;
		}
		if (!jp_expect(j, ',', d && stack[d - 1] == '}' ? "',' or '}'" :
							       "',' or ']'"))
			return false;
		if (stack[d - 1] == '}') {
			if (!jp_string(j, NULL, 0) || !jp_expect(j, ':', "':'"))
				return false;
		}
		want_value = true;
	}
}

/*
 * Fault in a large fresh allocation with one madvise() instead of one page
 * fault per 4 KiB (2000 for a million samples; each an exception, slow in
 * emulators).  Best effort: MADV_POPULATE_WRITE is Linux 5.14+.  In 4 KiB
 * pages: with transparent huge pages ("always", Debian's default) and
 * init_on_alloc=1 (also Debian's) Linux 6.1 zeroed every huge page twice,
 * in the allocator and in clear_huge_page(): loading 2,000,000 samples
 * took 48 ms under icount with huge pages, 44 ms without (perf in the VM:
 * clear_page_erms 31 and 16 million instructions).
 */
static void prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)4095;

	if (len >= (1 << 20) && e > a) {
		madvise((void *)a, e - a, MADV_NOHUGEPAGE);
		madvise((void *)a, e - a, MADV_POPULATE_WRITE);
	}
#else
	(void)p;
	(void)len;
#endif
}

/* Double @v's capacity; on failure free it and say so. */
static bool ints_grow(struct jp *j, int64_t **v, size_t *cap)
{
	int64_t *v2 = realloc(*v, *cap * 2 * sizeof(**v));

	if (!v2) {
		free(*v);
		*v = NULL;
		jp_error(j, "out of memory");
		return false;
	}
	*v = v2;
	*cap *= 2;
	return true;
}

#define KEY_MAX 48

/* The values of a decoded array within [min, max]; else an error. */
static bool ints_in_range(struct jp *j, const int64_t *v, size_t n,
			  int64_t min, int64_t max)
{
	size_t i;

	if (min == INT64_MIN && max == INT64_MAX)
		return true;
	for (i = 0; i < n; i++) {
		if (v[i] < min || v[i] > max) {
			jp_error(j, "value [%zu] = %lld out of range %lld..%lld",
				 i, (long long)v[i], (long long)min,
				 (long long)max);
			return false;
		}
	}
	return true;
}

/*
 * An array in base64: {"encoding": "base64", "width": 4|8, "data": "..."}
 * (RESULTS.md), its keys in any order, unknown keys skipped.  The data is
 * decoded where it lies in the file, into an array of exactly the size it
 * holds.  Errors point at the object, or at the bad character of the data.
 */
static bool jp_ints_b64(struct jp *j, int64_t **out, size_t *count,
			int64_t min, int64_t max)
{
	const char *start = j->p, *data = NULL, *data_end = NULL, *obj_end;
	char key[KEY_MAX], enc[16] = "";
	bool first = true, ok = true, has_enc = false;
	uint64_t width = 0;
	size_t bad, len;
	long long n;
	int64_t *v;
	int r;

	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		jp_push(j, key, 0);
		if (!strcmp(key, "encoding")) {
			ok = jp_string(j, enc, sizeof(enc));
			has_enc = ok;
		} else if (!strcmp(key, "width")) {
			ok = jp_u64(j, UINT64_MAX, &width);
		} else if (!strcmp(key, "data")) {
			jp_ws(j);
			if (j->p >= j->end || *j->p != '"') {
				jp_error(j, "expected a string, found %s",
					 jp_found(j));
				ok = false;
			} else {
				data = j->p + 1;
				/* an escape in the data is caught as a bad character */
				data_end = memchr(data, '"', (size_t)(j->end - data));
				if (!data_end) {
					jp_error(j, "unterminated string (truncated?)");
					ok = false;
				} else {
					j->p = data_end + 1;
				}
			}
		} else {
			ok = jp_skip(j);
		}
		jp_pop(j);
	}
	if (!ok || r != 0)
		return false;
	obj_end = j->p;
	j->p = start;
	if (!has_enc || !width || !data) {
		jp_error(j, "an array of integers is [...] or {\"encoding\": \"base64\", \"width\": 4 or 8, \"data\": \"...\"}; this object has no \"%s\"",
			 !has_enc ? "encoding" : !width ? "width" : "data");
		return false;
	}
	if (strcmp(enc, "base64")) {
		jp_error(j, "encoding '%s': this kbenchctl reads 'base64'", enc);
		return false;
	}
	if (width != 4 && width != 8) {
		jp_error(j, "width %llu: integers of 4 or 8 bytes",
			 (unsigned long long)width);
		return false;
	}
	len = (size_t)(data_end - data);
	n = kb_b64_count(data, len, (unsigned int)width);
	v = n < 0 ? NULL : malloc(n ? (size_t)n * sizeof(*v) : 1);
	if (n >= 0 && !v) {
		jp_error(j, "out of memory");
		return false;
	}
	if (v)
		prefault(v, (size_t)n * sizeof(*v));
	if (!v || kb_b64_decode_ints(v, data, len, (unsigned int)width,
				     &bad) != n) {
		if (!v)
			bad = kb_b64_bad(data, len);
		j->p = bad == len ? data : data + bad;
		if (bad == len)
			jp_error(j, "base64 data of %zu characters is not whole %u-byte integers (truncated or edited?)",
				 len, (unsigned int)width);
		else if (data[bad] >= 0x20 && data[bad] < 0x7f)
			jp_error(j, "'%c' in base64 data", data[bad]);
		else
			jp_error(j, "byte 0x%02x in base64 data",
				 (unsigned char)data[bad]);
		free(v);
		return false;
	}
	if (!ints_in_range(j, v, (size_t)n, min, max)) {
		free(v);
		return false;
	}
	j->p = obj_end;
	*out = v;
	*count = (size_t)n;
	return true;
}

/*
 * An array of integers within [min, max]: a JSON array, or the base64
 * object above.  @hint (a count the file claimed earlier) presizes a JSON
 * array, bounded by the bytes left ("1," per value): the file bounds the
 * allocation, not its claims.
 */
static bool jp_ints(struct jp *j, int64_t **out, size_t *count, int64_t min,
		    int64_t max, uint64_t hint)
{
	size_t n = 0, cap, left = (size_t)(j->end - j->p) / 2 + 1;
	int64_t *v;

	cap = hint > 16 ? (hint < left ? (size_t)hint : left) : 16;
	jp_ws(j);
	if (j->p < j->end && *j->p == '{')
		return jp_ints_b64(j, out, count, min, max);
	if (!jp_expect(j, '[', "an array"))
		return false;
	v = malloc(cap * sizeof(*v));
	if (!v) {
		jp_error(j, "out of memory");
		return false;
	}
	prefault(v, cap * sizeof(*v));
	jp_ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		goto out;
	}
	for (;;) {
		/*
		 * The fast path: "-?digits" then ',' or ']', as we write them,
		 * while 22 bytes are left; anything else takes the general
		 * path below for one element.
		 */
		const char *p = j->p, *bulk_end = j->end - 22;
		bool full_range = min == INT64_MIN && max == INT64_MAX;
		bool end = false;

		while (p < bulk_end) {
			const char *s = p, *d0, *lim;
			uint64_t mag = 0;
			unsigned int dg;
			int64_t x;
			bool neg = *p == '-';

			p += neg;
			d0 = p;
			lim = p + 18;	/* 18 digits cannot overflow */
			while (p < lim && (dg = (unsigned int)(*p - '0')) <= 9) {
				mag = mag * 10 + dg;
				p++;
			}
			if (p == d0 || (*p != ',' && *p != ']') ||
			    (*d0 == '0' && p - d0 > 1)) {
				p = s;
				break;
			}
			x = neg ? -(int64_t)mag : (int64_t)mag;
			if (!full_range && (x < min || x > max)) {
				p = s;
				break;
			}
			if (n == cap && !ints_grow(j, &v, &cap))
				return false;
			v[n++] = x;
			if (*p++ == ']') {
				end = true;
				break;
			}
		}
		j->p = p;
		if (end)
			break;
		if (n == cap && !ints_grow(j, &v, &cap))
			return false;
		if (!jp_s64(j, &v[n])) {
			free(v);
			return false;
		}
		if (v[n] < min || v[n] > max) {
			jp_error(j, "value %lld out of range %lld..%lld",
				 (long long)v[n], (long long)min, (long long)max);
			free(v);
			return false;
		}
		n++;
		jp_ws(j);
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			break;
		}
		if (!jp_expect(j, ',', "',' or ']'")) {
			free(v);
			return false;
		}
	}
out:
	*out = v;
	*count = n;
	return true;
}

/* --- schema --- */

static bool load_str_field(struct jp *j, char *out, size_t cap)
{
	if (jp_null(j)) {
		out[0] = '\0';
		return true;
	}
	return jp_string(j, out, cap);
}

static bool flag_array(struct jp *j, const struct kb_flag_name *t, uint32_t *v)
{
	char name[64];
	bool first = true;
	int r;

	*v = 0;
	while ((r = jp_arr_next(j, &first)) == 1) {
		const struct kb_flag_name *k;

		if (!jp_string(j, name, sizeof(name)))
			return false;
		/* names from newer versions are ignored */
		for (k = t; k->name; k++)
			if (!strcmp(k->name, name))
				*v |= k->bit;
	}
	return r == 0;
}

static bool load_meta(struct jp *j, struct kb_meta *m)
{
	char key[KEY_MAX];
	bool first = true, ok = true;
	int r;

	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		jp_push(j, key, 0);
		if (!strcmp(key, "kbenchctl_version"))
			ok = load_str_field(j, m->kbenchctl_version, sizeof(m->kbenchctl_version));
		else if (!strcmp(key, "kbench_version"))
			ok = load_str_field(j, m->kbench_version, sizeof(m->kbench_version));
		else if (!strcmp(key, "method_version"))
			ok = jp_u32(j, &m->method_version);
		else if (!strcmp(key, "kernel"))
			ok = load_str_field(j, m->kernel, sizeof(m->kernel));
		else if (!strcmp(key, "arch"))
			ok = load_str_field(j, m->arch, sizeof(m->arch));
		else if (!strcmp(key, "cpu_model"))
			ok = load_str_field(j, m->cpu_model, sizeof(m->cpu_model));
		else if (!strcmp(key, "hypervisor"))
			ok = load_str_field(j, m->hypervisor, sizeof(m->hypervisor));
		else if (!strcmp(key, "hostname"))
			ok = load_str_field(j, m->hostname, sizeof(m->hostname));
		else if (!strcmp(key, "date"))
			ok = load_str_field(j, m->date, sizeof(m->date));
		else if (!strcmp(key, "counter_flags"))
			ok = flag_array(j, kb_counter_flag_names, &m->counter_flags);
		else if (!strcmp(key, "detectors"))
			ok = flag_array(j, kb_sample_flag_names, &m->detectors);
		else if (!strcmp(key, "module_params")) {
			bool f2 = true;
			char pk[KEY_MAX];
			int r2;

			while (ok && (r2 = jp_obj_next(j, &f2, pk, sizeof(pk))) == 1) {
				struct kb_meta_param *p;

				if (m->nparams >= KB_META_PARAMS_MAX) {
					ok = jp_skip(j);
					continue;
				}
				p = &m->param[m->nparams++];
				snprintf(p->name, sizeof(p->name), "%s", pk);
				jp_push(j, pk, 0);
				ok = jp_u64(j, UINT64_MAX, &p->value);
				jp_pop(j);
			}
			ok = ok && r2 == 0;
		} else
			ok = jp_skip(j);
		jp_pop(j);
	}
	return ok && r == 0;
}

/* Scalars of the environment object, kept as text; the rest skipped. */
static bool load_env(struct jp *j, struct kb_meta *m)
{
	char key[KEY_MAX];
	bool first = true, ok = true;
	int r;

	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		struct kb_meta_env *e = m->nenv < KB_META_ENV_MAX ?
					&m->env[m->nenv] : NULL;
		const char *s;

		jp_push(j, key, 0);
		jp_ws(j);
		s = j->p;
		if (e && j->p < j->end && *j->p == '"') {
			ok = jp_string(j, e->value, sizeof(e->value));
			if (!ok && strstr(j->err, "longer than")) {
				/* an over-long report value: skip, not fatal */
				j->failed = false;
				j->p = s;
				ok = jp_skip(j);
				e = NULL;
			}
		} else if (e && j->p < j->end && *j->p != '{' && *j->p != '[') {
			ok = jp_skip(j);
			if (ok)
				snprintf(e->value, sizeof(e->value), "%.*s",
					 (int)(j->p - s), s);
		} else {
			ok = jp_skip(j);
			e = NULL;
		}
		if (ok && e) {
			snprintf(e->key, sizeof(e->key), "%s", key);
			m->nenv++;
		}
		jp_pop(j);
	}
	return ok && r == 0;
}

/* The request's arguments: one for every routine, or one each. */
static bool load_args(struct jp *j, struct kb_run_req *q)
{
	bool first = true, ok = true;
	int r;

	q->nargs = 0;
	while (ok && (r = jp_arr_next(j, &first)) == 1) {
		if (q->nargs == KBENCH_RUN_ROUTINES_MAX) {
			jp_error(j, "more than %d args", KBENCH_RUN_ROUTINES_MAX);
			return false;
		}
		ok = jp_u64(j, UINT64_MAX, &q->args[q->nargs++]);
	}
	return ok && r == 0;
}

static bool load_request(struct jp *j, struct kb_saved_run *s)
{
	struct kb_run_req *q = &s->req;
	char key[KEY_MAX];
	bool first = true, ok = true;
	int r;

	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		struct { const char *k; bool *has; uint32_t *v; } f[] = {
			{ "cpu", &q->has_cpu, &q->cpu },
			{ "samples", &q->has_samples, &q->samples },
			{ "iterations", &q->has_iterations, &q->iterations },
			{ "target_ns", &q->has_target, &q->target_ns },
			{ "warmup", &q->has_warmup, &q->warmup },
		};
		size_t i;

		jp_push(j, key, 0);
		for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (!strcmp(key, f[i].k))
				break;
		if (i < sizeof(f) / sizeof(f[0])) {
			*f[i].has = !jp_null(j);
			if (*f[i].has)
				ok = jp_u32(j, f[i].v);
		} else if (!strcmp(key, "routines")) {
			/* names are kept by the routines themselves */
			ok = jp_skip(j);
		} else if (!strcmp(key, "args")) {
			ok = load_args(j, q);
		} else {
			ok = jp_skip(j);
		}
		jp_pop(j);
	}
	return ok && r == 0;
}

static bool load_summary(struct jp *j, struct kb_result *res)
{
	char key[KEY_MAX];
	bool first = true, ok = true;
	int r;

	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		jp_push(j, key, 0);
		const struct { const char *k; int64_t *v; } s64s[] = {
			{ "net_min", &res->net_min },
			{ "net_median", &res->net_median },
			{ "net_max", &res->net_max },
			{ "net_sum", &res->net_sum },
			{ "per_iter_min_milli", &res->per_iter_min_milli },
			{ "per_iter_median_milli", &res->per_iter_median_milli },
			{ "corr_min_milli", &res->corr_min_milli },
			{ "corr_median_milli", &res->corr_median_milli },
		};
		size_t i;

		for (i = 0; i < sizeof(s64s) / sizeof(s64s[0]); i++)
			if (!strcmp(key, s64s[i].k))
				break;
		if (i < sizeof(s64s) / sizeof(s64s[0])) {
			ok = jp_s64(j, s64s[i].v);
			/* the corrected figures are absent for the overhead */
			res->has_corr |= !strncmp(key, "corr_", 5);
		} else if (!strcmp(key, "samples")) {
			ok = jp_u32(j, &res->samples);
		} else if (!strcmp(key, "valid")) {
			ok = jp_u32(j, &res->valid);
		} else if (!strcmp(key, "excluded_by_reason")) {
			bool f2 = true;
			char ek[KEY_MAX];
			int r2;

			while (ok && (r2 = jp_obj_next(j, &f2, ek, sizeof(ek))) == 1) {
				for (i = 0; i < KB_EXCL_N; i++)
					if (!strcmp(ek, kb_excl_key[i]))
						break;
				jp_push(j, ek, 0);
				ok = i < KB_EXCL_N ? jp_u32(j, &res->excl[i]) :
						     jp_skip(j);
				jp_pop(j);
			}
			ok = ok && r2 == 0;
		} else
			ok = jp_skip(j);
		jp_pop(j);
	}
	return ok && r == 0;
}

/* A routine's events by name, until the run's list orders them. */
struct ev_names {
	unsigned int n;
	char name[KBENCH_EVENTS_MAX][KBENCH_NAME_MAX + 1];
	const char *at[KBENCH_EVENTS_MAX];	/* for messages */
};

/* One event of a routine: {"summary": {...}, "net": [...]} into @ev. */
static bool load_event(struct jp *j, struct kb_ev_result *ev)
{
	char key[KEY_MAX];
	bool first = true, ok = true;
	int r;

	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		jp_push(j, key, 0);
		if (!strcmp(key, "summary")) {
			bool f2 = true;
			char sk[KEY_MAX];
			int r2;

			while (ok && (r2 = jp_obj_next(j, &f2, sk, sizeof(sk))) == 1) {
				const struct { const char *k; int64_t *v; } f[] = {
					{ "net_min", &ev->net_min },
					{ "net_median", &ev->net_median },
					{ "net_max", &ev->net_max },
					{ "net_sum", &ev->net_sum },
					{ "per_iter_min_milli", &ev->per_iter_min_milli },
					{ "per_iter_median_milli", &ev->per_iter_median_milli },
					{ "corr_min_milli", &ev->corr_min_milli },
					{ "corr_median_milli", &ev->corr_median_milli },
				};
				size_t i;

				jp_push(j, sk, 0);
				for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
					if (!strcmp(sk, f[i].k))
						break;
				ok = i < sizeof(f) / sizeof(f[0]) ?
				     jp_s64(j, f[i].v) : jp_skip(j);
				jp_pop(j);
			}
			ok = ok && r2 == 0;
		} else if (!strcmp(key, "net") && !ev->net) {
			ok = jp_ints(j, &ev->net, &ev->n, INT64_MIN, INT64_MAX, 0);
			ev->cap = ev->n;
		} else {
			ok = jp_skip(j);
		}
		jp_pop(j);
	}
	return ok && r == 0;
}

/* "events": {"NAME": {...}, ...} of a routine into @res->ev[], @names. */
static bool load_events(struct jp *j, struct kb_result *res,
			struct ev_names *names)
{
	char key[KEY_MAX];
	bool first = true, ok = true;
	int r;

	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		jp_push(j, key, 0);
		if (names->n == KBENCH_EVENTS_MAX) {
			jp_error(j, "more than %d events", KBENCH_EVENTS_MAX);
			ok = false;
		} else if (strlen(key) > KBENCH_NAME_MAX) {
			jp_error(j, "an event name longer than %d characters",
				 KBENCH_NAME_MAX);
			ok = false;
		} else {
			names->at[names->n] = j->p;
			snprintf(names->name[names->n], sizeof(names->name[0]),
				 "%s", key);
			ok = load_event(j, &res->ev[names->n]);
			names->n++;
		}
		jp_pop(j);
	}
	return ok && r == 0;
}

/* "events": [{"name": ..., ...}, ...] of a run into @r->events. */
static bool load_event_descs(struct jp *j, struct kb_run *r)
{
	bool first = true, ok = true;
	int r1;

	while (ok && (r1 = jp_arr_next(j, &first)) == 1) {
		struct kb_event_desc *e = &r->events[r->nevents];
		char key[KEY_MAX];
		bool f2 = true;
		int r2;

		jp_push(j, NULL, r->nevents);
		if (r->nevents == KBENCH_EVENTS_MAX) {
			jp_error(j, "more than %d events", KBENCH_EVENTS_MAX);
			return false;
		}
		memset(e, 0, sizeof(*e));
		while (ok && (r2 = jp_obj_next(j, &f2, key, sizeof(key))) == 1) {
			jp_push(j, key, 0);
			if (!strcmp(key, "name"))
				ok = jp_string(j, e->name, sizeof(e->name));
			else if (!strcmp(key, "type"))
				ok = jp_u32(j, &e->type);
			else if (!strcmp(key, "config"))
				ok = jp_u64(j, UINT64_MAX, &e->config);
			else if (!strcmp(key, "pmu"))
				ok = load_str_field(j, e->pmu, sizeof(e->pmu));
			else if (!strcmp(key, "read"))
				ok = load_str_field(j, e->read, sizeof(e->read));
			else if (!strcmp(key, "enabled_ns"))
				ok = jp_u64(j, UINT64_MAX, &e->enabled_ns);
			else if (!strcmp(key, "running_ns"))
				ok = jp_u64(j, UINT64_MAX, &e->running_ns);
			else
				ok = jp_skip(j);
			jp_pop(j);
		}
		ok = ok && r2 == 0;
		if (ok && !e->name[0]) {
			jp_error(j, "an event without a \"name\"");
			ok = false;
		}
		r->nevents++;
		jp_pop(j);
	}
	return ok && r1 == 0;
}

/*
 * The events each routine of @r named, put in the order of the run's
 * event list; each must be one of the run's, with a sample per sample.
 */
static bool order_events(struct jp *j, struct kb_run *r,
			 struct ev_names *names, unsigned int nroutines)
{
	struct kb_ev_result tmp[KBENCH_EVENTS_MAX];
	unsigned int k, e, x;

	for (k = 0; k < nroutines; k++) {
		struct kb_result *res = k < r->nres ? &r->res[k] : &r->overhead;
		int idx;

		memcpy(tmp, res->ev, sizeof(tmp));
		memset(res->ev, 0, sizeof(res->ev));
		for (e = 0; e < names[k].n; e++) {
			idx = kb_run_event_index(r, names[k].name[e]);
			x = (unsigned int)idx;
			if (idx < 0 || res->ev[x].net ||
			    (tmp[e].net && tmp[e].n != res->n)) {
				j->p = names[k].at[e];
				jp_error(j, idx < 0 ? "routine '%s': event '%s' is not one of the run's \"events\"" :
					 res->ev[x].net ? "routine '%s': event '%s' given twice" :
					 "routine '%s': event '%s' has not one sample per sample",
					 res->routine, names[k].name[e]);
				for (; e < names[k].n; e++)
					free(tmp[e].net);
				return false;
			}
			res->ev[x] = tmp[e];
		}
	}
	return true;
}

/* sample_flags: {"index": [...], "value": [...]} -> res->sflags */
static bool load_flags(struct jp *j, int64_t **idx, size_t *nidx,
		       int64_t **val, size_t *nval, const char **at)
{
	char key[KEY_MAX];
	bool first = true, ok = true;
	int r;

	*at = j->p;
	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		jp_push(j, key, 0);
		if (!strcmp(key, "index") && !*idx)
			ok = jp_ints(j, idx, nidx, 0, INT64_MAX, 0);
		else if (!strcmp(key, "value") && !*val)
			ok = jp_ints(j, val, nval, 1, UINT32_MAX, *nidx);
		else
			ok = jp_skip(j);
		jp_pop(j);
	}
	return ok && r == 0;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > KBENCH_NAME_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static bool load_routine(struct jp *j, struct kb_run *run,
			 struct ev_names *names_routines,
			 struct ev_names *names_overhead)
{
	struct ev_names names = { 0 };
	struct kb_result tmp = { 0 }, *res;
	int64_t *net = NULL, *fidx = NULL, *fval = NULL;
	size_t nnet = 0, nidx = 0, nval = 0, i;
	const char *start, *flags_at = NULL;
	char key[KEY_MAX];
	bool first = true, ok = true, overhead = false, has_n = false;
	bool has_name = false;
	uint64_t n = 0;
	int r;

	jp_ws(j);
	start = j->p;
	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		jp_push(j, key, 0);
		if (!strcmp(key, "routine")) {
			ok = jp_string(j, tmp.routine, sizeof(tmp.routine));
			has_name = ok;
		} else if (!strcmp(key, "index"))
			ok = jp_u32(j, &tmp.index);
		else if (!strcmp(key, "overhead"))
			ok = jp_bool(j, &overhead);
		else if (!strcmp(key, "bytes_per_iter"))
			ok = jp_u32(j, &tmp.bytes_per_iter);
		else if (!strcmp(key, "arg")) {
			ok = jp_u64(j, UINT64_MAX, &tmp.arg);
			tmp.has_arg = ok;
		}
		else if (!strcmp(key, "flags"))
			ok = flag_array(j, kb_result_flag_names, &tmp.flags);
		else if (!strcmp(key, "summary"))
			ok = load_summary(j, &tmp);
		else if (!strcmp(key, "n")) {
			ok = jp_u64(j, UINT32_MAX, &n);
			has_n = ok;
		} else if (!strcmp(key, "net") && !net) {
			ok = jp_ints(j, &net, &nnet, INT64_MIN, INT64_MAX,
				     has_n ? n : 0);
		} else if (!strcmp(key, "sample_flags") && !flags_at)
			ok = load_flags(j, &fidx, &nidx, &fval, &nval, &flags_at);
		else if (!strcmp(key, "events") && !names.n)
			ok = load_events(j, &tmp, &names);
		else
			ok = jp_skip(j);
		jp_pop(j);
	}
	ok = ok && r == 0;
	if (ok) {
		const char *end = j->p;

		j->p = start;	/* errors below point at the routine */
		if (!has_name || !valid_name(tmp.routine))
			jp_error(j, "routine without a valid \"routine\" name (1-%d characters)",
				 KBENCH_NAME_MAX);
		else if (!has_n || !net)
			jp_error(j, "routine '%s' without \"%s\"", tmp.routine,
				 has_n ? "net" : "n");
		else if (nnet != n)
			jp_error(j, "routine '%s': \"n\" is %llu but \"net\" holds %zu samples",
				 tmp.routine, (unsigned long long)n, nnet);
		else if (nidx != nval)
			jp_error(j, "routine '%s': sample_flags.index holds %zu entries, sample_flags.value %zu",
				 tmp.routine, nidx, nval);
		else if (!overhead && run->nres >= KBENCH_RUN_ROUTINES_MAX)
			jp_error(j, "more than %d routines in one run",
				 KBENCH_RUN_ROUTINES_MAX);
		else if (overhead && run->has_overhead)
			jp_error(j, "two overhead routines in one run");
		for (i = 0; !j->failed && i < nidx; i++) {
			if (fidx[i] >= (int64_t)n || (i && fidx[i] <= fidx[i - 1])) {
				j->p = flags_at;
				jp_error(j, "routine '%s': sample_flags.index[%zu] = %lld is %s",
					 tmp.routine, i, (long long)fidx[i],
					 fidx[i] >= (int64_t)n ? "past the last sample" :
					 "not above the one before");
			}
		}
		ok = !j->failed;
		if (ok)
			j->p = end;
	}
	if (ok) {
		res = overhead ? &run->overhead : &run->res[run->nres++];
		if (overhead)
			run->has_overhead = true;
		*res = tmp;
		/* int64_t[] is the sample array as it is */
		res->net = net;
		res->n = res->cap = nnet;
		res->sflags = calloc(nnet ? nnet : 1, sizeof(*res->sflags));
		if (!res->sflags) {
			jp_error(j, "out of memory");
			ok = false;
		}
		for (i = 0; ok && i < nidx; i++)
			res->sflags[fidx[i]] = (uint32_t)fval[i];
		net = NULL;
		*(overhead ? names_overhead : &names_routines[run->nres - 1]) =
			names;
	} else {
		for (i = 0; i < KBENCH_EVENTS_MAX; i++)
			free(tmp.ev[i].net);
	}
	free(net);
	free(fidx);
	free(fval);
	return ok;
}

static bool load_run(struct jp *j, struct kb_saved_run *s)
{
	struct kb_run *r = &s->run;
	char key[KEY_MAX], side[16] = "kernel", status[16] = "complete";
	struct ev_names names[KBENCH_RUN_ROUTINES_MAX + 1];
	bool first = true, ok = true;
	size_t ri = 0;
	int r1;

	memset(names, 0, sizeof(names));
	while (ok && (r1 = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		struct { const char *k; uint32_t *v; } u32s[] = {
			{ "run_id", &r->run_id }, { "cpu", &r->cpu },
			{ "samples", &r->samples }, { "iterations", &r->iterations },
			{ "target_ns", &r->target_ns }, { "warmup", &r->warmup },
		};
		struct { const char *k; uint64_t *v; } u64s[] = {
			{ "counter_hz", &r->counter_hz },
			{ "elapsed_ns", &r->elapsed_ns },
			{ "span_cycles", &r->span_cycles },
			{ "routine_cycles", &r->routine_cycles },
			{ "window_cycles", &r->window_cycles },
			{ "mem_bytes", &r->mem_bytes },
		};
		size_t i;
		bool done = false;

		jp_push(j, key, 0);
		for (i = 0; !done && i < sizeof(u32s) / sizeof(u32s[0]); i++)
			if (!strcmp(key, u32s[i].k)) {
				ok = jp_u32(j, u32s[i].v);
				done = true;
			}
		for (i = 0; !done && i < sizeof(u64s) / sizeof(u64s[0]); i++)
			if (!strcmp(key, u64s[i].k)) {
				ok = jp_u64(j, UINT64_MAX, u64s[i].v);
				done = true;
			}
		if (done)
			;
		else if (!strcmp(key, "side"))
			ok = jp_string(j, side, sizeof(side));
		else if (!strcmp(key, "arg")) {
			s->has_arg = !jp_null(j);
			if (s->has_arg)
				ok = jp_u64(j, UINT64_MAX, &s->arg);
		} else if (!strcmp(key, "adaptive")) {
			bool b = false;	/* jp_bool() leaves it alone on error */

			ok = jp_bool(j, &b);
			r->adaptive = b;
		} else if (!strcmp(key, "counter_constant"))
			ok = jp_bool(j, &r->counter_constant);
		else if (!strcmp(key, "counter"))
			ok = jp_string(j, r->counter, sizeof(r->counter));
		else if (!strcmp(key, "status"))
			ok = jp_string(j, status, sizeof(status));
		else if (!strcmp(key, "kernel"))
			ok = load_str_field(j, r->kernel, sizeof(r->kernel));
		else if (!strcmp(key, "date"))
			ok = load_str_field(j, r->date, sizeof(r->date));
		else if (!strcmp(key, "request"))
			ok = load_request(j, s);
		else if (!strcmp(key, "routines")) {
			bool f2 = true;
			int r2;

			while (ok && (r2 = jp_arr_next(j, &f2)) == 1) {
				jp_push(j, NULL, ri);
				ok = load_routine(j, r, names,
						  &names[KBENCH_RUN_ROUTINES_MAX]);
				ri++;
				jp_pop(j);
			}
			ok = ok && r2 == 0;
		} else if (!strcmp(key, "events") && !r->nevents)
			ok = load_event_descs(j, r);
		else
			ok = jp_skip(j);
		jp_pop(j);
	}
	if (!ok || r1 != 0)
		return false;
	if (r->has_overhead)
		names[r->nres] = names[KBENCH_RUN_ROUTINES_MAX];
	if (!order_events(j, r, names, r->nres + r->has_overhead))
		return false;
	kb_run_correct_events(r);
	if (!strcmp(side, "user"))
		r->user = true;
	else if (strcmp(side, "kernel")) {
		jp_error(j, "\"side\" is '%s', not 'kernel' or 'user'", side);
		return false;
	}
	if (!strcmp(status, "timeout"))
		r->status = KBENCH_RUN_TIMEOUT;
	for (ri = 0; ri < r->nres; ri++)
		s->req.names[ri] = r->res[ri].routine;
	s->req.n = r->nres;
	for (ri = 0; ri < r->nevents; ri++)
		s->req.events[ri] = r->events[ri].name;
	s->req.nevents = r->nevents;
	return true;
}

static bool load_top(struct jp *j, struct kb_resfile *rf)
{
	char key[KEY_MAX], format[64] = "";
	bool first = true, ok = true, has_version = false, has_runs = false;
	uint64_t version = 0;
	size_t cap = 0;
	int r;

	jp_ws(j);
	if (j->p >= j->end) {
		jp_error(j, "empty file: not a kbench result");
		return false;
	}
	if (*j->p != '{') {
		jp_error(j, "not a kbench result file (not a JSON object: starts with %s)",
			 jp_found(j));
		return false;
	}
	while (ok && (r = jp_obj_next(j, &first, key, sizeof(key))) == 1) {
		jp_push(j, key, 0);
		if (!strcmp(key, "format")) {
			ok = jp_string(j, format, sizeof(format));
			if (ok && strcmp(format, KB_RESFILE_FORMAT)) {
				jp_error(j, "not a kbench result file (format '%s', want '%s')",
					 format, KB_RESFILE_FORMAT);
				ok = false;
			}
		} else if (!strcmp(key, "version")) {
			const char *at;

			jp_ws(j);
			at = j->p;
			ok = jp_u64(j, UINT64_MAX, &version);
			has_version = ok;
			if (ok && (version > KB_RESFILE_VERSION || version < 1)) {
				j->p = at;
				jp_error(j, "result format version %llu; this kbenchctl (%s) reads versions 1 to %d%s",
					 (unsigned long long)version,
					 KBENCHCTL_VERSION, KB_RESFILE_VERSION,
					 version > KB_RESFILE_VERSION ?
					 ": written by a newer kbenchctl, upgrade to read it" : "");
				ok = false;
			}
		} else if (!strcmp(key, "meta")) {
			ok = load_meta(j, &rf->meta);
		} else if (!strcmp(key, "environment")) {
			ok = load_env(j, &rf->meta);
		} else if (!strcmp(key, "runs") && !has_runs) {
			bool f2 = true;
			int r2;

			has_runs = true;
			while (ok && (r2 = jp_arr_next(j, &f2)) == 1) {
				if (rf->nruns == cap) {
					struct kb_saved_run *n2;

					cap = cap ? cap * 2 : 4;
					n2 = realloc(rf->runs, cap * sizeof(*n2));
					if (!n2) {
						jp_error(j, "out of memory");
						ok = false;
						break;
					}
					rf->runs = n2;
				}
				memset(&rf->runs[rf->nruns], 0, sizeof(rf->runs[0]));
				jp_push(j, NULL, rf->nruns);
				/* counted before loading: freed even if half-loaded */
				ok = load_run(j, &rf->runs[rf->nruns++]);
				jp_pop(j);
			}
			ok = ok && r2 == 0;
		} else {
			ok = jp_skip(j);
		}
		jp_pop(j);
	}
	if (!ok || r != 0)
		return false;
	jp_ws(j);
	if (j->p != j->end) {
		jp_error(j, "data after the end of the result object");
		return false;
	}
	j->p = j->buf;
	if (!format[0])
		jp_error(j, "not a kbench result file (no \"format\": \"%s\"; 'kbenchctl run --json' output cannot be compared: save with --save)",
			 KB_RESFILE_FORMAT);
	else if (!has_version)
		jp_error(j, "no \"version\" key");
	else if (!has_runs)
		jp_error(j, "no \"runs\" array");
	return !j->failed;
}

int kb_resfile_parse(const char *buf, size_t len, const char *name,
		     struct kb_resfile *rf, char *err, size_t errlen)
{
	struct jp j = {
		.buf = buf, .p = buf, .end = buf + len, .name = name,
		.err = err, .errlen = errlen,
	};

	memset(rf, 0, sizeof(*rf));
	if (errlen)
		err[0] = '\0';
	if (!load_top(&j, rf)) {
		kb_resfile_free(rf);
		return -EINVAL;
	}
	return 0;
}

void kb_resfile_free(struct kb_resfile *rf)
{
	size_t i;

	for (i = 0; i < rf->nruns; i++)
		kb_run_free(&rf->runs[i].run);
	free(rf->runs);
	memset(rf, 0, sizeof(*rf));
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int kb_resfile_load(const char *arg, struct kb_resfile *rf, char *err,
		    size_t errlen)
{
	char path[4096], why[256];
	size_t len = 0, cap;
	double t0 = now_ms();
	struct stat st;
	bool is_name;
	char *buf;
	ssize_t n;
	int fd, ret;

	memset(rf, 0, sizeof(*rf));
	ret = kb_resfile_path(arg, path, sizeof(path), &is_name, why,
			      sizeof(why));
	if (ret) {
		snprintf(err, errlen, "result '%s': %s", arg, why);
		return ret;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (is_name && ret == -ENOENT)
			snprintf(err, errlen, "no saved result '%s' (looked for %s; 'kbenchctl run ROUTINE --save %s' writes it)",
				 arg, path, arg);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory", path);
		close(fd);
		return -EISDIR;
	}
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1 << 16;
	if ((uint64_t)cap > KB_RESFILE_MAX_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes, more than a result file may have (%llu)",
			 path, (long long)st.st_size,
			 (unsigned long long)KB_RESFILE_MAX_BYTES);
		close(fd);
		return -EFBIG;
	}
	/* a regular file is parsed where the page cache holds it: no copy */
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		buf = mmap(NULL, (size_t)st.st_size, PROT_READ,
			   MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (buf != MAP_FAILED) {
			close(fd);
			ret = kb_resfile_parse(buf, (size_t)st.st_size, path, rf,
					       err, errlen);
			munmap(buf, (size_t)st.st_size);
			len = (size_t)st.st_size;
			goto out;
		}
	}
	buf = malloc(cap);
	while (buf) {
		if (len == cap) {
			char *b2 = cap < KB_RESFILE_MAX_BYTES ?
				   realloc(buf, cap * 2) : NULL;

			if (!b2) {
				ret = cap < KB_RESFILE_MAX_BYTES ? -ENOMEM : -EFBIG;
				snprintf(err, errlen, "%s: %s", path,
					 ret == -ENOMEM ? "out of memory" :
					 "larger than a result file may be");
				free(buf);
				close(fd);
				return ret;
			}
			buf = b2;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
			free(buf);
			close(fd);
			return ret;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = kb_resfile_parse(buf, len, path, rf, err, errlen);
	free(buf);
out:
	if (!ret && getenv("KBENCH_TIMING"))
		fprintf(stderr, "%s: loaded %s (%zu bytes) in %.1f ms\n", prog,
			path, len, now_ms() - t0);
	return ret;
}
