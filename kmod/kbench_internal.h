/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: declarations shared by the files of kbench.ko.
 */
#ifndef _KBENCH_INTERNAL_H
#define _KBENCH_INTERNAL_H

#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/kbench.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <net/genetlink.h>
#include <uapi/linux/kbench.h>
#include <kbench/version.h>

#include <kbench/summary.h>

#include "kbench_compat.h"
#include "kbench_counter.h"
#include "kbench_nl_gen.h"

/*
 * Hard limits; the module parameters may only lower them.  Those the
 * netlink policy enforces come from the spec (kbench_nl_gen.h:
 * KBENCH_SAMPLES_LIMIT, _ITERATIONS_LIMIT, _WARMUP_LIMIT, _TARGET_NS_MIN,
 * _TARGET_NS_MAX).
 */
#define KBENCH_WINDOW_US_LIMIT	(KBENCH_TARGET_NS_MAX / 1000U)
#define KBENCH_RUN_MS_LIMIT	600000U

#define KBENCH_SAMPLES_DEFAULT	1000U
#define KBENCH_ITERATIONS_DEFAULT 1000U
#define KBENCH_WARMUP_DEFAULT	10U
#define KBENCH_TARGET_NS_DEFAULT 20000U

/*
 * A concurrent run's irq-off bound is max_window_us, each window's wait at
 * the rendezvous included: the wait gives up after a quarter of it
 * (rv.spin_limit), the window itself may take the other three quarters.
 */
#define KBENCH_SPIN_SHARE	4
/* Start skew over target_ns / KBENCH_SKEW_SHARE flags a sample skew. */
#define KBENCH_SKEW_SHARE	8

/* Module parameters (kbench_params.c). */
extern unsigned int kbench_max_samples;
extern unsigned int kbench_max_window_us;
extern unsigned int kbench_max_run_ms;
extern unsigned int kbench_duty_pct;
extern unsigned int kbench_runs_kept;
extern unsigned long kbench_store_bytes_max;
extern unsigned long kbench_setup_bytes_max;
int kbench_params_check(void);

/* Routine registry (kbench_routines.c). */
struct kbench_routine *kbench_routine_get(const char *name);
void kbench_routine_put(struct kbench_routine *r);
int kbench_routine_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* Built-in routines (kbench_builtin.c). */
extern struct kbench_routine kbench_builtin_empty;
int kbench_builtin_init(void);
void kbench_builtin_exit(void);
/* Memory the built-in routines' setups hold now (setup_bytes_max). */
u64 kbench_builtin_setup_bytes(void);

/* One routine's samples and summary in a run. */
struct kbench_series {
	struct kbench_routine *routine;	/* pinned while measuring, then NULL */
	char name[KBENCH_NAME_MAX + 1];
	u32 bytes_per_iter;		/* the routine's, or its setup's */
	bool has_arg;			/* the routine takes an argument */
	u64 arg;			/* its value in this run */
	void *data;			/* what run() gets: the routine's or setup's */
	bool set_up;			/* setup returned 0: teardown is due */
	void *shared;			/* setup_shared()'s, or NULL */
	bool shared_up;			/* this run's setup_shared() returned 0 */
	struct kbench_engine_series eng;	/* samples, events' too */
	struct kbench_summary sum;	/* of the samples (kbench_summarize()) */
	struct kbench_summary xsum[KBENCH_EVENTS_MAX];	/* each event's */
};

/* A hardware event of a run (kbench_event.c). */
struct kbench_event {
	char name[KBENCH_NAME_MAX + 1];	/* as requested */
	u32 type;			/* perf_event_attr */
	u64 config;
	struct perf_event *pe;		/* while the run has it, else NULL */
	char pmu[32];			/* the PMU that counted it */
	u64 enabled_ns, running_ns;	/* perf's times over the run */
};

/* The series after the routines is the `empty` overhead routine. */
#define KBENCH_SERIES_MAX	(KBENCH_RUN_ROUTINES_MAX + 1)

