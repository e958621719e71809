// SPDX-License-Identifier: GPL-2.0
/*
 * kbench-fuzz: send malformed and borderline generic netlink messages to the
 * "kbench" family and check that every one gets an error or a well-formed
 * reply, promptly, and that the family still answers correctly afterwards.
 *
 *   kbench-fuzz [--count N] [--seed S] [--unpriv] [--timeout-ms T] [-v]
 *
 * Deterministic: the same seed sends the same messages.  Requests that could
 * be accepted are kept cheap (samples <= 50, iterations <= 100, warm-up <=
 * 10); extreme values are only sent in requests that must be rejected before
 * any measurement (out of range, or together with a poison attribute).
 *
 * After each fuzz message a sentinel INFO request with NLM_F_ACK is sent on
 * the same socket; netlink answers a socket's requests in order, so when the
 * sentinel's ack arrives every answer to the fuzz message has arrived too.
 * That also covers messages the netlink core drops silently by design
 * (truncated headers, no NLM_F_REQUEST).
 *
 * Output: TAP, one line per phase, and counts by category and errno.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kbench_nl.h"

#define CHEAP_SAMPLES		50
#define CHEAP_ITERATIONS	100
#define CHEAP_WARMUP		10
#define POISON_ATTR		(KBENCH_A_RUN_MAX + 7)

enum category {
	C_UNKNOWN_CMD,
	C_RANDOM_ATTRS,
	C_WRONG_LEN,
	C_MISSING,
	C_DUPLICATE,
	C_EXTREME_INT,
	C_STRINGS,
	C_NESTED,
	C_TRUNCATED,
	C_FLAGS,
	C_DUMP_JUNK,
	C_VALID,
	C_NR
};

static const char *const cat_name[C_NR] = {
	"unknown_cmd", "random_attrs", "wrong_len", "missing", "duplicate",
	"extreme_int", "strings", "nested", "truncated", "flags", "dump_junk",
	"valid",
};

struct cat_stats {
	unsigned long sent, rejected, accepted, silent, bad;
};

static struct {
	unsigned long count;
	uint64_t seed;
	bool unpriv;
	bool verbose;
	int timeout_ms;
} opt = { .count = 10000, .seed = 1, .timeout_ms = 15000 };

static struct knl_sock nl;
static struct knl_family fam;
static struct kb_info info;
static struct cat_stats stats[C_NR];
static unsigned long errno_count[256];
static unsigned long failures, timeouts, unexpected_errno;
static uint32_t last_run_id;
static uint64_t rng;

static const char *const routines[] = {
	"empty", "add_chain", "mul_chain", "load_l1", "ktime_get", "rdtsc",
};
#define NR_ROUTINES	(sizeof(routines) / sizeof(routines[0]))

static const char *const bad_names[] = {
	"", "no_such_routine", "ADD_CHAIN", "add-chain", "add_chain ",
	" add_chain", "add_chain\n", "foo", "../add_chain", "%s%s%s%n",
	"abcdefghijklmnopqrstuvwxyz01234",	/* 31: longest legal name */
	"abcdefghijklmnopqrstuvwxyz012345",	/* 32: one too long */
};

/* Hardware event names, good (cheap to count) and bad. */
static const char *const event_names[] = {
	"cycles", "instructions", "cpu-cycles", "branch-misses", "ref-cycles",
	"raw:0x8", "raw:0x11", "raw:0xffff", "raw:0x10000", "raw:0x",
	"raw:0xzz", "raw:", "raw:0x11111111111111111", "", "CYCLES",
	"cycles ", "no-such-event", "%s%n", "abcdefghijklmnopqrstuvwxyz01234",
	"abcdefghijklmnopqrstuvwxyz012345",
};

