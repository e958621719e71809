/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core cycles without a PMU (--unit core): a calibration of dependent
 * adds measured interleaved with the routines in the same run, and the
 * run's figures converted from counter ticks to core cycles with it.
 *
 * The calibration is add_n at two lengths (include/kbench/bodies.h:
 * KBENCH_CORE_LO_ADDS and KBENCH_CORE_HI_ADDS adds, the same loop): per
 * round of the run, (T(HI) - T(LO)) / (HI - LO) is the counter ticks of
 * one dependent add, whatever the loop costs.  Its median over the rounds
 * is the ratio; the run's figures divided by it are core cycles.  What
 * that assumes, said with every figure:
 *   - a register add has a latency of one core cycle (true of every x86,
 *     arm64 and POWER core in uops.info's and Agner Fog's tables; not of
 *     the Pentium 4's double-pumped ALU nor of emulation);
 *   - the core runs at one frequency over the run (the interleaving makes
 *     a change between windows move both alike, not a change inside one);
 *   - an SMT sibling busy at the same time slows the adds as it slows the
 *     routines: the ratio is of the core as shared, not of the core alone;
 *   - the rounds' ratios are independent: the interval is the order
 *     statistics' one of their median (their lag-1 autocorrelation is
 *     reported; near 0 it holds).
 * Under qemu -icount shift=0 one tick is one instruction and the ratio is
 * exactly 1.
 */
#ifndef KBENCHCTL_CORE_H
#define KBENCHCTL_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kb_core;
struct kb_run;
struct kb_run_req;

/*
 * The calibration's members in a saved result's "core" object (and the
 * report's JSON), written once: fractions, then integers.
 */
struct kb_core_key {
	const char *key;
	size_t offset;
};
extern const struct kb_core_key kb_core_doubles[], kb_core_ints[];

/*
 * @q with the calibration's two chains appended (or found among its
 * routines) into @cq; @slot: their indexes in @cq, lo then hi.  0, or
 * -EINVAL after a message naming @sub and the fix.
 */
int kb_core_request(const char *sub, const struct kb_run_req *q,
		    struct kb_run_req *cq, unsigned int slot[2]);

/*
 * The calibration of @r (measured from @cq, @slot) into r->core; the
 * chains that were appended leave r->res (the routines of @nuser stay).
 * 0, or -ENOMEM, or -ENODATA (a chain without valid samples, printed).
 */
int kb_core_extract(struct kb_run *r, const unsigned int slot[2],
		    unsigned int nuser);

/* Convert @r's analyzed figures to core cycles (once; after analysis). */
void kb_core_apply(struct kb_run *r);
/* Back to the counter's ticks (a diff against a result without one). */
void kb_core_unapply(struct kb_run *r);

/* The assumptions, one line, for reports and --help. */
extern const char kb_core_assumes[];

#endif /* KBENCHCTL_CORE_H */
