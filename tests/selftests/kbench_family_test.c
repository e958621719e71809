// SPDX-License-Identifier: GPL-2.0
/*
 * kbench selftests: the family, INFO, ROUTINE_GET (built-ins and the
 * example module's routines) and CLOCK_GET.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kbench_fixture.h"

#define EXAMPLE_KO_DEFAULT	kb_module_path("kbench_example")
#define EXAMPLE_NAME		"kbench_example"

struct routine {
	char name[64], desc[256], module[64];
	uint32_t flags, bytes_per_iter;
	bool has_desc, has_module, has_flags, has_bytes;
};

struct routines {
	struct routine r[128];
	int n;
	const char *bad;
};

static int routine_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_ROUTINE_MAX + 1];
	struct routines *rs = arg;
	struct routine *r;
	const void *data;
	int len;

	if (!rs->bad)
		rs->bad = kbench_check_msg(KBENCH_CMD_ROUTINE_GET, nlh);
	if (rs->n >= 128) {
		rs->bad = "more than 128 routines";
		return 1;
	}
	r = &rs->r[rs->n++];
	memset(r, 0, sizeof(*r));
	data = knl_genl_attrs(nlh, &len);
	knl_parse(data, len, tb, KBENCH_A_ROUTINE_MAX);
	if (knl_get_str(tb[KBENCH_A_ROUTINE_NAME]))
		snprintf(r->name, sizeof(r->name), "%s",
			 knl_get_str(tb[KBENCH_A_ROUTINE_NAME]));
	if (knl_get_str(tb[KBENCH_A_ROUTINE_DESC])) {
		snprintf(r->desc, sizeof(r->desc), "%s",
			 knl_get_str(tb[KBENCH_A_ROUTINE_DESC]));
		r->has_desc = true;
	}
	if (knl_get_str(tb[KBENCH_A_ROUTINE_MODULE])) {
		snprintf(r->module, sizeof(r->module), "%s",
			 knl_get_str(tb[KBENCH_A_ROUTINE_MODULE]));
		r->has_module = true;
	}
	r->has_flags = knl_get_u32(tb[KBENCH_A_ROUTINE_FLAGS], &r->flags);
	r->has_bytes = knl_get_u32(tb[KBENCH_A_ROUTINE_BYTES_PER_ITER],
				   &r->bytes_per_iter);
	return 0;
}

static int dump_routines(struct knl_sock *nl, struct knl_req *req,
			 uint16_t family, struct routines *rs,
			 struct knl_result *res)
{
	memset(rs, 0, sizeof(*rs));
	knl_req_genl(req, family, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_ROUTINE_GET, KBENCH_GENL_VERSION);
	return knl_transact(nl, req, routine_cb, rs, res);
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > KBENCH_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return false;
	return true;
}

static const char *const builtins[] = {
	"empty", "add_chain", "mul_chain", "load_l1", "ktime_get", "rdtsc",
};

static const char *const twins[] = {
	"empty", "add_chain", "mul_chain", "load_l1", "atomic_shared",
};

TEST_F(kb, family_resolves)
{
	static const uint32_t need_ops[] = {
		KBENCH_CMD_INFO, KBENCH_CMD_ROUTINE_GET, KBENCH_CMD_CLOCK_GET,
		KBENCH_CMD_RUN, KBENCH_CMD_SAMPLES_GET,
	};
	bool progress = false;
	unsigned int i;
	int j;

	EXPECT_NE(0, self->fam.id);
	EXPECT_EQ(KBENCH_GENL_VERSION, self->fam.version);
	EXPECT_EQ(0, self->fam.hdrsize);
	/* Per-op policies: the family itself has no maxattr. */
	for (i = 0; i < ARRAY_SIZE(need_ops); i++) {
		bool found = false;

		for (j = 0; j < self->fam.nops; j++)
			found |= self->fam.ops[j] == need_ops[i];
		EXPECT_TRUE(found) TH_LOG("op %u not advertised", need_ops[i]);
	}
	for (j = 0; j < self->fam.nmcgrps; j++)
		progress |= !strcmp(self->fam.mcgrp_name[j], KBENCH_MCGRP_PROGRESS);
	EXPECT_TRUE(progress) TH_LOG("multicast group \"progress\" missing");
}