static uint64_t rnd(void)
{
	/* xorshift64*: small, fast, and the same everywhere. */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static uint32_t rnd_below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static bool coin(void)
{
	return rnd() & 1;
}

static void rnd_bytes(void *p, size_t n)
{
	unsigned char *b = p;

	while (n--)
		*b++ = (unsigned char)rnd();
}

static uint32_t extreme_u32(uint32_t max)
{
	const uint32_t v[] = {
		0, 1, 2, 3, 50, 100, max - 1, max, max + 1, max * 2,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	};
	uint32_t i = rnd_below(sizeof(v) / sizeof(v[0]) + 1);

	return i < sizeof(v) / sizeof(v[0]) ? v[i] : (uint32_t)rnd();
}

/* The message being built, and what its answer may look like. */
struct fuzz_msg {
	struct knl_req req;
	enum category cat;
	uint8_t cmd;
	bool may_be_silent;	/* the netlink core drops it without a word */
	/* raw bytes to send instead of req (truncated headers) */
	unsigned char raw[256];
	size_t raw_len;
};

static struct fuzz_msg m;

static void start(uint8_t cmd, uint16_t flags)
{
	m.cmd = cmd;
	knl_req_genl(&m.req, fam.id, flags, cmd, KBENCH_GENL_VERSION);
}

static uint16_t do_flags(void)
{
	return NLM_F_REQUEST | (coin() ? NLM_F_ACK : 0);
}

static uint8_t rnd_cmd(void)
{
	return 1 + rnd_below(KBENCH_CMD_MAX);
}

static bool cmd_is_dump(uint8_t cmd)
{
	return cmd == KBENCH_CMD_ROUTINE_GET || cmd == KBENCH_CMD_CLOCK_GET ||
	       cmd == KBENCH_CMD_SAMPLES_GET;
}

static uint16_t flags_for(uint8_t cmd)
{
	return cmd_is_dump(cmd) ? NLM_F_REQUEST | NLM_F_DUMP : do_flags();
}

/* Cap whatever came before: the last attribute of a type wins. */
static void put_guard(void)
{
	knl_put_u32(&m.req, KBENCH_A_RUN_SAMPLES, 1 + rnd_below(CHEAP_SAMPLES));
	knl_put_u32(&m.req, KBENCH_A_RUN_ITERATIONS,
		    1 + rnd_below(CHEAP_ITERATIONS));
	knl_put_u32(&m.req, KBENCH_A_RUN_WARMUP, rnd_below(CHEAP_WARMUP + 1));
}

/* Make sure a RUN is refused before anything is measured. */
static void put_poison(void)
{
	uint32_t nr = info.v[KBENCH_A_INFO_NR_CPUS];
	int i;

	switch (rnd_below(4)) {
	case 0:		/* strict policy: unknown attribute */
		knl_put_u32(&m.req, POISON_ATTR, 0);
		break;
	case 1:		/* an unknown routine among the others */
		knl_put_str(&m.req, KBENCH_A_RUN_ROUTINE, "zz_no_such_routine");
		break;
	case 2:		/* no such CPU */
		knl_put_u32(&m.req, KBENCH_A_RUN_CPU, nr + rnd_below(1000));
		break;
	case 3:		/* one routine too many */
		for (i = 0; i <= KBENCH_RUN_ROUTINES_MAX; i++)
			knl_put_str(&m.req, KBENCH_A_RUN_ROUTINE,
				    routines[i % NR_ROUTINES]);
		break;
	}
}

static void put_routines(int n)
{
	while (n-- > 0)
		knl_put_str(&m.req, KBENCH_A_RUN_ROUTINE,
			    routines[rnd_below(NR_ROUTINES)]);
}

static void gen_unknown_cmd(void)
{
	uint8_t cmds[] = { 0, KBENCH_CMD_PROGRESS_NTF, KBENCH_CMD_MAX + 1,
			   KBENCH_CMD_MAX + 2, 100, 254, 255 };
	uint8_t cmd = cmds[rnd_below(sizeof(cmds))];

	if (coin())
		cmd = (uint8_t)rnd_below(256);
	if (cmd >= 1 && cmd < KBENCH_CMD_PROGRESS_NTF)
		cmd = KBENCH_CMD_MAX + 1 + rnd_below(200);
	start(cmd, coin() ? NLM_F_REQUEST | NLM_F_DUMP : do_flags());
	if (coin())
		put_routines(1);
	if (coin())
		put_guard();
}

static void gen_random_attrs(void)
{
	uint8_t cmd = rnd_cmd();
	int n = 1 + rnd_below(8), i;

	start(cmd, flags_for(cmd));
	for (i = 0; i < n; i++) {
		unsigned char buf[80];
		uint16_t type = rnd_below(4) ? rnd_below(24) : (uint16_t)rnd();
		size_t len = rnd_below(sizeof(buf));

		rnd_bytes(buf, len);
		knl_put(&m.req, type, buf, len);
	}
	if (cmd == KBENCH_CMD_RUN) {
		if (coin())
			put_routines(1 + rnd_below(3));
		put_guard();
	}
}

/* A random integer attribute of a request, from the spec's tables. */
static const struct kb_req_attr *rnd_int_attr(uint8_t cmd, bool dump)
{
	const struct kb_req *rq = kb_req_find(cmd, dump);
	const struct kb_req_attr *ints[32];
	int n = 0, i;

	for (i = 0; rq && i < rq->nattrs && n < 32; i++)
		if (rq->attrs[i].pt == YNL_PT_U32)
			ints[n++] = &rq->attrs[i];
	return n ? ints[rnd_below(n)] : NULL;
}

static void gen_wrong_len(void)
{
	const struct kb_req_attr *ia;
	unsigned char buf[16];
	uint32_t cheap = 1 + rnd_below(CHEAP_SAMPLES);
	size_t len;

	if (coin()) {
		/* A u32 of SAMPLES_GET's dump request with the wrong size. */
		start(KBENCH_CMD_SAMPLES_GET, NLM_F_REQUEST | NLM_F_DUMP);
		ia = rnd_int_attr(KBENCH_CMD_SAMPLES_GET, true);
		len = rnd_below(sizeof(buf));
		if (len == 4)
			len = 8;
		rnd_bytes(buf, len);
		if (ia)
			knl_put(&m.req, ia->type, buf, len);
		return;
	}
	start(KBENCH_CMD_RUN, do_flags());
	put_routines(1);
	put_guard();
	/*
	 * One of RUN's u32s with 0..15 bytes, never 4; if a too-long one were
	 * accepted its first four bytes are still a cheap value.
	 */
	len = rnd_below(sizeof(buf));
	if (len == 4)
		len = coin() ? 3 : 5;
	rnd_bytes(buf, len);
	if (len >= 4)
		memcpy(buf, &cheap, 4);
	ia = rnd_int_attr(KBENCH_CMD_RUN, false);
	if (ia)
		knl_put(&m.req, ia->type, buf, len);
	if (coin()) {
		/* Also a routine name that is not a string at all. */
		rnd_bytes(buf, 8);
		knl_put(&m.req, KBENCH_A_RUN_ROUTINE, buf, rnd_below(9));
	}
}

static void gen_missing(void)
{
	switch (rnd_below(3)) {
	case 0:		/* RUN without ROUTINE */
		start(KBENCH_CMD_RUN, do_flags());
		if (coin())
			knl_put_u32(&m.req, KBENCH_A_RUN_CPU, 0);
		if (coin())
			put_guard();
		break;
	case 1:		/* SAMPLES_GET without RUN_ID */
		start(KBENCH_CMD_SAMPLES_GET, NLM_F_REQUEST | NLM_F_DUMP);
		break;
	case 2:		/* RUN with nothing at all, or an empty genl header */
		start(KBENCH_CMD_RUN, do_flags());
		break;
	}
}

static void gen_duplicate(void)
{
	int i, n;

	if (rnd_below(4) == 0) {
		start(KBENCH_CMD_SAMPLES_GET, NLM_F_REQUEST | NLM_F_DUMP);
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID, (uint32_t)rnd());
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID,
			    coin() ? last_run_id : (uint32_t)rnd());
		return;
	}
	start(KBENCH_CMD_RUN, do_flags());
	n = 2 + rnd_below(7);
	if (coin()) {
		/* The same name again (rejected), maybe among others. */
		const char *r = routines[rnd_below(NR_ROUTINES)];

		knl_put_str(&m.req, KBENCH_A_RUN_ROUTINE, r);
		put_routines(rnd_below(3));
		knl_put_str(&m.req, KBENCH_A_RUN_ROUTINE, r);
	} else {
		put_routines(n);	/* up to 8: often too many or dups */
	}
	/* Duplicated integers: the guard's values come last. */
	for (i = 0; i < 3; i++)
		knl_put_u32(&m.req, KBENCH_A_RUN_CPU, rnd_below(2));
	put_guard();
	put_guard();
}

