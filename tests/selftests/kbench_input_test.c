// SPDX-License-Identifier: GPL-2.0
/*
 * kbench selftests: bad input gets the right errno and an extack that names
 * the attribute and says why; unprivileged users may look but not measure.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kbench_fixture.h"

static void run_args(struct kb_run_args *a, const char *routine)
{
	memset(a, 0, sizeof(*a));
	a->routines[0] = routine;
	a->nroutines = 1;
	a->samples = 10;
	a->iterations = 10;
}

TEST_F(kb, unknown_routine)
{
	struct kb_run_args a;
	struct knl_result res;
	struct kb_run run;

	run_args(&a, "no_such_routine");
	EXPECT_EQ(ENOENT, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res));
	EXPECT_EXTACK_AT(res, a.offs_routine[0]);
	EXPECT_EQ(0, run.nmsgs);
}

TEST_F(kb, unknown_second_routine)
{
	struct kb_run_args a;
	struct knl_result res;
	struct kb_run run;

	run_args(&a, "add_chain");
	a.routines[1] = "no_such_routine";
	a.nroutines = 2;
	EXPECT_EQ(ENOENT, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res));
	EXPECT_EXTACK_AT(res, a.offs_routine[1]);
}

TEST_F(kb, routine_name_too_long)
{
	char name[KBENCH_NAME_MAX + 10];
	struct kb_run_args a;
	struct knl_result res;
	struct kb_run run;
	int err;

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	run_args(&a, name);
	err = kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res);
	EXPECT_TRUE(err == EINVAL || err == ERANGE || err == ENOENT)
		TH_LOG("errno %d", err);
	EXPECT_EXTACK_AT(res, a.offs_routine[0]);
}

TEST_F(kb, routine_not_a_string)
{
	struct kb_run_args a;
	struct knl_result res;
	int off, err;

	run_args(&a, "add_chain");
	a.nroutines = 0;
	kb_build_run(&self->req, self->fam.id, &a);
	/* "add_chain" without its NUL: the policy wants a NUL-terminated string. */
	off = knl_put(&self->req, KBENCH_A_RUN_ROUTINE, "add_chain", 9);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	err = res.err;
	EXPECT_TRUE(err == EINVAL || err == ERANGE)
		TH_LOG("errno %d (%s), want EINVAL or ERANGE", err, strerror(err));
	EXPECT_EXTACK_AT(res, off);
}

static void check_u32_bounds(struct __test_metadata *_metadata,
			     FIXTURE_DATA(kb) *self, bool samples)
{
	uint32_t max = self->info.v[samples ? KBENCH_A_INFO_MAX_SAMPLES :
				    KBENCH_A_INFO_MAX_ITERATIONS];
	uint32_t bad[] = { 0, max + 1, 0xffffffffu };
	struct knl_result res;
	struct kb_run_args a;
	struct kb_run run;
	unsigned int i;
	int err, off;

	ASSERT_GT(max, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		run_args(&a, "add_chain");
		/* kb_build_run leaves out zeros: put the attribute by hand. */
		if (samples)
			a.samples = 0;
		else
			a.iterations = 0;
		kb_build_run(&self->req, self->fam.id, &a);
		off = knl_put_u32(&self->req, samples ? KBENCH_A_RUN_SAMPLES :
				  KBENCH_A_RUN_ITERATIONS, bad[i]);
		memset(&run, 0, sizeof(run));
		ASSERT_EQ(0, knl_transact(&self->nl, &self->req, kb_run_cb,
					  &run, &res));
		err = res.err;
		if (err != EINVAL && err != ERANGE)
			TH_LOG("%s = %u: errno %d", samples ? "samples" :
			       "iterations", bad[i], err);
		EXPECT_TRUE(err == EINVAL || err == ERANGE)
			TH_LOG("errno %d (%s), want EINVAL or ERANGE", err, strerror(err));
		EXPECT_EXTACK_AT(res, off);
		EXPECT_EQ(0, run.nmsgs);
	}
}

