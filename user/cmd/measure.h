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


#endif /* KBENCHCTL_MEASURE_H */
