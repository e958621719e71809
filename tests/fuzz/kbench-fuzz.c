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
 * The RUN request's attributes are rows of one table (run_attrs[]): the
 * generators draw from it, and one category sends every row at once, so a
 * new attribute is one row; a RUN attribute of the spec without a row
 * fails the run (TAP 2).  After the messages come the dump phases: dumps
 * closed after their first message, a SAMPLES_GET dump that keeps its run
 * from eviction until it is closed, and ROUTINE_GET dumps while a module's
 * routines come and go (root, with kbench_example.ko).
 *
 * Progress notifications (PROGRESS_NTF, sequence number 0) reach the socket
 * that sent a RUN; they are checked for form and never taken for an answer,
 * and an unprivileged fuzzer must never receive one.
 *
 * Output: TAP, one line per phase, and counts by category and errno.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/perf_event.h>

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
	C_EVERY_ATTR,
	C_NR
};

static const char *const cat_name[C_NR] = {
	"unknown_cmd", "random_attrs", "wrong_len", "missing", "duplicate",
	"extreme_int", "strings", "nested", "truncated", "flags", "dump_junk",
	"valid", "every_attr",
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
	const char *churn_ko;	/* module loaded and unloaded meanwhile */
	unsigned int churn_cycles;
} opt = { .count = 10000, .seed = 1, .timeout_ms = 15000,
	  .churn_ko = "/lib/kbench/kbench_example.ko", .churn_cycles = 10 };

static struct knl_sock nl;
static struct knl_family fam;
static struct kb_info info;
static struct cat_stats stats[C_NR];
static unsigned long errno_count[256];
static unsigned long failures, timeouts, unexpected_errno;
static unsigned long notifications;
static uint32_t last_run_id;
/* The last runs' ids, most recent last: older ones are evicted. */
static uint32_t run_ids[32];
static unsigned int nrun_ids;
static uint64_t rng;

static const char *const routines[] = {
	"empty", "add_chain", "mul_chain", "load_l1", "ktime_get", "rdtsc",
};

#define NR_ROUTINES	ARRAY_SIZE(routines)

/* Routines that take an argument: 1 .. 1024 suits all of them. */
static const char *const arg_routines[] = { "add_n", "memcpy", "memset" };
#define NR_ARG_ROUTINES	ARRAY_SIZE(arg_routines)
#define CHEAP_ARG_MAX	1024

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
	uint32_t i = rnd_below(ARRAY_SIZE(v) + 1);

	return i < ARRAY_SIZE(v) ? v[i] : (uint32_t)rnd();
}

static void remember_run(uint32_t id)
{
	last_run_id = id;
	if (nrun_ids == ARRAY_SIZE(run_ids)) {
		memmove(run_ids, run_ids + 1, sizeof(run_ids) - sizeof(run_ids[0]));
		nrun_ids--;
	}
	run_ids[nrun_ids++] = id;
}

/* A run id seen before, most likely evicted by now (or 0: none yet). */
static uint32_t old_run_id(void)
{
	return nrun_ids ? run_ids[rnd_below(nrun_ids)] : 0;
}

/* The message being built, and what its answer may look like. */
struct fuzz_msg {
	struct knl_req req;
	enum category cat;
	uint8_t cmd;
	bool may_be_silent;	/* the netlink core drops it without a word */
	bool must_accept;	/* valid: only EPERM (unprivileged) may refuse */
	const char *attr;	/* the attribute mutated, if one (run_attrs[]) */
	unsigned int nroutine, routine_base;	/* valid_routine() */
	unsigned int nevent;			/* valid_event() */
	unsigned int ncpus;			/* valid_cpus() */
	bool with_arg;		/* valid_routine() picks from arg_routines */
	bool notify;		/* valid_notify(): answered by notifications */
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

static void put_routines(int n)
{
	while (n-- > 0)
		knl_put_str(&m.req, KBENCH_A_RUN_ROUTINE,
			    routines[rnd_below(NR_ROUTINES)]);
}

/*
 * The RUN request's attributes, one row each.  A new attribute is a new
 * row: how to put a value the kernel accepts cheaply, and for integers the
 * largest value it accepts at all (limit) and the largest that is still
 * cheap (cheap_max; 0 = every accepted value is cheap).  The generators
 * below mutate rows by kind; C_EVERY_ATTR sends every row at once.
 */
enum attr_kind { K_U32, K_U64, K_STR, K_FLAG };

struct run_attr {
	uint16_t type;
	const char *name;
	enum attr_kind kind;
	bool multi;			/* may appear several times */
	void (*put_valid)(const struct run_attr *a);
	uint32_t (*limit)(void);
	uint32_t cheap_max;
	bool may_omit;			/* absent is cheap too */
	bool concurrent;		/* only in a concurrent RUN (no cpu, event) */
};

static void put_u32_valid(const struct run_attr *a, uint32_t v)
{
	knl_put_u32(&m.req, a->type, v);
}

/*
 * Distinct names within a message: successive ones from a random start;
 * routines that take an argument when the message gives one.
 */
static void valid_routine(const struct run_attr *a)
{
	const char *const *names = m.with_arg ? arg_routines : routines;
	unsigned int nr = m.with_arg ? NR_ARG_ROUTINES : NR_ROUTINES;

	if (!m.nroutine)
		m.routine_base = rnd_below(nr);
	knl_put_str(&m.req, a->type, names[(m.routine_base + m.nroutine++) % nr]);
}

/* One argument for every routine (all of them take 1 .. 1024). */
static void valid_arg(const struct run_attr *a)
{
	knl_put_u64(&m.req, a->type, 1 + rnd_below(CHEAP_ARG_MAX));
}

static uint32_t limit_arg(void)
{
	return CHEAP_ARG_MAX;
}

/*
 * The generic events this machine's PMU counts (perf_event_open(2) of our
 * own user mode): none without a PMU (x86 TCG), cycles but no
 * instructions on arm64 qemu without -icount.
 */
static const char *valid_events[3];
static unsigned int nvalid_events;

static void probe_events(void)
{
	static const struct { const char *name; unsigned long long config; } ev[] = {
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
	};
	struct perf_event_attr attr;
	unsigned int i;
	long fd;

	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = ev[i].config;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		attr.disabled = 1;
		fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		if (fd < 0)
			continue;
		close((int)fd);
		valid_events[nvalid_events++] = ev[i].name;
	}
}

