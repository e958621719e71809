// SPDX-License-Identifier: GPL-2.0
/*
 * Progress notifications of long runs, shown on stderr.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "progress.h"

struct progress {
	bool shown;
};

void kb_progress_format(uint32_t done, uint32_t total, uint64_t elapsed_ns,
			char *buf, size_t len)
{
	double eta;

	buf[0] = '\0';
	if (!done || !total)
		return;
	eta = (double)elapsed_ns * (double)(total - (done < total ? done : total)) /
	      (double)done / 1e9;
	/* only runs expected to take over a second are worth a progress line */
	if ((double)elapsed_ns / 1e9 + eta < 1.0)
		return;
	snprintf(buf, len, "%u/%u samples (%.0f%%), ETA %.1f s", done, total,
		 100.0 * done / total, eta);
}

/*
 * The module sends PROGRESS_NTF to the socket that asked for the run, and
 * to no one else; kb_nl_request() passes them here while the run goes on.
 */
static void progress_ntf(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[KBENCH_A_PROGRESS_MAX + 1];
	struct progress *p = arg;
	char line[128];

	if (genlmsg_hdr(nlh)->cmd != KBENCH_CMD_PROGRESS_NTF ||
	    genlmsg_parse(nlh, 0, tb, KBENCH_A_PROGRESS_MAX, NULL) < 0)
		return;
	kb_progress_format(kb_u32(tb[KBENCH_A_PROGRESS_DONE], 0),
			   kb_u32(tb[KBENCH_A_PROGRESS_TOTAL], 0),
			   kb_u64(tb[KBENCH_A_PROGRESS_ELAPSED_NS], 0), line,
			   sizeof(line));
	if (line[0]) {
		fprintf(stderr, "\r%s: %s\033[K", prog, line);
		p->shown = true;
	}
}

int kb_progress_request(struct kb_nl *nl, struct nl_msg *msg, int maxattr,
			kb_nl_msg_cb cb, void *arg)
{
	struct progress p = { 0 };
	int err;

	if (!isatty(STDERR_FILENO))
		return kb_nl_request(nl, msg, maxattr, cb, arg);
	nl->ntf_cb = progress_ntf;
	nl->ntf_arg = &p;
	err = kb_nl_request(nl, msg, maxattr, cb, arg);
	nl->ntf_cb = NULL;
	nl->ntf_arg = NULL;
	if (p.shown)
		fprintf(stderr, "\r\033[K");
	return err;
}
