// SPDX-License-Identifier: GPL-2.0
/*
 * kbench selftests: progress notifications reach the requesting socket and
 * no one else, arrive before the RUN reply without ever being taken for it,
 * and never crowd the reply out of a requester that does not read during
 * its run.  Runs of a few seconds: skipped under icount, where a guest
 * second takes minutes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kbench_fixture.h"

#define PROGRESS_NS	(250 * 1000000ull)	/* the module's period */

/*
 * Samples of add_chain (1000 iterations) for about @ns of run, from a run of
 * @samples that took @elapsed_ns (with 0, a short run first finds out).
 * TCG's timing is noisy, so callers check the run's own ELAPSED_NS and
 * come back here for a longer one if needed.
 */
static uint32_t samples_for(FIXTURE_DATA(kb) *self, uint64_t ns,
			    uint32_t samples, uint64_t elapsed_ns)
{
	uint64_t max = self->info.v[KBENCH_A_INFO_MAX_SAMPLES];
	uint64_t store = self->info.v[KBENCH_A_INFO_STORE_BYTES_MAX];
	uint64_t n;

	if (!elapsed_ns) {
		struct kb_run_args a = {
			.routines = { "add_chain" }, .nroutines = 1,
			.samples = 1000, .iterations = 1000,
		};
		struct knl_result res;
		struct kb_run run;

		if (kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res))
			return 0;
		samples = a.samples;
		elapsed_ns = run.v[KBENCH_A_RUN_ELAPSED_NS];
	}
	n = ns / (elapsed_ns / samples + 1) + 1;
	/* two series (routine + overhead), 12 bytes a sample, with margin */
	if (n > store / 64)
		n = store / 64;
	if (n > max)
		n = max;
	return n < 1000 ? 1000 : (uint32_t)n;
}

/* What the requester saw of its notifications. */
struct seen {
	struct kb_run *run;	/* the reply, parsed meanwhile */
	uint32_t portid;
	uint32_t total;		/* expected PROGRESS_TOTAL */
	int n, bad, after_reply;
	uint32_t run_id, last_done;
	char why[128];
};

static int seen_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_PROGRESS_MAX + 1];
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	struct seen *s = arg;
	uint32_t id = 0, port = 0, done = 0, total = 0;
	const char *why;
	const void *data;
	int len;

	s->n++;
	if (s->run->nmsgs)
		s->after_reply++;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN ||
	    g->cmd != KBENCH_CMD_PROGRESS_NTF) {
		s->bad++;
		snprintf(s->why, sizeof(s->why), "notification of type %u",
			 nlh->nlmsg_type);
		return 0;
	}
	why = kbench_check_msg(KBENCH_CMD_PROGRESS_NTF, nlh);
	data = knl_genl_attrs(nlh, &len);
	knl_parse(data, len, tb, KBENCH_A_PROGRESS_MAX);
	if (!why && (!knl_get_u32(tb[KBENCH_A_PROGRESS_RUN_ID], &id) ||
		     !knl_get_u32(tb[KBENCH_A_PROGRESS_PORTID], &port) ||
		     !knl_get_u32(tb[KBENCH_A_PROGRESS_DONE], &done) ||
		     !knl_get_u32(tb[KBENCH_A_PROGRESS_TOTAL], &total) ||
		     !tb[KBENCH_A_PROGRESS_ELAPSED_NS]))
		why = "an attribute is missing";
	if (!why && port != s->portid)
		why = "PORTID is not the requester's";
	if (!why && total != s->total)
		why = "TOTAL is not samples x series";
	if (!why && (done > total || done < s->last_done))
		why = "DONE out of order or above TOTAL";
	if (!why && s->run_id && id != s->run_id)
		why = "RUN_ID changed";
	if (why) {
		s->bad++;
		snprintf(s->why, sizeof(s->why), "%s", why);
	}
	s->run_id = id;
	s->last_done = done;
	return 0;
}

/* Messages waiting on @fd now, without blocking. */
static int drain(int fd)
{
	static unsigned char buf[65536] __attribute__((aligned(8)));
	int n = 0;
	ssize_t len;

	while ((len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		const struct nlmsghdr *nlh;
		int left = len;

		for (nlh = (void *)buf; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left))
			n++;
	}
	return n;
}

