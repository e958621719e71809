/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress of long runs on stderr, from the PROGRESS_NTF notifications the
 * module sends to the requesting socket: the estimate line of a long run,
 * and a progress line only when stderr is a terminal; never on stdout.
 */
#ifndef KBENCHCTL_PROGRESS_H
#define KBENCHCTL_PROGRESS_H

#include "meter.h"
#include "nl.h"

/*
 * kb_nl_request() for the RUN of @q that shows its progress notifications
 * meanwhile: the estimate of a long run, and the progress line on a
 * terminal (meter.h).
 */
struct kb_run_req;
int kb_progress_request(struct kb_nl *nl, struct nl_msg *msg, int maxattr,
			kb_nl_msg_cb cb, void *arg, const struct kb_run_req *q);

#endif /* KBENCHCTL_PROGRESS_H */
