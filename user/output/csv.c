// SPDX-License-Identifier: GPL-2.0
/*
 * The samples CSV, fast (see csv.h).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "b64.h"
#include "csv.h"
#include "names.h"
#include "output.h"

#define CSV_HEADER	"index,routine,net_cycles,flags\n"
/*
 * the longest row: 20 + 1 + 31 + 1 + 20 + 1 + flag names (< 96) + 1, and
 * the 8 to 40 bytes a fixed-size copy may write past it
 */
#define CSV_ROW_MAX	240
/* rows checked for flags at a time (kb_or32: a quarter instruction each) */
#define CSV_BLOCK	256

/*
 * Numbers below 10000 (nearly every net value of a short routine) come
 * from a table: "0," .. "9999," in the low bytes, the length in the top
 * byte; one 8-byte store writes them (the bytes past the length are
 * overwritten by what follows).  Larger ones take two digit groups.
 */
static uint64_t dec_comma[10000];
static uint64_t dec_nl[10000];		/* "0,\n" .. "9999,\n": flags none */
static uint32_t dec_pad4[10000];	/* "0000" .. "9999" */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* Counting up in ASCII: a fifth of the instructions of printing each. */
static void tables_init(void)
{
	char d[4] = { '0', '0', '0', '0' };	/* v, zero-padded */
	unsigned int v, n = 1, i;

	for (v = 0; v < 10000; v++) {
		char t[8] = "";
		uint64_t e;

		memcpy(t, d + 4 - n, 4);
		t[n] = ',';
		memcpy(&e, t, 8);
		e = le64toh(e) & 0x00ffffffffffffffULL;
		dec_comma[v] = htole64(e | (uint64_t)(n + 1) << 56);
		e |= (uint64_t)'\n' << (8 * (n + 1));
		dec_nl[v] = htole64(e | (uint64_t)(n + 2) << 56);
		memcpy(&dec_pad4[v], d, 4);
		if (v == 9999)
			break;
		/* + 1 (below 9999 some digit is not a 9) */
		for (i = 3; d[i] == '9'; i--)
			d[i] = '0';
		d[i]++;
		if (v + 1 == 10 || v + 1 == 100 || v + 1 == 1000)
			n++;
	}
}

void kb_csv_init(struct kb_csv *c, FILE *f)
{
	pthread_once(&tables_once, tables_init);
	memset(c->idx, 0, sizeof(c->idx));
	memset(c->flen, 0, sizeof(c->flen));
	c->f = f;
	memcpy(c->buf, CSV_HEADER, sizeof(CSV_HEADER) - 1);
	c->n = sizeof(CSV_HEADER) - 1;
	c->next = 0;
	c->idx[0] = '0';
	c->idx_len = 1;
}

/* Straight to the file descriptor: stdio would copy every chunk once more. */
void kb_csv_flush(struct kb_csv *c)
{
	kb_write_fd(c->f, c->buf, c->n);
	c->n = 0;
}

static void counter_set(struct kb_csv *c, uint64_t v)
{
	c->idx_len = kb_put_u64(c->idx, v);
	c->next = v;
}

/* +1 in ASCII, the carry included (c->next is counted by the caller). */
static void counter_inc(struct kb_csv *c)
{
	char *p = c->idx + c->idx_len - 1;

	while (*p == '9') {
		*p = '0';
		if (p == c->idx) {
			/* 99..9 + 1: one digit more (idx has room for 20) */
			memmove(c->idx + 1, c->idx, c->idx_len);
			c->idx[0] = '1';
			c->idx_len++;
			return;
		}
		p--;
	}
	(*p)++;
}

/* "v," for any v: below 10^8 from the tables, else kb_put_s64(). */
static inline char *put_value(char *o, int64_t v)
{
	uint64_t e;

	if ((uint64_t)v < 10000) {
		e = dec_comma[v];
		memcpy(o, &e, 8);
		return o + (le64toh(e) >> 56);
	}
	if (v > 0 && v < 100000000) {
		uint32_t hi = (uint32_t)v / 10000, lo = (uint32_t)v % 10000;
		size_t n;

		e = dec_comma[hi];
		memcpy(o, &e, 8);
		n = (le64toh(e) >> 56) - 1;
		memcpy(o + n, &dec_pad4[lo], 4);
		o[n + 4] = ',';
		return o + n + 5;
	}
	o += kb_put_s64(o, v);
	*o = ',';
	return o + 1;
}