/* A socket in the "progress" multicast group: fd or -errno. */
static int group_socket(const struct knl_family *fam)
{
	struct knl_sock s;
	int i, err;

	err = knl_open(&s, NETLINK_GENERIC);
	if (err)
		return err;
	for (i = 0; i < fam->nmcgrps; i++) {
		if (strcmp(fam->mcgrp_name[i], KBENCH_MCGRP_PROGRESS))
			continue;
		if (setsockopt(s.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
			       &fam->mcgrp_id[i], sizeof(uint32_t)))
			break;
		return s.fd;
	}
	err = i < fam->nmcgrps ? -errno : -ENOENT;
	knl_close(&s);
	return err;
}

/*
 * An unprivileged process (uid 65534, no capabilities) in the progress
 * group: says ready (0 or -errno), then counts every message it receives
 * until told to stop, and reports the count.
 */
static pid_t listener_start(const struct knl_family *fam, int *ctl, int *rep)
{
	int pc[2], pr[2];
	pid_t pid;

	if (pipe(pc) || pipe(pr))
		return -1;
	pid = fork();
	if (pid) {
		close(pc[0]);
		close(pr[1]);
		*ctl = pc[1];
		*rep = pr[0];
		return pid;
	}
	close(pc[1]);
	close(pr[0]);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	{
		int err = kb_drop_privileges(), fd = -1, n = 0;

		if (!err && !geteuid())
			err = -EPERM;
		if (!err) {
			fd = group_socket(fam);
			err = fd < 0 ? fd : 0;
		}
		if (write(pr[1], &err, sizeof(err)) != sizeof(err) || err)
			_exit(1);
		for (;;) {
			struct pollfd p[2] = {
				{ .fd = fd, .events = POLLIN },
				{ .fd = pc[0], .events = POLLIN },
			};

			if (poll(p, 2, -1) < 0)
				continue;
			if (p[0].revents & POLLIN)
				n += drain(fd);
			if (p[1].revents)
				break;
		}
		n += drain(fd);
		if (write(pr[1], &n, sizeof(n)) != sizeof(n))
			_exit(1);
		_exit(0);
	}
}

TEST_F_TIMEOUT(kb, progress_to_requester_only, 300)
{
	struct knl_result res;
	struct kb_run run;
	struct seen seen;
	struct kb_run_args a = {
		.routines = { "add_chain" }, .nroutines = 1,
		.iterations = 1000,
	};
	int ctl, rep, ready, heard = -1, root_fd, root_heard, status, try;
	pid_t pid;

	if (kb_icount())
		SKIP(return, "seconds of runs: too slow under icount (plain mode covers it)");
	/* Listening before the run: an unprivileged process and root. */
	pid = listener_start(&self->fam, &ctl, &rep);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(sizeof(ready), read(rep, &ready, sizeof(ready)));
	ASSERT_EQ(0, ready) TH_LOG("unprivileged listener could not join the group: %s",
				   strerror(-ready));
	root_fd = group_socket(&self->fam);
	ASSERT_GE(root_fd, 0) TH_LOG("root could not join the group: %s",
				     strerror(-root_fd));

	/* The requester reads its socket while its RUN runs: >= 1 s of it. */
	a.samples = samples_for(self, 4 * PROGRESS_NS, 0, 0);
	ASSERT_NE(0, a.samples);
	for (try = 0; try < 4; try++) {
		memset(&run, 0, sizeof(run));
		memset(&seen, 0, sizeof(seen));
		seen.run = &run;
		seen.portid = self->nl.portid;
		seen.total = a.samples * 2;
		self->nl.ntf_cb = seen_cb;
		self->nl.ntf_arg = &seen;
		kb_build_run(&self->req, self->fam.id, &a);
		ASSERT_EQ(0, knl_transact_threaded(&self->nl, &self->req,
						   kb_run_cb, &run, &res));
		self->nl.ntf_cb = NULL;
		ASSERT_EQ(0, res.err) TH_LOG("RUN: %s", res.msg);
		TH_LOG("%u samples: %d notifications over %llu ms of run",
		       a.samples, seen.n,
		       (unsigned long long)run.v[KBENCH_A_RUN_ELAPSED_NS] / 1000000);
		if (run.v[KBENCH_A_RUN_ELAPSED_NS] >= 4 * PROGRESS_NS)
			break;
		a.samples = samples_for(self, 6 * PROGRESS_NS, a.samples,
					run.v[KBENCH_A_RUN_ELAPSED_NS]);
	}
	EXPECT_EQ(1, run.nmsgs);
	EXPECT_EQ(1, run.nresults);
	EXPECT_EQ(NULL, run.bad) TH_LOG("RUN reply: %s", run.bad);

	/* The requester got progress, well formed, all before the reply. */
	EXPECT_GE(seen.n, 2) TH_LOG("a run of %llu ns sent %d notifications",
				    (unsigned long long)run.v[KBENCH_A_RUN_ELAPSED_NS],
				    seen.n);
	EXPECT_EQ(seen.n, res.nntf);
	EXPECT_EQ(0, seen.bad) TH_LOG("bad notification: %s", seen.why);
	EXPECT_EQ(0, seen.after_reply);
	EXPECT_EQ(run.v[KBENCH_A_RUN_ID], seen.run_id);

	/* Nobody else heard anything, privileged or not. */
	usleep(300000);
	ASSERT_EQ(1, write(ctl, "x", 1));
	EXPECT_EQ(sizeof(heard), read(rep, &heard, sizeof(heard)));
	EXPECT_EQ(0, heard) TH_LOG("an unprivileged group member received %d messages",
				   heard);
	root_heard = drain(root_fd);
	EXPECT_EQ(0, root_heard) TH_LOG("a root group member received %d messages",
					root_heard);
	close(root_fd);
	close(ctl);
	close(rep);
	waitpid(pid, &status, 0);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
}