/* Distinct events the PMU counts; none where there is no PMU. */
static void valid_event(const struct run_attr *a)
{
	if (m.nevent < nvalid_events)
		knl_put_str(&m.req, a->type, valid_events[m.nevent++]);
}

static void valid_cpu(const struct run_attr *a)
{
	uint32_t nr = info.v[KBENCH_A_INFO_NR_CPUS];

	put_u32_valid(a, rnd_below(nr ? nr : 1));
}

/* A concurrent run's CPUs: distinct, successive from 0 */
static void valid_cpus(const struct run_attr *a)
{
	uint32_t nr = info.v[KBENCH_A_INFO_NR_CPUS];

	put_u32_valid(a, m.ncpus++ % (nr ? nr : 1));
}

static void valid_skew_bound(const struct run_attr *a)
{
	put_u32_valid(a, 1 + rnd_below(20000000));
}

static uint32_t limit_skew_bound(void)
{
	return 20000000;
}

static void valid_samples(const struct run_attr *a)
{
	put_u32_valid(a, 1 + rnd_below(CHEAP_SAMPLES));
}

static void valid_iterations(const struct run_attr *a)
{
	put_u32_valid(a, 1 + rnd_below(CHEAP_ITERATIONS));
}

static void valid_target(const struct run_attr *a)
{
	put_u32_valid(a, 1000 + rnd_below(20000));
}

static void valid_warmup(const struct run_attr *a)
{
	put_u32_valid(a, rnd_below(CHEAP_WARMUP + 1));
}

static uint32_t limit_cpu(void)
{
	return info.v[KBENCH_A_INFO_NR_CPUS] - 1;
}

static uint32_t limit_samples(void)
{
	return info.v[KBENCH_A_INFO_MAX_SAMPLES];
}

static uint32_t limit_iterations(void)
{
	return info.v[KBENCH_A_INFO_MAX_ITERATIONS];
}

static uint32_t limit_target(void)
{
	return info.v[KBENCH_A_INFO_MAX_WINDOW_US] * 1000;
}

static uint32_t limit_warmup(void)
{
	return 10000;
}

/* A run's own irq-off bound: the upper half of the module's, at most it. */
static void valid_max_window(const struct run_attr *a)
{
	uint32_t max = info.v[KBENCH_A_INFO_MAX_WINDOW_US];

	put_u32_valid(a, max / 2 + 1 + rnd_below(max - max / 2));
}

static uint32_t limit_max_window(void)
{
	return info.v[KBENCH_A_INFO_MAX_WINDOW_US];
}

/*
 * The answer as notifications after the ack, in half the RUNs that have
 * it: the ack is then the answer, and the RUN_NTF and RUN_END_NTF that
 * follow are notifications (notification_ok()).
 */
static void valid_notify(const struct run_attr *a)
{
	m.notify = coin();
	if (m.notify)
		knl_put(&m.req, a->type, NULL, 0);
}

static const struct run_attr run_attrs[] = {
	{ .type = KBENCH_A_RUN_ROUTINE, .name = "routine", .kind = K_STR,
	  .multi = true, .put_valid = valid_routine },
	{ .type = KBENCH_A_RUN_CPU, .name = "cpu", .kind = K_U32,
	  .put_valid = valid_cpu, .limit = limit_cpu },
	{ .type = KBENCH_A_RUN_SAMPLES, .name = "samples", .kind = K_U32,
	  .put_valid = valid_samples, .limit = limit_samples,
	  .cheap_max = CHEAP_SAMPLES },
	/* absent: adaptive, windows within the target, which is bounded */
	{ .type = KBENCH_A_RUN_ITERATIONS, .name = "iterations", .kind = K_U32,
	  .put_valid = valid_iterations, .limit = limit_iterations,
	  .cheap_max = CHEAP_ITERATIONS, .may_omit = true },
	/* bounded by the window limit: at most 50 windows of it */
	{ .type = KBENCH_A_RUN_TARGET_NS, .name = "target_ns", .kind = K_U32,
	  .put_valid = valid_target, .limit = limit_target },
	{ .type = KBENCH_A_RUN_WARMUP, .name = "warmup", .kind = K_U32,
	  .put_valid = valid_warmup, .limit = limit_warmup,
	  .cheap_max = CHEAP_WARMUP },
	/* a pinned perf counter each; cheap, and absent is too */
	{ .type = KBENCH_A_RUN_EVENT, .name = "event", .kind = K_STR,
	  .multi = true, .put_valid = valid_event, .may_omit = true },
	/* only with routines that take it (m.with_arg); once: for all */
	{ .type = KBENCH_A_RUN_ARG, .name = "arg", .kind = K_U64,
	  .put_valid = valid_arg, .limit = limit_arg },
	/* the module's bound is the default; absent is too */
	{ .type = KBENCH_A_RUN_MAX_WINDOW_US, .name = "max_window_us",
	  .kind = K_U32, .put_valid = valid_max_window,
	  .limit = limit_max_window, .may_omit = true },
	/* a concurrent run: not with cpu nor event (gen_valid() sends them) */
	{ .type = KBENCH_A_RUN_CPUS, .name = "cpus", .kind = K_U32,
	  .multi = true, .put_valid = valid_cpus, .limit = limit_cpu,
	  .may_omit = true, .concurrent = true },
	{ .type = KBENCH_A_RUN_SKEW_NS, .name = "skew_ns",
	  .kind = K_U32, .put_valid = valid_skew_bound,
	  .limit = limit_skew_bound, .may_omit = true, .concurrent = true },
	/* answered by notifications after the ack: the same run */
	{ .type = KBENCH_A_RUN_NOTIFY, .name = "notify", .kind = K_FLAG,
	  .put_valid = valid_notify, .may_omit = true },
};

