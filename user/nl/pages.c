// SPDX-License-Identifier: GPL-2.0
/*
 * SAMPLES_GET pages (see pages.h).  A packed page carries each net value
 * in 1, 2, 4 or 8 bytes and only the flagged samples' flags: for short
 * routines 1-2 bytes a sample cross the socket instead of 12.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "pages.h"

/* The decoded arrays, kept for the next page. */
static int64_t *net_buf;
static uint32_t *flags_buf;
static size_t buf_cap;

static int grow(size_t n)
{
	int64_t *nb;
	uint32_t *fb;
	size_t cap = buf_cap ? buf_cap : 4096;

	while (cap < n)
		cap *= 2;
	nb = realloc(net_buf, cap * sizeof(*nb));
	if (nb)
		net_buf = nb;
	fb = realloc(flags_buf, cap * sizeof(*fb));
	if (fb)
		flags_buf = fb;
	if (!nb || !fb)
		return -ENOMEM;
	buf_cap = cap;
	return 0;
}

static int malformed(const char *what)
{
	fprintf(stderr, "%s: a malformed samples page from the kernel: %s\n",
		prog, what);
	return -EPROTO;
}

/* @n signed integers of @w bytes (host order, maybe unaligned) to s64. */
static void widen(int64_t *dst, const unsigned char *src, size_t n,
		  unsigned int w)
{
	size_t i;

	for (i = 0; i < n; i++, src += w) {
		int8_t b;
		int16_t h;
		int32_t l;

		switch (w) {
		case 1:
			memcpy(&b, src, 1);
			dst[i] = b;
			break;
		case 2:
			memcpy(&h, src, 2);
			dst[i] = h;
			break;
		case 4:
			memcpy(&l, src, 4);
			dst[i] = l;
			break;
		default:
			memcpy(&dst[i], src, 8);
		}
	}
}
int kb_page_decode(struct nlattr **tb, struct kb_page *pg)
{
	struct nlattr *np = tb[KBENCH_A_SAMPLES_NET_PACKED];
	struct nlattr *fl = tb[KBENCH_A_SAMPLES_FLAG_LIST];
	const unsigned char *pairs;
	size_t n, k, i;
	uint32_t prev = 0;
	unsigned int w;

	pg->first = kb_u32(tb[KBENCH_A_SAMPLES_FIRST], 0);
	pg->divisor = NULL;
	pg->ndivisor = 0;
	if (tb[KBENCH_A_SAMPLES_DIVISOR]) {
		if (nla_len(tb[KBENCH_A_SAMPLES_DIVISOR]) % 8)
			return malformed("divisor is not a list of (sample, divisor) pairs");
		pg->divisor = nla_data(tb[KBENCH_A_SAMPLES_DIVISOR]);
		pg->ndivisor = (size_t)nla_len(tb[KBENCH_A_SAMPLES_DIVISOR]) / 8;
	}
	if (!np) {
		/* unpacked: the message's own arrays */
		if (!tb[KBENCH_A_SAMPLES_NET] || !tb[KBENCH_A_SAMPLES_FLAGS])
			return 0;
		n = (size_t)nla_len(tb[KBENCH_A_SAMPLES_NET]) / sizeof(int64_t);
		k = (size_t)nla_len(tb[KBENCH_A_SAMPLES_FLAGS]) / sizeof(uint32_t);
		pg->n = n < k ? n : k;
		pg->net = nla_data(tb[KBENCH_A_SAMPLES_NET]);
		pg->flags = nla_data(tb[KBENCH_A_SAMPLES_FLAGS]);
		return pg->n ? 1 : 0;
	}
	w = kb_u8(tb[KBENCH_A_SAMPLES_NET_WIDTH], 0);
	if (w != 1 && w != 2 && w != 4 && w != 8)
		return malformed("net-width is not 1, 2, 4 or 8");
	if ((size_t)nla_len(np) % w)
		return malformed("net-packed is not a whole number of values");
	n = (size_t)nla_len(np) / w;
	if (fl && (nla_len(fl) % 8 || !nla_len(fl)))
		return malformed("flag-list is not a list of (index, flags) pairs");
	/* allocated at the first page, even an empty one (memset below) */
	if ((!buf_cap || n > buf_cap) && grow(n))
		return -ENOMEM;
	memset(flags_buf, 0, n * sizeof(*flags_buf));
	widen(net_buf, nla_data(np), n, w);
	if (fl) {
		pairs = nla_data(fl);
		k = (size_t)nla_len(fl) / 8;
		for (i = 0; i < k; i++) {
			uint32_t p[2];

			memcpy(p, pairs + 8 * i, sizeof(p));
			if (p[0] >= n || (i && p[0] <= prev))
				return malformed("a flag-list index out of the page or out of order");
			flags_buf[p[0]] = p[1];
			prev = p[0];
		}
	}
	pg->n = n;
	pg->net = net_buf;
	pg->flags = flags_buf;
	return n ? 1 : 0;
}

static int dump(struct kb_nl *nl, uint32_t run_id, bool has_routine,
		uint32_t routine, bool packed, kb_nl_msg_cb cb, void *arg)
{
	struct nl_msg *msg = kb_nl_msg(nl, KBENCH_CMD_SAMPLES_GET, true);

	if (msg && (nla_put_u32(msg, KBENCH_A_SAMPLES_RUN_ID, run_id) < 0 ||
		    (has_routine &&
		     nla_put_u32(msg, KBENCH_A_SAMPLES_ROUTINE, routine) < 0) ||
		    (packed && nla_put_flag(msg, KBENCH_A_SAMPLES_PACKED) < 0))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return kb_nl_request(nl, msg, KBENCH_A_SAMPLES_MAX, cb, arg);
}

int kb_samples_dump(struct kb_nl *nl, uint32_t run_id, bool has_routine,
		    uint32_t routine, kb_nl_msg_cb cb, void *arg)
{
	bool quiet = nl->quiet;
	int err;

	/* for comparisons and tests: the pages as kernels before PACKED */
	if (getenv("KBENCH_SAMPLES_UNPACKED"))
		return dump(nl, run_id, has_routine, routine, false, cb, arg);
	nl->quiet = true;
	err = dump(nl, run_id, has_routine, routine, true, cb, arg);
	nl->quiet = quiet;
	/*
	 * A kbench.ko before PACKED refuses it as an unknown attribute with
	 * EINVAL, before any page (6.1 without an extack): ask again without
	 * it.  Any other EINVAL comes again, and is reported then.
	 */
	if (err == -EINVAL)
		return dump(nl, run_id, has_routine, routine, false, cb, arg);
	if (err && !quiet)
		kb_nl_print_error(nl);
	return err;
}
