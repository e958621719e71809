/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's hardware PMUs as the kernel offers them
 * (/sys/bus/event_source/devices/): `kbenchctl events`, `info`, and the
 * check before a run with --events.
 */
#ifndef KBENCHCTL_EVENTS_H
#define KBENCHCTL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KB_PMU_MAX	16

/*
 * A core PMU: one per CPU type (x86: "cpu", or "cpu_core" and "cpu_atom"
 * on hybrid parts; arm64: one per cluster type, "armv8_pmuv3_0",
 * "armv8_cortex_a53", ...; powerpc: "cpu").
 */
struct kb_pmu {
	char name[64];
	uint32_t type;		/* perf_event_attr type of its own events */
	char cpus[256];		/* its CPUs, as sysfs lists them */
	int first_cpu;		/* -1: unknown */
};

/*
 * Before counting @n events: a PMU exists.  0, or -EOPNOTSUPP after
 * "kbenchctl SUB: --events LIST: no hardware PMU: ...".
 */
int kb_pmu_check_events(const char *sub, const char *const *names,
			unsigned int n);

/* info: the PMUs in one line each (JSON "pmus", "no_pmu"). */
void kb_pmu_print_info(void);

#endif /* KBENCHCTL_EVENTS_H */
