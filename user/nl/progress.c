// SPDX-License-Identifier: GPL-2.0
/*
 * Progress notifications of long runs, shown on stderr (meter.h).
 */
#include "base.h"
#include "progress.h"
#include "result.h"

/*
 * The module sends PROGRESS_NTF to the socket that asked for the run, and
 * to no one else; kb_nl_request() passes them here while the run goes on.
 */
static void progress_ntf(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[KBENCH_A_PROGRESS_MAX + 1];

	if (genlmsg_hdr(nlh)->cmd != KBENCH_CMD_PROGRESS_NTF ||
	    genlmsg_parse(nlh, 0, tb, KBENCH_A_PROGRESS_MAX, NULL) < 0)
		return;
	kb_meter_update(arg, kb_u32(tb[KBENCH_A_PROGRESS_DONE], 0),
			kb_u32(tb[KBENCH_A_PROGRESS_TOTAL], 0));
}

int kb_progress_request(struct kb_nl *nl, struct nl_msg *msg, int maxattr,
			kb_nl_msg_cb cb, void *arg, const struct kb_run_req *q)
{
	struct kb_meter m;
	int err;

	kb_meter_start(&m, q->has_samples ? q->samples : KB_RUN_DEFAULT_SAMPLES,
		       q->names, q->n, false);
	nl->ntf_cb = progress_ntf;
	nl->ntf_arg = &m;
	err = kb_nl_request(nl, msg, maxattr, cb, arg);
	nl->ntf_cb = NULL;
	nl->ntf_arg = NULL;
	kb_meter_end(&m);
	return err;
}
