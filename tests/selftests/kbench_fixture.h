/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture every kbench selftest shares: a raw generic netlink socket,
 * the resolved family and its INFO.  Includes kselftest_harness.h.
 */
#ifndef _KBENCH_SELFTEST_FIXTURE_H
#define _KBENCH_SELFTEST_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "kbench_nl.h"

/*
 * kselftest_harness.h compares `expected` and `seen` in their own types, so
 * EXPECT_TRUE(flags & BIT) or EXPECT_GT(u64, 0) trip -Wsign-compare under
 * -Wextra.  Silence only that warning, only in the tests.
 */
#pragma GCC diagnostic ignored "-Wsign-compare"
/* The 6.1 harness has an unused signal-handler parameter. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

FIXTURE(kb) {
	struct knl_sock nl;
	struct knl_family fam;
	struct kb_info info;
	struct knl_req req;
};

FIXTURE_SETUP(kb)
{
	struct knl_result res;

	ASSERT_EQ(0, knl_open(&self->nl, NETLINK_GENERIC));
	ASSERT_EQ(0, knl_resolve(&self->nl, KBENCH_GENL_NAME, &self->fam, &res))
		TH_LOG("family \"kbench\" does not resolve (err %d): module not loaded?",
		       res.err);
	memset(&self->info, 0, sizeof(self->info));
	knl_req_genl(&self->req, self->fam.id, NLM_F_REQUEST | NLM_F_ACK,
		     KBENCH_CMD_INFO, KBENCH_GENL_VERSION);
	ASSERT_EQ(0, knl_transact(&self->nl, &self->req, kb_info_cb,
				  &self->info, &res));
	ASSERT_EQ(0, res.err) TH_LOG("INFO failed: %s", res.msg);
	ASSERT_EQ(1, self->info.nmsgs);
}

FIXTURE_TEARDOWN(kb)
{
	knl_close(&self->nl);
}

/*
 * A RUN refused with -EAGAIN names a run that is ending where this one
 * would go (a closed or killed requester's: its close does not wait for
 * it; or one that holds the memory): sent again every 100 ms, up to 600
 * times, as kbenchctl does.
 */
#define KB_RUN_RETRY_US		100000
#define KB_RUN_RETRIES		600

/*
 * Run @a and parse the reply into @run; returns the errno (0 on success),
 * retried while a run that is ending holds what it needs (EAGAIN).
 */
static inline int kb_run(struct knl_sock *nl, struct knl_req *req,
			 uint16_t family, struct kb_run_args *a,
			 struct kb_run *run, struct knl_result *res)
{
	int err, tries;

	for (tries = 0;; tries++) {
		memset(run, 0, sizeof(*run));
		kb_build_run(req, family, a);
		err = knl_transact(nl, req, kb_run_cb, run, res);
		if (err)
			return err < 0 ? -err : err;
		if (res->err != EAGAIN || tries == KB_RUN_RETRIES)
			return res->err;
		usleep(KB_RUN_RETRY_US);
	}
}

#define KB_RES(r, attr)		((int64_t)(r)->v[KBENCH_A_RESULT_##attr])

/* The extack names the attribute at @off and carries a message. */
#define EXPECT_EXTACK_AT(res, off) do {					\
	EXPECT_TRUE((res).has_offs) TH_LOG("no NLMSGERR_ATTR_OFFS");	\
	EXPECT_EQ((uint32_t)(off), (res).offs);				\
	EXPECT_TRUE((res).has_msg) TH_LOG("no NLMSGERR_ATTR_MSG");	\
} while (0)

/*
 * The element of @arr (its first @n) whose .name is @key, or NULL: the
 * tests keep what a ROUTINE_GET dump says in arrays of their own structs.
 */
#define KB_FIND_NAMED(arr, n, key) ({					\
	typeof(&(arr)[0]) __found = NULL;				\
	int __i;							\
									\
	for (__i = 0; __i < (n) && !__found; __i++)			\
		if (!strcmp((arr)[__i].name, (key)))			\
			__found = &(arr)[__i];				\
	__found;							\
})

#define KB_CPU1_ONLINE "/sys/devices/system/cpu/cpu1/online"

/* Write @s to the sysfs (or proc) file @path: 0 or -errno. */
static inline int kb_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

#endif /* _KBENCH_SELFTEST_FIXTURE_H */