/*
 * A requester that does not read during its run (it sends the RUN, then
 * reads only once the run's thread is gone) with a small receive buffer:
 * the notifications stop before they fill it, and the reply and its ack
 * still arrive.
 */
TEST_F_TIMEOUT(kb, progress_leaves_room_for_the_reply, 300)
{
	struct knl_result res;
	struct kb_run run;
	struct kb_run_args a = {
		.routines = { "add_chain" }, .nroutines = 1,
		.iterations = 1000,
	};
	int rcvbuf = 18000, got = 0, soerr = -1, try, wait;
	socklen_t len = sizeof(got);
	uint64_t due = 0;

	if (kb_icount())
		SKIP(return, "seconds of runs: too slow under icount (plain mode covers it)");
	/* the kernel doubles it: 36000 bytes, 3232 beyond the 32 KiB kept */
	ASSERT_EQ(0, setsockopt(self->nl.fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf)));
	ASSERT_EQ(0, getsockopt(self->nl.fd, SOL_SOCKET, SO_RCVBUF, &got, &len));
	ASSERT_EQ(2 * rcvbuf, got);

	/* Long enough that more notifications are due than fit: >= 3 s. */
	a.samples = samples_for(self, 12 * PROGRESS_NS, 0, 0);
	ASSERT_NE(0, a.samples);
	for (try = 0; try < 4; try++) {
		kb_build_run(&self->req, self->fam.id, &a);
		memset(&run, 0, sizeof(run));
		ASSERT_EQ(0, knl_send(&self->nl, &self->req));
		for (wait = 0; wait < 600 && (wait < 5 || kb_run_thread_exists(-1));
		     wait++)
			usleep(100000);
		ASSERT_EQ(0, knl_recv_answer(&self->nl, self->nl.seq, kb_run_cb,
					     &run, &res))
			TH_LOG("no answer: the reply or its ack was dropped");
		EXPECT_EQ(0, res.err) TH_LOG("RUN: %s", res.msg);
		EXPECT_EQ(1, run.nresults);
		len = sizeof(soerr);
		EXPECT_EQ(0, getsockopt(self->nl.fd, SOL_SOCKET, SO_ERROR,
					&soerr, &len));
		EXPECT_EQ(0, soerr) TH_LOG("socket error %s (ENOBUFS: overrun)",
					   strerror(soerr));
		due = run.v[KBENCH_A_RUN_ELAPSED_NS] / PROGRESS_NS;
		TH_LOG("%u samples: %d of about %llu notifications queued",
		       a.samples, res.nntf, (unsigned long long)due);
		if (res.err || due >= 12)
			break;
		a.samples = samples_for(self, 18 * PROGRESS_NS, a.samples,
					run.v[KBENCH_A_RUN_ELAPSED_NS]);
	}
	ASSERT_GE(due, 12) TH_LOG("no run lasted 3 s");
	EXPECT_GE(res.nntf, 1);
	/* a few hundred bytes each: only a handful fit in 3232 bytes */
	EXPECT_LT(res.nntf, 8);
}

TEST_HARNESS_MAIN
