/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw generic netlink helpers shared by the kbench selftests and fuzzer.
 *
 * Raw sockets rather than libnl: the tests assert the exact errno and the
 * extack attribute offset, so they build every byte of the request and
 * read every byte of the answer themselves.
 */
#ifndef _KBENCH_SELFTEST_NL_H
#define _KBENCH_SELFTEST_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <linux/kbench.h>

#include "kbench_nl_tables.h"	/* generated at build time from the spec */

#ifndef NLMSGERR_ATTR_MISS_TYPE
#define NLMSGERR_ATTR_MISS_TYPE	5
#define NLMSGERR_ATTR_MISS_NEST	6
#endif

/* as kselftest.h defines it, for the files that do not include it */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))
#endif

#define KNL_BUF_SIZE		(256 * 1024)
#define KNL_REQ_SIZE		(64 * 1024)
/*
 * How long an answer may take before a request is given up: a run ends by
 * max_run_ms (60 s by default), and its answer may wait as long again for
 * room in the requester's queue.  A bound that tells "never answered"
 * from "answered", not a speed (it was 30 s, under max_run_ms).
 */
#define KNL_TIMEOUT_MS_DEFAULT	150000

/* A request under construction: one netlink message in a fixed buffer. */
struct knl_req {
	union {
		struct nlmsghdr nlh;
		unsigned char buf[KNL_REQ_SIZE];
	};
	size_t cap;	/* bytes usable in buf */
	int nest[8];	/* offsets of open nests */
	int depth;
	bool overflow;
};

/* Called for every data message of the answer; non-zero stops parsing. */
typedef int (*knl_cb)(const struct nlmsghdr *nlh, void *arg);

struct knl_sock {
	int fd;
	uint32_t portid;
	uint32_t seq;
	int timeout_ms;
	/*
	 * Notifications (nlmsg_seq 0: kbench's PROGRESS_NTF to whoever sent
	 * a RUN) that arrive while an answer is awaited: never taken for the
	 * answer; counted in knl_result.nntf and passed to ntf_cb if set.
	 */
	knl_cb ntf_cb;
	void *ntf_arg;
	int wake_fd;	/* knl_transact_threaded()'s sender: -1 if none */
};

/* What the kernel said about one request. */
struct knl_result {
	int err;		/* positive errno, 0 on success */
	bool done;		/* NLMSG_ERROR (ack) or NLMSG_DONE seen */
	bool timed_out;		/* no final answer within the timeout */
	bool bad_reply;		/* malformed answer (parse failure) */
	bool has_msg;
	char msg[512];
	bool has_offs;
	uint32_t offs;		/* extack: bad attribute offset from nlmsghdr */
	bool has_miss_type;
	uint32_t miss_type;
	bool has_miss_nest;
	uint32_t miss_nest;
	int nreplies;		/* data messages (not ERROR/DONE) */
	int nntf;		/* notifications (seq 0) meanwhile */
	bool dump_interrupted;	/* NLM_F_DUMP_INTR seen */
};

int knl_open(struct knl_sock *s, int protocol);
void knl_close(struct knl_sock *s);

void knl_req_init(struct knl_req *r, uint16_t type, uint16_t flags);
void knl_req_genl(struct knl_req *r, uint16_t family, uint16_t flags,
		  uint8_t cmd, uint8_t version);
/* Each put returns the attribute's offset from the nlmsghdr, -1 if full. */
int knl_put(struct knl_req *r, uint16_t type, const void *data, size_t len);
int knl_put_u32(struct knl_req *r, uint16_t type, uint32_t v);
int knl_put_u64(struct knl_req *r, uint16_t type, uint64_t v);
int knl_put_str(struct knl_req *r, uint16_t type, const char *s);
int knl_nest_start(struct knl_req *r, uint16_t type);
void knl_nest_end(struct knl_req *r);
/* Append raw bytes to the message (no attribute header). */
int knl_put_raw(struct knl_req *r, const void *data, size_t len);

