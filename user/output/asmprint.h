/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --asm in a run's report (asmprint.c).
 */
#ifndef KBENCHCTL_ASMPRINT_H
#define KBENCHCTL_ASMPRINT_H

struct kb_run;

/*
 * What the snippets' figures are (per copy: per iteration / U) and what
 * the loop itself costs (text), or the "asm" object (JSON); nothing for a
 * run of routines.
 */
void kb_asm_print(const struct kb_run *r);

#endif /* KBENCHCTL_ASMPRINT_H */