TEST_F(kb, samples_out_of_range)
{
	check_u32_bounds(_metadata, self, true);
}

TEST_F(kb, iterations_out_of_range)
{
	check_u32_bounds(_metadata, self, false);
}

/* A run's own irq-off bound may only tighten the module's. */
TEST_F(kb, max_window_us_above_the_module)
{
	uint32_t max = self->info.v[KBENCH_A_INFO_MAX_WINDOW_US];
	struct knl_result res;
	struct kb_run_args a;
	int off;

	ASSERT_GT(max, 0);
	run_args(&a, "add_chain");
	kb_build_run(&self->req, self->fam.id, &a);
	off = knl_put_u32(&self->req, KBENCH_A_RUN_MAX_WINDOW_US, max + 1);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(ERANGE, res.err);
	EXPECT_EXTACK_AT(res, off);
	/* at the hard limit (20000, as the test beds load it) the policy's */
	EXPECT_STREQ(max < 20000 ? "above the max_window_us parameter" :
		     "integer out of range", res.msg);
}

TEST_F(kb, cpu_out_of_range)
{
	uint32_t nr = self->info.v[KBENCH_A_INFO_NR_CPUS];
	struct knl_result res;
	struct kb_run_args a;
	struct kb_run run;
	int err;

	ASSERT_GT(nr, 0);
	run_args(&a, "add_chain");
	a.has_cpu = true;
	a.cpu = nr;
	EXPECT_EQ(EINVAL, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res));
	EXPECT_EXTACK_AT(res, a.offs_cpu);

	a.cpu = 0xffffffffu;
	err = kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res);
	EXPECT_TRUE(err == EINVAL || err == ERANGE)
		TH_LOG("errno %d (%s), want EINVAL or ERANGE", err, strerror(err));
	EXPECT_EXTACK_AT(res, a.offs_cpu);
}

TEST_F(kb, cpu_offline)
{
	struct knl_result res;
	struct kb_run_args a;
	struct kb_run run;
	int err;

	if (kb_icount())
		SKIP(return, "icount runs on one vCPU");
	if (geteuid() || access(KB_CPU1_ONLINE, W_OK))
		SKIP(return, "cpu1 cannot be taken offline here");
	ASSERT_EQ(0, kb_write_file(KB_CPU1_ONLINE, "0"));
	run_args(&a, "add_chain");
	a.has_cpu = true;
	a.cpu = 1;
	err = kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res);
	ASSERT_EQ(0, kb_write_file(KB_CPU1_ONLINE, "1"));
	EXPECT_EQ(ENODEV, err);
	EXPECT_TRUE(res.has_msg);

	/* Back online: the same request works. */
	err = kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res);
	EXPECT_EQ(0, err) TH_LOG("RUN on cpu1 after onlining: %s", res.msg);
}

TEST_F(kb, missing_routine)
{
	struct knl_result res;
	struct kb_run_args a;
	struct kb_run run;

	run_args(&a, NULL);
	a.nroutines = 0;
	EXPECT_EQ(EINVAL, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res));
	EXPECT_TRUE(res.has_miss_type) TH_LOG("no NLMSGERR_ATTR_MISS_TYPE");
	EXPECT_EQ(KBENCH_A_RUN_ROUTINE, res.miss_type);
	EXPECT_FALSE(res.has_miss_nest);
}