/* Send @r (seq and portid filled in) and collect the full answer. */
int knl_transact(struct knl_sock *s, struct knl_req *r, knl_cb cb, void *arg,
		 struct knl_result *res);
int knl_send(struct knl_sock *s, struct knl_req *r);
/*
 * knl_transact() with the request sent from a thread: a do request runs
 * inside sendmsg(), so this is how a requester reads what the kernel sends
 * it during the request (progress notifications) as it arrives.
 */
int knl_transact_threaded(struct knl_sock *s, struct knl_req *r, knl_cb cb,
			  void *arg, struct knl_result *res);
/* The ack or error of a do, or the end of a dump, into @res (its extack). */
void knl_parse_final(const struct nlmsghdr *nlh, struct knl_result *res);
int knl_recv_answer(struct knl_sock *s, uint32_t seq, knl_cb cb, void *arg,
		    struct knl_result *res);

/* Attribute parsing: tb[type] = last attribute of that type. */
int knl_parse(const void *data, int len, const struct nlattr **tb, int max);
const void *knl_genl_attrs(const struct nlmsghdr *nlh, int *len);
#define knl_for_each_attr(a, data, len, rem)				\
	for ((a) = (const struct nlattr *)(data), (rem) = (len);	\
	     (rem) >= (int)sizeof(*(a)) && (a)->nla_len >= sizeof(*(a)) && \
	     (a)->nla_len <= (rem);					\
	     (rem) -= NLA_ALIGN((a)->nla_len),				\
	     (a) = (const struct nlattr *)((const char *)(a) + NLA_ALIGN((a)->nla_len)))

static inline const void *knl_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static inline int knl_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

bool knl_get_u32(const struct nlattr *a, uint32_t *v);
bool knl_get_u64(const struct nlattr *a, uint64_t *v);
bool knl_get_s64(const struct nlattr *a, int64_t *v);
/* NUL-terminated string within the payload, or NULL. */
const char *knl_get_str(const struct nlattr *a);

/* Generic netlink family lookup. */
struct knl_family {
	uint16_t id;
	uint32_t version;
	uint32_t hdrsize;
	uint32_t maxattr;
	uint32_t ops[64];	/* op ids */
	int nops;
	char mcgrp_name[8][32];
	uint32_t mcgrp_id[8];
	int nmcgrps;
};

int knl_resolve(struct knl_sock *s, const char *name, struct knl_family *f,
		struct knl_result *res);

/*
 * kbench answer checking against the spec's attribute sets (types and
 * lengths, kbench_nl_tables.h).  NULL when the message is well formed,
 * else a description.
 */
const char *kbench_check_msg(uint8_t cmd, const struct nlmsghdr *nlh);

/* The spec's request attributes of @cmd's do (or dump), or NULL. */
const struct kb_req *kb_req_find(uint8_t cmd, bool dump);

/* kbench RUN reply, parsed. */
#define KB_RESULTS_MAX	(KBENCH_RUN_ROUTINES_MAX + 1)
/* One EVENT_SUMMARY nest of a result. */
struct kb_event_sum {
	char name[KBENCH_NAME_MAX + 2];
	bool has[KBENCH_A_EVENT_SUMMARY_MAX + 1];
	uint64_t v[KBENCH_A_EVENT_SUMMARY_MAX + 1];	/* s64 stored as bits */
};

struct kb_result {
	char routine[KBENCH_NAME_MAX + 2];
	bool has[KBENCH_A_RESULT_MAX + 1];
	uint64_t v[KBENCH_A_RESULT_MAX + 1];	/* s64 stored as bits */
	int nevents;
	struct kb_event_sum ev[KBENCH_EVENTS_MAX];
};

/* One EVENT_INFO nest of the reply. */
struct kb_event_info {
	char name[KBENCH_NAME_MAX + 2];
	char pmu[64];
	bool has[KBENCH_A_EVENT_MAX + 1];
	uint64_t v[KBENCH_A_EVENT_MAX + 1];
};