TEST_F(kb, info_fields)
{
	const struct kb_info *in = &self->info;
	struct utsname u;
	int i;

	ASSERT_EQ(NULL, in->bad) TH_LOG("INFO reply: %s", in->bad);
	for (i = KBENCH_A_INFO_VERSION; i <= KBENCH_A_INFO_KERNEL; i++)
		EXPECT_TRUE(in->has[i]) TH_LOG("INFO attribute %d missing", i);
	EXPECT_GT(strlen(in->version), 0);
	ASSERT_EQ(0, uname(&u));
	/* Names as include/uapi/linux/kbench.h documents them. */
#if defined(__x86_64__)
	EXPECT_STREQ("x86_64", in->arch);
	EXPECT_STREQ("tsc", in->counter);
#elif defined(__aarch64__)
	EXPECT_STREQ("aarch64", in->arch);
	EXPECT_STREQ("cntvct", in->counter);
#elif defined(__powerpc64__)
	EXPECT_STREQ(u.machine, in->arch);
	EXPECT_STREQ("timebase", in->counter);
#endif
	EXPECT_GT(in->v[KBENCH_A_INFO_COUNTER_HZ], 0);
#if defined(__x86_64__)
	/* Detectors that exist on any x86 (SMI may be unavailable in qemu). */
	EXPECT_EQ(KBENCH_SAMPLE_F_CPU_CHANGED | KBENCH_SAMPLE_F_BACKWARDS |
		  KBENCH_SAMPLE_F_NMI | KBENCH_SAMPLE_F_WINDOW,
		  in->v[KBENCH_A_INFO_DETECTORS] &
		  (KBENCH_SAMPLE_F_CPU_CHANGED | KBENCH_SAMPLE_F_BACKWARDS |
		   KBENCH_SAMPLE_F_NMI | KBENCH_SAMPLE_F_WINDOW));
#endif
	/* The reasonableness test runs in the kernel too, on every arch. */
	EXPECT_TRUE(in->v[KBENCH_A_INFO_DETECTORS] & KBENCH_SAMPLE_F_REFERENCE);
	EXPECT_EQ(0, in->v[KBENCH_A_INFO_DETECTORS] &
		  ~(KBENCH_SAMPLE_F_STEAL * 2ULL - 1));
	EXPECT_EQ(0, in->v[KBENCH_A_INFO_COUNTER_FLAGS] & ~0xfULL);
	/* Issue 3: up to 1,000,000 samples per run. */
	EXPECT_GE(in->v[KBENCH_A_INFO_MAX_SAMPLES], 1000000);
	EXPECT_GE(in->v[KBENCH_A_INFO_MAX_ITERATIONS], 1000);
	EXPECT_GT(in->v[KBENCH_A_INFO_MAX_WINDOW_US], 0);
	EXPECT_LE(in->v[KBENCH_A_INFO_MAX_WINDOW_US], 20000);
	EXPECT_GT(in->v[KBENCH_A_INFO_MAX_RUN_MS], 0);
	EXPECT_GT(in->v[KBENCH_A_INFO_DUTY_PCT], 0);
	EXPECT_LE(in->v[KBENCH_A_INFO_DUTY_PCT], 50);
	EXPECT_GE(in->v[KBENCH_A_INFO_RUNS_KEPT], 1);
	EXPECT_GT(in->v[KBENCH_A_INFO_STORE_BYTES_MAX], 0);
	EXPECT_LE(in->v[KBENCH_A_INFO_STORE_BYTES],
		  in->v[KBENCH_A_INFO_STORE_BYTES_MAX]);
	EXPECT_EQ(kb_possible_cpus(), (int)in->v[KBENCH_A_INFO_NR_CPUS]);
	EXPECT_STREQ(u.release, in->kernel);
}

/*
 * INFO's environment: every attribute but the vendor always, each within
 * its enum, and the facts uname shows (PREEMPT_RT, PREEMPT_DYNAMIC);
 * pseudo-NMIs only on arm64, and with the nmi detector.
 */
