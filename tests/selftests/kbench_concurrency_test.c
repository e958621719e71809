// SPDX-License-Identifier: GPL-2.0
/*
 * kbench selftests: runs in parallel, a busy CPU, other netlink families
 * during a long run, killed runs, a CPU going offline mid-run, and the
 * owner module of a routine being measured.  Needs 2 vCPUs (skipped under
 * icount, which runs on one).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/rtnetlink.h>

#include "kbench_fixture.h"

/*
 * Bounds that tell "did not wait for the long run" (which lasts up to
 * max_run_ms, 60 s, and is checked to be still running afterwards) from
 * "waited": not how fast.  These tests need 2 vCPUs, so they run in plain
 * TCG only, where the time is the host's: an idle host answered in a few
 * ms, a loaded one (suites side by side, --host-load) took seconds.
 */
#define EBUSY_MAX_NS		(10000 * 1000000ull)
#define OTHER_FAMILY_MAX_NS	(10000 * 1000000ull)
#define KILL_REAP_MAX_NS	(20000 * 1000000ull)
/* under icount, in guest ns = instructions (killed_run_ticks) */
#define KILL_REAP_TICKS_MAX_NS	(50 * 1000000ull)
#define EXAMPLE_KO_DEFAULT	kb_module_path("kbench_example")

/* What the child running the long RUN saw. */
struct long_report {
	int err;
	uint32_t samples_asked, samples_taken, status;
	uint64_t elapsed_ns;
	char msg[512];
};

struct long_run {
	pid_t pid;
	uint32_t portid;	/* the child's netlink port */
	int started;	/* read end: the child's port, then a progress token */
	int report;	/* read end: struct long_report when answered */
	uint64_t sent_ns;
};

/* The child's end of the progress token pipe. */
struct long_child {
	int fd;		/* write end; -1 once the token is sent */
	uint32_t portid;
};

static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Tokens the child sends after its port: sampling has begun, or not. */
#define PROGRESS_SEEN	1u
#define PROGRESS_BAD	2u

/*
 * In the child, for each notification on its RUN socket: the first
 * well-formed PROGRESS_NTF about its own port says sampling has begun.
 */
static int child_progress_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_PROGRESS_MAX + 1];
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	struct long_child *c = arg;
	uint32_t port, done, total, token = PROGRESS_SEEN;
	const void *data;
	int len;

	if (c->fd < 0)
		return 0;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN ||
	    g->cmd != KBENCH_CMD_PROGRESS_NTF ||
	    kbench_check_msg(KBENCH_CMD_PROGRESS_NTF, nlh)) {
		token = PROGRESS_BAD;
	} else {
		data = knl_genl_attrs(nlh, &len);
		knl_parse(data, len, tb, KBENCH_A_PROGRESS_MAX);
		if (!knl_get_u32(tb[KBENCH_A_PROGRESS_PORTID], &port) ||
		    !knl_get_u32(tb[KBENCH_A_PROGRESS_DONE], &done) ||
		    !knl_get_u32(tb[KBENCH_A_PROGRESS_TOTAL], &total) ||
		    !tb[KBENCH_A_PROGRESS_RUN_ID] || done > total ||
		    port != c->portid)
			token = PROGRESS_BAD;
	}
	/* the parent reads it or is gone; either way we are done with it */
	if (write(c->fd, &token, sizeof(token)) != sizeof(token))
		token = PROGRESS_BAD;
	close(c->fd);
	c->fd = -1;
	return 0;
}

/* Wait for the child's token: 0 once its run reported progress. */
static int wait_progress(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint32_t token;

	if (poll(&p, 1, ms) != 1)
		return -ETIMEDOUT;
	if (read(fd, &token, sizeof(token)) != sizeof(token))
		return -EPIPE;
	return token == PROGRESS_SEEN ? 0 : -EPROTO;
}

/*
 * Start a RUN long enough to outlast the test's probes (many samples; the
 * store's memory cap bounds them) from a child process on another CPU, and
 * return once sampling has begun.  The module sends progress notifications
 * to the requesting socket only, so the child reads its own socket while
 * its request runs (knl_transact_threaded) and tells us.
 */
