/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core-cycle calibration in a run's report (coreprint.c).
 */
#ifndef KBENCHCTL_COREPRINT_H
#define KBENCHCTL_COREPRINT_H

struct kb_run;

/*
 * The calibration's lines (text) or the "core" object (JSON): nothing
 * when the run has none.
 */
void kb_core_print(const struct kb_run *r);

#endif /* KBENCHCTL_COREPRINT_H */