#define NR_RUN_ATTRS	ARRAY_SIZE(run_attrs)

/* A random row of @kind. */
static const struct run_attr *rnd_attr(enum attr_kind kind)
{
	const struct run_attr *a;

	do
		a = &run_attrs[rnd_below(NR_RUN_ATTRS)];
	while (a->kind != kind);
	return a;
}

/*
 * Cap whatever came before with cheap values of every attribute that could
 * be costly: the last attribute of a type wins.
 */
static void put_guard(void)
{
	unsigned int i;

	for (i = 0; i < NR_RUN_ATTRS; i++)
		if (run_attrs[i].cheap_max)
			run_attrs[i].put_valid(&run_attrs[i]);
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

static void gen_unknown_cmd(void)
{
	uint8_t cmds[] = { 0, KBENCH_CMD_PROGRESS_NTF, KBENCH_CMD_MAX + 1,
			   KBENCH_CMD_MAX + 2, 100, 254, 255 };
	uint8_t cmd = cmds[rnd_below(sizeof(cmds))];

	if (coin())
		cmd = (uint8_t)rnd_below(256);
	/* the family's requests are not unknown; its events are */
	if ((cmd >= 1 && cmd < KBENCH_CMD_PROGRESS_NTF) ||
	    cmd == KBENCH_CMD_RUN_GET)
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
	if (ia) {
		m.attr = ia->name;
		knl_put(&m.req, ia->type, buf, len);
	}
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
	const struct run_attr *a;
	uint32_t v, limit;
	unsigned int i;

	if (rnd_below(8) == 0) {
		start(KBENCH_CMD_SAMPLES_GET, NLM_F_REQUEST | NLM_F_DUMP);
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID, extreme_u32(last_run_id));
		return;
	}
	start(KBENCH_CMD_RUN, do_flags());
	if (rnd_below(6) == 0) {
		/* an argument at and around its routines' limits, and beyond */
		const uint64_t v64[] = { 0, 1, CHEAP_ARG_MAX, CHEAP_ARG_MAX + 1,
					 4095, 4096, 1ULL << 32, UINT64_MAX - 1,
					 UINT64_MAX, rnd() };

		const struct run_attr *r = rnd_attr(K_STR);	/* routine */

		a = rnd_attr(K_U64);
		m.attr = a->name;
		m.with_arg = true;
		r->put_valid(r);
		if (coin())
			r->put_valid(r);
		put_guard();
		knl_put_u64(&m.req, a->type,
			    v64[rnd_below(ARRAY_SIZE(v64))]);
		return;
	}
	put_routines(1 + rnd_below(2));
	/* every other costly attribute cheap (or absent), this one extreme */
	a = rnd_attr(K_U32);
	for (i = 0; i < NR_RUN_ATTRS; i++)
		if (run_attrs[i].cheap_max && &run_attrs[i] != a &&
		    !(run_attrs[i].may_omit && coin()))
			run_attrs[i].put_valid(&run_attrs[i]);
	m.attr = a->name;
	limit = a->limit();
	v = extreme_u32(limit);
	knl_put_u32(&m.req, a->type, v);
	/* accepted and costly: make sure it is refused before measuring */
	if (a->cheap_max && v > a->cheap_max && v <= limit)
		put_poison();
}

static void gen_strings(void)
{
	static char big[65000];
	const struct run_attr *a = rnd_attr(K_STR);
	size_t len;
	uint32_t k = rnd_below(8), i, n;

	start(KBENCH_CMD_RUN, do_flags());
	m.attr = a->name;
	switch (k) {
	case 0:
		knl_put_str(&m.req, a->type,
			    bad_names[rnd_below(ARRAY_SIZE(bad_names))]);
		break;
	case 1:		/* oversized */
		len = 32 + rnd_below(coin() ? 100 : 60000);
		memset(big, 'a' + rnd_below(26), len);
		big[len] = '\0';
		knl_put_str(&m.req, a->type, big);
		break;
	case 2:		/* unterminated */
		len = 1 + rnd_below(40);
		memcpy(big, "add_chainadd_chainadd_chainadd_chainadd_chain", 45);
		knl_put(&m.req, a->type, big, len);
		break;
	case 3:		/* NUL inside, valid prefix */
		knl_put(&m.req, a->type, "add_chain\0xyz", 14);
		break;
	case 4:		/* binary garbage */
		len = rnd_below(64);
		rnd_bytes(big, len);
		knl_put(&m.req, a->type, big, len);
		break;
	case 5:		/* a string where an integer belongs */
		a = rnd_attr(K_U32);
		m.attr = a->name;
		put_routines(1);
		knl_put_str(&m.req, a->type, "10");
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
	uint16_t f = coin() ? odd[rnd_below(ARRAY_SIZE(odd))] :
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
		/* the last run, or an older one that may be evicted: ENOENT */
		start(KBENCH_CMD_SAMPLES_GET, NLM_F_REQUEST | NLM_F_DUMP);
		knl_put_u32(&m.req, KBENCH_A_SAMPLES_RUN_ID,
			    coin() ? last_run_id : old_run_id());
		if (coin())
			knl_put_u32(&m.req, KBENCH_A_SAMPLES_ROUTINE,
				    rnd_below(KBENCH_RUN_ROUTINES_MAX + 2));
	} else if (k == 3 && rnd_below(20) == 0) {
		start(KBENCH_CMD_CLOCK_GET, NLM_F_REQUEST | NLM_F_DUMP);
	} else {
		start(KBENCH_CMD_RUN, do_flags());
		put_routines(1 + rnd_below(KBENCH_RUN_ROUTINES_MAX));
		if (rnd_below(4) == 0) {
			/* concurrent: on 1 .. all CPUs, cheap as the rest */
			for (k = 1 + rnd_below(nr ? nr : 1); k; k--)
				valid_cpus(&run_attrs[NR_RUN_ATTRS - 2]);
			if (coin())
				valid_skew_bound(&run_attrs[NR_RUN_ATTRS - 1]);
		} else if (coin()) {
			knl_put_u32(&m.req, KBENCH_A_RUN_CPU, rnd_below(nr ? nr : 1));
		}
		put_guard();
		if (coin())
			knl_put_u32(&m.req, KBENCH_A_RUN_TARGET_NS,
				    1000 + rnd_below(20000));
	}
}

