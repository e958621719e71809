/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Progress of long runs on stderr, from the PROGRESS_NTF notifications the
 * module sends to the requesting socket.  Only when stderr is a terminal;
 * never on stdout.
 */
#ifndef KBENCHCTL_PROGRESS_H
#define KBENCHCTL_PROGRESS_H

#include "nl.h"

/* kb_nl_request() that shows progress notifications meanwhile. */
int kb_progress_request(struct kb_nl *nl, struct nl_msg *msg, int maxattr,
			kb_nl_msg_cb cb, void *arg);

/* "12345/100000 samples (12%), ETA 3.2 s" into @buf; "" when not shown. */
void kb_progress_format(uint32_t done, uint32_t total, uint64_t elapsed_ns,
			char *buf, size_t len);

#endif /* KBENCHCTL_PROGRESS_H */