static int long_run_start(FIXTURE_DATA(kb) *self, struct long_run *lr,
			  const char *routine, uint32_t cpu, int child_cpu)
{
	uint64_t store = self->info.v[KBENCH_A_INFO_STORE_BYTES_MAX];
	uint64_t samples = self->info.v[KBENCH_A_INFO_MAX_SAMPLES];
	int ps[2], pr[2];

	if (samples > 1000000)
		samples = 1000000;
	/* Two series (routine + overhead), 12 bytes a sample, with margin. */
	if (samples > store / 64)
		samples = store / 64;
	if (pipe(ps) || pipe(pr))
		return -errno;
	lr->pid = fork();
	if (lr->pid < 0)
		return -errno;
	if (!lr->pid) {
		static struct knl_req req;
		struct long_report rep = {};
		struct kb_run_args a = {
			.routines = { routine }, .nroutines = 1,
			.has_cpu = true, .cpu = cpu, .samples = samples,
			.iterations = 1000,
		};
		struct long_child c = { .fd = ps[1] };
		struct knl_result res;
		struct knl_family fam;
		struct knl_sock nl;
		struct kb_run run = {};
		uint64_t t0;

		close(ps[0]);
		close(pr[0]);
		/* A test that fails half-way must not leave its run behind. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin_to(child_cpu);
		if (knl_open(&nl, NETLINK_GENERIC) ||
		    knl_resolve(&nl, KBENCH_GENL_NAME, &fam, &res))
			_exit(3);
		nl.timeout_ms = 600000;
		c.portid = nl.portid;
		nl.ntf_cb = child_progress_cb;
		nl.ntf_arg = &c;
		kb_build_run(&req, fam.id, &a);
		if (write(ps[1], &nl.portid, 4) != 4)
			_exit(5);
		t0 = kb_now_ns();
		rep.err = knl_transact_threaded(&nl, &req, kb_run_cb, &run,
						&res);
		rep.err = rep.err ? -rep.err : res.err;
		rep.elapsed_ns = kb_now_ns() - t0;
		rep.samples_asked = a.samples;
		rep.samples_taken = run.nresults ?
				    run.result[0].v[KBENCH_A_RESULT_SAMPLES] : 0;
		rep.status = run.v[KBENCH_A_RUN_STATUS];
		snprintf(rep.msg, sizeof(rep.msg), "%s", res.msg);
		if (write(pr[1], &rep, sizeof(rep)) != sizeof(rep))
			_exit(6);
		_exit(0);
	}
	close(ps[1]);
	close(pr[1]);
	lr->started = ps[0];
	lr->report = pr[0];
	if (read(lr->started, &lr->portid, 4) != 4)
		return -EPIPE;
	lr->sent_ns = kb_now_ns();
	/* Sampling has begun once the run reports progress (every 250 ms). */
	return wait_progress(lr->started, 20000);
}

/* Has the long run answered?  Waits up to @ms. */
static bool long_run_answered(struct long_run *lr, int ms, struct long_report *rep)
{
	struct pollfd p = { .fd = lr->report, .events = POLLIN };

	if (poll(&p, 1, ms) != 1)
		return false;
	return read(lr->report, rep, sizeof(*rep)) == sizeof(*rep);
}

static void long_run_kill(struct long_run *lr, uint64_t *reap_ns)
{
	uint64_t t0 = kb_now_ns();
	int status;

	if (lr->pid > 0) {
		kill(lr->pid, SIGKILL);
		waitpid(lr->pid, &status, 0);
	}
	if (reap_ns)
		*reap_ns = kb_now_ns() - t0;
	lr->pid = 0;
	close(lr->started);
	close(lr->report);
}

static bool need_two_cpus(void)
{
	return !kb_icount() && sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

static int small_run(FIXTURE_DATA(kb) *self, uint32_t cpu,
		     struct knl_result *res, uint64_t *ns)
{
	struct kb_run_args a = {
		.routines = { "add_chain" }, .nroutines = 1, .has_cpu = true,
		.cpu = cpu, .samples = 10, .iterations = 10,
	};
	struct kb_run run;
	uint64_t t0 = kb_now_ns();
	int err;

	err = kb_run(&self->nl, &self->req, self->fam.id, &a, &run, res);
	if (ns)
		*ns = kb_now_ns() - t0;
	if (!err && (run.nresults != 1 || run.bad))
		return EPROTO;
	return err;
}

/*
 * A small run on @cpu after its requester was killed: the killed socket's
 * release may come from a worker (the run's thread held its file to send
 * progress and drops it last), and the run ends after it, so the CPU may
 * still be busy, or ending (-EAGAIN), a moment after the reap.  Tried
 * again every 100 ms for up to 60 s; any other answer is returned.
 */
static int run_after_kill(FIXTURE_DATA(kb) *self, uint32_t cpu,
			  struct knl_result *res)
{
	int err, k;

	for (k = 0; k < 600; k++) {
		err = small_run(self, cpu, res, NULL);
		if (err != EBUSY && err != EAGAIN)
			break;
		usleep(100000);
	}
	return err;
}

static int link_cb(const struct nlmsghdr *nlh, void *arg)
{
	if (nlh->nlmsg_type == RTM_NEWLINK)
		(*(int *)arg)++;
	return 0;
}

TEST_F_TIMEOUT(kb, busy_cpu, 120)
{
	struct knl_result res;
	struct long_run lr = {};
	struct long_report rep;
	struct knl_family ctl;
	struct knl_sock rt;
	struct kb_info info = {};
	uint64_t ns;
	int err, links = 0;

	if (!need_two_cpus())
		SKIP(return, "needs 2 online CPUs (not under icount)");
	pin_to(1);
	ASSERT_EQ(0, long_run_start(self, &lr, "add_chain", 0, 1));
	ASSERT_FALSE(long_run_answered(&lr, 0, &rep))
		TH_LOG("the long run ended early: err %d (%s), %u/%u samples, status %u, %llu ns",
		       rep.err, rep.msg, rep.samples_taken, rep.samples_asked,
		       rep.status, (unsigned long long)rep.elapsed_ns);

	/* Same CPU: -EBUSY at once, naming the CPU attribute. */
	err = small_run(self, 0, &res, &ns);
	EXPECT_EQ(EBUSY, err) TH_LOG("second run on cpu0: %d %s", err, res.msg);
	EXPECT_LT(ns, EBUSY_MAX_NS) TH_LOG("EBUSY took %llu ns",
					   (unsigned long long)ns);
	EXPECT_TRUE(res.has_msg);

	/* Another CPU: runs in parallel. */
	err = small_run(self, 1, &res, &ns);
	EXPECT_EQ(0, err) TH_LOG("run on cpu1 during cpu0's run: %s", res.msg);

	/* Our own family and others answer meanwhile (parallel_ops). */
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_ACK,
		     KBENCH_CMD_INFO, KBENCH_GENL_VERSION);
	ns = kb_now_ns();
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, kb_info_cb, &info, &res));
	ns = kb_now_ns() - ns;
	EXPECT_EQ(0, res.err);
	EXPECT_LT(ns, OTHER_FAMILY_MAX_NS) TH_LOG("INFO took %llu ns",
						  (unsigned long long)ns);
	/* Memory of the running run is accounted (or at least not negative). */
	EXPECT_LE(info.v[KBENCH_A_INFO_STORE_BYTES],
		  info.v[KBENCH_A_INFO_STORE_BYTES_MAX]);

	ns = kb_now_ns();
	ASSERT_EQ(0, knl_resolve(&self->nl, "nlctrl", &ctl, &res));
	ns = kb_now_ns() - ns;
	EXPECT_EQ(GENL_ID_CTRL, ctl.id);
	EXPECT_LT(ns, OTHER_FAMILY_MAX_NS) TH_LOG("nlctrl took %llu ns",
						  (unsigned long long)ns);

	ASSERT_EQ(0, knl_open(&rt, NETLINK_ROUTE));
	knl_req_init(&self->req, RTM_GETLINK, NLM_F_REQUEST | NLM_F_DUMP);
	{
		struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };

		knl_put_raw(&self->req, &ifi, sizeof(ifi));
	}
	ns = kb_now_ns();
	ASSERT_EQ(0, knl_transact(&rt, &self->req, link_cb, &links, &res));
	ns = kb_now_ns() - ns;
	knl_close(&rt);
	EXPECT_EQ(0, res.err);
	EXPECT_GE(links, 1);
	EXPECT_LT(ns, OTHER_FAMILY_MAX_NS) TH_LOG("RTM_GETLINK took %llu ns",
						  (unsigned long long)ns);

	/* Everything above happened during the long run. */
	EXPECT_FALSE(long_run_answered(&lr, 0, &rep))
		TH_LOG("the long run ended before the probes finished: err %d %s",
		       rep.err, rep.msg);
	long_run_kill(&lr, &ns);
	EXPECT_LT(ns, KILL_REAP_MAX_NS);
}

