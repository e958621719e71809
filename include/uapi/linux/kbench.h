/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kbench: exact timing of kernel routines - generic netlink ABI.
 *
 * Family "kbench", version 1.  Commands and attributes are numbered from 1
 * and only ever appended.  Integers are 32 or 64 bits; signed values are
 * s64 (net cycle counts can be negative when something intervened).
 * Documentation/netlink/specs/kbench.yaml describes the same family.
 */
#ifndef _UAPI_LINUX_KBENCH_H
#define _UAPI_LINUX_KBENCH_H

#define KBENCH_GENL_NAME	"kbench"
#define KBENCH_GENL_VERSION	1
#define KBENCH_MCGRP_PROGRESS	"progress"

/* Longest routine name, without the terminating NUL: [a-z0-9_]{1,31}. */
#define KBENCH_NAME_MAX		31
/* Routines measured together in one interleaved run. */
#define KBENCH_RUN_ROUTINES_MAX	4

enum kbench_cmd {
	KBENCH_CMD_UNSPEC,
	KBENCH_CMD_INFO,		/* do: module, counter and limits */
	KBENCH_CMD_ROUTINE_GET,		/* dump: registered routines */
	KBENCH_CMD_CLOCK_GET,		/* dump: kernel clocks measured now */
	KBENCH_CMD_RUN,			/* do: measure routines */
	KBENCH_CMD_SAMPLES_GET,		/* dump: raw samples of a stored run */
	KBENCH_CMD_PROGRESS_NTF,	/* notification to the requester: run progress */

	__KBENCH_CMD_MAX,
	KBENCH_CMD_MAX = __KBENCH_CMD_MAX - 1
};

/* KBENCH_A_INFO_COUNTER_FLAGS */
enum kbench_counter_flags {
	KBENCH_COUNTER_F_CONSTANT	= 1U << 0,	/* fixed rate (constant_tsc) */
	KBENCH_COUNTER_F_NONSTOP	= 1U << 1,	/* runs in idle states (nonstop_tsc) */
	KBENCH_COUNTER_F_RELIABLE	= 1U << 2,	/* tsc_reliable / no watchdog needed */
	KBENCH_COUNTER_F_ORDERED	= 1U << 3,	/* reads are ordered (fenced) */
};

/*
 * Per-sample flags (KBENCH_A_SAMPLES_FLAGS) and the detectors reported by
 * KBENCH_A_INFO_DETECTORS.  A sample with any of these set is excluded from
 * the summary and counted by reason.
 */
enum kbench_sample_flags {
	KBENCH_SAMPLE_F_CPU_CHANGED	= 1U << 0,	/* CPU differs at window end */
	KBENCH_SAMPLE_F_BACKWARDS	= 1U << 1,	/* counter went backwards */
	KBENCH_SAMPLE_F_NMI		= 1U << 2,	/* an NMI arrived in the window */
	KBENCH_SAMPLE_F_SMI		= 1U << 3,	/* an SMI arrived in the window */
	KBENCH_SAMPLE_F_WINDOW		= 1U << 4,	/* window exceeded max_window_us */
	/*
	 * Userspace twins only (the kernel's windows have interrupts off):
	 * the T(2) reference span was over twice the shortest seen so far, so
	 * something interrupted it and the sample's net is too small.
	 */
	KBENCH_SAMPLE_F_REFERENCE	= 1U << 5,
};

/* KBENCH_A_RESULT_FLAGS */
enum kbench_result_flags {
	/* overhead correction would have been negative and was clamped to 0 */
	KBENCH_RESULT_F_CLAMPED		= 1U << 0,
	/* fewer valid samples than requested (flagged ones were excluded) */
	KBENCH_RESULT_F_EXCLUDED	= 1U << 1,
};

