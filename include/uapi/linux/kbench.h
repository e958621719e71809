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
#define KBENCH_EVENTS_MAX	8
#define KBENCH_ARG_NAME_MAX	15
#define KBENCH_CPUS_MAX		32

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
 *   one of the routine's latest windows (since the warm-up; the shortest of
 *   the last 16 when all 16 were longer) plus two steps of the counter
 *   (something landed in it and the sample's net is too small), or longer than
 *   that shortest by two steps plus half the net, or the net was negative.
 * @KBENCH_SAMPLE_F_EVENT: A hardware event of the run was not counting on the
 *   run's CPU at one end of the window (not active: in error, descheduled, or
 *   its CPU's PMU taken away). Its counts of this window cannot be trusted.
 * @KBENCH_SAMPLE_F_STEAL: The host ran something else on this virtual CPU
 *   during the window: its paravirtual steal-time record (KVM steal time on
 *   x86, PV time on arm64) changed between the start and the end.
 * @KBENCH_SAMPLE_F_SKEW: A concurrent run (several CPUs at once): this window
 *   did not start together with the same window on the run's other CPUs - the
 *   rendezvous before it gave up waiting for one of them, or the spread of
 *   their start times was over the run's skew bound.
 */
enum kbench_sample_flags {
	KBENCH_SAMPLE_F_CPU_CHANGED = 1,
	KBENCH_SAMPLE_F_BACKWARDS = 2,
	KBENCH_SAMPLE_F_NMI = 4,
	KBENCH_SAMPLE_F_SMI = 8,
	KBENCH_SAMPLE_F_WINDOW = 16,
	KBENCH_SAMPLE_F_REFERENCE = 32,
	KBENCH_SAMPLE_F_EVENT = 64,
	KBENCH_SAMPLE_F_STEAL = 128,
	KBENCH_SAMPLE_F_SKEW = 256,
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
 * @KBENCH_ROUTINE_F_SETUP: Has a setup, called before every run in process
 *   context, and the teardown after it.
 */
enum kbench_routine_flags {
	KBENCH_ROUTINE_F_BUILTIN = 1,
	KBENCH_ROUTINE_F_USER_TWIN = 2,
	KBENCH_ROUTINE_F_SETUP = 4,
};

/**
 * enum kbench_kernel_debug - Debug options of the running kernel that add work
 *   to kernel code, so that a routine costs more than on a production kernel
 *   (environment debug and debug-active).
 * @KBENCH_DEBUG_F_LOCKDEP: CONFIG_LOCKDEP (lock validation or statistics hook
 *   every lock).
 * @KBENCH_DEBUG_F_PROVE_LOCKING: CONFIG_PROVE_LOCKING (lockdep's dependency
 *   checks).
 * @KBENCH_DEBUG_F_DEBUG_ATOMIC_SLEEP: CONFIG_DEBUG_ATOMIC_SLEEP (might_sleep()
 *   checks).
 * @KBENCH_DEBUG_F_DEBUG_PREEMPT: CONFIG_DEBUG_PREEMPT (checked
 *   smp_processor_id(), preempt counts).
 * @KBENCH_DEBUG_F_KASAN: CONFIG_KASAN (every memory access checked).
 * @KBENCH_DEBUG_F_KCSAN: CONFIG_KCSAN (watchpoints on memory accesses).
 * @KBENCH_DEBUG_F_KMSAN: CONFIG_KMSAN (shadow of every byte).
 * @KBENCH_DEBUG_F_UBSAN: CONFIG_UBSAN (undefined-behaviour checks).
 * @KBENCH_DEBUG_F_KCOV: CONFIG_KCOV (coverage callbacks in instrumented code).
 * @KBENCH_DEBUG_F_DEBUG_PAGEALLOC: CONFIG_DEBUG_PAGEALLOC; active when enabled
 *   at boot (debug_pagealloc=on or CONFIG_DEBUG_PAGEALLOC_ENABLE_DEFAULT).
 * @KBENCH_DEBUG_F_DEBUG_OBJECTS: CONFIG_DEBUG_OBJECTS (object life-cycle
 *   tracking).
 * @KBENCH_DEBUG_F_SLUB_DEBUG_ON: CONFIG_SLUB_DEBUG_ON: every slab cache
 *   debugged unless the command line says slub_debug=-. The module cannot see
 *   slub_debug itself (kbenchctl reads /sys/kernel/slab).
 * @KBENCH_DEBUG_F_KMEMLEAK: CONFIG_DEBUG_KMEMLEAK (every allocation tracked).
 * @KBENCH_DEBUG_F_DEBUG_SPINLOCK: CONFIG_DEBUG_SPINLOCK (checked, out-of-line
 *   spin locks).
 * @KBENCH_DEBUG_F_LOCK_STAT: CONFIG_LOCK_STAT (contention statistics of every
 *   lock).
 */
enum kbench_kernel_debug {
	KBENCH_DEBUG_F_LOCKDEP = 1,
	KBENCH_DEBUG_F_PROVE_LOCKING = 2,
	KBENCH_DEBUG_F_DEBUG_ATOMIC_SLEEP = 4,
	KBENCH_DEBUG_F_DEBUG_PREEMPT = 8,
	KBENCH_DEBUG_F_KASAN = 16,
	KBENCH_DEBUG_F_KCSAN = 32,
	KBENCH_DEBUG_F_KMSAN = 64,
	KBENCH_DEBUG_F_UBSAN = 128,
	KBENCH_DEBUG_F_KCOV = 256,
	KBENCH_DEBUG_F_DEBUG_PAGEALLOC = 512,
	KBENCH_DEBUG_F_DEBUG_OBJECTS = 1024,
	KBENCH_DEBUG_F_SLUB_DEBUG_ON = 2048,
	KBENCH_DEBUG_F_KMEMLEAK = 4096,
	KBENCH_DEBUG_F_DEBUG_SPINLOCK = 8192,
	KBENCH_DEBUG_F_LOCK_STAT = 16384,
};

/**
 * enum kbench_env_flags - Properties of the running kernel (environment
 *   flags).
 * @KBENCH_ENV_F_PREEMPT_RT: CONFIG_PREEMPT_RT.
 * @KBENCH_ENV_F_PREEMPT_DYNAMIC: CONFIG_PREEMPT_DYNAMIC: the preemption model
 *   was chosen at boot (preempt=) or later, and preempt-model is the current
 *   one.
 * @KBENCH_ENV_F_PSEUDO_NMI: arm64 with irqchip.gicv3_pseudo_nmi=1
 *   (CONFIG_ARM64_PSEUDO_NMI): local_irq_save() masks interrupts by priority
 *   in the GIC, so pseudo-NMIs (perf, the hard lockup detector, backtrace
 *   IPIs) can run inside windows. Such samples are flagged nmi (info detectors
 *   has nmi).
 */
enum kbench_env_flags {
	KBENCH_ENV_F_PREEMPT_RT = 1,
	KBENCH_ENV_F_PREEMPT_DYNAMIC = 2,
	KBENCH_ENV_F_PSEUDO_NMI = 4,
};

/**
 * enum kbench_preempt_model - The preemption model in effect.
 * @KBENCH_PREEMPT_NONE: No forced preemption (server).
 * @KBENCH_PREEMPT_VOLUNTARY: Preemption at might_resched() points (desktop).
 * @KBENCH_PREEMPT_FULL: Preemptible everywhere but in atomic sections (low
 *   latency).
 * @KBENCH_PREEMPT_LAZY: Full preemption of the scheduler class, deferred for
 *   others.
 * @KBENCH_PREEMPT_LAZIEST: Lazy preemption, deferred even for the RT class.
 */
enum kbench_preempt_model {
	KBENCH_PREEMPT_NONE,
	KBENCH_PREEMPT_VOLUNTARY,
	KBENCH_PREEMPT_FULL,
	KBENCH_PREEMPT_LAZY,
	KBENCH_PREEMPT_LAZIEST,
};

/**
 * enum kbench_hypervisor - The hypervisor the kernel detected. On x86
 *   x86_hyper_type; "other" when the CPU's hypervisor bit is set but the
 *   kernel knows no driver for it (qemu TCG, bhyve, ...). On arm64 the SMCCC
 *   vendor hypervisor service (KVM) or Xen; a hypervisor that offers neither
 *   is not seen.
 * @KBENCH_HYPERVISOR_NONE: No hypervisor seen.
 * @KBENCH_HYPERVISOR_OTHER: Another hypervisor (hypervisor-vendor names it
 *   where it can).
 */
enum kbench_hypervisor {
	KBENCH_HYPERVISOR_NONE,
	KBENCH_HYPERVISOR_KVM,
	KBENCH_HYPERVISOR_XEN,
	KBENCH_HYPERVISOR_HYPERV,
	KBENCH_HYPERVISOR_VMWARE,
	KBENCH_HYPERVISOR_OTHER,
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
	KBENCH_A_INFO_EVENTS_MAX,
	KBENCH_A_INFO_ENVIRONMENT,
	KBENCH_A_INFO_SETUP_BYTES_MAX,
	KBENCH_A_INFO_SETUP_BYTES,

	__KBENCH_A_INFO_MAX,
	KBENCH_A_INFO_MAX = (__KBENCH_A_INFO_MAX - 1)
};

enum kbench_env_attrs {
	KBENCH_A_ENV_UNSPEC,
	KBENCH_A_ENV_DEBUG,
	KBENCH_A_ENV_DEBUG_ACTIVE,
	KBENCH_A_ENV_FLAGS,
	KBENCH_A_ENV_PREEMPT_MODEL,
	KBENCH_A_ENV_HZ,
	KBENCH_A_ENV_HYPERVISOR,
	KBENCH_A_ENV_HYPERVISOR_VENDOR,

	__KBENCH_A_ENV_MAX,
	KBENCH_A_ENV_MAX = (__KBENCH_A_ENV_MAX - 1)
};

enum kbench_routine_attrs {
	KBENCH_A_ROUTINE_UNSPEC,
	KBENCH_A_ROUTINE_NAME,
	KBENCH_A_ROUTINE_DESC,
	KBENCH_A_ROUTINE_MODULE,
	KBENCH_A_ROUTINE_BYTES_PER_ITER,
	KBENCH_A_ROUTINE_FLAGS,
	KBENCH_A_ROUTINE_PAD,
	KBENCH_A_ROUTINE_ARG_NAME,
	KBENCH_A_ROUTINE_ARG_MIN,
	KBENCH_A_ROUTINE_ARG_MAX,
	KBENCH_A_ROUTINE_ARG_DEF,

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
	KBENCH_A_RUN_EVENT,
	KBENCH_A_RUN_EVENT_INFO,
	KBENCH_A_RUN_ARG,
	KBENCH_A_RUN_MAX_WINDOW_US,
	KBENCH_A_RUN_CPUS,
	KBENCH_A_RUN_CPU_RUN,
	KBENCH_A_RUN_SKEW_MAX,
	KBENCH_A_RUN_SKEW_MEDIAN,
	KBENCH_A_RUN_SKEW_BOUND,
	KBENCH_A_RUN_SKEW_FLAGGED,
	KBENCH_A_RUN_SKEW_NS,
	KBENCH_A_RUN_ITERATIONS_MIN,
	KBENCH_A_RUN_N_CHANGES,
	KBENCH_A_RUN_SAMPLES_REDUCED,
	KBENCH_A_RUN_ENV_FLAGS,
	KBENCH_A_RUN_GROUP_ID,
	KBENCH_A_RUN_CPU_COUNT,
	KBENCH_A_RUN_NOTIFY,
	KBENCH_A_RUN_ERROR,
	KBENCH_A_RUN_ERROR_MSG,
	KBENCH_A_RUN_ERROR_OFFS,

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
	KBENCH_A_RESULT_EXCL_EVENT,
	KBENCH_A_RESULT_EVENT,
	KBENCH_A_RESULT_EXCL_STEAL,
	KBENCH_A_RESULT_ARG,
	KBENCH_A_RESULT_EXCL_SKEW,

	__KBENCH_A_RESULT_MAX,
	KBENCH_A_RESULT_MAX = (__KBENCH_A_RESULT_MAX - 1)
};

enum kbench_event_attrs {
	KBENCH_A_EVENT_UNSPEC,
	KBENCH_A_EVENT_NAME,
	KBENCH_A_EVENT_TYPE,
	KBENCH_A_EVENT_CONFIG,
	KBENCH_A_EVENT_PMU,
	KBENCH_A_EVENT_ENABLED_NS,
	KBENCH_A_EVENT_RUNNING_NS,
	KBENCH_A_EVENT_PAD,

	__KBENCH_A_EVENT_MAX,
	KBENCH_A_EVENT_MAX = (__KBENCH_A_EVENT_MAX - 1)
};

enum kbench_event_summary_attrs {
	KBENCH_A_EVENT_SUMMARY_UNSPEC,
	KBENCH_A_EVENT_SUMMARY_INDEX,
	KBENCH_A_EVENT_SUMMARY_NAME,
	KBENCH_A_EVENT_SUMMARY_NET_MIN,
	KBENCH_A_EVENT_SUMMARY_NET_MEDIAN,
	KBENCH_A_EVENT_SUMMARY_NET_MAX,
	KBENCH_A_EVENT_SUMMARY_NET_SUM,
	KBENCH_A_EVENT_SUMMARY_PER_ITER_MIN_MILLI,
	KBENCH_A_EVENT_SUMMARY_PER_ITER_MEDIAN_MILLI,
	KBENCH_A_EVENT_SUMMARY_PAD,

	__KBENCH_A_EVENT_SUMMARY_MAX,
	KBENCH_A_EVENT_SUMMARY_MAX = (__KBENCH_A_EVENT_SUMMARY_MAX - 1)
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
	KBENCH_A_SAMPLES_EVENT_NET,
	KBENCH_A_SAMPLES_EVENT_NAME,
	KBENCH_A_SAMPLES_PACKED,
	KBENCH_A_SAMPLES_NET_WIDTH,
	KBENCH_A_SAMPLES_NET_PACKED,
	KBENCH_A_SAMPLES_FLAG_LIST,
	KBENCH_A_SAMPLES_DIVISOR,

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

enum kbench_cpu_run_attrs {
	KBENCH_A_CPU_RUN_UNSPEC,
	KBENCH_A_CPU_RUN_CPU,
	KBENCH_A_CPU_RUN_ID,
	KBENCH_A_CPU_RUN_ITERATIONS,
	KBENCH_A_CPU_RUN_STATUS,
	KBENCH_A_CPU_RUN_ELAPSED_NS,
	KBENCH_A_CPU_RUN_SPAN_CYCLES,
	KBENCH_A_CPU_RUN_ROUTINE_CYCLES,
	KBENCH_A_CPU_RUN_WINDOW_CYCLES,
	KBENCH_A_CPU_RUN_MEM_BYTES,
	KBENCH_A_CPU_RUN_RESULT,
	KBENCH_A_CPU_RUN_OVERHEAD,
	KBENCH_A_CPU_RUN_LATE_MAX,
	KBENCH_A_CPU_RUN_LATE_MEDIAN,
	KBENCH_A_CPU_RUN_PAD,

	__KBENCH_A_CPU_RUN_MAX,
	KBENCH_A_CPU_RUN_MAX = (__KBENCH_A_CPU_RUN_MAX - 1)
};

enum kbench_cmd {
	KBENCH_CMD_UNSPEC,
	KBENCH_CMD_INFO,
	KBENCH_CMD_ROUTINE_GET,
	KBENCH_CMD_CLOCK_GET,
	KBENCH_CMD_RUN,
	KBENCH_CMD_SAMPLES_GET,
	KBENCH_CMD_PROGRESS_NTF,
	KBENCH_CMD_RUN_GET,
	KBENCH_CMD_RUN_NTF,
	KBENCH_CMD_RUN_END_NTF,

	__KBENCH_CMD_MAX,
	KBENCH_CMD_MAX = (__KBENCH_CMD_MAX - 1)
};

#define KBENCH_MCGRP_PROGRESS	"progress"

#endif /* _UAPI_LINUX_KBENCH_H */