TEST_F(kb, info_environment)
{
	const struct kb_info *in = &self->info;
	const uint32_t *e = in->env;
	struct utsname u;
	int i;

	ASSERT_TRUE(in->has[KBENCH_A_INFO_ENVIRONMENT]);
	for (i = KBENCH_A_ENV_DEBUG; i <= KBENCH_A_ENV_HYPERVISOR; i++)
		EXPECT_TRUE(in->env_has[i]) TH_LOG("environment attribute %d missing", i);
	/* what is in effect was compiled in */
	EXPECT_EQ(0, e[KBENCH_A_ENV_DEBUG_ACTIVE] & ~e[KBENCH_A_ENV_DEBUG]);
	EXPECT_EQ(0, e[KBENCH_A_ENV_DEBUG] & ~(2 * KBENCH_DEBUG_F_LOCK_STAT - 1));
	EXPECT_EQ(0, e[KBENCH_A_ENV_FLAGS] &
		  ~(KBENCH_ENV_F_PREEMPT_RT | KBENCH_ENV_F_PREEMPT_DYNAMIC |
		    KBENCH_ENV_F_PSEUDO_NMI));
#ifndef __aarch64__
	/* pseudo-NMIs are arm64's (GICv3 priority masking) */
	EXPECT_EQ(0, e[KBENCH_A_ENV_FLAGS] & KBENCH_ENV_F_PSEUDO_NMI);
#endif
	/* where they can run in windows, the windows flag them */
	if (e[KBENCH_A_ENV_FLAGS] & KBENCH_ENV_F_PSEUDO_NMI)
		EXPECT_TRUE(in->v[KBENCH_A_INFO_DETECTORS] & KBENCH_SAMPLE_F_NMI);
	EXPECT_LE(e[KBENCH_A_ENV_PREEMPT_MODEL], KBENCH_PREEMPT_LAZIEST);
	EXPECT_LE(e[KBENCH_A_ENV_HYPERVISOR], KBENCH_HYPERVISOR_OTHER);
	EXPECT_TRUE(e[KBENCH_A_ENV_HZ] == 100 || e[KBENCH_A_ENV_HZ] == 250 ||
		    e[KBENCH_A_ENV_HZ] == 300 || e[KBENCH_A_ENV_HZ] == 1000)
		TH_LOG("HZ %u", e[KBENCH_A_ENV_HZ]);
	ASSERT_EQ(0, uname(&u));
	EXPECT_EQ(!!strstr(u.version, "PREEMPT_RT"),
		  !!(e[KBENCH_A_ENV_FLAGS] & KBENCH_ENV_F_PREEMPT_RT));
	if (strstr(u.version, "PREEMPT_DYNAMIC"))
		EXPECT_TRUE(e[KBENCH_A_ENV_FLAGS] & KBENCH_ENV_F_PREEMPT_DYNAMIC);
	/* the vendor matches the hypervisor the kernel chose */
	if (!strcmp(in->hypervisor_vendor, "TCGTCGTCGTCG"))
		EXPECT_EQ(KBENCH_HYPERVISOR_OTHER, e[KBENCH_A_ENV_HYPERVISOR]);
	if (!strcmp(in->hypervisor_vendor, "KVMKVMKVM"))
		EXPECT_EQ(KBENCH_HYPERVISOR_KVM, e[KBENCH_A_ENV_HYPERVISOR]);
	if (e[KBENCH_A_ENV_HYPERVISOR] == KBENCH_HYPERVISOR_NONE)
		EXPECT_STREQ("", in->hypervisor_vendor);
	/* a detector of steal time needs a hypervisor */
	if (in->v[KBENCH_A_INFO_DETECTORS] & KBENCH_SAMPLE_F_STEAL)
		EXPECT_NE(KBENCH_HYPERVISOR_NONE, e[KBENCH_A_ENV_HYPERVISOR]);
}

TEST_F(kb, routines_builtin)
{
	static struct routines rs;
	struct knl_result res;
	unsigned int i;
	int a, b;

	ASSERT_EQ(0, dump_routines(&self->nl, &self->req, self->fam.id, &rs, &res));
	ASSERT_EQ(0, res.err) TH_LOG("ROUTINE_GET: %s", res.msg);
	ASSERT_EQ(NULL, rs.bad) TH_LOG("ROUTINE_GET reply: %s", rs.bad);
	EXPECT_GE(rs.n, 6);
	for (i = 0; i < ARRAY_SIZE(builtins); i++) {
		const struct routine *r = KB_FIND_NAMED(rs.r, rs.n, builtins[i]);

		ASSERT_NE(NULL, r) TH_LOG("built-in %s missing", builtins[i]);
		EXPECT_TRUE(r->has_desc);
		EXPECT_GT(strlen(r->desc), 0);
		/* built in (CONFIG_KBENCH=y), the kernel owns them */
		EXPECT_STREQ(kb_builtin() ? "kernel" : "kbench", r->module);
		EXPECT_TRUE(r->has_flags);
		EXPECT_TRUE(r->flags & KBENCH_ROUTINE_F_BUILTIN)
			TH_LOG("%s lacks KBENCH_ROUTINE_F_BUILTIN", r->name);
		EXPECT_TRUE(r->has_bytes);
	}
	for (a = 0; a < rs.n; a++) {
		EXPECT_TRUE(valid_name(rs.r[a].name))
			TH_LOG("bad routine name \"%s\"", rs.r[a].name);
		for (b = a + 1; b < rs.n; b++)
			EXPECT_STRNE(rs.r[a].name, rs.r[b].name);
	}
}