/* KBENCH_A_ROUTINE_FLAGS */
enum kbench_routine_flags {
	KBENCH_ROUTINE_F_BUILTIN	= 1U << 0,	/* part of kbench.ko */
	KBENCH_ROUTINE_F_USER_TWIN	= 1U << 1,	/* kbenchctl has a userspace twin */
};

enum kbench_info_attrs {
	KBENCH_A_INFO_UNSPEC,
	KBENCH_A_INFO_VERSION,		/* string: module version */
	KBENCH_A_INFO_ARCH,		/* string: as uname -m ("x86_64", "aarch64") */
	KBENCH_A_INFO_COUNTER,		/* string: "tsc", "cntvct", "timebase" */
	KBENCH_A_INFO_COUNTER_HZ,	/* u64: counter ticks per second */
	KBENCH_A_INFO_COUNTER_FLAGS,	/* u32: enum kbench_counter_flags */
	KBENCH_A_INFO_DETECTORS,	/* u32: enum kbench_sample_flags available */
	KBENCH_A_INFO_MAX_SAMPLES,	/* u32: per routine and run */
	KBENCH_A_INFO_MAX_ITERATIONS,	/* u32: per sample */
	KBENCH_A_INFO_MAX_WINDOW_US,	/* u32: longest irq-off window */
	KBENCH_A_INFO_MAX_RUN_MS,	/* u32: longest run */
	KBENCH_A_INFO_DUTY_PCT,		/* u32: max share of time irqs are off */
	KBENCH_A_INFO_RUNS_KEPT,	/* u32: runs kept for SAMPLES_GET */
	KBENCH_A_INFO_STORE_BYTES_MAX,	/* u64: sample store memory cap */
	KBENCH_A_INFO_STORE_BYTES,	/* u64: sample store memory in use */
	KBENCH_A_INFO_NR_CPUS,		/* u32: nr_cpu_ids */
	KBENCH_A_INFO_KERNEL,		/* string: kernel release */
	KBENCH_A_INFO_PAD,

	__KBENCH_A_INFO_MAX,
	KBENCH_A_INFO_MAX = __KBENCH_A_INFO_MAX - 1
};

enum kbench_routine_attrs {
	KBENCH_A_ROUTINE_UNSPEC,
	KBENCH_A_ROUTINE_NAME,		/* string */
	KBENCH_A_ROUTINE_DESC,		/* string */
	KBENCH_A_ROUTINE_MODULE,	/* string: owner module, "kbench" for built-ins */
	KBENCH_A_ROUTINE_BYTES_PER_ITER,/* u32: 0 = operations */
	KBENCH_A_ROUTINE_FLAGS,		/* u32: enum kbench_routine_flags */
	KBENCH_A_ROUTINE_PAD,

	__KBENCH_A_ROUTINE_MAX,
	KBENCH_A_ROUTINE_MAX = __KBENCH_A_ROUTINE_MAX - 1
};

/*
 * CLOCK_GET: one message per clock.  Resolution: the smallest and the sum of
 * non-zero steps seen over RES_CHANGES observed changes (mean = sum/changes),
 * in the clock's unit.  Latency: LAT_READS reads in a tight loop took
 * LAT_SPAN clock units and LAT_CYCLES counter ticks; latency per read is
 * span / (reads + 1).  HZ converts the clock's unit to seconds.
 */
enum kbench_clock_attrs {
	KBENCH_A_CLOCK_UNSPEC,
	KBENCH_A_CLOCK_NAME,		/* string: "ktime_get_ns", ... */
	KBENCH_A_CLOCK_UNIT,		/* string: "ns", "cycles", "jiffies" */
	KBENCH_A_CLOCK_HZ,		/* u64: units per second */
	KBENCH_A_CLOCK_RES_MIN,		/* u64: smallest non-zero step */
	KBENCH_A_CLOCK_RES_SUM,		/* u64: sum of the non-zero steps */
	KBENCH_A_CLOCK_RES_CHANGES,	/* u32: steps observed */
	KBENCH_A_CLOCK_LAT_READS,	/* u32: reads in the latency loop */
	KBENCH_A_CLOCK_LAT_SPAN,	/* u64: loop span in clock units */
	KBENCH_A_CLOCK_LAT_CYCLES,	/* u64: loop span in counter ticks */
	KBENCH_A_CLOCK_PAD,

