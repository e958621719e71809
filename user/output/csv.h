/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The samples CSV (index,routine,net_cycles,flags), written a batch at a
 * time: the index is an ASCII counter incremented in place, the routine
 * name is copied once per batch, values below 10^8 come from a table of
 * 4-digit groups, flag names are formatted once per flag value; all
 * straight into a chunk buffer that goes out with write(2).
 */
#ifndef KBENCHCTL_CSV_H
#define KBENCHCTL_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kb_csv {
	FILE *f;
	uint64_t next;		/* the index the counter holds */
	char idx[24];		/* its digits, from idx[0] */
	size_t idx_len;
	/* the names of flag values below 64, with the newline, once seen */
	char fnames[64][48];
	uint8_t flen[64];
	size_t n;
	char buf[1 << 18];
};

/* Start: the header line goes out with the first flush. */
void kb_csv_init(struct kb_csv *c, FILE *f);
/*
 * @count rows of @routine from index @first: @net holds s64 and @flags u32
 * values in host order; @net possibly unaligned, @flags 4-byte aligned (as
 * netlink payloads are).
 */
void kb_csv_rows(struct kb_csv *c, const char *routine, uint64_t first,
		 const void *net, const void *flags, size_t count);
void kb_csv_flush(struct kb_csv *c);

#endif /* KBENCHCTL_CSV_H */
