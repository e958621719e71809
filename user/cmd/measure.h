/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run measured in the kernel or by the userspace twins (measure.c).
 */
#ifndef KBENCHCTL_MEASURE_H
#define KBENCHCTL_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

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

/*
 * The routines of @q at once on the @nr @cpus into @cr, in the module or
 * (@user) the twins, their windows started together: 0 or -errno
 * (printed).  kb_cpus_run_free() after.
 */
struct kb_run_req;
struct kb_cpus_run;
int kb_cpus_at_once(const struct kb_run_req *q, bool user, unsigned int nr,
		    const int32_t *cpus, struct kb_cpus_run *cr);
void kb_cpus_run_free(struct kb_cpus_run *cr);

/*
 * @cr's runs merged into @r (@cr freed): every CPU's samples in one
 * series, the kernel-style medians the CPUs' median, r->ncpus the CPUs.
 * 0 or -errno (@r then empty).
 */
int kb_cpus_merge(struct kb_cpus_run *cr, struct kb_run *r);

/*
 * run's and compare's way in: the options parsed, --asm's snippets built
 * and loaded, @body called with them (not when --asm only built a module
 * for another kernel) and the snippets undone.  An exit status.
 */
struct subcommand;
typedef int kb_run_body(const struct subcommand *sc, struct kb_run_opts *o,
			int argc, char *argv[], char *orig[]);
int kb_run_opts_main(const struct subcommand *sc, int argc, char *argv[],
		     char *orig[], kb_run_body *body);

#endif /* KBENCHCTL_MEASURE_H */