/* The flag names of @f and a newline; the first 64 values are kept. */
static char *put_flags(struct kb_csv *c, char *o, uint32_t f)
{
	char names[96];
	size_t k;

	if (f < 64 && c->flen[f]) {
		memcpy(o, c->fnames[f], sizeof(c->fnames[f]));
		return o + c->flen[f];
	}
	kb_flag_names(kb_sample_flag_names, f, "|", names, sizeof(names));
	k = strlen(names);
	names[k++] = '\n';
	if (f < 64 && k <= sizeof(c->fnames[f])) {
		memcpy(c->fnames[f], names, k);
		c->flen[f] = (uint8_t)k;
	}
	memcpy(o, names, k);
	return o + k;
}

/*
 * The usual rows: an index of at most 8 digits, all of the same length,
 * and a routine name of at most 14 characters.  The index is kept in a
 * register as its 8 ASCII bytes and incremented there (the last digit's
 * byte + 1; the rare carry goes through counter_inc()).  Copies of a fixed
 * size (8 and 16 bytes; the row advances by the field's length) compile
 * to a few moves: a million variable-length memcpy() calls were a quarter
 * of the time in the VM.
 */
static char *rows_short(struct kb_csv *c, char *o, const char *mid,
			size_t mlen, const unsigned char *np,
			const unsigned char *fp, size_t k)
{
	size_t len = c->idx_len, i;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	unsigned int sh = 8 * (unsigned int)(len - 1);
#else
	unsigned int sh = 8 * (unsigned int)(8 - len);
#endif
	uint64_t id, one = (uint64_t)1 << sh;
	char m[16];

	memcpy(m, mid, sizeof(m));
	memcpy(&id, c->idx, 8);
	for (i = 0; i < k;) {
		/* rows up to the last digit's 9: +1 without a carry */
		size_t run = (size_t)('9' - c->idx[len - 1]) + 1, j;

		if (run > k - i)
			run = k - i;
		for (j = 0; j < run; j++) {
			int64_t v;
			uint32_t f;

			memcpy(&v, np, sizeof(v));
			memcpy(&f, fp, sizeof(f));
			np += sizeof(v);
			fp += sizeof(f);
			memcpy(o, &id, 8);
			o += len;
			memcpy(o, m, sizeof(m));
			o = put_value(o + mlen, v);
			if (f)
				o = put_flags(c, o, f);
			else
				*o++ = '\n';
			id += one;
		}
		i += run;
		/* past '9' (or the run ended early): the counter in memory */
		id -= one;
		memcpy(c->idx, &id, 8);
		counter_inc(c);
		memcpy(&id, c->idx, 8);
	}
	return o;
}

/*
 * Rows without flags (a block the caller checked): the row's start,
 * "index,routine," (at most 32 bytes), lives in two vector registers that
 * are stored whole at each row, and the index's last digit is a byte lane
 * incremented in place.  After a '9' the tens lane takes the carry in the
 * register too; only a carry past the tens goes through counter_inc().
 * Each row is then two vector stores, one table load and store for "v,\n",
 * and a vector add (about 14 instructions, from 24 with rows_short()).
 */
typedef unsigned char u8x16 __attribute__((vector_size(16)));

/* The index digits back from the register (a whole copy: it stays one) */
static inline void put_digits(struct kb_csv *c, u8x16 a)
{
	unsigned char q[16];

	memcpy(q, &a, sizeof(q));
	memcpy(c->idx, q, c->idx_len);
}

/*
 * The body, specialised by the callers below: @small when every value of
 * the block is below 8192 (no test per row), @wide when the row's start
 * takes both registers (more than 16 bytes).
 */