TEST_F(kb, too_many_routines)
{
	static const char *const names[] = {
		"empty", "add_chain", "mul_chain", "load_l1", "rdtsc",
	};
	struct knl_result res;
	struct kb_run_args a;
	struct kb_run run;
	int i;

	run_args(&a, NULL);
	for (i = 0; i < 5; i++)
		a.routines[i] = names[i];
	a.nroutines = KBENCH_RUN_ROUTINES_MAX + 1;
	EXPECT_EQ(EINVAL, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res));
	EXPECT_TRUE(res.has_msg);
	if (res.has_offs)
		EXPECT_EQ((uint32_t)a.offs_routine[KBENCH_RUN_ROUTINES_MAX], res.offs);

	/* Exactly the maximum is fine, one result each, in request order. */
	a.nroutines = KBENCH_RUN_ROUTINES_MAX;
	ASSERT_EQ(0, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res))
		TH_LOG("RUN with %d routines: %s", KBENCH_RUN_ROUTINES_MAX, res.msg);
	ASSERT_EQ(KBENCH_RUN_ROUTINES_MAX, run.nresults);
	for (i = 0; i < KBENCH_RUN_ROUTINES_MAX; i++)
		EXPECT_STREQ(names[i], run.result[i].routine);
}

TEST_F(kb, duplicate_routines)
{
	struct knl_result res;
	struct kb_run_args a;
	struct kb_run run;

	run_args(&a, "add_chain");
	a.routines[1] = "mul_chain";
	a.routines[2] = "add_chain";
	a.nroutines = 3;
	EXPECT_EQ(EINVAL, kb_run(&self->nl, &self->req, self->fam.id, &a, &run, &res));
	EXPECT_TRUE(res.has_msg);
	if (res.has_offs)
		EXPECT_EQ((uint32_t)a.offs_routine[2], res.offs);
}

TEST_F(kb, info_rejects_attributes)
{
	static const struct {
		uint8_t cmd;
		uint16_t flags;
	} ops[] = {
		{ KBENCH_CMD_INFO, NLM_F_REQUEST | NLM_F_ACK },
		{ KBENCH_CMD_ROUTINE_GET, NLM_F_REQUEST | NLM_F_DUMP },
		{ KBENCH_CMD_CLOCK_GET, NLM_F_REQUEST | NLM_F_DUMP },
	};
	uint16_t types[] = { 1, KBENCH_A_INFO_MAX + 1, 200 };
	struct knl_result res;
	unsigned int i, j;
	int off;

	/*
	 * The ops without a request have no policy: with resv_start_op 0 the
	 * core gives them one that refuses every attribute (6.1 and split ops).
	 */
	for (j = 0; j < ARRAY_SIZE(ops); j++) {
		for (i = 0; i < ARRAY_SIZE(types); i++) {
			knl_req_genl(&self->req, self->fam.id, ops[j].flags,
				     ops[j].cmd, KBENCH_GENL_VERSION);
			off = knl_put_u32(&self->req, types[i], 1);
			ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL,
						  NULL, &res));
			EXPECT_EQ(EINVAL, res.err)
				TH_LOG("cmd %u with attribute %u", ops[j].cmd,
				       types[i]);
			EXPECT_EQ(0, res.nreplies);
			if (res.has_offs)
				EXPECT_EQ((uint32_t)off, res.offs);
		}
	}
}

/* Put @v as request attribute @ra: a u32, or a string of @v letters. */
static int put_bad_value(struct knl_req *r, const struct kb_req_attr *ra,
			 int64_t v)
{
	char s[256];

	if (ra->pt != YNL_PT_NUL_STR)
		return knl_put_u32(r, ra->type, (uint32_t)v);
	if (v >= (int64_t)sizeof(s))
		return -1;
	memset(s, 'a', v);
	s[v] = '\0';
	return knl_put_str(r, ra->type, s);
}

/*
 * Every bound the spec gives a request attribute (its checks, in the
 * generated kbench_nl_tables.h): the value just outside is refused with
 * EINVAL or ERANGE and an extack naming that attribute, before anything is
 * measured.  A bounded attribute added to the spec is tested here without
 * a line of its own.
 */
