// SPDX-License-Identifier: GPL-2.0
/*
 * The samples CSV, fast (see csv.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "csv.h"
#include "names.h"
#include "output.h"

#define CSV_HEADER	"index,routine,net_cycles,flags\n"
/* the longest row: 20 + 1 + 31 + 1 + 20 + 1 + flag names (< 96) + 1 */
#define CSV_ROW_MAX	200

void kb_csv_init(struct kb_csv *c, FILE *f)
{
	memset(c->idx, 0, sizeof(c->idx));
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
	const char *p = c->buf;
	size_t left = c->n;

	fflush(c->f);
	while (left) {
		ssize_t w = write(fileno(c->f), p, left);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* the stream's error flag, as fwrite would set it */
			fwrite_unlocked(p, 1, left, c->f);
			break;
		}
		p += w;
		left -= (size_t)w;
	}
	c->n = 0;
}

static void counter_set(struct kb_csv *c, uint64_t v)
{
	c->idx_len = kb_put_u64(c->idx, v);
	c->next = v;
}

/* +1 in ASCII: usually only the last digit changes. */
static void counter_inc(struct kb_csv *c)
{
	char *p = c->idx + c->idx_len - 1;

	c->next++;
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

/*
 * Copies of a fixed size (the whole field buffer; the row advances by the
 * field's length) compile to a few moves: a million variable-length
 * memcpy() calls were a quarter of the time in the VM.
 */
void kb_csv_rows(struct kb_csv *c, const char *routine, uint64_t first,
		 const void *net, const void *flags, size_t count)
{
	const unsigned char *np = net, *fp = flags;
	char mid[40] = "";
	size_t mlen = strnlen(routine, 31), i;

	/* ",routine," once per batch */
	mid[0] = ',';
	memcpy(mid + 1, routine, mlen);
	mid[mlen + 1] = ',';
	mlen += 2;
	if (first != c->next)
		counter_set(c, first);
	for (i = 0; i < count; i++) {
		char *o;
		int64_t v;
		uint32_t f;

		if (c->n + CSV_ROW_MAX > sizeof(c->buf))
			kb_csv_flush(c);
		o = c->buf + c->n;
		memcpy(&v, np + i * sizeof(v), sizeof(v));
		memcpy(&f, fp + i * sizeof(f), sizeof(f));
		/* the usual row: an index below 10^8 and a short name */
		if (c->idx_len <= 8 && mlen <= 16) {
			memcpy(o, c->idx, 8);
			o += c->idx_len;
			memcpy(o, mid, 16);
		} else {
			memcpy(o, c->idx, sizeof(c->idx));
			o += c->idx_len;
			memcpy(o, mid, sizeof(mid));
		}
		o += mlen;
		o += kb_put_s64(o, v);
		*o++ = ',';
		if (f) {
			char names[96];
			size_t k;

			kb_flag_names(kb_sample_flag_names, f, "|", names,
				      sizeof(names));
			k = strlen(names);
			memcpy(o, names, k);
			o += k;
		}
		*o++ = '\n';
		c->n = (size_t)(o - c->buf);
		counter_inc(c);
	}
}
