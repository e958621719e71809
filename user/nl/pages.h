/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SAMPLES_GET: the dump, packed when the kernel can, and each reply page
 * decoded to the same arrays either way.
 */
#ifndef KBENCHCTL_PAGES_H
#define KBENCHCTL_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nl.h"

/* One page of samples of one series. */
struct kb_page {
	uint32_t first;		/* the index of its first sample */
	size_t n;		/* samples */
	const void *net;	/* n s64, host order, possibly unaligned */
	const void *flags;	/* n u32, host order, 4-byte aligned */
	/* the series' first page: where N changed, u32 pairs (or NULL) */
	const void *divisor;
	size_t ndivisor;	/* pairs */
};

/* Sample @i of @pg: its net value and flags. */
static inline void kb_page_sample(const struct kb_page *pg, size_t i,
				  int64_t *net, uint32_t *flags)
{
	memcpy(net, (const char *)pg->net + i * sizeof(*net), sizeof(*net));
	memcpy(flags, (const char *)pg->flags + i * sizeof(*flags),
	       sizeof(*flags));
}

/*
 * The page of a reply message: packed (NET_WIDTH, NET_PACKED, FLAG_LIST)
 * or not (NET, FLAGS).  Returns 1 with @pg filled, 0 when the message has
 * no samples, -EPROTO when a packed page is malformed (a message names
 * what).  Packed pages are decoded into buffers that the next call
 * reuses.
 */
int kb_page_decode(struct nlattr **tb, struct kb_page *pg);

/*
 * The SAMPLES_GET dump of run @run_id (of series @routine when
 * @has_routine): packed, and again unpacked when the kernel does not
 * know the PACKED attribute (kbench.ko before it).  @cb as for
 * kb_nl_request().  Errors are printed unless nl->quiet.
 */
int kb_samples_dump(struct kb_nl *nl, uint32_t run_id, bool has_routine,
		    uint32_t routine, kb_nl_msg_cb cb, void *arg);

#endif /* KBENCHCTL_PAGES_H */