TEST_F(kb, spec_bounds)
{
	const struct kb_req_attr *ra;
	const struct kb_req *rq;
	struct knl_result res;
	int64_t bad[2];
	int i, j, k, n, off, checked = 0;

	for (i = 0; i < KB_NREQS; i++) {
		rq = &kb_reqs[i];
		for (j = 0; j < rq->nattrs; j++) {
			ra = &rq->attrs[j];
			n = 0;
			if (ra->has_min && ra->min > 0)
				bad[n++] = ra->min - 1;
			if (ra->has_max && ra->max < UINT32_MAX)
				bad[n++] = ra->max + 1;
			for (k = 0; k < n; k++) {
				knl_req_genl(&self->req, self->fam.id,
					     NLM_F_REQUEST | (rq->dump ?
					     NLM_F_DUMP : NLM_F_ACK), rq->cmd,
					     KBENCH_GENL_VERSION);
				if (rq->cmd == KBENCH_CMD_RUN &&
				    ra->type != KBENCH_A_RUN_ROUTINE)
					knl_put_str(&self->req,
						    KBENCH_A_RUN_ROUTINE,
						    "add_chain");
				off = put_bad_value(&self->req, ra, bad[k]);
				ASSERT_LT(0, off);
				if (rq->cmd == KBENCH_CMD_RUN) {
					/* cheap, should the bad one pass */
					knl_put_u32(&self->req,
						    KBENCH_A_RUN_SAMPLES, 10);
					knl_put_u32(&self->req,
						    KBENCH_A_RUN_ITERATIONS, 10);
				}
				ASSERT_EQ(0, knl_transact(&self->nl, &self->req,
							  NULL, NULL, &res));
				EXPECT_TRUE(res.err == EINVAL || res.err == ERANGE)
					TH_LOG("%s %s = %lld: errno %d", rq->name,
					       ra->name, (long long)bad[k],
					       res.err);
				EXPECT_EQ(0, res.nreplies);
				/* 6.1 drops the extack of a dump's start() */
				if (!rq->dump || KB_DUMP_START_EXTACK())
					EXPECT_EXTACK_AT(res, off);
				checked++;
			}
		}
	}
	EXPECT_LT(0, checked) TH_LOG("the spec bounds no request attribute");
}

TEST_F(kb, run_rejects_unknown_attribute)
{
	struct knl_result res;
	struct kb_run_args a;
	int off;

	run_args(&a, "add_chain");
	kb_build_run(&self->req, self->fam.id, &a);
	off = knl_put_u32(&self->req, KBENCH_A_RUN_MAX + 1, 1);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(EINVAL, res.err);
	EXPECT_EXTACK_AT(res, off);
}

TEST_F(kb, reserved_header_bits)
{
	struct genlmsghdr *g;
	struct knl_result res;

	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_ACK,
		     KBENCH_CMD_INFO, KBENCH_GENL_VERSION);
	g = NLMSG_DATA(&self->req.nlh);
	g->reserved = 1;
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(EINVAL, res.err);
	EXPECT_EQ(0, res.nreplies);
}

TEST_F(kb, wrong_kind_of_request)
{
	struct knl_result res;

	/* RUN and INFO are do-only, ROUTINE_GET and SAMPLES_GET dump-only. */
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_RUN, KBENCH_GENL_VERSION);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(EOPNOTSUPP, res.err);
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_INFO, KBENCH_GENL_VERSION);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(EOPNOTSUPP, res.err);
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_ACK,
		     KBENCH_CMD_ROUTINE_GET, KBENCH_GENL_VERSION);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(EOPNOTSUPP, res.err);
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_ACK,
		     KBENCH_CMD_PROGRESS_NTF, KBENCH_GENL_VERSION);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(EOPNOTSUPP, res.err);
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_ACK,
		     KBENCH_CMD_MAX + 1, KBENCH_GENL_VERSION);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(EOPNOTSUPP, res.err);
}

