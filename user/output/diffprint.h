/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report of the comparison of two results (diffprint.c).
 */
#ifndef KBENCHCTL_DIFFPRINT_H
#define KBENCHCTL_DIFFPRINT_H

#include <stdbool.h>

#include "diff.h"

/*
 * Compare @new against @old (their runs are analyzed here) and print the
 * report: a short table (all figures with o->full, or Markdown with
 * o->markdown), or the members of a JSON object opened as @key (NULL: the
 * document's top level).  0 with *@vstatus the verdict's exit status
 * (kb_diff_exit_status(): 1 when a routine regressed beyond the
 * threshold, or changed with --fail-on changed, between replicated runs
 * or with --trust-single; 125 with --bisect when one is
 * inconclusive or changed only between single runs; else 0); -ENODATA
 * when the two have no routine in common, -ENOMEM (both printed).
 */
int kb_diff_print(const char *key, const char *old_name, struct kb_resfile *old,
		  const char *new_name, struct kb_resfile *new,
		  const struct kb_diff_opts *o, int *vstatus);

#endif /* KBENCHCTL_DIFFPRINT_H */
