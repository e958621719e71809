/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: the fields of a routine's integer summary, written once, as an
 * X-macro file (included several times, no include guard).  Each line
 * names a field as every userspace structure and the saved-result file
 * name it (kb_result, kbench_series_result, kb_ev_result,
 * kbench_event_series; the key in the "summary" object), its member in
 * struct kbench_summary (summary.h) and the netlink attribute that
 * carries it in a RESULT nest (and in an EVENT_SUMMARY nest for the
 * figures an event has too).  Define the kinds you want before including
 * it; the others expand to nothing:
 *
 *   KBENCH_SERIES(name, summary member, RESULT attr, EVENT_SUMMARY attr)
 *	figures of a series of samples, the counter's or an event's (s64)
 *   KBENCH_CORR(name, summary member, RESULT attr)
 *	figures corrected by the overhead routine, absent for the overhead
 *	itself and for events in the netlink reply (s64)
 *   KBENCH_COUNT(name, summary member, RESULT attr)
 *	sample counts (u32)
 *   KBENCH_EXCL(bit, id, key, sample flag, RESULT attr)
 *	excluded samples by reason, in flag-bit order (u32): the sample
 *	flag is 1 << bit; key is also the flag's name, id the suffix of
 *	userspace's KB_EXCL_<id> index
 *   KBENCH_ID(name, type, RESULT attr)
 *	what a RESULT nest says of its series besides the figures: type
 *	STR (a NUL-terminated string), U32 or U64
 *   KBENCH_ID_OPT(name, type, RESULT attr, presence)
 *	the same, put only where the bool member presence is true
 *   KBENCH_ID_FLAGS(name, RESULT attr)
 *	the OR of the series' sample flags (u32; userspace writes names)
 *   KBENCH_EV_ID(name, type, EVENT_SUMMARY attr)
 *	what an EVENT_SUMMARY nest says of its event besides the figures
 *
 * The consumers: the module's RESULT and EVENT_SUMMARY nests and its
 * flag names (kmod/kbench_schema.c; struct kbench_result_id and
 * kbench_event_id in kmod/kbench_internal.h), the netlink parser (user/nl/), the
 * twins (user/model/twin.c), libkbench's fill (user/lib/measure.c), the
 * saved results (user/results/, through user/model/schema.c's tables),
 * the sample flags' names (user/cli/names.c).
 *
 * A new statistic: its attribute in the spec (RESULT, and EVENT_SUMMARY
 * for a series figure), its member in struct kbench_summary and its
 * computation (summary.h), one line here, its printing, its docs.
 */
#ifndef KBENCH_SERIES
#define KBENCH_SERIES(name, sum, attr, ev_attr)
#endif
#ifndef KBENCH_CORR
#define KBENCH_CORR(name, sum, attr)
#endif
#ifndef KBENCH_COUNT
#define KBENCH_COUNT(name, sum, attr)
#endif
#ifndef KBENCH_EXCL
#define KBENCH_EXCL(bit, id, key, flag, attr)
#endif
#ifndef KBENCH_ID
#define KBENCH_ID(name, type, attr)
#endif
#ifndef KBENCH_ID_OPT
#define KBENCH_ID_OPT(name, type, attr, presence)
#endif
#ifndef KBENCH_ID_FLAGS
#define KBENCH_ID_FLAGS(name, attr)
#endif
#ifndef KBENCH_EV_ID
#define KBENCH_EV_ID(name, type, attr)
#endif

KBENCH_ID(routine, STR, KBENCH_A_RESULT_ROUTINE)
KBENCH_ID(index, U32, KBENCH_A_RESULT_INDEX)
KBENCH_ID(bytes_per_iter, U32, KBENCH_A_RESULT_BYTES_PER_ITER)
KBENCH_ID_OPT(arg, U64, KBENCH_A_RESULT_ARG, has_arg)
KBENCH_ID_FLAGS(flags, KBENCH_A_RESULT_FLAGS)

KBENCH_EV_ID(index, U32, KBENCH_A_EVENT_SUMMARY_INDEX)
KBENCH_EV_ID(name, STR, KBENCH_A_EVENT_SUMMARY_NAME)

KBENCH_SERIES(net_min, min, KBENCH_A_RESULT_NET_MIN,
	      KBENCH_A_EVENT_SUMMARY_NET_MIN)
KBENCH_SERIES(net_median, median, KBENCH_A_RESULT_NET_MEDIAN,
	      KBENCH_A_EVENT_SUMMARY_NET_MEDIAN)
KBENCH_SERIES(net_max, max, KBENCH_A_RESULT_NET_MAX,
	      KBENCH_A_EVENT_SUMMARY_NET_MAX)
KBENCH_SERIES(net_sum, sum, KBENCH_A_RESULT_NET_SUM,
	      KBENCH_A_EVENT_SUMMARY_NET_SUM)
KBENCH_SERIES(per_iter_min_milli, per_iter_min_milli,
	      KBENCH_A_RESULT_PER_ITER_MIN_MILLI,
	      KBENCH_A_EVENT_SUMMARY_PER_ITER_MIN_MILLI)
KBENCH_SERIES(per_iter_median_milli, per_iter_median_milli,
	      KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI,
	      KBENCH_A_EVENT_SUMMARY_PER_ITER_MEDIAN_MILLI)

KBENCH_CORR(corr_min_milli, corr_min_milli, KBENCH_A_RESULT_CORR_MIN_MILLI)
KBENCH_CORR(corr_median_milli, corr_median_milli,
	    KBENCH_A_RESULT_CORR_MEDIAN_MILLI)

KBENCH_COUNT(samples, samples, KBENCH_A_RESULT_SAMPLES)
KBENCH_COUNT(valid, valid, KBENCH_A_RESULT_VALID)

KBENCH_EXCL(0, CPU, "cpu_changed", KBENCH_SAMPLE_F_CPU_CHANGED,
	    KBENCH_A_RESULT_EXCL_CPU)
KBENCH_EXCL(1, BACKWARDS, "backwards", KBENCH_SAMPLE_F_BACKWARDS,
	    KBENCH_A_RESULT_EXCL_BACKWARDS)
KBENCH_EXCL(2, NMI, "nmi", KBENCH_SAMPLE_F_NMI,
	    KBENCH_A_RESULT_EXCL_NMI)
KBENCH_EXCL(3, SMI, "smi", KBENCH_SAMPLE_F_SMI,
	    KBENCH_A_RESULT_EXCL_SMI)
KBENCH_EXCL(4, WINDOW, "window", KBENCH_SAMPLE_F_WINDOW,
	    KBENCH_A_RESULT_EXCL_WINDOW)
KBENCH_EXCL(5, REFERENCE, "reference", KBENCH_SAMPLE_F_REFERENCE,
	    KBENCH_A_RESULT_EXCL_REFERENCE)
KBENCH_EXCL(6, EVENT, "event", KBENCH_SAMPLE_F_EVENT,
	    KBENCH_A_RESULT_EXCL_EVENT)
KBENCH_EXCL(7, STEAL, "steal", KBENCH_SAMPLE_F_STEAL,
	    KBENCH_A_RESULT_EXCL_STEAL)
KBENCH_EXCL(8, SKEW, "skew", KBENCH_SAMPLE_F_SKEW,
	    KBENCH_A_RESULT_EXCL_SKEW)

#undef KBENCH_SERIES
#undef KBENCH_CORR
#undef KBENCH_COUNT
#undef KBENCH_EXCL
#undef KBENCH_ID
#undef KBENCH_ID_OPT
#undef KBENCH_ID_FLAGS
#undef KBENCH_EV_ID
