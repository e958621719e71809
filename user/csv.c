// SPDX-License-Identifier: GPL-2.0
/*
 * The samples CSV, fast (see csv.h).
 */
#define _GNU_SOURCE
#include <string.h>

#include "csv.h"
#include "names.h"
#include "output.h"

#define CSV_HEADER	"index,routine,net_cycles,flags\n"
/* the longest row: 20 + 1 + 31 + 1 + 20 + 1 + flag names (< 96) + 1 */
#define CSV_ROW_MAX	200

void kb_csv_init(struct kb_csv *c, FILE *f)
{
	c->f = f;
	c->n = 0;
	memcpy(c->buf, CSV_HEADER, sizeof(CSV_HEADER) - 1);
	c->n = sizeof(CSV_HEADER) - 1;
	c->next = 0;
	c->idx[sizeof(c->idx) - 1] = '0';
	c->idx_len = 1;
}

void kb_csv_flush(struct kb_csv *c)
{
	fwrite_unlocked(c->buf, 1, c->n, c->f);
	c->n = 0;
}

/* The counter's digits set to @v. */
static void counter_set(struct kb_csv *c, uint64_t v)
{
	char tmp[24];
	size_t n = kb_put_u64(tmp, v);

	memcpy(c->idx + sizeof(c->idx) - n, tmp, n);
	c->idx_len = n;
	c->next = v;
}

/* +1 in ASCII: usually one digit changes. */
static void counter_inc(struct kb_csv *c)
{
	char *p = c->idx + sizeof(c->idx) - 1;

	c->next++;
	while (*p == '9') {
		*p-- = '0';
		if (p < c->idx + sizeof(c->idx) - c->idx_len) {
			*p = '1';
			c->idx_len++;
			return;
		}
	}
	(*p)++;
}

void kb_csv_rows(struct kb_csv *c, const char *routine, uint64_t first,
		 const void *net, const void *flags, size_t count)
{
	const unsigned char *np = net, *fp = flags;
	char mid[40];
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
		memcpy(o, c->idx + sizeof(c->idx) - c->idx_len, c->idx_len);
		o += c->idx_len;
		memcpy(o, mid, mlen);
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