TEST_F(kb, samples_get_bad_run)
{
	struct knl_result res;

	/* Missing RUN_ID. */
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_SAMPLES_GET, KBENCH_GENL_VERSION);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(EINVAL, res.err);
	/* checked in the first dumpit: the message arrives on 6.1 too */
	EXPECT_TRUE(res.has_msg);
	if (KB_DUMP_START_EXTACK() || res.has_miss_type) {
		EXPECT_TRUE(res.has_miss_type);
		EXPECT_EQ(KBENCH_A_SAMPLES_RUN_ID, res.miss_type);
	}
	EXPECT_EQ(0, res.nreplies);

	/* A run id that was never handed out. */
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_SAMPLES_GET, KBENCH_GENL_VERSION);
	knl_put_u32(&self->req, KBENCH_A_SAMPLES_RUN_ID, 0xfffffff0u);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, NULL, NULL, &res));
	EXPECT_EQ(ENOENT, res.err);
	EXPECT_TRUE(res.has_msg);
	EXPECT_EQ(0, res.nreplies);
}

/* What an unprivileged child saw; sent back over a pipe. */
struct unpriv_report {
	int drop_err;
	int resolve_err;
	int info_err, info_msgs;
	int dump_err, dump_msgs;
	int run_err;
	bool run_msg;
	char run_text[512];
	int clock_err;
	bool clock_msg;
};

static int count_cb(const struct nlmsghdr *nlh, void *arg)
{
	(void)nlh;
	(*(int *)arg)++;
	return 0;
}

static void unpriv_child(int fd)
{
	static struct knl_req req;
	struct unpriv_report rep = {};
	struct knl_family fam;
	struct knl_result res;
	struct knl_sock nl;
	struct kb_run_args a;
	struct kb_run run;

	rep.drop_err = kb_drop_privileges();
	if (rep.drop_err)
		goto out;
	/* A socket opened after the drop: nothing privileged carries over. */
	rep.resolve_err = knl_open(&nl, NETLINK_GENERIC);
	if (!rep.resolve_err)
		rep.resolve_err = knl_resolve(&nl, KBENCH_GENL_NAME, &fam, &res);
	if (rep.resolve_err)
		goto out;

	knl_req_genl(&req, fam.id, NLM_F_REQUEST | NLM_F_ACK, KBENCH_CMD_INFO,
		     KBENCH_GENL_VERSION);
	rep.info_err = knl_transact(&nl, &req, count_cb, &rep.info_msgs, &res);
	if (!rep.info_err)
		rep.info_err = res.err;

	knl_req_genl(&req, fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_ROUTINE_GET, KBENCH_GENL_VERSION);
	rep.dump_err = knl_transact(&nl, &req, count_cb, &rep.dump_msgs, &res);
	if (!rep.dump_err)
		rep.dump_err = res.err;

	run_args(&a, "add_chain");
	rep.run_err = kb_run(&nl, &req, fam.id, &a, &run, &res);
	rep.run_msg = res.has_msg;
	snprintf(rep.run_text, sizeof(rep.run_text), "%s", res.msg);

	knl_req_genl(&req, fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_CLOCK_GET, KBENCH_GENL_VERSION);
	rep.clock_err = knl_transact(&nl, &req, NULL, NULL, &res);
	if (!rep.clock_err)
		rep.clock_err = res.err;
	rep.clock_msg = res.has_msg;
	knl_close(&nl);
out:
	if (write(fd, &rep, sizeof(rep)) != sizeof(rep))
		_exit(2);
	_exit(0);
}