struct kb_run {
	bool has[KBENCH_A_RUN_MAX + 1];
	uint64_t v[KBENCH_A_RUN_MAX + 1];
	char counter[32];
	int nresults;
	struct kb_result result[KB_RESULTS_MAX];
	bool has_overhead;
	struct kb_result overhead;
	int nevents;
	struct kb_event_info event[KBENCH_EVENTS_MAX];
	int nmsgs;
	const char *bad;	/* ABI violation, if any */
};

int kb_run_cb(const struct nlmsghdr *nlh, void *arg);
/* kb_run_cb() prints each result's figures as KTAP diagnostics (default) */
extern bool kb_ktap_figures;

struct kb_info {
	bool has[KBENCH_A_INFO_MAX + 1];
	uint64_t v[KBENCH_A_INFO_MAX + 1];
	char version[64], arch[32], counter[32], kernel[128];
	/* the environment nest: its u32 attributes and the vendor string */
	bool env_has[KBENCH_A_ENV_MAX + 1];
	uint32_t env[KBENCH_A_ENV_MAX + 1];
	char hypervisor_vendor[64];
	int nmsgs;
	const char *bad;
};

int kb_info_cb(const struct nlmsghdr *nlh, void *arg);

/* Build a RUN request; pass 0 to leave an integer out. */
struct kb_run_args {
	const char *routines[8];
	int nroutines;
	bool has_cpu;
	uint32_t cpu;
	uint32_t samples, iterations, warmup;
	const char *events[16];
	int nevents;
	int nargs;			/* ARG attributes, in order */
	uint64_t args[8];
	int offs_routine[8], offs_cpu, offs_samples, offs_iterations;
	int offs_event[16];
	int offs_arg[8];
};

void kb_build_run(struct knl_req *r, uint16_t family, struct kb_run_args *a);

/* Small utilities. */
/*
 * Exact (instruction-count) assertions hold only under qemu -icount, where
 * one counter tick is one guest instruction: true when the kernel command
 * line has kbench_icount=1 (tests/vm/run --icount) or KBENCH_EXACT=1 is in
 * the environment, false with KBENCH_EXACT=0.  On real hardware it is
 * false and the exact tests SKIP.
 */
bool kb_icount(void);
/*
 * Where the tests find what they load and run, so that the same binaries
 * work in the test VM and from an installed kselftest package:
 * kb_module_path("kbench_example") is $KBENCH_MODDIR/NAME.ko, else
 * DIR/modules/NAME.ko next to the test binary when that exists (the
 * package), else /lib/kbench/NAME.ko (the VM).  kb_kbenchctl() is
 * $KBENCHCTL, else DIR/kbenchctl when executable, else /usr/bin/kbenchctl.
 * Both return a static buffer.
 */
const char *kb_module_path(const char *name);
/*
 * kbench is part of the kernel (CONFIG_KBENCH=y): /sys/module/kbench and no
 * "kbench" in /proc/modules.  Its routines' owner is then "kernel".
 */
bool kb_builtin(void);
const char *kb_kbenchctl(void);
int kb_possible_cpus(void);	/* nr_cpu_ids from /sys/.../possible */
uint64_t kb_now_ns(void);	/* CLOCK_MONOTONIC */
bool kb_kernel_at_least(int major, int minor);
/* Whether a run's thread kbench/@cpu exists (any CPU's when @cpu < 0). */
bool kb_run_thread_exists(int cpu);
/*
 * Linux 6.1 drops the extack of a dump's start() callback (the errno still
 * arrives); 6.2 passes it on ("netlink: support extack in dump ->start()").
 */
#define KB_DUMP_START_EXTACK()	kb_kernel_at_least(6, 2)
/* Drop to uid/gid 65534 with no capabilities; 0 or -errno. */
int kb_drop_privileges(void);
/*
 * Run @cmd (popen()), its stdout NUL-terminated in @out: the exit status,
 * or -1 when it could not run or did not exit.
 */
int kb_cmd_output(const char *cmd, char *out, size_t size);
/* The number after "@key": in the JSON text at @obj (up to @end if set). */
bool kb_json_number(const char *obj, const char *end, const char *key,
		    double *v);

#endif /* _KBENCH_SELFTEST_NL_H */