	__KBENCH_A_CLOCK_MAX,
	KBENCH_A_CLOCK_MAX = __KBENCH_A_CLOCK_MAX - 1
};

/* KBENCH_A_RUN_STATUS: why a run ended. */
enum kbench_run_status {
	KBENCH_RUN_COMPLETE,		/* all samples taken */
	KBENCH_RUN_TIMEOUT,		/* max_run_ms reached: partial result */
};

/*
 * RUN request: ROUTINE (1..KBENCH_RUN_ROUTINES_MAX times, interleaved in
 * the given order, rotated each round), CPU, SAMPLES, ITERATIONS (absent:
 * adaptive), TARGET_NS (adaptive window target), WARMUP.
 * RUN reply: the request values as used, plus RUN_ID, counter, timing, and
 * one nested RESULT per routine (in request order) and OVERHEAD (the
 * `empty` routine measured interleaved, for calibration).
 */
enum kbench_run_attrs {
	KBENCH_A_RUN_UNSPEC,
	KBENCH_A_RUN_ROUTINE,		/* string, multi-attr */
	KBENCH_A_RUN_CPU,		/* u32 */
	KBENCH_A_RUN_SAMPLES,		/* u32: samples per routine */
	KBENCH_A_RUN_ITERATIONS,	/* u32: N per sample */
	KBENCH_A_RUN_TARGET_NS,		/* u32: adaptive N: window target */
	KBENCH_A_RUN_WARMUP,		/* u32: samples discarded first */
	KBENCH_A_RUN_ID,		/* u32: key for SAMPLES_GET */
	KBENCH_A_RUN_ADAPTIVE,		/* u32: 1 if ITERATIONS was chosen */
	KBENCH_A_RUN_COUNTER,		/* string */
	KBENCH_A_RUN_COUNTER_HZ,	/* u64 */
	KBENCH_A_RUN_ELAPSED_NS,	/* u64: wall time of the run */
	KBENCH_A_RUN_SPAN_CYCLES,	/* u64: counter, first to last window */
	KBENCH_A_RUN_ROUTINE_CYCLES,	/* u64: counter inside N iterations */
	KBENCH_A_RUN_WINDOW_CYCLES,	/* u64: counter with irqs off */
	KBENCH_A_RUN_MEM_BYTES,		/* u64: sample memory of this run */
	KBENCH_A_RUN_STATUS,		/* u32: enum kbench_run_status */
	KBENCH_A_RUN_RESULT,		/* nest: kbench_result_attrs, multi-attr */
	KBENCH_A_RUN_OVERHEAD,		/* nest: kbench_result_attrs */
	KBENCH_A_RUN_PAD,

	__KBENCH_A_RUN_MAX,
	KBENCH_A_RUN_MAX = __KBENCH_A_RUN_MAX - 1
};

/*
 * One routine's exact integer summary.  NET_* are per-sample net cycles
 * (T(N+2) - T(2)) over valid samples.  PER_ITER_*_MILLI are net cycles per
 * iteration in thousandths; CORR_*_MILLI subtract the overhead routine's
 * figure of the same statistic, clamped at 0 (KBENCH_RESULT_F_CLAMPED).
 */
