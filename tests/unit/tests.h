/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KBENCH_UNIT_TESTS_H
#define KBENCH_UNIT_TESTS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlattr;

extern const char *fixtures_dir;	/* tests/unit/fixtures */
extern const char *kbenchctl_bin;	/* user/kbenchctl */

/* Run @cmd through sh; its stdout in *out (malloc'ed, grown as needed); its
 * exit status (128: not run or not exited). */
int unit_cmd_out(const char *cmd, char **out);

/* Attribute @type holding @len bytes of @data, written at @buf (4-byte
 * aligned, room for NLA_HDRLEN + @len), as the kernel would put it. */
struct nlattr *unit_nlattr(void *buf, uint16_t type, const void *data,
			   size_t len);

void test_stats(void);
void test_output(void);
void test_cli(void);
void test_opts(void);
void test_report(void);
void test_b64(void);
void test_resfile(void);
/* base64, round trip, errors and fuzzing of the loader alone (valgrind run) */
void test_results_loader(void);
void test_diff_all(void);
void test_engine(void);
/* Two results of "foo" with events: 6 then 7 instructions/iter, equal cycles. */
void test_write_event_results(const char *old_path, const char *new_path);
void test_sweep(void);
void test_env(void);
void test_steal(void);
void test_schema(void);
void test_seqtest(void);
void test_blockboot(void);
/* replicated runs: run --runs, the interval over runs (test_runs.c) */
void test_runs(void);
/* kbenchctl export and history (test_export.c) */
void test_export(void);
/* --asm: the source, the assembler's messages, the CLI (test_asm.c) */
void test_asm(void);
/* --unit core: the calibration (test_core.c) */
void test_core(void);
/* long runs of kbenchctl: the estimate, Ctrl-C and partial results */
void test_interrupt(void);
/* libkbench's concurrent runs on this machine's CPUs */
void test_cpus(void);

/* |a - b| within a relative 1e-9 (absolute near 0), NaN == NaN */
static inline bool close_to(double a, double b, double rel)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= rel * fmax(1.0, fmax(fabs(a), fabs(b)));
}

#endif