/*
 * RUN with every attribute of the table, valid and cheap, in random order
 * (multi rows once or more), but the concurrent run's rows (cpus excludes
 * cpu and event; gen_valid() sends concurrent RUNs): the kernel must
 * accept it (or say EPERM to an unprivileged caller).
 */
/*
 * Every attribute the spec gives RUN's request has its row: a new one
 * cannot be left out of the fuzzing unnoticed.
 */
static bool table_covers_spec(void)
{
	const struct kb_req *rq = kb_req_find(KBENCH_CMD_RUN, false);
	bool ok = rq;
	unsigned int j;
	int i;

	for (i = 0; rq && i < rq->nattrs; i++) {
		for (j = 0; j < NR_RUN_ATTRS; j++)
			if (run_attrs[j].type == rq->attrs[i].type)
				break;
		if (j == NR_RUN_ATTRS) {
			printf("# RUN attribute %s (%u) of the spec has no row in run_attrs[]\n",
			       rq->attrs[i].name, rq->attrs[i].type);
			ok = false;
		}
	}
	return ok;
}

static void gen_every_attr(void)
{
	unsigned int order[NR_RUN_ATTRS], i, j, t, n;

	start(KBENCH_CMD_RUN, do_flags());
	m.with_arg = true;
	for (i = 0; i < NR_RUN_ATTRS; i++)
		order[i] = i;
	for (i = NR_RUN_ATTRS - 1; i > 0; i--) {
		j = rnd_below(i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < NR_RUN_ATTRS; i++) {
		const struct run_attr *a = &run_attrs[order[i]];

		/* the one-CPU RUN: cpu and event exclude the concurrent rows */
		if (a->concurrent)
			continue;
		n = a->multi ? 1 + rnd_below(2) : 1;
		while (n--)
			a->put_valid(a);
	}
	m.must_accept = true;
}

static void generate(enum category c)
{
	memset(&m, 0, offsetof(struct fuzz_msg, raw_len) + sizeof(m.raw_len));
	m.cat = c;
	switch (c) {
	case C_UNKNOWN_CMD:
		gen_unknown_cmd();
		break;
	case C_RANDOM_ATTRS:
		gen_random_attrs();
		break;
	case C_WRONG_LEN:
		gen_wrong_len();
		break;
	case C_MISSING:
		gen_missing();
		break;
	case C_DUPLICATE:
		gen_duplicate();
		break;
	case C_EXTREME_INT:
		gen_extreme_int();
		break;
	case C_STRINGS:
		gen_strings();
		break;
	case C_NESTED:
		gen_nested();
		break;
	case C_TRUNCATED:
		gen_truncated();
		break;
	case C_FLAGS:
		gen_flags();
		break;
	case C_DUMP_JUNK:
		gen_dump_junk();
		break;
	case C_VALID:
		gen_valid();
		break;
	case C_EVERY_ATTR:
		gen_every_attr();
		break;
	case C_NR:
		break;
	}
}

static bool errno_expected(int e)
{
	switch (e) {
	case EINVAL: case ERANGE: case ENOENT: case EOPNOTSUPP: case EPERM:
	case EBUSY: case ENODEV: case E2BIG: case EMSGSIZE: case ENOMEM:
	case EAGAIN:	/* a CPU or memory still held by a run that is ending */
		return true;
	}
	return false;
}

/*
 * A message with sequence number 0 from the family: a progress
 * notification for a RUN this socket sent, or the answer of one that
 * asked for notify (RUN_NTF, RUN_END_NTF), well formed.  Never to an
 * unprivileged socket: it cannot have run anything.
 */
static bool notification_ok(unsigned long idx, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *tb[KBENCH_A_PROGRESS_MAX + 1];
	const char *why = NULL;
	const void *data;
	uint32_t port;
	int len;

	notifications++;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN ||
	    (g->cmd != KBENCH_CMD_PROGRESS_NTF &&
	     g->cmd != KBENCH_CMD_RUN_NTF && g->cmd != KBENCH_CMD_RUN_END_NTF))
		why = "not a PROGRESS_NTF, RUN_NTF or RUN_END_NTF";
	else if (opt.unpriv)
		why = "a notification reached an unprivileged socket";
	else
		why = kbench_check_msg(g->cmd, nlh);
	if (!why && g->cmd == KBENCH_CMD_PROGRESS_NTF) {
		data = knl_genl_attrs(nlh, &len);
		knl_parse(data, len, tb, KBENCH_A_PROGRESS_MAX);
		if (!knl_get_u32(tb[KBENCH_A_PROGRESS_PORTID], &port) ||
		    port != nl.portid)
			why = "PORTID is not ours";
	}
	if (why)
		printf("# message %lu: bad notification: %s\n", idx, why);
	return !why;
}