enum kbench_result_attrs {
	KBENCH_A_RESULT_UNSPEC,
	KBENCH_A_RESULT_ROUTINE,	/* string */
	KBENCH_A_RESULT_INDEX,		/* u32: position in the run (SAMPLES_GET) */
	KBENCH_A_RESULT_SAMPLES,	/* u32: samples taken */
	KBENCH_A_RESULT_VALID,		/* u32: samples in the summary */
	KBENCH_A_RESULT_EXCL_CPU,	/* u32: excluded, CPU changed */
	KBENCH_A_RESULT_EXCL_BACKWARDS,	/* u32: excluded, counter backwards */
	KBENCH_A_RESULT_EXCL_NMI,	/* u32: excluded, NMI */
	KBENCH_A_RESULT_EXCL_SMI,	/* u32: excluded, SMI */
	KBENCH_A_RESULT_EXCL_WINDOW,	/* u32: excluded, window too long */
	KBENCH_A_RESULT_NET_MIN,	/* s64 */
	KBENCH_A_RESULT_NET_MEDIAN,	/* s64: lower median */
	KBENCH_A_RESULT_NET_MAX,	/* s64 */
	KBENCH_A_RESULT_NET_SUM,	/* s64: for the exact mean */
	KBENCH_A_RESULT_PER_ITER_MIN_MILLI,	/* s64 */
	KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI,	/* s64 */
	KBENCH_A_RESULT_CORR_MIN_MILLI,		/* s64 */
	KBENCH_A_RESULT_CORR_MEDIAN_MILLI,	/* s64 */
	KBENCH_A_RESULT_FLAGS,		/* u32: enum kbench_result_flags */
	KBENCH_A_RESULT_BYTES_PER_ITER,	/* u32 */
	KBENCH_A_RESULT_PAD,

	__KBENCH_A_RESULT_MAX,
	KBENCH_A_RESULT_MAX = __KBENCH_A_RESULT_MAX - 1
};

/*
 * SAMPLES_GET dump request: RUN_ID (required), ROUTINE (optional: only the
 * series with that index).  Each reply message carries
 * ROUTINE (index into the run: 0..n-1 for the routines, n for the overhead
 * routine), FIRST (index of its first sample) and two arrays of the same
 * length in sample order: NET (s64 each) and FLAGS (u32 each), in host byte
 * order.  Every sample is sent exactly once, in order.
 */
enum kbench_samples_attrs {
	KBENCH_A_SAMPLES_UNSPEC,
	KBENCH_A_SAMPLES_RUN_ID,	/* u32 */
	KBENCH_A_SAMPLES_ROUTINE,	/* u32: routine index */
	KBENCH_A_SAMPLES_NAME,		/* string: routine name */
	KBENCH_A_SAMPLES_FIRST,		/* u32 */
	KBENCH_A_SAMPLES_NET,		/* binary: s64[] */
	KBENCH_A_SAMPLES_FLAGS,		/* binary: u32[] */
	KBENCH_A_SAMPLES_ITERATIONS,	/* u32 */

	__KBENCH_A_SAMPLES_MAX,
	KBENCH_A_SAMPLES_MAX = __KBENCH_A_SAMPLES_MAX - 1
};

/*
 * PROGRESS_NTF: about every 250 ms of a run, unicast to the socket that sent
 * the RUN (nlmsg_seq 0), before the RUN reply.  KBENCH_MCGRP_PROGRESS is
 * still registered but nothing is sent to it.
 */
enum kbench_progress_attrs {
	KBENCH_A_PROGRESS_UNSPEC,
	KBENCH_A_PROGRESS_RUN_ID,	/* u32 */
	KBENCH_A_PROGRESS_PORTID,	/* u32: netlink port that asked for the run */
	KBENCH_A_PROGRESS_DONE,		/* u32: samples taken (all routines) */
	KBENCH_A_PROGRESS_TOTAL,	/* u32: samples planned (all routines) */
	KBENCH_A_PROGRESS_ELAPSED_NS,	/* u64 */
	KBENCH_A_PROGRESS_PAD,

	__KBENCH_A_PROGRESS_MAX,
	KBENCH_A_PROGRESS_MAX = __KBENCH_A_PROGRESS_MAX - 1
};

#endif /* _UAPI_LINUX_KBENCH_H */