TEST_F_TIMEOUT(kb, killed_run, 120)
{
	struct knl_result res;
	struct long_run lr = {};
	struct long_report rep;
	uint64_t ns;

	if (!need_two_cpus())
		SKIP(return, "needs 2 online CPUs (not under icount)");
	pin_to(1);
	ASSERT_EQ(0, long_run_start(self, &lr, "add_chain", 0, 1));
	ASSERT_FALSE(long_run_answered(&lr, 200, &rep))
		TH_LOG("the long run ended early: err %d (%s), %u/%u samples, status %u, %llu ns",
		       rep.err, rep.msg, rep.samples_taken, rep.samples_asked,
		       rep.status, (unsigned long long)rep.elapsed_ns);
	long_run_kill(&lr, &ns);
	/* Aborted within a window or so, not at the end of the run. */
	EXPECT_LT(ns, KILL_REAP_MAX_NS) TH_LOG("reaping took %llu ns",
					       (unsigned long long)ns);
	/*
	 * The process is gone; its run ends within a window of it (the
	 * release only aborts): a RUN on the CPU runs, retried (kb_run())
	 * while the run is ending.
	 */
	EXPECT_EQ(0, run_after_kill(self, 0, &res))
		TH_LOG("run after SIGKILL: %s", res.msg);
}

