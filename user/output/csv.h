/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The samples CSV (index,routine,net_cycles,flags), written a batch at a
 * time into a buffer that goes out with fwrite().
 */
#ifndef KBENCHCTL_CSV_H
#define KBENCHCTL_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kb_csv {
	FILE *f;
	uint64_t next;		/* the index of the next row */
	size_t n;
	char buf[1 << 18];
};

/* Start: the header line goes out with the first flush. */
void kb_csv_init(struct kb_csv *c, FILE *f);
/*
 * @count rows of @routine from index @first: @net holds s64 and @flags u32
 * values in host order, possibly unaligned (netlink payloads).
 */
void kb_csv_rows(struct kb_csv *c, const char *routine, uint64_t first,
		 const void *net, const void *flags, size_t count);
void kb_csv_flush(struct kb_csv *c);

#endif /* KBENCHCTL_CSV_H */