struct kbench_run {
	struct kref ref;
	struct list_head node;		/* in the store */
	u32 id;
	/*
	 * The RUN request, held from the doit until the run's thread has sent
	 * the reply and the ack (kbench_nl_run_complete()): the doit returns
	 * at once, so it is no longer the request that keeps them alive.
	 * requester is NULL for kbench_measure() runs.
	 */
	u32 portid;			/* requester's port */
	u32 seq;			/* the request's sequence number */
	struct sock *requester;		/* sock_hold()ed sender */
	struct sk_buff *req_skb;	/* a copy of the request message */
	u64 req_bytes;			/* its charge to the budget */
	struct nlmsghdr *req_nlh;	/* the request in req_skb */
	const struct nlattr *nla_cpu;	/* its attributes, for the extack */
	const struct nlattr *nla_iterations;
	const struct nlattr *nla_events[KBENCH_EVENTS_MAX];
	bool requester_gone;		/* its socket was released */
	u32 ending;			/* -EAGAIN: the run that is ending */
	int ending_err;			/* and why: its abort's -errno */
	/*
	 * The room its answer needs in the requester's receive queue while
	 * it is owed (kbench_reply.c: kbench_owed, under its lock), and
	 * whether the answer is being sent, the only one to that socket.
	 */
	struct list_head owed_node;
	u32 owed;
	bool sending;
	/* what the answer is: its messages (kbench_answer()) */
	const struct kbench_answer_ops *answer;
	const void *answer_arg;
	/*
	 * the request's notify: acked at its start, answered by RUN_NTF
	 * notifications and a RUN_END_NTF instead of replies and an ack
	 */
	bool notify;

	/* request, as used */
	u32 cpu;
	u32 samples;
	u32 iterations;
	u32 target_ns;
	/*
	 * the plain u32 attributes of the request by attribute (WARMUP,
	 * ...), as given or by default: kbench_fill.c's kbench_run_u32[]
	 */
	u32 u32[KBENCH_A_RUN_MAX + 1];
	bool adaptive;
	u32 nr_routines;		/* series[0..nr) are routines */
	u32 nr_series;			/* plus the overhead series */
	struct kbench_series series[KBENCH_SERIES_MAX];
	u32 nr_events;
	struct kbench_event events[KBENCH_EVENTS_MAX];

	u32 nr_args;			/* the request's args: 0, 1 or nr_routines */
	u64 args[KBENCH_RUN_ROUTINES_MAX];

	/* result */
	int err;			/* 0 or -errno */
	int setup_failed;		/* series + 1 whose setup failed, or 0 */
	char msg[KBENCH_EXTACK_MSG_LEN];	/* that setup's message */
	char explain[KBENCH_EXTACK_MSG_LEN];	/* the ack's, on 6.1 */
	u32 status;			/* enum kbench_run_status */
	u64 elapsed_ns;
	u64 span_cycles;
	u64 routine_cycles;
	u64 window_cycles;
	u64 mem_bytes;
	bool charged;			/* mem_bytes counted in the budget */
	u64 scratch_bytes;		/* kbench_finish()'s, charged until it */
	/*
	 * adaptive N after the probe (engine.h): the fewest iterations a
	 * window took, the changes of N, the samples taken at fewer, and
	 * the log of changes that says which
	 */
	u32 iterations_min;
	u32 n_changes;
	u32 samples_reduced;
	u32 div_log_nr;
	struct kbench_div_change div_log[KBENCH_DIV_LOG_MAX];

	/* control */
	atomic_t abort;			/* 0 or -errno: stop between windows */
	/* the run has ended and its slot is free (kbench_run_execute()) */
	struct completion finished;
	/* called by the thread when the run has ended, before done */
	void (*complete)(struct kbench_run *run);
	u64 deadline_ns;		/* ktime_get_ns() limit of the run */
	bool window_probe;		/* -ERANGE: the probe predicted it */
	u32 no_valid;			/* 1 + a series without a valid sample */