/*
 * A notification of the answer of this RUN, which asked for notify: its
 * RUN_NTF messages are the reply's data, its RUN_END_NTF the final word,
 * with the error and message an ack would have carried.
 */
static void notify_answer(const struct nlmsghdr *nlh, bool *answered,
			  bool *data, bool *final, bool *rejected, int *err,
			  struct knl_result *fin)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	const struct nlattr *tb[KBENCH_A_RUN_MAX + 1];
	const void *attrs;
	uint32_t v;
	int len;

	if (g->cmd != KBENCH_CMD_RUN_NTF && g->cmd != KBENCH_CMD_RUN_END_NTF)
		return;
	attrs = knl_genl_attrs(nlh, &len);
	knl_parse(attrs, len, tb, KBENCH_A_RUN_MAX);
	*answered = true;
	if (g->cmd == KBENCH_CMD_RUN_NTF) {
		*data = true;
		if (knl_get_u32(tb[KBENCH_A_RUN_ID], &v))
			remember_run(v);
		return;
	}
	*final = true;
	if (knl_get_u32(tb[KBENCH_A_RUN_ERROR], &v) && v) {
		*rejected = true;
		*err = -(int32_t)v;
		if (tb[KBENCH_A_RUN_ERROR_MSG])
			snprintf(fin->msg, sizeof(fin->msg), "%.*s",
				 (int)(tb[KBENCH_A_RUN_ERROR_MSG]->nla_len -
				       NLA_HDRLEN),
				 (const char *)tb[KBENCH_A_RUN_ERROR_MSG] +
				 NLA_HDRLEN);
	}
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
	bool run_pending, final = false;
	bool bad = false, data = false;
	struct knl_result fin = { 0 };
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

	/*
	 * A RUN request returns before its run ends: its answer (the reply,
	 * the ack) may come after the sentinel's, so wait for it too, as long
	 * as a run may take.
	 */
	run_pending = m.cmd == KBENCH_CMD_RUN && !m.may_be_silent &&
		      (m.req.nlh.nlmsg_flags & NLM_F_REQUEST);
	deadline = kb_now_ns() + (uint64_t)opt.timeout_ms * 1000000;
	if (run_pending)
		deadline += info.v[KBENCH_A_INFO_MAX_RUN_MS] * 1000000;
	while (!sentinel_done || (run_pending && !final)) {
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
			if (!nlh->nlmsg_seq && nlh->nlmsg_type == fam.id) {
				bad |= !notification_ok(idx, nlh);
				if (m.notify && run_pending)
					notify_answer(nlh, &answered, &data,
						      &final, &rejected, &err,
						      &fin);
				continue;
			}
			if (nlh->nlmsg_seq != fseq)
				continue;
			answered = true;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				/* notify: the ack of 0 starts the answer */
				final |= !m.notify || e->error;
				if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
					bad = true;
					continue;
				}
				if (e->error) {
					rejected = true;
					err = -e->error;
					knl_parse_final(nlh, &fin);
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

					/* without NLM_F_ACK, the reply ends it */
					final |= !(m.req.nlh.nlmsg_flags &
						   NLM_F_ACK);
					kb_run_cb(nlh, &run);
					if (run.has[KBENCH_A_RUN_ID])
						remember_run(run.v[KBENCH_A_RUN_ID]);
				}
			} else {
				printf("# message %lu: unexpected type %u\n", idx,
				       nlh->nlmsg_type);
				bad = true;
			}
		}
	}

	/*
	 * A run whose windows came out over the irq-off bound is refused
	 * with -ERANGE whatever the request: plain TCG on a loaded host
	 * stretches a window of 100 iterations of a 1 KiB routine past
	 * 1 ms now and then.  That is the run's answer, not a refusal of
	 * the request.
	 */
	if (m.must_accept && rejected && err == ERANGE &&
	    strstr(fin.msg, "over max_window_us=")) {
		printf("# message %lu (%s): valid, and its windows were over the bound: %s\n",
		       idx, cat_name[m.cat], fin.msg);
	} else if (m.must_accept &&
		   (opt.unpriv ? rejected && err != EPERM : rejected || !data)) {
		printf("# message %lu (%s): a valid request was %s (errno %d)\n",
		       idx, cat_name[m.cat], rejected ? "refused" : "not answered",
		       err);
		bad = true;
	}
	if (rejected) {
		stats[m.cat].rejected++;
		if (err > 0 && err < 256)
			errno_count[err]++;
		if (!errno_expected(err)) {
			unexpected_errno++;
			printf("# message %lu (%s%s%s, cmd %u): unexpected errno %d (%s)\n",
			       idx, cat_name[m.cat], m.attr ? " " : "",
			       m.attr ?: "", m.cmd, err, strerror(err));
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
		if (m.attr)
			printf("# message %lu: attribute %s\n", idx, m.attr);
	}
	if (opt.verbose)
		printf("# %lu %s cmd %u: %s %d\n", idx, cat_name[m.cat], m.cmd,
		       rejected ? "rejected" : answered ? "accepted" : "silent", err);
	return 0;
}

/* ---- dump phases ----------------------------------------------------------- */

#define BIG_SAMPLES	10000	/* ~70 SAMPLES_GET messages: a dump of many rounds */

/* A stored run of many samples (root), or 0. */
static uint32_t big_run(void)
{
	static struct knl_req req;
	struct kb_run_args a = {
		.routines = { "empty" }, .nroutines = 1, .samples = BIG_SAMPLES,
		.iterations = 1,
	};
	struct knl_result res;
	struct kb_run run = {};

	if (opt.unpriv)
		return 0;
	kb_build_run(&req, fam.id, &a);
	if (knl_transact(&nl, &req, kb_run_cb, &run, &res) || res.err ||
	    !run.has[KBENCH_A_RUN_ID]) {
		printf("# RUN of %u samples: err %d %s\n", a.samples, res.err,
		       res.msg);
		return 0;
	}
	remember_run(run.v[KBENCH_A_RUN_ID]);
	return run.v[KBENCH_A_RUN_ID];
}

