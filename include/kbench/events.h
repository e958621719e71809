/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: hardware events by name, written once for kbench.ko (RUN's event
 * attribute), libkbench (its event rows) and kbenchctl (--events): the
 * same names mean the same perf_event_attr in every world.
 *
 * A name is one of perf's generic hardware events (perf list: "cycles",
 * "instructions", ...; perf's long aliases "cpu-cycles" and
 * "branch-instructions" too) or raw:0xNN, a code of the PMU's own: its
 * event number, and on x86 the unit mask above it (perf's rNNNN).  A raw
 * code is bounded by the widest that every PMU of the architecture takes
 * as one event (its sysfs format "event"): arm64's PMUv3 event number is
 * config:0-15 (the driver would silently drop higher bits), x86's event
 * select and unit mask are config:0-15 (higher bits are edge, invert,
 * counter mask: not an event), POWER9's event code config:0-51.
 */
#ifndef _KBENCH_EVENTS_H
#define _KBENCH_EVENTS_H

#include "world.h"

#if defined(__x86_64__) || defined(__aarch64__)
#define KBENCH_EVENT_RAW_MAX	0xffffULL
#define KBENCH_EVENT_RAW_MAX_STR "0xffff"
#elif defined(__powerpc64__)
#define KBENCH_EVENT_RAW_MAX	0xfffffffffffffULL
#define KBENCH_EVENT_RAW_MAX_STR "0xfffffffffffff"
#else
#define KBENCH_EVENT_RAW_MAX	0ULL
#define KBENCH_EVENT_RAW_MAX_STR "0 (no raw events on this architecture)"
#endif
/* The message of a raw code out of range, as one literal (extack). */
#define KBENCH_EVENT_RAW_RANGE_MSG					\
	"raw event code above " KBENCH_EVENT_RAW_MAX_STR		\
	", the widest event code of this architecture's PMUs"

#define KBENCH_EVENT_RAW_PREFIX	"raw:0x"

struct kbench_event_def {
	const char *name;
	unsigned long long config;	/* PERF_COUNT_HW_*, PERF_TYPE_HARDWARE */
};

/* The names: the generic events, then their aliases. */
#define KBENCH_EVENT_DEFS	12

/*
 * The @i-th generic event (perf's order, PERF_COUNT_HW_*), aliases after
 * them; NULL past the end.
 */
static inline const struct kbench_event_def *kbench_event_def(unsigned int i)
{
	static const struct kbench_event_def defs[KBENCH_EVENT_DEFS] = {
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
		{ "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
		{ "stalled-cycles-frontend",
		  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
		{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	};

	return i < KBENCH_EVENT_DEFS ? &defs[i] : NULL;
}

/* The generic events without their aliases: kbench_event_def(0 .. n - 1). */
#define KBENCH_EVENT_GENERIC	(PERF_COUNT_HW_REF_CPU_CYCLES + 1)

static inline int kbench_event_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/*
 * @name as a perf_event_attr type and config.  0; -ENOENT for a name that
 * is neither a generic event nor raw:0x...; -EINVAL for raw:0x without 1
 * to 16 hex digits; -ERANGE for a raw code above KBENCH_EVENT_RAW_MAX.
 */
static inline int kbench_event_parse(const char *name, unsigned int *type,
				     unsigned long long *config)
{
	const char *p = KBENCH_EVENT_RAW_PREFIX, *s = name;
	const struct kbench_event_def *d;
	unsigned long long v = 0;
	unsigned int i, digits = 0, c;

	for (i = 0; (d = kbench_event_def(i)); i++) {
		if (kbench_event_streq(name, d->name)) {
			*type = PERF_TYPE_HARDWARE;
			*config = d->config;
			return 0;
		}
	}
	while (*p && *s == *p) {
		p++;
		s++;
	}
	if (*p)
		return -ENOENT;
	for (; *s; s++) {
		c = (unsigned char)*s;
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -EINVAL;
		if (++digits > 16)
			return -EINVAL;
		v = v << 4 | c;
	}
	if (!digits)
		return -EINVAL;
	if (v > KBENCH_EVENT_RAW_MAX)
		return -ERANGE;
	*type = PERF_TYPE_RAW;
	*config = v;
	return 0;
}

#ifndef __KERNEL__
/*
 * Userspace: @attr for generic hardware event @config counting the
 * caller's own user mode, every other field zero (kbenchctl's probe of a
 * PMU, the selftests' probe of theirs: one attr, one answer).
 */
static inline void kbench_event_user_attr(struct perf_event_attr *attr,
					  unsigned long long config)
{
	__builtin_memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_HARDWARE;
	attr->config = config;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}
#endif

#endif /* _KBENCH_EVENTS_H */