	/* a concurrent run: its group (a reference) and its place in it */
	struct kbench_group *group;
	u32 group_index;
	/*
	 * its side of the group's rendezvous, written inside its windows:
	 * here, in memory of this CPU's run, not in an array of the group's
	 * whose cache lines the other CPUs write just before their t0
	 */
	struct kbench_sync sync;
};

/*
 * A concurrent RUN (the request's cpus): one run per CPU, each with its
 * own thread, samples, memory and id, their windows started together at
 * one rendezvous (include/kbench/engine.h).  The group holds a reference
 * to each run until the last thread has finished the group (skew,
 * summaries, the reply: kbench_group_done()); each run holds one to the
 * group until it is freed.
 */
struct kbench_group {
	struct kref ref;
	u32 nr;				/* CPUs, runs */
	struct kbench_run *run[KBENCH_CPUS_MAX];
	const struct nlattr *nla_cpus[KBENCH_CPUS_MAX];	/* in the request copy */
	struct kbench_rendezvous rv;	/* rv.slot: [nr], freed at the end */
	/* ktime_get_ns() limit of every run, from the group's start */
	u64 deadline_ns;
	u64 scratch_bytes;		/* the skew's, charged until it is done */
	atomic_t err;			/* the first error of any run, or 0 */
	u32 cause;			/* the run that set err */
	/* agree(): its rounds (include/kbench/engine.h), under lock */
	spinlock_t lock;
	wait_queue_head_t wq;
	struct kbench_rounds agree;
	bool shared_ready;		/* run[0] has set up the shared data */
	atomic_t remaining;		/* threads not yet done */
	struct completion finished;	/* the reply has been sent */
	void (*complete)(struct kbench_group *g);
	/* result */
	u64 skew_bound;			/* ticks; over it: flagged skew */
	u64 skew_max, skew_median;
	u32 skew_flagged;
	u64 late_max[KBENCH_CPUS_MAX], late_median[KBENCH_CPUS_MAX];
	/*
	 * What the group's figures say of all its runs, kept when the group
	 * has ended (kbench_group_sum()), as long as one of its runs is
	 * (run->group): the runs' ids (run-get finds the others in the
	 * store), the longest elapsed time, the memory, the status.
	 */
	u32 id[KBENCH_CPUS_MAX];
	u64 elapsed_max;
	u64 mem_sum;
	u32 status;
};

/*
 * Every message kbench builds, its attributes' room included, fits in a
 * head of 16 KiB, an order-2 allocation at most (the answer of a
 * concurrent run is a message per CPU, not one message), and is
 * read whole by a client with a 16 KiB buffer.  Dumps are sized by
 * netlink itself.
 */
#define KBENCH_MSG_MAX		SKB_WITH_OVERHEAD(SZ_16K)

/*
 * A RUN's answer (kbench_answer()): parts(@arg) messages, part @i at
 * most size(@arg, @i) bytes of attributes (at most KBENCH_MSG_MAX with
 * the headers), filled by fill() from @arg.
 */
struct kbench_answer_ops {
	u32 (*parts)(const void *arg);
	size_t (*size)(const void *arg, u32 i);
	int (*fill)(struct sk_buff *msg, const void *arg, u32 i);
};

/* Measurement (kbench_measure.c). */
u64 kbench_run_bytes(u32 nr_routines, u32 nr_events, u32 samples);
u64 kbench_run_charge(u32 nr_routines, u32 nr_events, u32 samples);
void kbench_run_abort(struct kbench_run *run, int err);
struct kbench_group *kbench_group_alloc(u32 nr);
u64 kbench_group_skew_bytes(u32 nr, u32 nr_series, u32 samples);

int kbench_run_aborted(struct kbench_run *run);
/* ... what a run's thread (kbench_run.c) calls of it */
void kbench_group_abort(struct kbench_group *g, u32 index, int err);
int kbench_run_setup(struct kbench_run *run);
int kbench_run_measure(struct kbench_run *run);
void kbench_run_teardown(struct kbench_run *run);
int kbench_finish(struct kbench_run *run);
void kbench_group_done(struct kbench_group *g);

