/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/kbench.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_KBENCH_H
#define _UAPI_LINUX_KBENCH_H

#define KBENCH_GENL_NAME	"kbench"
#define KBENCH_GENL_VERSION	1

#define KBENCH_NAME_MAX		31
#define KBENCH_RUN_ROUTINES_MAX	4

/**
 * enum kbench_counter_flags - Properties of the CPU counter (info
 *   counter-flags).
 * @KBENCH_COUNTER_F_CONSTANT: Fixed rate (constant_tsc).
 * @KBENCH_COUNTER_F_NONSTOP: Keeps counting in idle states (nonstop_tsc).
 * @KBENCH_COUNTER_F_RELIABLE: Needs no clocksource watchdog (tsc_reliable).
 * @KBENCH_COUNTER_F_ORDERED: Reads are ordered (fenced) against the code
 *   around them.
 */
enum kbench_counter_flags {
	KBENCH_COUNTER_F_CONSTANT = 1,
	KBENCH_COUNTER_F_NONSTOP = 2,
	KBENCH_COUNTER_F_RELIABLE = 4,
	KBENCH_COUNTER_F_ORDERED = 8,
};

/**
 * enum kbench_sample_flags - Why a sample is not trusted. A sample with any
 *   flag is excluded from the summary and counted by reason. info detectors
 *   has a bit set for each detector this machine provides.
 * @KBENCH_SAMPLE_F_CPU_CHANGED: The CPU at the end of the window differs from
 *   the requested one.
 * @KBENCH_SAMPLE_F_BACKWARDS: A counter read was lower than the one before it.
 * @KBENCH_SAMPLE_F_NMI: An NMI arrived during the window.
 * @KBENCH_SAMPLE_F_SMI: An SMI arrived during the window (MSR_SMI_COUNT
 *   changed).
 * @KBENCH_SAMPLE_F_WINDOW: The window was longer than max_window_us.
 * @KBENCH_SAMPLE_F_REFERENCE: The reasonableness test, kernel and userspace
 *   alike: the T(2) reference span was longer than twice the shortest clean
 *   one of the routine so far plus two steps of the counter (something landed
 *   in it and the sample's net is too small), or the net was negative.
 */
enum kbench_sample_flags {
	KBENCH_SAMPLE_F_CPU_CHANGED = 1,
	KBENCH_SAMPLE_F_BACKWARDS = 2,
	KBENCH_SAMPLE_F_NMI = 4,
	KBENCH_SAMPLE_F_SMI = 8,
	KBENCH_SAMPLE_F_WINDOW = 16,
	KBENCH_SAMPLE_F_REFERENCE = 32,
};

/**
 * enum kbench_result_flags - Remarks on one routine's summary (result flags).
 * @KBENCH_RESULT_F_CLAMPED: The overhead correction would have been negative
 *   and was clamped to 0.
 * @KBENCH_RESULT_F_EXCLUDED: Fewer valid samples than taken (flagged ones were
 *   excluded).
 */
enum kbench_result_flags {
	KBENCH_RESULT_F_CLAMPED = 1,
	KBENCH_RESULT_F_EXCLUDED = 2,
};

/**
 * enum kbench_routine_flags - Properties of a registered routine.
 * @KBENCH_ROUTINE_F_BUILTIN: Part of kbench.ko.
 * @KBENCH_ROUTINE_F_USER_TWIN: kbenchctl has a userspace twin with the same
 *   loop body.
 */
enum kbench_routine_flags {
	KBENCH_ROUTINE_F_BUILTIN = 1,
	KBENCH_ROUTINE_F_USER_TWIN = 2,
};

/**
 * enum kbench_run_status - Why a run ended.
 * @KBENCH_RUN_COMPLETE: All samples were taken.
 * @KBENCH_RUN_TIMEOUT: max_run_ms was reached; the result covers the samples
 *   taken.
 */
enum kbench_run_status {
	KBENCH_RUN_COMPLETE,
	KBENCH_RUN_TIMEOUT,
};

enum kbench_info_attrs {
	KBENCH_A_INFO_UNSPEC,
	KBENCH_A_INFO_VERSION,
	KBENCH_A_INFO_ARCH,
	KBENCH_A_INFO_COUNTER,
	KBENCH_A_INFO_COUNTER_HZ,
	KBENCH_A_INFO_COUNTER_FLAGS,
	KBENCH_A_INFO_DETECTORS,
	KBENCH_A_INFO_MAX_SAMPLES,
	KBENCH_A_INFO_MAX_ITERATIONS,
	KBENCH_A_INFO_MAX_WINDOW_US,
	KBENCH_A_INFO_MAX_RUN_MS,
	KBENCH_A_INFO_DUTY_PCT,
	KBENCH_A_INFO_RUNS_KEPT,
	KBENCH_A_INFO_STORE_BYTES_MAX,
	KBENCH_A_INFO_STORE_BYTES,
	KBENCH_A_INFO_NR_CPUS,
	KBENCH_A_INFO_KERNEL,
	KBENCH_A_INFO_PAD,

	__KBENCH_A_INFO_MAX,
	KBENCH_A_INFO_MAX = (__KBENCH_A_INFO_MAX - 1)
};

enum kbench_routine_attrs {
	KBENCH_A_ROUTINE_UNSPEC,
	KBENCH_A_ROUTINE_NAME,
	KBENCH_A_ROUTINE_DESC,
	KBENCH_A_ROUTINE_MODULE,
	KBENCH_A_ROUTINE_BYTES_PER_ITER,
	KBENCH_A_ROUTINE_FLAGS,
	KBENCH_A_ROUTINE_PAD,

