/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run measured in the kernel or by the userspace twins (measure.c).
 */
#ifndef KBENCHCTL_MEASURE_H
#define KBENCHCTL_MEASURE_H

#include <stdbool.h>

#include "result.h"

/*
 * run --cpus LIST --user (at once) or --each-cpu (in turn), after the
 * options were checked: an exit status.
 */
struct kb_run_opts;
int kb_cpus_main(const struct kb_run_opts *o);

/*
 * A scaling sweep's point: the --user run at once on @k CPUs (cores first,
 * then SMT siblings), merged into @r: every CPU's samples in one series,
 * the kernel-style medians the CPUs' median, r->ncpus = @k.  0 or -errno.
 */
int kb_cpus_scale(const struct kb_run_opts *o, unsigned int k,
		  struct kb_run *r);


#endif /* KBENCHCTL_MEASURE_H */