static void gen_extreme_int(void)
{
	uint32_t max_s = info.v[KBENCH_A_INFO_MAX_SAMPLES];
	uint32_t max_i = info.v[KBENCH_A_INFO_MAX_ITERATIONS];
	uint32_t nr = info.v[KBENCH_A_INFO_NR_CPUS];
	uint32_t v;
	bool poison = false;

	if (rnd_below(8) == 0) {
		start(KBENCH_CMD_SAMPLES_GET, NLM_F_REQUEST | NLM_F_DUMP);
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID, extreme_u32(last_run_id));
		return;
	}
	start(KBENCH_CMD_RUN, do_flags());
	put_routines(1 + rnd_below(2));
	switch (rnd_below(5)) {
	case 0:
		v = extreme_u32(max_s);
		knl_put_u32(&m.req, KBENCH_A_RUN_SAMPLES, v);
		knl_put_u32(&m.req, KBENCH_A_RUN_ITERATIONS, 1 + rnd_below(CHEAP_ITERATIONS));
		knl_put_u32(&m.req, KBENCH_A_RUN_WARMUP, 0);
		poison = v > CHEAP_SAMPLES && v <= max_s;
		break;
	case 1:
		v = extreme_u32(max_i);
		knl_put_u32(&m.req, KBENCH_A_RUN_SAMPLES, 1 + rnd_below(CHEAP_SAMPLES));
		knl_put_u32(&m.req, KBENCH_A_RUN_ITERATIONS, v);
		knl_put_u32(&m.req, KBENCH_A_RUN_WARMUP, 0);
		poison = v > CHEAP_ITERATIONS;
		break;
	case 2:
		v = extreme_u32(nr);
		put_guard();
		knl_put_u32(&m.req, KBENCH_A_RUN_CPU, v);
		break;
	case 3:
		v = extreme_u32(10000);
		knl_put_u32(&m.req, KBENCH_A_RUN_SAMPLES, 1 + rnd_below(CHEAP_SAMPLES));
		knl_put_u32(&m.req, KBENCH_A_RUN_ITERATIONS, 1 + rnd_below(CHEAP_ITERATIONS));
		knl_put_u32(&m.req, KBENCH_A_RUN_WARMUP, v);
		poison = v > CHEAP_WARMUP;
		break;
	case 4:		/* adaptive: only TARGET_NS bounds the window */
		v = extreme_u32(info.v[KBENCH_A_INFO_MAX_WINDOW_US] * 1000);
		knl_put_u32(&m.req, KBENCH_A_RUN_SAMPLES, 1 + rnd_below(CHEAP_SAMPLES));
		knl_put_u32(&m.req, KBENCH_A_RUN_WARMUP, 0);
		knl_put_u32(&m.req, KBENCH_A_RUN_TARGET_NS, v);
		/* ≤ 50 samples of at most one max window each: cheap enough. */
		break;
	}
	if (poison)
		put_poison();
}