/*
 * The same in the guest's own time, under icount (one CPU: the run, its
 * requester and this test share it; the run gives it back between
 * windows).  There a guest nanosecond is an instruction, whatever the
 * host does, so the reap can be bounded tightly: a window of add_chain
 * at N = 1000 is 6000 instructions, the teardown and the requester's
 * exit a few million more, while a run that went on to its end would
 * take seconds.  Plain TCG asserts only the order there (killed_run:
 * reaped, then the CPU free), its host-time bound only telling "did not
 * wait" from "waited".
 */
TEST_F_TIMEOUT(kb, killed_run_ticks, 300)
{
	struct knl_result res;
	struct long_run lr = {};
	struct long_report rep;
	uint64_t ns;

	if (!kb_icount())
		SKIP(return, "guest ticks are instructions under icount only (plain TCG: killed_run)");
	pin_to(0);
	ASSERT_EQ(0, long_run_start(self, &lr, "add_chain", 0, 0));
	ASSERT_FALSE(long_run_answered(&lr, 0, &rep))
		TH_LOG("the long run ended early: err %d (%s)", rep.err,
		       rep.msg);
	long_run_kill(&lr, &ns);
	ksft_print_msg("requester killed mid-run: reaped after %llu guest ns (instructions)\n",
		       (unsigned long long)ns);
	EXPECT_LT(ns, KILL_REAP_TICKS_MAX_NS);
	EXPECT_EQ(0, run_after_kill(self, 0, &res))
		TH_LOG("run after SIGKILL: %s", res.msg);
}

TEST_F_TIMEOUT(kb, killed_runs_at_random_points, 300)
{
	struct knl_result res;
	struct long_run lr;
	struct long_report rep;
	unsigned int seed = 12345;
	uint64_t ns;
	int i, err;

	if (!need_two_cpus())
		SKIP(return, "needs 2 online CPUs (not under icount)");
	pin_to(1);
	for (i = 0; i < 10; i++) {
		memset(&lr, 0, sizeof(lr));
		ASSERT_EQ(0, long_run_start(self, &lr, i & 1 ? "mul_chain" :
					    "add_chain", 0, 1));
		usleep(rand_r(&seed) % 300000);
		ASSERT_FALSE(long_run_answered(&lr, 0, &rep))
			TH_LOG("round %d: the long run ended early: err %d, %u/%u samples, %llu ns",
			       i, rep.err, rep.samples_taken, rep.samples_asked,
			       (unsigned long long)rep.elapsed_ns);
		long_run_kill(&lr, &ns);
		EXPECT_LT(ns, KILL_REAP_MAX_NS) TH_LOG("round %d", i);
		err = run_after_kill(self, 0, &res);
		EXPECT_EQ(0, err) TH_LOG("round %d: run after SIGKILL: %s", i,
					 res.msg);
	}
}

