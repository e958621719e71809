// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: injected delays for the test bed (KBENCH_FAULT_INJECT).
 *
 * Built only where the test bed builds the module (kmod/Kbuild: with
 * KBENCH_TEST_MODULES), never into a module that is installed: a race
 * whose window is a few instructions wide is widened here to seconds, so
 * that a test fails reliably on the code that has the race.
 *
 * fault_point's bits name points (BIT(enum kbench_fault_point)), fault_delay_ms
 * how long a thread waits there, and fault_hits counts the arrivals, so
 * that a test knows a thread is inside the window before it acts.  The
 * wait is slept in slices and ends early once the run is aborted or the
 * point's bit is cleared (the test has done what the window was for).
 */
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <net/genetlink.h>

#include "kbench_internal.h"

static unsigned int kbench_fault_point_param;
static unsigned int kbench_fault_delay_ms = 3000;
static unsigned int kbench_fault_hits;

module_param_named(fault_point, kbench_fault_point_param, uint, 0644);
MODULE_PARM_DESC(fault_point,
		 "test bed: where to wait, bits: 1 start, 2 group end, 3 answer, 4 group late, 5 release");
module_param_named(fault_delay_ms, kbench_fault_delay_ms, uint, 0644);
MODULE_PARM_DESC(fault_delay_ms, "test bed: how long to wait there, ms");
module_param_named(fault_hits, kbench_fault_hits, uint, 0444);
MODULE_PARM_DESC(fault_hits, "test bed: arrivals at the fault point");

/*
 * The room progress notifications leave free in the requester's receive
 * queue, instead of KBENCH_PROGRESS_ROOM: made small, a reply larger than
 * it (a 2-CPU group's, on the test bed) stands for a 32-CPU group's
 * against the 32 KiB.
 */
static unsigned int kbench_fault_room_bytes;
module_param_named(fault_room, kbench_fault_room_bytes, uint, 0644);
MODULE_PARM_DESC(fault_room,
		 "test bed: bytes progress leaves free for the reply (0: default)");

u32 kbench_fault_room(u32 room)
{
	u32 bytes = READ_ONCE(kbench_fault_room_bytes);

	return bytes ? bytes : room;
}

/*
 * The messages of an answer whose allocation fails, as bits by their
 * index (bit 0: the first message): a group's answer is one message per
 * CPU and one of the group's figures, and a test makes one of them fail
 * to see that the results stay stored and the ack says where.
 */
static unsigned int kbench_fault_nomem_mask;
module_param_named(fault_nomem, kbench_fault_nomem_mask, uint, 0644);
MODULE_PARM_DESC(fault_nomem,
		 "test bed: messages of an answer that fail to allocate, bits by index");

bool kbench_fault_nomem(u32 part)
{
	return part < 32 && (READ_ONCE(kbench_fault_nomem_mask) & BIT(part));
}

/*
 * A RUN's notify refused as a module that predates it refuses it (its
 * policy's maxattr below it: genetlink's strict validation, -EINVAL,
 * "Unknown attribute type", the attribute named), so that a test sees
 * kbenchctl fall back to the answer as the request's replies.
 */
static bool kbench_fault_no_notify_param;
module_param_named(fault_no_notify, kbench_fault_no_notify_param, bool, 0644);
MODULE_PARM_DESC(fault_no_notify,
		 "test bed: refuse a RUN's notify as an older module would");

int kbench_fault_no_notify(struct genl_info *info)
{
	struct nlattr *nla = info->attrs[KBENCH_A_RUN_NOTIFY];

	if (!nla || !READ_ONCE(kbench_fault_no_notify_param))
		return 0;
	WRITE_ONCE(kbench_fault_hits, READ_ONCE(kbench_fault_hits) + 1);
	NL_SET_ERR_MSG_ATTR(info->extack, nla, "Unknown attribute type");
	return -EINVAL;
}

void kbench_fault_delay(enum kbench_fault_point point, struct kbench_run *run)
{
	unsigned int ms;

	if (!(READ_ONCE(kbench_fault_point_param) & BIT(point)))
		return;
	WRITE_ONCE(kbench_fault_hits, READ_ONCE(kbench_fault_hits) + 1);
	for (ms = READ_ONCE(kbench_fault_delay_ms); ms; ms -= min(ms, 10U)) {
		if ((run && kbench_run_aborted(run)) ||
		    !(READ_ONCE(kbench_fault_point_param) & BIT(point)))
			break;
		msleep(min(ms, 10U));
	}
}