static void gen_strings(void)
{
	static char big[65000];
	size_t len;
	uint32_t k = rnd_below(8), i, n;

	start(KBENCH_CMD_RUN, do_flags());
	switch (k) {
	case 0:
		knl_put_str(&m.req, KBENCH_A_RUN_ROUTINE,
			    bad_names[rnd_below(sizeof(bad_names) / sizeof(bad_names[0]))]);
		break;
	case 1:		/* oversized */
		len = 32 + rnd_below(coin() ? 100 : 60000);
		memset(big, 'a' + rnd_below(26), len);
		big[len] = '\0';
		knl_put_str(&m.req, KBENCH_A_RUN_ROUTINE, big);
		break;
	case 2:		/* unterminated */
		len = 1 + rnd_below(40);
		memcpy(big, "add_chainadd_chainadd_chainadd_chainadd_chain", 45);
		knl_put(&m.req, KBENCH_A_RUN_ROUTINE, big, len);
		break;
	case 3:		/* NUL inside, valid prefix */
		knl_put(&m.req, KBENCH_A_RUN_ROUTINE, "add_chain\0xyz", 14);
		break;
	case 4:		/* binary garbage */
		len = rnd_below(64);
		rnd_bytes(big, len);
		knl_put(&m.req, KBENCH_A_RUN_ROUTINE, big, len);
		break;
	case 5:		/* a string where an integer belongs */
		put_routines(1);
		knl_put_str(&m.req, KBENCH_A_RUN_SAMPLES, "10");
		break;
	case 6:		/* 0..10 events: known, unknown, repeated, too many */
		put_routines(1);
		n = rnd_below(11);
		for (i = 0; i < n; i++)
			knl_put_str(&m.req, KBENCH_A_RUN_EVENT,
				    event_names[rnd_below(sizeof(event_names) /
							  sizeof(event_names[0]))]);
		break;
	case 7:		/* an event name unterminated, oversized, binary */
		put_routines(1);
		len = coin() ? 1 + rnd_below(40) : rnd_below(coin() ? 64 : 60000);
		if (coin()) {
			memcpy(big, "instructionsinstructionsinstructionsinstr", 41);
		} else {
			rnd_bytes(big, len);
			big[len] = '\0';
		}
		knl_put(&m.req, KBENCH_A_RUN_EVENT, big, len);
		break;
	}
	put_guard();
}

static void gen_nested(void)
{
	uint8_t cmd = rnd_cmd();
	unsigned char buf[64];
	int depth = 1 + rnd_below(4), i;

	start(cmd, flags_for(cmd));
	if (cmd == KBENCH_CMD_RUN && coin())
		put_routines(1);
	for (i = 0; i < depth; i++) {
		uint16_t types[] = { KBENCH_A_RUN_RESULT, KBENCH_A_RUN_OVERHEAD,
				     KBENCH_A_RUN_ROUTINE, KBENCH_A_RUN_SAMPLES,
				     (uint16_t)rnd_below(40) };

		knl_nest_start(&m.req, types[rnd_below(5)]);
		if (coin()) {
			size_t len = rnd_below(sizeof(buf));

			rnd_bytes(buf, len);
			knl_put(&m.req, rnd_below(30), buf, len);
		}
	}
	while (m.req.depth)
		knl_nest_end(&m.req);
	if (coin()) {
		/* An attribute flagged nested / net-byteorder that is not. */
		uint16_t f = coin() ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;

		knl_put_u32(&m.req, KBENCH_A_RUN_SAMPLES | f, 1);
	}
	if (cmd == KBENCH_CMD_RUN)
		put_guard();
}