static void dump_request(struct knl_req *req, uint8_t cmd, uint32_t run_id)
{
	knl_req_genl(req, fam.id, NLM_F_REQUEST | NLM_F_DUMP, cmd,
		     KBENCH_GENL_VERSION);
	if (cmd == KBENCH_CMD_SAMPLES_GET)
		knl_put_u32(req, KBENCH_A_SAMPLES_RUN_ID, run_id);
}

/*
 * Receive one datagram on @s and check its messages: answers to @seq of
 * command @cmd, well formed, or the dump's end.  Returns false on a bad
 * message or nothing within the timeout.
 */
static bool recv_first(struct knl_sock *s, uint32_t seq, uint8_t cmd,
		       knl_cb cb, void *arg)
{
	static unsigned char buf[KNL_BUF_SIZE] __attribute__((aligned(8)));
	struct pollfd p = { .fd = s->fd, .events = POLLIN };
	const struct nlmsghdr *nlh;
	ssize_t n;
	int left;

	if (poll(&p, 1, opt.timeout_ms) != 1) {
		printf("# dump of cmd %u: nothing within %d ms\n", cmd,
		       opt.timeout_ms);
		return false;
	}
	n = recv(s->fd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n <= 0)
		return false;
	left = n;
	for (nlh = (void *)buf; NLMSG_OK(nlh, left); nlh = NLMSG_NEXT(nlh, left)) {
		const struct genlmsghdr *g = NLMSG_DATA(nlh);
		const char *why;

		if (nlh->nlmsg_seq != seq || nlh->nlmsg_type == NLMSG_DONE ||
		    nlh->nlmsg_type == NLMSG_ERROR)
			continue;
		why = nlh->nlmsg_type != fam.id ? "not the family" :
		      g->cmd != cmd ? "another command" :
		      kbench_check_msg(cmd, nlh);
		if (why) {
			printf("# dump of cmd %u: bad message: %s\n", cmd, why);
			return false;
		}
		if (cb)
			cb(nlh, arg);
	}
	return true;
}

/*
 * Dumps closed after their first datagram: releasing the socket ends the
 * dump (.done drops its reference to the run: on the debug kernel kmemleak
 * would see a run that is never freed), and the family goes on.
 */
static bool phase_dumps_closed(unsigned int rounds)
{
	static const uint8_t cmds[] = {
		KBENCH_CMD_SAMPLES_GET, KBENCH_CMD_ROUTINE_GET,
		KBENCH_CMD_SAMPLES_GET, KBENCH_CMD_CLOCK_GET,
	};
	static struct knl_req req;
	uint32_t id = big_run();
	unsigned int i;
	bool ok = true;

	if (!opt.unpriv && !id)
		return false;
	for (i = 0; i < rounds && ok; i++) {
		uint8_t cmd = cmds[i % sizeof(cmds)];
		struct knl_sock s;

		if (knl_open(&s, NETLINK_GENERIC))
			return false;
		dump_request(&req, cmd, id ? id : last_run_id);
		ok = !knl_send(&s, &req) &&
		     recv_first(&s, req.nlh.nlmsg_seq, cmd, NULL, NULL);
		knl_close(&s);
	}
	printf("# %u dumps (SAMPLES_GET of %u samples, ROUTINE_GET, CLOCK_GET)",
	       i, BIG_SAMPLES);
	printf(" closed after their first datagram\n");
	return ok;
}

/* Samples of one SAMPLES_GET dump: each exactly once, in order. */
struct samples_track {
	uint32_t next[KBENCH_RUN_ROUTINES_MAX + 1];
	bool bad, interrupted;
};

static int track_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_SAMPLES_MAX + 1];
	struct samples_track *t = arg;
	uint32_t series, first;
	const void *data;
	int len;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		t->interrupted = true;
	data = knl_genl_attrs(nlh, &len);
	knl_parse(data, len, tb, KBENCH_A_SAMPLES_MAX);
	if (kbench_check_msg(KBENCH_CMD_SAMPLES_GET, nlh) ||
	    !knl_get_u32(tb[KBENCH_A_SAMPLES_ROUTINE], &series) ||
	    !knl_get_u32(tb[KBENCH_A_SAMPLES_FIRST], &first) ||
	    series > KBENCH_RUN_ROUTINES_MAX || first != t->next[series]) {
		t->bad = true;
		return 0;
	}
	t->next[series] += knl_len(tb[KBENCH_A_SAMPLES_FLAGS]) / 4;
	return 0;
}

/*
 * A SAMPLES_GET dump whose run would be evicted after its first datagram
 * (runs_kept newer runs): the dump holds a reference, so the store skips
 * the run and evicts others; the dump sends every sample exactly once,
 * uninterrupted, and the run is still there once the dump is closed.  The
 * next run stored evicts it (ENOENT with a message).
 */
static bool samples_get_err(uint32_t id, int want, const char *what)
{
	static struct knl_req req;
	struct knl_result res;

	dump_request(&req, KBENCH_CMD_SAMPLES_GET, id);
	if (knl_transact(&nl, &req, NULL, NULL, &res) || res.err != want ||
	    (want && !res.has_msg)) {
		printf("# SAMPLES_GET of run %u %s: err %d \"%s\" (wanted %d)\n",
		       id, what, res.err, res.msg, want);
		return false;
	}
	return true;
}