TEST_F(kb, unprivileged)
{
	struct unpriv_report rep;
	int p[2], status;
	pid_t pid;

	if (geteuid())
		SKIP(return, "needs root to drop to uid 65534");
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		close(p[0]);
		unpriv_child(p[1]);
	}
	close(p[1]);
	ASSERT_EQ(sizeof(rep), read(p[0], &rep, sizeof(rep)));
	close(p[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, rep.drop_err) TH_LOG("dropping privileges: %s",
					  strerror(-rep.drop_err));
	ASSERT_EQ(0, rep.resolve_err);
	EXPECT_EQ(0, rep.info_err);
	EXPECT_EQ(1, rep.info_msgs);
	EXPECT_EQ(0, rep.dump_err);
	EXPECT_GE(rep.dump_msgs, 6);
	EXPECT_EQ(EPERM, rep.run_err);
	EXPECT_TRUE(rep.run_msg) TH_LOG("EPERM without an extack message");
	EXPECT_EQ(EPERM, rep.clock_err);
	EXPECT_TRUE(rep.clock_msg) TH_LOG("CLOCK_GET EPERM without a message");
}

/*
 * Send @r on @s with write(2): no destination address, as a privileged
 * program writes to a descriptor it was handed (sendto() with an address
 * makes the kernel check the sender alone: NETLINK_SKB_DST).
 */
static int write_req(struct knl_sock *s, struct knl_req *r)
{
	ssize_t n;

	r->nlh.nlmsg_seq = ++s->seq;
	r->nlh.nlmsg_pid = s->portid;
	n = write(s->fd, r->buf, r->nlh.nlmsg_len);
	if (n < 0)
		return -errno;
	return (size_t)n == r->nlh.nlmsg_len ? 0 : -EMSGSIZE;
}

/* @r written on @s (write_req()): its answer in @res, its messages counted */
static int write_transact(struct knl_sock *s, struct knl_req *r,
			  struct knl_result *res, int *nmsgs)
{
	int err = write_req(s, r);

	if (err)
		return err;
	*nmsgs = 0;
	return knl_recv_answer(s, s->seq, count_cb, nmsgs, res);
}

/*
 * Privilege is the socket's (netlink_capable(), the lesson of
 * CVE-2014-0181): a socket opened without privilege (effective uid 65534,
 * no effective capabilities) and then written by a privileged process
 * (root again, every capability) is refused; the same requests on a
 * socket opened as root pass.  Dumps are refused too, whoever reads.
 */
TEST_F(kb, socket_opened_unprivileged_privileged_writer)
{
	struct knl_result res;
	struct knl_sock nl;
	struct kb_run_args a;
	int nmsgs;

	if (geteuid())
		SKIP(return, "needs root to open a socket as uid 65534");
	ASSERT_EQ(0, setresuid(-1, 65534, -1));	/* clears effective caps */
	ASSERT_EQ(0, knl_open(&nl, NETLINK_GENERIC));
	ASSERT_EQ(0, setresuid(-1, 0, -1));	/* and restores them */
	ASSERT_EQ(0, geteuid());

	run_args(&a, "add_chain");
	kb_build_run(&self->req, self->fam.id, &a);
	ASSERT_EQ(0, write_transact(&nl, &self->req, &res, &nmsgs));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_TRUE(res.has_msg) TH_LOG("RUN EPERM without an extack message");
	EXPECT_EQ(0, nmsgs);

	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_CLOCK_GET, KBENCH_GENL_VERSION);
	ASSERT_EQ(0, write_transact(&nl, &self->req, &res, &nmsgs));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(0, nmsgs);

	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_SAMPLES_GET, KBENCH_GENL_VERSION);
	knl_put_u32(&self->req, KBENCH_A_SAMPLES_RUN_ID, 1);
	ASSERT_EQ(0, write_transact(&nl, &self->req, &res, &nmsgs));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(0, nmsgs);
	knl_close(&nl);

	/* the same writer on a socket it opened itself may */
	ASSERT_EQ(0, knl_open(&nl, NETLINK_GENERIC));
	run_args(&a, "add_chain");
	kb_build_run(&self->req, self->fam.id, &a);
	ASSERT_EQ(0, write_transact(&nl, &self->req, &res, &nmsgs));
	EXPECT_EQ(0, res.err) TH_LOG("%s", res.msg);
	EXPECT_EQ(1, nmsgs);
	knl_close(&nl);
}

TEST_HARNESS_MAIN