static void gen_truncated(void)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)m.raw;
	struct genlmsghdr *g = (struct genlmsghdr *)(m.raw + NLMSG_HDRLEN);
	struct nlattr *a = (struct nlattr *)(m.raw + NLMSG_HDRLEN + GENL_HDRLEN);
	uint32_t k = rnd_below(6);

	memset(m.raw, 0, sizeof(m.raw));
	nlh->nlmsg_type = fam.id;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	g->cmd = rnd_cmd();
	g->version = KBENCH_GENL_VERSION;
	m.cmd = g->cmd;
	switch (k) {
	case 0:		/* shorter than a netlink header */
		m.raw_len = rnd_below(NLMSG_HDRLEN);
		nlh->nlmsg_len = m.raw_len;
		m.may_be_silent = true;
		break;
	case 1:		/* nlmsg_len claims more than was sent */
		m.raw_len = NLMSG_HDRLEN + GENL_HDRLEN;
		nlh->nlmsg_len = m.raw_len + 4 + rnd_below(1000);
		m.may_be_silent = true;
		break;
	case 2:		/* no (or half a) genl header */
		m.raw_len = NLMSG_HDRLEN + rnd_below(GENL_HDRLEN);
		nlh->nlmsg_len = m.raw_len;
		break;
	case 3:		/* attribute longer than the message */
		m.raw_len = NLMSG_HDRLEN + GENL_HDRLEN + 8;
		nlh->nlmsg_len = m.raw_len;
		a->nla_type = 1 + rnd_below(6);
		a->nla_len = 12 + rnd_below(200);
		break;
	case 4:		/* attribute shorter than its own header */
		m.raw_len = NLMSG_HDRLEN + GENL_HDRLEN + 8;
		nlh->nlmsg_len = m.raw_len;
		a->nla_type = 1 + rnd_below(6);
		a->nla_len = rnd_below(NLA_HDRLEN);
		break;
	case 5:		/* trailing bytes that are not an attribute */
		m.raw_len = NLMSG_HDRLEN + GENL_HDRLEN + 1 + rnd_below(3);
		nlh->nlmsg_len = m.raw_len;
		rnd_bytes(a, 3);
		break;
	}
	if (g->cmd == KBENCH_CMD_ROUTINE_GET || g->cmd == KBENCH_CMD_CLOCK_GET ||
	    g->cmd == KBENCH_CMD_SAMPLES_GET)
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
}

static void gen_flags(void)
{
	static const uint16_t odd[] = {
		0, NLM_F_ACK, NLM_F_REQUEST | NLM_F_ROOT,
		NLM_F_REQUEST | NLM_F_MATCH, NLM_F_REQUEST | NLM_F_ATOMIC,
		NLM_F_REQUEST | NLM_F_REPLACE, NLM_F_REQUEST | NLM_F_EXCL,
		NLM_F_REQUEST | NLM_F_CREATE | NLM_F_APPEND,
		NLM_F_REQUEST | NLM_F_ECHO, NLM_F_REQUEST | NLM_F_MULTI,
		NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK,
		NLM_F_REQUEST | 0x8000,
	};
	uint8_t cmd = rnd_cmd();
	uint16_t f = coin() ? odd[rnd_below(sizeof(odd) / sizeof(odd[0]))] :
			       (uint16_t)rnd();
	struct genlmsghdr *g;

	start(cmd, f);
	m.may_be_silent = !(f & NLM_F_REQUEST);
	if (cmd == KBENCH_CMD_RUN) {
		put_routines(1);
		put_guard();
	} else if (cmd == KBENCH_CMD_SAMPLES_GET) {
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID, last_run_id);
	}
	g = NLMSG_DATA(&m.req.nlh);
	if (rnd_below(4) == 0)
		g->reserved = (uint16_t)rnd();
	if (rnd_below(4) == 0)
		g->version = (uint8_t)rnd();
}

static void gen_dump_junk(void)
{
	uint8_t cmds[] = { KBENCH_CMD_ROUTINE_GET, KBENCH_CMD_CLOCK_GET,
			   KBENCH_CMD_SAMPLES_GET };
	uint8_t cmd = cmds[rnd_below(3)];
	/* CLOCK_GET measures for a while: never send it without junk. */
	int n = rnd_below(4) + (cmd == KBENCH_CMD_CLOCK_GET), i;

	start(cmd, NLM_F_REQUEST | NLM_F_DUMP);
	if (cmd == KBENCH_CMD_SAMPLES_GET && coin())
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID, last_run_id);
	for (i = 0; i < n; i++) {
		unsigned char buf[32];
		size_t len = rnd_below(sizeof(buf));

		rnd_bytes(buf, len);
		knl_put(&m.req, rnd_below(12), buf, len);
	}
	if (cmd == KBENCH_CMD_SAMPLES_GET && coin())
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID, last_run_id);
}