/* A run's lifecycle: its memory, CPUs, thread and end (kbench_run.c). */
int kbench_measure_init(void);
void kbench_measure_exit(void);
struct kbench_run *kbench_run_alloc(u32 nr_routines, u32 nr_events,
				    u32 samples);
struct kbench_run *kbench_run_alloc_err(u32 nr_routines, u32 nr_events,
					u32 samples, u64 *in_use, u32 *ending);
int kbench_run_start(struct kbench_run *run);
int kbench_run_execute(struct kbench_run *run);
void kbench_abort_all(int err);
int kbench_run_alloc_starts(struct kbench_run *run, u64 *in_use, u32 *ending);
int kbench_group_start(struct kbench_group *g, u32 *bad);
void kbench_abort_requester(const struct net *net, u32 portid);
bool kbench_wait_dying(void);
int kbench_mem_charge(u64 bytes, u64 *in_use, u32 *ending);

/*
 * Injected delays of the test bed (kbench_fault.c): points where a race's
 * window is widened.  Compiled out of every other build.
 */
enum kbench_fault_point {
	KBENCH_FAULT_NONE,
	KBENCH_FAULT_START,	/* a start: its CPUs claimed, no thread yet */
	KBENCH_FAULT_GROUP_END,	/* a group's later CPU, done measuring */
	KBENCH_FAULT_ANSWER,	/* the answer checked its requester, unsent */
	KBENCH_FAULT_GROUP_LATE,	/* a group's later CPU, before its setup */
	KBENCH_FAULT_RELEASE,	/* a requester's release, its port free */
};

struct genl_info;

#ifdef KBENCH_FAULT_INJECT
void kbench_fault_delay(enum kbench_fault_point point, struct kbench_run *run);
u32 kbench_fault_room(u32 room);
bool kbench_fault_nomem(u32 part);
int kbench_fault_no_notify(struct genl_info *info);
#else
static inline void kbench_fault_delay(enum kbench_fault_point point,
				      struct kbench_run *run)
{
}

/* the room progress notifications leave free: @room */
static inline u32 kbench_fault_room(u32 room)
{
	return room;
}

/* whether message @part of an answer is to fail its allocation: never */
static inline bool kbench_fault_nomem(u32 part)
{
	return false;
}

/* whether a RUN's notify is to be refused as unknown: never (0) */
static inline int kbench_fault_no_notify(struct genl_info *info)
{
	return 0;
}
#endif

/*
 * The memory of runs: the budget, the stored runs and the release of a
 * run, its group and its request copy (kbench_store.c).
 */
void kbench_store_add(struct kbench_run *run);
struct kbench_run *kbench_store_get(u32 id);
bool kbench_store_has(struct kbench_run *run);
u64 kbench_store_bytes(void);
int kbench_mem_try_charge(u64 bytes, u64 *in_use);
void kbench_mem_uncharge(u64 bytes);
void kbench_run_put(struct kbench_run *run);
void kbench_group_put(struct kbench_group *g);
void kbench_run_drop_request(struct kbench_run *run);
void kbench_store_exit(void);

/* Hardware events (kbench_event.c). */
extern const struct kbench_counter kbench_event_row;
int kbench_event_lookup(const char *name, struct kbench_event *ev,
			struct netlink_ext_ack *extack, const struct nlattr *nla);
int kbench_events_open(struct kbench_run *run, const struct nlattr **nla,
		       struct netlink_ext_ack *extack);
int kbench_events_close(struct kbench_run *run, const struct nlattr **nla,
			struct netlink_ext_ack *extack);
void kbench_events_release(struct kbench_run *run);

/* A summary's figures in a RESULT, an EVENT_SUMMARY nest (kbench_schema.c). */
int kbench_put_summary(struct sk_buff *msg, const struct kbench_summary *sum);
int kbench_put_event_figures(struct sk_buff *msg,
			     const struct kbench_summary *sum);

