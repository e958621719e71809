// SPDX-License-Identifier: GPL-2.0
/*
 * The samples CSV (see csv.h).
 */
#include <string.h>

#include "csv.h"
#include "names.h"
#include "output.h"

#define CSV_HEADER	"index,routine,net_cycles,flags\n"
/* the longest row: 20 + 1 + 31 + 1 + 20 + 1 + flag names (< 96) + 1 */
#define CSV_ROW_MAX	192

void kb_csv_init(struct kb_csv *c, FILE *f)
{
	c->f = f;
	memcpy(c->buf, CSV_HEADER, sizeof(CSV_HEADER) - 1);
	c->n = sizeof(CSV_HEADER) - 1;
	c->next = 0;
}

void kb_csv_flush(struct kb_csv *c)
{
	fwrite(c->buf, 1, c->n, c->f);
	c->n = 0;
}

void kb_csv_rows(struct kb_csv *c, const char *routine, uint64_t first,
		 const void *net, const void *flags, size_t count)
{
	const unsigned char *np = net, *fp = flags;
	size_t rlen = strnlen(routine, 31), i;
	char mid[32] = "";

	/* "routine," copied whole (a fixed-size copy is a few moves) */
	memcpy(mid, routine, rlen);
	mid[rlen++] = ',';

	for (i = 0; i < count; i++) {
		char *o;
		int64_t v;
		uint32_t f;

		if (sizeof(c->buf) - c->n < CSV_ROW_MAX)
			kb_csv_flush(c);
		memcpy(&v, np + i * sizeof(v), sizeof(v));
		memcpy(&f, fp + i * sizeof(f), sizeof(f));
		o = c->buf + c->n;
		o += kb_put_u64(o, first + i);
		*o++ = ',';
		memcpy(o, mid, sizeof(mid));
		o += rlen;
		o += kb_put_s64(o, v);
		*o++ = ',';
		if (f) {
			kb_flag_names(kb_sample_flag_names, f, "|", o, 96);
			o += strlen(o);
		}
		*o++ = '\n';
		c->n = (size_t)(o - c->buf);
	}
	c->next = first + count;
}