/* One small RUN of "empty", remembered; false on any error. */
static bool small_run(void)
{
	static struct knl_req ev;
	struct kb_run_args a = {
		.routines = { "empty" }, .nroutines = 1, .samples = 1,
		.iterations = 1,
	};
	struct knl_result res;
	struct kb_run run = {};

	kb_build_run(&ev, fam.id, &a);
	if (knl_transact(&nl, &ev, kb_run_cb, &run, &res) || res.err)
		return false;
	remember_run(run.v[KBENCH_A_RUN_ID]);
	return true;
}

static bool phase_dump_outlives_eviction(void)
{
	static struct knl_req req;
	uint32_t kept = info.v[KBENCH_A_INFO_RUNS_KEPT], i, id;
	struct samples_track t = {};
	struct knl_result res;
	struct knl_sock s;
	bool ok;

	id = big_run();
	if (!id || knl_open(&s, NETLINK_GENERIC))
		return false;
	s.timeout_ms = opt.timeout_ms;
	dump_request(&req, KBENCH_CMD_SAMPLES_GET, id);
	ok = !knl_send(&s, &req) &&
	     recv_first(&s, req.nlh.nlmsg_seq, KBENCH_CMD_SAMPLES_GET,
			track_cb, &t);
	/* runs_kept newer runs: the oldest go, but not the one the dump holds */
	for (i = 0; ok && i < kept; i++)
		ok = small_run();
	ok = ok && !knl_recv_answer(&s, req.nlh.nlmsg_seq, track_cb, &t, &res) &&
	     !res.err;
	knl_close(&s);
	printf("# run %u pinned by its dump past %u newer runs: %u + %u samples of %u each, interrupted %d, bad %d\n",
	       id, kept, t.next[0], t.next[1], BIG_SAMPLES, t.interrupted,
	       t.bad);
	ok = ok && !t.bad && !t.interrupted && t.next[0] == BIG_SAMPLES &&
	     t.next[1] == BIG_SAMPLES;

	/* still there once the dump is closed; the next run evicts it */
	ok = samples_get_err(id, 0, "after its dump") && ok;
	ok = ok && small_run() && samples_get_err(id, ENOENT, "evicted");
	return ok;
}

/*
 * kbench_example.ko loaded and unloaded by a root child (forked before the
 * fuzzer drops its privileges) while ROUTINE_GET dumps run, some closed
 * after their first datagram, and (root) RUNs of its routine "foo".
 */
struct churn {
	pid_t pid;
	int go;		/* write end: start */
};

static struct churn churn = { .pid = -1, .go = -1 };

static bool module_loaded(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return !access(path, F_OK);
}

/* rmmod kbench_example; a RUN of foo pins it for a moment: try again. */
static bool churn_unload(void)
{
	int tries;

	for (tries = 0; tries < 500; tries++) {
		if (!syscall(SYS_delete_module, "kbench_example", O_NONBLOCK))
			return true;
		if (errno != EAGAIN && errno != EBUSY && errno != EWOULDBLOCK)
			return false;
		usleep(10000);
	}
	return false;
}

static void churn_main(int fd, int go)
{
	bool was = module_loaded("kbench_example");
	unsigned int i, done = 0;
	char c;

	if (read(go, &c, 1) != 1 || c != 'g')
		_exit(0);
	for (i = 0; i < 2 * opt.churn_cycles; i++) {
		if (!module_loaded("kbench_example")) {
			if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
				_exit(2);
		} else if (churn_unload()) {
			done++;
		} else {
			_exit(3);
		}
		usleep(20000);
	}
	/* leave it as found */
	if (was && !module_loaded("kbench_example") &&
	    syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		_exit(4);
	if (!was && module_loaded("kbench_example") && !churn_unload())
		_exit(5);
	_exit(done ? 0 : 6);
}

/* Fork the churner while still root; false if it cannot work here. */
static bool churn_prepare(void)
{
	int fd, p[2];

	if (!opt.churn_ko || !*opt.churn_ko || geteuid())
		return false;
	fd = open(opt.churn_ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pipe(p)) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	churn.pid = fork();
	if (!churn.pid) {
		close(p[1]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		churn_main(fd, p[0]);
	}
	close(fd);
	close(p[0]);
	churn.go = p[1];
	return churn.pid > 0;
}

struct routine_track {
	bool builtin, foo;
};

static int routine_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_ROUTINE_MAX + 1];
	struct routine_track *t = arg;
	const char *name;
	const void *data;
	int len;

	data = knl_genl_attrs(nlh, &len);
	knl_parse(data, len, tb, KBENCH_A_ROUTINE_MAX);
	name = knl_get_str(tb[KBENCH_A_ROUTINE_NAME]);
	if (name && !strcmp(name, "add_chain"))
		t->builtin = true;
	if (name && !strcmp(name, "foo"))
		t->foo = true;
	return 0;
}