/* Issue 4: the arithmetic built-ins have userspace twins in kbenchctl. */
TEST_F(kb, routines_user_twins)
{
	static struct routines rs;
	struct knl_result res;
	unsigned int i;

	ASSERT_EQ(0, dump_routines(&self->nl, &self->req, self->fam.id, &rs, &res));
	ASSERT_EQ(0, res.err);
	for (i = 0; i < ARRAY_SIZE(twins); i++) {
		const struct routine *r = KB_FIND_NAMED(rs.r, rs.n, twins[i]);

		ASSERT_NE(NULL, r);
		EXPECT_TRUE(r->flags & KBENCH_ROUTINE_F_USER_TWIN)
			TH_LOG("%s lacks KBENCH_ROUTINE_F_USER_TWIN", r->name);
	}
}

static int load_example(void)
{
	const char *path = getenv("KBENCH_EXAMPLE_KO");
	int fd, ret;

	fd = open(path ? path : EXAMPLE_KO_DEFAULT, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static int unload_example(void)
{
	int i;

	/* The module may still be pinned for a moment by a finished run. */
	for (i = 0; i < 50; i++) {
		if (!syscall(SYS_delete_module, EXAMPLE_NAME, O_NONBLOCK))
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			return -errno;
		usleep(100000);
	}
	return -EBUSY;
}

TEST_F(kb, example_module_routines)
{
	static const char *const names[] = { "foo", "foobar" };
	static struct routines rs;
	struct knl_result res;
	struct kb_run_args args = { .nroutines = 2, .samples = 10,
				    .iterations = 100 };
	struct kb_run run;
	bool loaded_here;
	unsigned int i;
	int err;

	if (geteuid())
		SKIP(return, "needs root to load %s", EXAMPLE_NAME);
	err = load_example();
	ASSERT_TRUE(err == 0 || err == -EEXIST)
		TH_LOG("loading %s: %s", EXAMPLE_NAME, strerror(-err));
	loaded_here = !err;

	ASSERT_EQ(0, dump_routines(&self->nl, &self->req, self->fam.id, &rs, &res));
	ASSERT_EQ(0, res.err);
	ASSERT_EQ(NULL, rs.bad);
	for (i = 0; i < 2; i++) {
		const struct routine *r = KB_FIND_NAMED(rs.r, rs.n, names[i]);

		EXPECT_NE(NULL, r) TH_LOG("%s missing after insmod", names[i]);
		if (!r)
			continue;
		EXPECT_STREQ(EXAMPLE_NAME, r->module);
		EXPECT_FALSE(r->flags & KBENCH_ROUTINE_F_BUILTIN);
		EXPECT_GT(strlen(r->desc), 0);
	}
	for (i = 0; i < ARRAY_SIZE(builtins); i++)
		EXPECT_NE(NULL, KB_FIND_NAMED(rs.r, rs.n, builtins[i]));

	/* The example's routines can be measured. */
	args.routines[0] = "foo";
	args.routines[1] = "foobar";
	err = kb_run(&self->nl, &self->req, self->fam.id, &args, &run, &res);
	EXPECT_EQ(0, err) TH_LOG("RUN foo foobar: %s", res.msg);
	if (!err) {
		EXPECT_EQ(2, run.nresults);
		EXPECT_STREQ("foo", run.result[0].routine);
		EXPECT_STREQ("foobar", run.result[1].routine);
	}

	if (!loaded_here)
		return;
	ASSERT_EQ(0, unload_example());
	ASSERT_EQ(0, dump_routines(&self->nl, &self->req, self->fam.id, &rs, &res));
	ASSERT_EQ(0, res.err);
	EXPECT_EQ(NULL, KB_FIND_NAMED(rs.r, rs.n, "foo")) TH_LOG("foo left after rmmod");
	EXPECT_EQ(NULL, KB_FIND_NAMED(rs.r, rs.n, "foobar"));
	EXPECT_NE(NULL, KB_FIND_NAMED(rs.r, rs.n, "add_chain"));
}

struct clocks {
	char name[16][32];
	uint64_t hz[16], res_min[16], res_sum[16];
	uint32_t changes[16], reads[16];
	int n;
	const char *bad;
};

static int clock_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_CLOCK_MAX + 1];
	struct clocks *c = arg;
	const void *data;
	int len;

	if (!c->bad)
		c->bad = kbench_check_msg(KBENCH_CMD_CLOCK_GET, nlh);
	if (c->n >= 16)
		return 1;
	data = knl_genl_attrs(nlh, &len);
	knl_parse(data, len, tb, KBENCH_A_CLOCK_MAX);
	if (knl_get_str(tb[KBENCH_A_CLOCK_NAME]))
		snprintf(c->name[c->n], 32, "%s", knl_get_str(tb[KBENCH_A_CLOCK_NAME]));
	knl_get_u64(tb[KBENCH_A_CLOCK_HZ], &c->hz[c->n]);
	knl_get_u64(tb[KBENCH_A_CLOCK_RES_MIN], &c->res_min[c->n]);
	knl_get_u64(tb[KBENCH_A_CLOCK_RES_SUM], &c->res_sum[c->n]);
	knl_get_u32(tb[KBENCH_A_CLOCK_RES_CHANGES], &c->changes[c->n]);
	knl_get_u32(tb[KBENCH_A_CLOCK_LAT_READS], &c->reads[c->n]);
	c->n++;
	return 0;
}