TEST_F_TIMEOUT(kb, cpu_offline_mid_run, 120)
{
	struct knl_result res;
	struct long_run lr = {};
	struct long_report rep;
	int off_err;

	if (!need_two_cpus())
		SKIP(return, "needs 2 online CPUs (not under icount)");
	if (geteuid() || access(KB_CPU1_ONLINE, W_OK))
		SKIP(return, "cpu1 cannot be taken offline here");
	pin_to(0);
	ASSERT_EQ(0, long_run_start(self, &lr, "add_chain", 1, 0));
	ASSERT_FALSE(long_run_answered(&lr, 0, &rep));
	off_err = kb_write_file(KB_CPU1_ONLINE, "0");
	/* The run must end, with -ENODEV, soon after its CPU left. */
	EXPECT_TRUE(long_run_answered(&lr, 10000, &rep))
		TH_LOG("no answer 10 s after cpu1 went offline");
	ASSERT_EQ(0, kb_write_file(KB_CPU1_ONLINE, "1"));
	EXPECT_EQ(0, off_err) TH_LOG("offlining cpu1: %s", strerror(-off_err));
	EXPECT_EQ(ENODEV, rep.err) TH_LOG("long run ended with %d (%s)",
					  rep.err, rep.msg);
	long_run_kill(&lr, NULL);
	/* And the CPU is usable again. */
	EXPECT_EQ(0, small_run(self, 1, &res, NULL)) TH_LOG("%s", res.msg);
}

TEST_F_TIMEOUT(kb, owner_module_pinned, 120)
{
	const char *path = getenv("KBENCH_EXAMPLE_KO") ?: EXAMPLE_KO_DEFAULT;
	struct long_run lr = {};
	struct long_report rep;
	int fd, err, i;

	if (!need_two_cpus())
		SKIP(return, "needs 2 online CPUs (not under icount)");
	if (geteuid())
		SKIP(return, "needs root");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("%s: %s", path, strerror(errno));
	err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
	close(fd);
	ASSERT_TRUE(err == 0 || err == EEXIST) TH_LOG("insmod: %s", strerror(err));

	pin_to(1);
	ASSERT_EQ(0, long_run_start(self, &lr, "foo", 0, 1));
	ASSERT_FALSE(long_run_answered(&lr, 0, &rep))
		TH_LOG("run of foo ended early: %d %s", rep.err, rep.msg);
	/* Being measured, the owner cannot go away. */
	err = syscall(SYS_delete_module, "kbench_example", O_NONBLOCK) ? errno : 0;
	EXPECT_TRUE(err == EAGAIN || err == EBUSY)
		TH_LOG("rmmod during a run of its routine: %d", err);
	long_run_kill(&lr, NULL);
	for (i = 0; i < 50; i++) {
		err = syscall(SYS_delete_module, "kbench_example", O_NONBLOCK) ?
		      errno : 0;
		if (err != EAGAIN && err != EBUSY)
			break;
		usleep(100000);
	}
	EXPECT_EQ(0, err) TH_LOG("rmmod after the run: %s", strerror(err));
}

/* Unload kbench.ko and load it again with @params; 0 or errno. */
static int reload_kbench(const char *params)
{
	const char *path = getenv("KBENCH_KO") ?: kb_module_path("kbench");
	int fd, err;

	if (syscall(SYS_delete_module, "kbench", O_NONBLOCK))
		return errno;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	err = syscall(SYS_finit_module, fd, params, 0) ? errno : 0;
	close(fd);
	return err;
}

/*
 * One budget (store_bytes_max = 4 MiB) for runs in flight, kept runs and
 * runs held by dumps: with a kept run held by a dump that is never read
 * and a run in flight, a third run of the same size is refused (-E2BIG,
 * naming store_bytes_max); once the dump's socket and the run's are
 * closed, the memory is back and the third run passes.
 */