static bool phase_routine_churn(unsigned long *dumps, unsigned long *with_foo)
{
	static struct knl_req req;
	struct kb_run_args a = {
		.routines = { "foo" }, .nroutines = 1, .samples = 5,
		.iterations = 10,
	};
	struct knl_result res;
	unsigned long runs = 0, runs_ok = 0;
	int status = 0;
	bool ok = true;

	if (write(churn.go, "g", 1) != 1)
		return false;
	while (ok && waitpid(churn.pid, &status, WNOHANG) == 0) {
		struct routine_track t = {};
		struct kb_run run = {};

		if (++*dumps % 4 == 0) {
			struct knl_sock s;

			if (knl_open(&s, NETLINK_GENERIC))
				return false;
			dump_request(&req, KBENCH_CMD_ROUTINE_GET, 0);
			ok = !knl_send(&s, &req) &&
			     recv_first(&s, req.nlh.nlmsg_seq,
					KBENCH_CMD_ROUTINE_GET, NULL, NULL);
			knl_close(&s);
			continue;
		}
		dump_request(&req, KBENCH_CMD_ROUTINE_GET, 0);
		if (knl_transact(&nl, &req, routine_cb, &t, &res) || res.err ||
		    res.bad_reply || !t.builtin) {
			printf("# ROUTINE_GET during module churn: err %d, bad %d, builtins %d\n",
			       res.err, res.bad_reply, t.builtin);
			ok = false;
		}
		*with_foo += t.foo;
		/* leave the churner some room (one vCPU under icount) */
		usleep(1000);
		if (opt.unpriv || *dumps % 8 != 2)
			continue;
		/* its routine, measured while its module comes and goes */
		kb_build_run(&req, fam.id, &a);
		runs++;
		if (knl_transact(&nl, &req, kb_run_cb, &run, &res) ||
		    (res.err && res.err != ENOENT)) {
			printf("# RUN foo during module churn: err %d %s\n",
			       res.err, res.msg);
			ok = false;
		}
		runs_ok += !res.err;
	}
	if (!ok)
		waitpid(churn.pid, &status, 0);	/* it ends its cycles alone */
	printf("# %lu ROUTINE_GET dumps (%lu listed foo), %lu RUNs of foo (%lu measured)",
	       *dumps, *with_foo, runs, runs_ok);
	printf(" while kbench_example came and went %u times; churner status %d\n",
	       opt.churn_cycles, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return ok && WIFEXITED(status) && !WEXITSTATUS(status);
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
	printf("usage: kbench-fuzz [--count N] [--seed S] [--unpriv]\n"
	       "       [--timeout-ms T] [--churn-ko PATH] [--churn-cycles N] [-v]\n"
	       "  --churn-ko PATH   module loaded/unloaded during ROUTINE_GET dumps\n"
	       "                    (default /lib/kbench/kbench_example.ko; \"\": none)\n");
	exit(status);
}

static int test_nr;

static bool tap(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool tap(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d %s", ok ? "ok" : "not ok", ++test_nr, name);
	if (fmt) {
		printf(" # ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	return ok;
}

#define NR_TESTS	8

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "unpriv", no_argument, NULL, 'u' },
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "churn-ko", required_argument, NULL, 'k' },
		{ "churn-cycles", required_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct knl_result res;
	unsigned long i, sent = 0, rej = 0, acc = 0, sil = 0;
	unsigned long dumps = 0, with_foo = 0;
	bool ok, all = true, churning;
	int c, err;

	/* random requests' replies: no figures worth keeping in the log */
	kb_ktap_figures = false;
	while ((c = getopt_long(argc, argv, "c:s:ut:vh", lopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.count = strtoul(optarg, NULL, 0);
			break;
		case 's':
			opt.seed = strtoull(optarg, NULL, 0);
			break;
		case 'u':
			opt.unpriv = true;
			break;
		case 't':
			opt.timeout_ms = atoi(optarg);
			break;
		case 'k':
			opt.churn_ko = optarg;
			break;
		case 'n':
			opt.churn_cycles = strtoul(optarg, NULL, 0);
			break;
		case 'v':
			opt.verbose = true;
			break;
		case 'h':
			usage(0);
			break;
		default:
			usage(2);
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	rng = opt.seed * 0x9e3779b97f4a7c15ull + 1;

	printf("TAP version 13\n1..%d\n", NR_TESTS);
	printf("# kbench-fuzz: seed %llu, %lu messages%s\n",
	       (unsigned long long)opt.seed, opt.count,
	       opt.unpriv ? ", unprivileged (uid 65534, no capabilities)" : "");

	/* 1: setup; the module churner is forked while still root */
	churning = churn_prepare();
	probe_events();
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
	if (!tap(!err, "fuzz_setup", err ? "%s" : NULL, strerror(-err))) {
		while (test_nr < NR_TESTS)
			tap(false, "fuzz", "SKIP no setup");
		return 1;
	}
	nl.timeout_ms = opt.timeout_ms;

	/* 2: the generators know every RUN attribute of the spec */
	all &= tap(table_covers_spec(), "fuzz_run_attrs_cover_spec", NULL);

	/* 3: the messages */
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
	printf("# total: sent %lu rejected %lu accepted %lu silent %lu",
	       sent, rej, acc, sil);
	printf(" timeouts %lu progress notifications %lu\n", timeouts, notifications);
	all &= tap(!failures, "fuzz_messages", "%lu failures", failures);

	/* 4: the errnos */
	printf("# errnos:");
	for (c = 0; c < 256; c++)
		if (errno_count[c])
			printf(" %s=%lu", strerrorname_np(c) ?: "?", errno_count[c]);
	printf("\n");
	all &= tap(!unexpected_errno, "fuzz_errnos", "%lu unexpected",
		   unexpected_errno);

	/* 5-7: dumps cut short, outliving their run, during module churn */
	all &= tap(phase_dumps_closed(24), "fuzz_dumps_closed_midway", NULL);
	if (opt.unpriv)
		tap(true, "fuzz_dump_outlives_eviction", "SKIP needs CAP_PERFMON");
	else
		all &= tap(phase_dump_outlives_eviction(),
			   "fuzz_dump_outlives_eviction", NULL);
	if (churning) {
		ok = phase_routine_churn(&dumps, &with_foo);
		all &= tap(ok, "fuzz_routine_dump_during_module_churn",
			   "%lu dumps", dumps);
	} else {
		tap(true, "fuzz_routine_dump_during_module_churn",
		    "SKIP needs root and %s", opt.churn_ko);
	}

	/* 8: still alive and correct */
	all &= tap(family_answers(!opt.unpriv), "fuzz_family_still_answers",
		   NULL);

	knl_close(&nl);
	return all ? 0 : 1;
}
