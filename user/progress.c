// SPDX-License-Identifier: GPL-2.0
/*
 * Progress notifications of long runs, shown on stderr.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kbenchctl.h"
#include "progress.h"

struct progress {
	struct nl_sock *sk;
	struct nl_cb *cb;
	uint32_t portid;
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

static int progress_cb(struct nl_msg *msg, void *arg)
{
	struct progress *p = arg;
	struct nlattr *tb[KBENCH_A_PROGRESS_MAX + 1];
	char line[128];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, KBENCH_A_PROGRESS_MAX, NULL) < 0)
		return NL_SKIP;
	if (kb_u32(tb[KBENCH_A_PROGRESS_PORTID], 0) != p->portid)
		return NL_SKIP;
	kb_progress_format(kb_u32(tb[KBENCH_A_PROGRESS_DONE], 0),
			   kb_u32(tb[KBENCH_A_PROGRESS_TOTAL], 0),
			   kb_u64(tb[KBENCH_A_PROGRESS_ELAPSED_NS], 0), line,
			   sizeof(line));
	if (line[0]) {
		fprintf(stderr, "\r%s: %s\033[K", prog, line);
		p->shown = true;
	}
	return NL_OK;
}

static void progress_read(void *arg)
{
	struct progress *p = arg;

	nl_recvmsgs(p->sk, p->cb);
}

int kb_progress_request(struct kb_nl *nl, struct nl_msg *msg, int maxattr,
			kb_nl_msg_cb cb, void *arg)
{
	struct progress p = { 0 };
	int grp, err;

	if (!isatty(STDERR_FILENO))
		goto plain;
	p.sk = nl_socket_alloc();
	if (!p.sk)
		goto plain;
	if (genl_connect(p.sk) < 0)
		goto out_free_sock;
	grp = genl_ctrl_resolve_grp(p.sk, KBENCH_GENL_NAME, KBENCH_MCGRP_PROGRESS);
	if (grp < 0)
		goto out_free_sock;
	nl_socket_disable_seq_check(p.sk);
	if (nl_socket_add_membership(p.sk, grp) < 0)
		goto out_free_sock;
	p.cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!p.cb)
		goto out_free_sock;
	nl_cb_set(p.cb, NL_CB_VALID, NL_CB_CUSTOM, progress_cb, &p);
	nl_socket_set_nonblocking(p.sk);
	p.portid = nl_socket_get_local_port(nl->sk);
	nl->extra_fd = nl_socket_get_fd(p.sk);
	nl->extra_cb = progress_read;
	nl->extra_arg = &p;
	err = kb_nl_request(nl, msg, maxattr, cb, arg);
	nl->extra_fd = -1;
	if (p.shown)
		fprintf(stderr, "\r\033[K");
	nl_cb_put(p.cb);
	nl_socket_free(p.sk);
	return err;

out_free_sock:
	nl_socket_free(p.sk);
plain:
	return kb_nl_request(nl, msg, maxattr, cb, arg);
}