static void gen_valid(void)
{
	uint32_t nr = info.v[KBENCH_A_INFO_NR_CPUS];
	uint32_t k = rnd_below(10);

	if (k == 0) {
		start(KBENCH_CMD_INFO, do_flags());
	} else if (k == 1) {
		start(KBENCH_CMD_ROUTINE_GET, NLM_F_REQUEST | NLM_F_DUMP);
	} else if (k == 2) {
		start(KBENCH_CMD_SAMPLES_GET, NLM_F_REQUEST | NLM_F_DUMP);
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID, last_run_id);
	} else if (k == 3 && rnd_below(20) == 0) {
		start(KBENCH_CMD_CLOCK_GET, NLM_F_REQUEST | NLM_F_DUMP);
	} else {
		start(KBENCH_CMD_RUN, do_flags());
		put_routines(1 + rnd_below(KBENCH_RUN_ROUTINES_MAX));
		if (coin())
			knl_put_u32(&m.req, KBENCH_A_RUN_CPU, rnd_below(nr ? nr : 1));
		put_guard();
		if (coin())
			knl_put_u32(&m.req, KBENCH_A_RUN_TARGET_NS,
				    1000 + rnd_below(20000));
	}
}

static void generate(enum category c)
{
	memset(&m, 0, offsetof(struct fuzz_msg, raw_len) + sizeof(m.raw_len));
	m.cat = c;
	switch (c) {
	case C_UNKNOWN_CMD: gen_unknown_cmd(); break;
	case C_RANDOM_ATTRS: gen_random_attrs(); break;
	case C_WRONG_LEN: gen_wrong_len(); break;
	case C_MISSING: gen_missing(); break;
	case C_DUPLICATE: gen_duplicate(); break;
	case C_EXTREME_INT: gen_extreme_int(); break;
	case C_STRINGS: gen_strings(); break;
	case C_NESTED: gen_nested(); break;
	case C_TRUNCATED: gen_truncated(); break;
	case C_FLAGS: gen_flags(); break;
	case C_DUMP_JUNK: gen_dump_junk(); break;
	case C_VALID: gen_valid(); break;
	case C_NR: break;
	}
}

static bool errno_expected(int e)
{
	switch (e) {
	case EINVAL: case ERANGE: case ENOENT: case EOPNOTSUPP: case EPERM:
	case EBUSY: case ENODEV: case E2BIG: case EMSGSIZE: case ENOMEM:
		return true;
	}
	return false;
}