TEST_F_TIMEOUT(kb, clocks, 120)
{
	/* The counter's two rows: kmod/kbench_counter_<arch>.h names them. */
	static const char *const want[] = {
#if defined(__x86_64__)
		"rdtsc", "rdtsc_ordered",
#elif defined(__aarch64__)
		"cntvct", "cntvct_ordered",
#elif defined(__powerpc64__)
		"mftb", "mftb_ordered",
#else
#error "kbench_family_test: counter clock names for this architecture"
#endif
		"ktime_get_ns", "ktime_get_raw_ns",
		"ktime_get_mono_fast_ns", "local_clock", "jiffies",
	};
	static const char *const foreign[] = {
#if !defined(__x86_64__)
		"rdtsc", "rdtsc_ordered",
#endif
#if !defined(__aarch64__)
		"cntvct", "cntvct_ordered",
#endif
#if !defined(__powerpc64__)
		"mftb", "mftb_ordered",
#endif
	};
	struct clocks c = {};
	struct knl_result res;
	unsigned int i;
	int j;

	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_DUMP,
		     KBENCH_CMD_CLOCK_GET, KBENCH_GENL_VERSION);
	self->nl.timeout_ms = 110000;
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, clock_cb, &c, &res));
	ASSERT_EQ(0, res.err) TH_LOG("CLOCK_GET: %s", res.msg);
	ASSERT_EQ(NULL, c.bad) TH_LOG("CLOCK_GET reply: %s", c.bad);
	/* No other architecture's counter. */
	for (i = 0; i < ARRAY_SIZE(foreign); i++)
		for (j = 0; j < c.n; j++)
			EXPECT_STRNE(foreign[i], c.name[j]);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		for (j = 0; j < c.n; j++)
			if (!strcmp(c.name[j], want[i]))
				break;
		EXPECT_LT(j, c.n) TH_LOG("clock %s missing", want[i]);
		if (j == c.n)
			continue;
		EXPECT_GT(c.hz[j], 0);
		if (i < 2)	/* the counter itself, at the counter's rate */
			EXPECT_EQ(self->info.v[KBENCH_A_INFO_COUNTER_HZ], c.hz[j])
				TH_LOG("%s: Hz differs from INFO", want[i]);
		EXPECT_GT(c.reads[j], 0);
		EXPECT_GT(c.changes[j], 0) TH_LOG("%s: no change seen", want[i]);
		if (c.changes[j]) {
			EXPECT_GT(c.res_min[j], 0);
			EXPECT_LE(c.res_min[j] * c.changes[j], c.res_sum[j]);
		}
	}
}

TEST_HARNESS_MAIN