	__KBENCH_A_ROUTINE_MAX,
	KBENCH_A_ROUTINE_MAX = (__KBENCH_A_ROUTINE_MAX - 1)
};

enum kbench_clock_attrs {
	KBENCH_A_CLOCK_UNSPEC,
	KBENCH_A_CLOCK_NAME,
	KBENCH_A_CLOCK_UNIT,
	KBENCH_A_CLOCK_HZ,
	KBENCH_A_CLOCK_RES_MIN,
	KBENCH_A_CLOCK_RES_SUM,
	KBENCH_A_CLOCK_RES_CHANGES,
	KBENCH_A_CLOCK_LAT_READS,
	KBENCH_A_CLOCK_LAT_SPAN,
	KBENCH_A_CLOCK_LAT_CYCLES,
	KBENCH_A_CLOCK_PAD,

	__KBENCH_A_CLOCK_MAX,
	KBENCH_A_CLOCK_MAX = (__KBENCH_A_CLOCK_MAX - 1)
};

enum kbench_run_attrs {
	KBENCH_A_RUN_UNSPEC,
	KBENCH_A_RUN_ROUTINE,
	KBENCH_A_RUN_CPU,
	KBENCH_A_RUN_SAMPLES,
	KBENCH_A_RUN_ITERATIONS,
	KBENCH_A_RUN_TARGET_NS,
	KBENCH_A_RUN_WARMUP,
	KBENCH_A_RUN_ID,
	KBENCH_A_RUN_ADAPTIVE,
	KBENCH_A_RUN_COUNTER,
	KBENCH_A_RUN_COUNTER_HZ,
	KBENCH_A_RUN_ELAPSED_NS,
	KBENCH_A_RUN_SPAN_CYCLES,
	KBENCH_A_RUN_ROUTINE_CYCLES,
	KBENCH_A_RUN_WINDOW_CYCLES,
	KBENCH_A_RUN_MEM_BYTES,
	KBENCH_A_RUN_STATUS,
	KBENCH_A_RUN_RESULT,
	KBENCH_A_RUN_OVERHEAD,
	KBENCH_A_RUN_PAD,

	__KBENCH_A_RUN_MAX,
	KBENCH_A_RUN_MAX = (__KBENCH_A_RUN_MAX - 1)
};

enum kbench_result_attrs {
	KBENCH_A_RESULT_UNSPEC,
	KBENCH_A_RESULT_ROUTINE,
	KBENCH_A_RESULT_INDEX,
	KBENCH_A_RESULT_SAMPLES,
	KBENCH_A_RESULT_VALID,
	KBENCH_A_RESULT_EXCL_CPU,
	KBENCH_A_RESULT_EXCL_BACKWARDS,
	KBENCH_A_RESULT_EXCL_NMI,
	KBENCH_A_RESULT_EXCL_SMI,
	KBENCH_A_RESULT_EXCL_WINDOW,
	KBENCH_A_RESULT_NET_MIN,
	KBENCH_A_RESULT_NET_MEDIAN,
	KBENCH_A_RESULT_NET_MAX,
	KBENCH_A_RESULT_NET_SUM,
	KBENCH_A_RESULT_PER_ITER_MIN_MILLI,
	KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI,
	KBENCH_A_RESULT_CORR_MIN_MILLI,
	KBENCH_A_RESULT_CORR_MEDIAN_MILLI,
	KBENCH_A_RESULT_FLAGS,
	KBENCH_A_RESULT_BYTES_PER_ITER,
	KBENCH_A_RESULT_PAD,
	KBENCH_A_RESULT_EXCL_REFERENCE,

	__KBENCH_A_RESULT_MAX,
	KBENCH_A_RESULT_MAX = (__KBENCH_A_RESULT_MAX - 1)
};

enum kbench_samples_attrs {
	KBENCH_A_SAMPLES_UNSPEC,
	KBENCH_A_SAMPLES_RUN_ID,
	KBENCH_A_SAMPLES_ROUTINE,
	KBENCH_A_SAMPLES_NAME,
	KBENCH_A_SAMPLES_FIRST,
	KBENCH_A_SAMPLES_NET,
	KBENCH_A_SAMPLES_FLAGS,
	KBENCH_A_SAMPLES_ITERATIONS,

	__KBENCH_A_SAMPLES_MAX,
	KBENCH_A_SAMPLES_MAX = (__KBENCH_A_SAMPLES_MAX - 1)
};

enum kbench_progress_attrs {
	KBENCH_A_PROGRESS_UNSPEC,
	KBENCH_A_PROGRESS_RUN_ID,
	KBENCH_A_PROGRESS_PORTID,
	KBENCH_A_PROGRESS_DONE,
	KBENCH_A_PROGRESS_TOTAL,
	KBENCH_A_PROGRESS_ELAPSED_NS,
	KBENCH_A_PROGRESS_PAD,

	__KBENCH_A_PROGRESS_MAX,
	KBENCH_A_PROGRESS_MAX = (__KBENCH_A_PROGRESS_MAX - 1)
};

enum kbench_cmd {
	KBENCH_CMD_UNSPEC,
	KBENCH_CMD_INFO,
	KBENCH_CMD_ROUTINE_GET,
	KBENCH_CMD_CLOCK_GET,
	KBENCH_CMD_RUN,
	KBENCH_CMD_SAMPLES_GET,
	KBENCH_CMD_PROGRESS_NTF,

	__KBENCH_CMD_MAX,
	KBENCH_CMD_MAX = (__KBENCH_CMD_MAX - 1)
};

#define KBENCH_MCGRP_PROGRESS	"progress"

#endif /* _UAPI_LINUX_KBENCH_H */