TEST_F_TIMEOUT(kb, budget_covers_runs_in_flight_and_dumps, 300)
{
	static struct knl_req req;
	struct knl_sock a, b, d;
	struct knl_family fam;
	struct knl_result res;
	struct kb_run_args args = {
		.routines = { "add_chain" }, .nroutines = 1, .has_cpu = true,
		.cpu = 0, .samples = 60000, .iterations = 10,
	};
	struct kb_run run;
	uint64_t bytes = 0;
	uint32_t id = 0;
	char buf[8192];
	int err, i;

	if (!need_two_cpus())
		SKIP(return, "needs 2 online CPUs (not under icount)");
	if (geteuid())
		SKIP(return, "needs root to reload kbench.ko");
	if (kb_builtin())
		SKIP(return, "kbench is built in: cannot reload it with store_bytes_max");
	err = reload_kbench("store_bytes_max=4194304");
	ASSERT_EQ(0, err) TH_LOG("reloading kbench.ko: %s", strerror(err));
	ASSERT_EQ(0, knl_open(&a, NETLINK_GENERIC));
	ASSERT_EQ(0, knl_resolve(&a, KBENCH_GENL_NAME, &fam, &res));

	/* run 1, kept; about 1.4 MiB */
	memset(&run, 0, sizeof(run));
	kb_build_run(&req, fam.id, &args);
	EXPECT_EQ(0, knl_transact(&a, &req, kb_run_cb, &run, &res));
	EXPECT_EQ(0, res.err) TH_LOG("run 1: %s", res.msg);
	id = run.v[KBENCH_A_RUN_ID];
	bytes = run.v[KBENCH_A_RUN_MEM_BYTES];
	EXPECT_TRUE(2 * bytes <= 4194304 && 3 * bytes > 4194304)
		TH_LOG("a run of %llu bytes", (unsigned long long)bytes);

	/* a dump of run 1 that reads one datagram and then nothing */
	ASSERT_EQ(0, knl_open(&d, NETLINK_GENERIC));
	knl_req_genl(&req, fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_SAMPLES_GET, KBENCH_GENL_VERSION);
	knl_put_u32(&req, KBENCH_A_SAMPLES_RUN_ID, id);
	EXPECT_EQ(0, knl_send(&d, &req));
	EXPECT_LT(0, recv(d.fd, buf, sizeof(buf), 0));

	/* run 2 in flight on CPU 1, its requester not reading */
	ASSERT_EQ(0, knl_open(&b, NETLINK_GENERIC));
	args.cpu = 1;
	args.iterations = 1000;
	kb_build_run(&req, fam.id, &args);
	EXPECT_EQ(0, knl_send(&b, &req));
	for (i = 0; i < 200 && !kb_run_thread_exists(1); i++)
		usleep(50000);
	EXPECT_TRUE(kb_run_thread_exists(1)) TH_LOG("run 2 did not start");

	/* run 3: refused, naming the parameter */
	args.cpu = 0;
	args.iterations = 10;
	memset(&run, 0, sizeof(run));
	kb_build_run(&req, fam.id, &args);
	EXPECT_EQ(0, knl_transact(&a, &req, kb_run_cb, &run, &res));
	EXPECT_EQ(E2BIG, res.err);
	EXPECT_TRUE(res.has_msg && strstr(res.msg, "store_bytes_max"))
		TH_LOG("extack: %s", res.msg);
	EXPECT_TRUE(res.has_offs && res.offs == (uint32_t)args.offs_samples);
	TH_LOG("refused: %s", res.msg);

	/* the dump and the run in flight gone, their memory is back */
	knl_close(&d);
	knl_close(&b);
	memset(&run, 0, sizeof(run));
	kb_build_run(&req, fam.id, &args);
	EXPECT_EQ(0, knl_transact(&a, &req, kb_run_cb, &run, &res));
	EXPECT_EQ(0, res.err) TH_LOG("run 3 after: %s", res.msg);
	knl_close(&a);

	err = reload_kbench("");
	ASSERT_EQ(0, err) TH_LOG("reloading kbench.ko: %s", strerror(err));
}

TEST_HARNESS_MAIN