static inline __attribute__((always_inline)) char *
rows_fast_body(struct kb_csv *c, char *o, const char *mid, size_t mlen,
	       const unsigned char *np, size_t k, bool small, bool wide)
{
	size_t len = c->idx_len, plen = len + mlen, i = 0, run;
	/* the last digit and the tens ('9' when none: no carry there) */
	unsigned int d = (unsigned char)c->idx[len - 1];
	unsigned int t = len > 1 ? (unsigned char)c->idx[len - 2] : '9';
	unsigned char p[32] = "";
	u8x16 a, b, one = { 0 }, ten = { 0 };

	memcpy(p, c->idx, len);
	memcpy(p + len, mid, mlen);
	memcpy(&a, p, sizeof(a));
	memcpy(&b, p + 16, sizeof(b));
	one[len - 1] = 1;
	/* '9' + 1 in the last lane: that lane - 10, the tens lane + 1 */
	ten[len - 1] = (unsigned char)-10;
	if (len > 1)
		ten[len - 2] = 1;
	while (i < k) {
		const unsigned char *end;

		/* rows up to the last digit's 9 */
		run = '9' - d + 1;
		if (run > k - i)
			run = k - i;
		for (end = np + run * sizeof(int64_t); np < end;
		     np += sizeof(int64_t)) {
			int64_t v;
			uint64_t e;

			memcpy(&v, np, sizeof(v));
			memcpy(o, &a, sizeof(a));
			if (wide)
				memcpy(o + 16, &b, sizeof(b));
			if (small || (uint64_t)v < 10000) {
				e = dec_nl[v];
				memcpy(o + plen, &e, 8);
				o += plen + (le64toh(e) >> 56);
			} else {
				o = put_value(o + plen, v);
				*o++ = '\n';
			}
			a += one;
		}
		i += run;
		if (d + run <= '9') {
			d += (unsigned int)run;	/* the block ended before a '9' */
			break;
		}
		if (t != '9') {
			a += ten;
			d = '0';
			t++;
			continue;
		}
		/* a carry past the tens */
		a -= one;
		put_digits(c, a);
		counter_inc(c);
		if (i == k)
			return o;
		memcpy(p, c->idx, len);
		memcpy(&a, p, sizeof(a));
		d = (unsigned char)c->idx[len - 1];
		t = (unsigned char)c->idx[len - 2];
	}
	put_digits(c, a);
	return o;
}

static char *rows_fast(struct kb_csv *c, char *o, const char *mid,
		       size_t mlen, const unsigned char *np, size_t k)
{
	bool small = kb_or64(np, k) < 8192;

	if (c->idx_len + mlen > 16)
		return small ? rows_fast_body(c, o, mid, mlen, np, k, true, true) :
			       rows_fast_body(c, o, mid, mlen, np, k, false, true);
	return small ? rows_fast_body(c, o, mid, mlen, np, k, true, false) :
		       rows_fast_body(c, o, mid, mlen, np, k, false, false);
}

/* Any row: a long index or routine name. */
static char *rows_long(struct kb_csv *c, char *o, const char *mid,
		       size_t mlen, const unsigned char *np,
		       const unsigned char *fp, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++) {
		int64_t v;
		uint32_t f;

		memcpy(&v, np + i * sizeof(v), sizeof(v));
		memcpy(&f, fp + i * sizeof(f), sizeof(f));
		memcpy(o, c->idx, sizeof(c->idx));
		o += c->idx_len;
		memcpy(o, mid, 40);
		o = put_value(o + mlen, v);
		if (f)
			o = put_flags(c, o, f);
		else
			*o++ = '\n';
		counter_inc(c);
	}
	return o;
}

/* The flags arrays are u32-aligned: netlink aligns attributes to 4. */
static inline const uint32_t *flags_at(const unsigned char *fp)
{
	return (const uint32_t *)(const void *)fp;
}

void kb_csv_rows(struct kb_csv *c, const char *routine, uint64_t first,
		 const void *net, const void *flags, size_t count)
{
	static const uint64_t pow10[9] = { 1, 10, 100, 1000, 10000, 100000,
					   1000000, 10000000, 100000000 };
	const unsigned char *np = net, *fp = flags;
	char mid[40] = "";
	size_t mlen = strnlen(routine, 31), k;

	/* ",routine," once per batch */
	mid[0] = ',';
	memcpy(mid + 1, routine, mlen);
	mid[mlen + 1] = ',';
	mlen += 2;
	if (first != c->next)
		counter_set(c, first);
	while (count) {
		char *o = c->buf + c->n;

		/* rows that surely fit: no check per row */
		k = (sizeof(c->buf) - c->n) / CSV_ROW_MAX;
		if (!k) {
			kb_csv_flush(c);
			continue;
		}
		if (k > count)
			k = count;
		if (c->idx_len <= 8) {
			/* up to the next power of 10: the same length */
			if (k > pow10[c->idx_len] - c->next)
				k = (size_t)(pow10[c->idx_len] - c->next);
		}
		if (c->idx_len <= 8 && c->idx_len + mlen <= 32) {
			/* blocks without flags (nearly all) the fast way */
			if (k > CSV_BLOCK)
				k = CSV_BLOCK;
			if (!kb_or32(flags_at(fp), k))
				o = rows_fast(c, o, mid, mlen, np, k);
			else if (mlen <= 16)
				o = rows_short(c, o, mid, mlen, np, fp, k);
			else
				o = rows_long(c, o, mid, mlen, np, fp, k);
		} else {
			o = rows_long(c, o, mid, mlen, np, fp, k);
		}
		c->n = (size_t)(o - c->buf);
		c->next += k;
		np += k * sizeof(int64_t);
		fp += k * sizeof(uint32_t);
		count -= k;
	}
}