/*
 * What a RESULT and an EVENT_SUMMARY nest say of their series besides the
 * figures (kbench_put_result_id(), kbench_put_event_id()): a member for
 * each KBENCH_ID and KBENCH_EV_ID line of include/kbench/schema.h, by its
 * name (kbench_schema.c does not build without it), STR as a string.
 */
struct kbench_result_id {
	const char *routine;
	u32 index;
	u32 bytes_per_iter;
	bool has_arg;
	u64 arg;
	u32 flags;
};

struct kbench_event_id {
	u32 index;
	const char *name;
};

int kbench_put_result_id(struct sk_buff *msg,
			 const struct kbench_result_id *id);
int kbench_put_event_id(struct sk_buff *msg, const struct kbench_event_id *id);

/* Clocks (kbench_clock.c). */
int kbench_clock_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* The kernel's environment report (kbench_env.c). */
void kbench_env_init(void);
u32 kbench_env_flags(void);
int kbench_env_put(struct sk_buff *msg);

/* The family and its extack messages (kbench_family.c). */
extern struct genl_family kbench_genl_family;
int kbench_family_register(const struct genl_split_ops *ops,
			   const struct genl_multicast_group *mcgrps,
			   unsigned int n_mcgrps);
void kbench_family_unregister(void);
__printf(3, 4)
void kbench_extack_fmt(struct netlink_ext_ack *extack,
		       const struct nlattr *attr, const char *fmt, ...);
bool kbench_may_measure(const struct sk_buff *skb,
			struct netlink_ext_ack *extack);

/* What a RUN's reply says (kbench_fill.c). */
void kbench_run_u32_get(struct kbench_run *run, struct nlattr **tb);
extern const struct kbench_answer_ops kbench_run_answer;
extern const struct kbench_answer_ops kbench_group_answer;
void kbench_group_sum(struct kbench_group *g);
int kbench_run_fill(struct sk_buff *msg, const struct kbench_run *run);
int kbench_cpu_msg_fill(struct sk_buff *msg, const struct kbench_group *g,
			const struct kbench_run *run, u32 i);
int kbench_group_msg_fill(struct sk_buff *msg, const struct kbench_group *g,
			  const struct kbench_run *run);
size_t kbench_run_msg_size(u32 nr_series, u32 nr_events);
size_t kbench_cpu_msg_size(u32 nr_series);
size_t kbench_group_msg_size(void);

/* The handlers (kbench_netlink.c; SAMPLES_GET's: kbench_samples.c). */
int kbench_netlink_init(void);
void kbench_netlink_exit(void);
void kbench_nl_run_complete(struct kbench_run *run);

/* The requester: its request, progress, the reply, the ack (kbench_reply.c). */
struct sk_buff *kbench_msg(u32 portid, u32 seq, u8 cmd, size_t size,
			   int (*fill)(struct sk_buff *msg, const void *arg),
			   const void *arg);
const struct nlattr *kbench_nla_in(const struct sk_buff *copy,
				   const struct nlmsghdr *nlh,
				   const struct nlattr *nla);
int kbench_run_hold_request(struct kbench_run *run, struct sk_buff *skb,
			    struct genl_info *info,
			    const struct nlattr **events,
			    const struct kbench_answer_ops *answer,
			    const void *arg);
/* kbench_store.c: the room owed to requesters (kbench_reply.c's) */
extern spinlock_t kbench_owed_lock;
extern struct list_head kbench_owed;
void kbench_owed_drop(struct kbench_run *run);
void kbench_set_exiting(void);
bool kbench_exiting(void);
void kbench_progress_notify(struct kbench_run *run, u32 done, u32 total,
			    u64 elapsed_ns);
void kbench_answer(struct kbench_run *run, int err,
		   struct netlink_ext_ack *extack);

#endif /* _KBENCH_INTERNAL_H */