/* Send the fuzz message (and the sentinel) and classify the answer. */
static int exchange(unsigned long idx)
{
	static unsigned char buf[KNL_BUF_SIZE] __attribute__((aligned(8)));
	static struct knl_req sentinel;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	uint32_t fseq, sseq;
	uint64_t deadline;
	bool sentinel_done = false, answered = false, rejected = false;
	bool bad = false, data = false;
	int err = 0;
	ssize_t n;

	fseq = ++nl.seq;
	if (m.raw_len || m.cat == C_TRUNCATED) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)m.raw;

		if (m.raw_len >= 12) {
			nlh->nlmsg_seq = fseq;
			nlh->nlmsg_pid = nl.portid;
		}
		n = sendto(nl.fd, m.raw, m.raw_len, 0, (struct sockaddr *)&sa,
			   sizeof(sa));
	} else {
		m.req.nlh.nlmsg_seq = fseq;
		m.req.nlh.nlmsg_pid = nl.portid;
		n = sendto(nl.fd, m.req.buf, m.req.nlh.nlmsg_len, 0,
			   (struct sockaddr *)&sa, sizeof(sa));
	}
	if (n < 0) {
		/* The socket layer refused it: an error all the same. */
		stats[m.cat].rejected++;
		return 0;
	}

	knl_req_genl(&sentinel, fam.id, NLM_F_REQUEST | NLM_F_ACK,
		     KBENCH_CMD_INFO, KBENCH_GENL_VERSION);
	if (knl_send(&nl, &sentinel))
		return -1;
	sseq = sentinel.nlh.nlmsg_seq;

	deadline = kb_now_ns() + (uint64_t)opt.timeout_ms * 1000000;
	while (!sentinel_done) {
		struct pollfd p = { .fd = nl.fd, .events = POLLIN };
		uint64_t now = kb_now_ns();
		struct nlmsghdr *nlh;
		int left;

		if (now >= deadline) {
			timeouts++;
			failures++;
			printf("# message %lu (%s, cmd %u): no answer within %d ms\n",
			       idx, cat_name[m.cat], m.cmd, opt.timeout_ms);
			return -1;
		}
		if (poll(&p, 1, (int)((deadline - now) / 1000000) + 1) <= 0)
			continue;
		n = recv(nl.fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				/* Overrun: some answers were dropped. */
				bad = true;
				continue;
			}
			return -1;
		}
		if ((size_t)n > sizeof(buf)) {
			bad = true;
			continue;
		}
		left = n;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			if (nlh->nlmsg_seq == sseq) {
				if (nlh->nlmsg_type == NLMSG_ERROR) {
					const struct nlmsgerr *e = NLMSG_DATA(nlh);

					if (e->error) {
						printf("# sentinel INFO failed: %d\n",
						       e->error);
						failures++;
					}
					sentinel_done = true;
				} else if (kbench_check_msg(KBENCH_CMD_INFO, nlh)) {
					printf("# sentinel INFO reply malformed\n");
					failures++;
				}
				continue;
			}
			if (nlh->nlmsg_seq != fseq)
				continue;
			answered = true;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
					bad = true;
					continue;
				}
				if (e->error) {
					rejected = true;
					err = -e->error;
				}
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				int e;

				memcpy(&e, NLMSG_DATA(nlh), sizeof(e));
				if (e) {
					rejected = true;
					err = -e;
				}
			} else if (nlh->nlmsg_type == fam.id) {
				const struct genlmsghdr *g = NLMSG_DATA(nlh);
				const char *why;

				data = true;
				why = kbench_check_msg(g->cmd, nlh);
				if (why) {
					printf("# message %lu (%s): bad reply (cmd %u): %s\n",
					       idx, cat_name[m.cat], g->cmd, why);
					bad = true;
				}
				if (g->cmd == KBENCH_CMD_RUN) {
					struct kb_run run = {};

					kb_run_cb(nlh, &run);
					if (run.has[KBENCH_A_RUN_ID])
						last_run_id = run.v[KBENCH_A_RUN_ID];
				}
			} else {
				printf("# message %lu: unexpected type %u\n", idx,
				       nlh->nlmsg_type);
				bad = true;
			}
		}
	}

	if (rejected) {
		stats[m.cat].rejected++;
		if (err > 0 && err < 256)
			errno_count[err]++;
		if (!errno_expected(err)) {
			unexpected_errno++;
			printf("# message %lu (%s, cmd %u): unexpected errno %d (%s)\n",
			       idx, cat_name[m.cat], m.cmd, err, strerror(err));
		}
	} else if (answered) {
		stats[m.cat].accepted++;
		/* Measuring needs privileges; so do CLOCK_GET and SAMPLES_GET. */
		if (opt.unpriv && (m.cmd == KBENCH_CMD_RUN ||
				   m.cmd == KBENCH_CMD_CLOCK_GET ||
				   m.cmd == KBENCH_CMD_SAMPLES_GET) && data) {
			printf("# message %lu (%s): cmd %u accepted without privileges\n",
			       idx, cat_name[m.cat], m.cmd);
			bad = true;
		}
	} else {
		stats[m.cat].silent++;
		if (!m.may_be_silent && (m.req.nlh.nlmsg_flags & NLM_F_REQUEST ||
					 m.cat == C_TRUNCATED)) {
			/*
			 * A request without NLM_F_ACK that succeeds but has no
			 * reply would also be silent; every kbench op replies.
			 */
			printf("# message %lu (%s, cmd %u, flags %#x): no answer\n",
			       idx, cat_name[m.cat], m.cmd, m.req.nlh.nlmsg_flags);
			bad = true;
		}
	}
	if (bad) {
		stats[m.cat].bad++;
		failures++;
	}
	if (opt.verbose)
		printf("# %lu %s cmd %u: %s %d\n", idx, cat_name[m.cat], m.cmd,
		       rejected ? "rejected" : answered ? "accepted" : "silent", err);
	return 0;
}

static bool family_answers(bool run_too)
{
	static struct knl_req req;
	struct knl_result res;
	struct kb_info in = {};
	struct kb_run_args a = {
		.routines = { "add_chain" }, .nroutines = 1, .samples = 10,
		.iterations = 100,
	};
	struct kb_run run;

	knl_req_genl(&req, fam.id, NLM_F_REQUEST | NLM_F_ACK, KBENCH_CMD_INFO,
		     KBENCH_GENL_VERSION);
	if (knl_transact(&nl, &req, kb_info_cb, &in, &res) || res.err ||
	    in.nmsgs != 1 || in.bad) {
		printf("# INFO: err %d %s\n", res.err, in.bad ? in.bad : "");
		return false;
	}
	if (strcmp(in.counter, info.counter) || strcmp(in.arch, info.arch) ||
	    in.v[KBENCH_A_INFO_COUNTER_HZ] != info.v[KBENCH_A_INFO_COUNTER_HZ] ||
	    in.v[KBENCH_A_INFO_MAX_SAMPLES] != info.v[KBENCH_A_INFO_MAX_SAMPLES]) {
		printf("# INFO changed: counter %s arch %s\n", in.counter, in.arch);
		return false;
	}
	if (!run_too)
		return true;
	memset(&run, 0, sizeof(run));
	kb_build_run(&req, fam.id, &a);
	if (knl_transact(&nl, &req, kb_run_cb, &run, &res) || res.err ||
	    run.nresults != 1 || run.bad) {
		printf("# RUN add_chain: err %d %s\n", res.err, res.msg);
		return false;
	}
	return true;
}

