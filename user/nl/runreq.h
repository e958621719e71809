/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RUN request and reply, SAMPLES_GET and INFO into a run (runreq.c).
 */
#ifndef KBENCHCTL_RUNREQ_H
#define KBENCHCTL_RUNREQ_H

#include <stdint.h>

#include "result.h"

struct kb_nl;

/* RUN then SAMPLES_GET; 0 or -errno (printed). */
int kb_run_kernel(struct kb_nl *nl, const struct kb_run_req *q,
		  struct kb_run *r);

/*
 * A concurrent RUN on @nr @cpus (the module's cpus), each CPU's run with
 * its samples into @cr (allocated; kb_run_free() each, free(cr->run));
 * 0 or -errno (printed).
 */
int kb_run_kernel_cpus(struct kb_nl *nl, const struct kb_run_req *q,
		       const int32_t *cpus, unsigned int nr,
		       struct kb_cpus_run *cr);

#endif /* KBENCHCTL_RUNREQ_H */