static void usage(int status)
{
	printf("usage: kbench-fuzz [--count N] [--seed S] [--unpriv] "
	       "[--timeout-ms T] [-v]\n");
	exit(status);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "unpriv", no_argument, NULL, 'u' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct knl_result res;
	unsigned long i, sent = 0, rej = 0, acc = 0, sil = 0;
	int c, test = 0, err;
	bool ok;

	while ((c = getopt_long(argc, argv, "c:s:ut:vh", lopts, NULL)) != -1) {
		switch (c) {
		case 'c': opt.count = strtoul(optarg, NULL, 0); break;
		case 's': opt.seed = strtoull(optarg, NULL, 0); break;
		case 'u': opt.unpriv = true; break;
		case 't': opt.timeout_ms = atoi(optarg); break;
		case 'v': opt.verbose = true; break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	rng = opt.seed * 0x9e3779b97f4a7c15ull + 1;

	printf("TAP version 13\n1..4\n");
	printf("# kbench-fuzz: seed %llu, %lu messages%s\n",
	       (unsigned long long)opt.seed, opt.count,
	       opt.unpriv ? ", unprivileged (uid 65534, no capabilities)" : "");

	/* 1: setup */
	err = 0;
	if (opt.unpriv && geteuid() == 0)
		err = kb_drop_privileges();
	if (!err)
		err = knl_open(&nl, NETLINK_GENERIC);
	if (!err)
		err = knl_resolve(&nl, KBENCH_GENL_NAME, &fam, &res);
	if (!err) {
		static struct knl_req req;

		knl_req_genl(&req, fam.id, NLM_F_REQUEST | NLM_F_ACK,
			     KBENCH_CMD_INFO, KBENCH_GENL_VERSION);
		err = knl_transact(&nl, &req, kb_info_cb, &info, &res);
		if (!err)
			err = -res.err;
	}
	if (err) {
		printf("not ok %d fuzz_setup # %s\n", ++test, strerror(-err));
		printf("not ok %d fuzz_messages # SKIP no setup\n", ++test);
		printf("not ok %d fuzz_errnos # SKIP no setup\n", ++test);
		printf("not ok %d fuzz_family_still_answers # SKIP no setup\n", ++test);
		return 1;
	}
	printf("ok %d fuzz_setup\n", ++test);
	nl.timeout_ms = opt.timeout_ms;

	/* 2: the messages */
	for (i = 0; i < opt.count; i++) {
		generate((enum category)rnd_below(C_NR));
		stats[m.cat].sent++;
		if (exchange(i)) {
			/* Start over on a fresh socket after a timeout. */
			knl_close(&nl);
			if (knl_open(&nl, NETLINK_GENERIC)) {
				failures++;
				break;
			}
			nl.timeout_ms = opt.timeout_ms;
		}
	}
	printf("# %-14s %8s %8s %8s %8s %8s\n", "category", "sent", "rejected",
	       "accepted", "silent", "bad");
	for (c = 0; c < C_NR; c++) {
		printf("# %-14s %8lu %8lu %8lu %8lu %8lu\n", cat_name[c],
		       stats[c].sent, stats[c].rejected, stats[c].accepted,
		       stats[c].silent, stats[c].bad);
		sent += stats[c].sent;
		rej += stats[c].rejected;
		acc += stats[c].accepted;
		sil += stats[c].silent;
	}
	printf("# total: sent %lu rejected %lu accepted %lu silent %lu timeouts %lu\n",
	       sent, rej, acc, sil, timeouts);
	printf("%s %d fuzz_messages # %lu failures\n", failures ? "not ok" : "ok",
	       ++test, failures);

	/* 3: the errnos */
	printf("# errnos:");
	for (c = 0; c < 256; c++)
		if (errno_count[c])
			printf(" %s=%lu", strerrorname_np(c) ?: "?", errno_count[c]);
	printf("\n");
	printf("%s %d fuzz_errnos # %lu unexpected\n",
	       unexpected_errno ? "not ok" : "ok", ++test, unexpected_errno);

	/* 4: still alive and correct */
	ok = family_answers(!opt.unpriv);
	printf("%s %d fuzz_family_still_answers\n", ok ? "ok" : "not ok", ++test);

	knl_close(&nl);
	return failures || unexpected_errno || !ok ? 1 : 0;
}
