/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment report: what on this machine can distort a measurement.
 * The kernel's facts come from the module (INFO's environment nest: debug
 * options, preemption, HZ, hypervisor, detectors); kbenchctl reads the
 * rest from /sys and /proc (under KBENCH_SYSFS_ROOT, see sysfs.h): the
 * NMI watchdog, slub_debug and, for the measured CPU, cpufreq, boost, the
 * SMT sibling, isolation and the interrupts aimed at it.
 *
 * Every item has a value, whether it is a problem here, its effect in one
 * line and what to do.  `info` shows them all, run and compare one warning
 * line per problem (-v: all), --json an "environment" object (JSON.md).
 */
#ifndef KBENCHCTL_ENV_H
#define KBENCHCTL_ENV_H

#include <stdbool.h>
#include <stdint.h>

struct nlattr;

/* INFO's environment nest and detectors, as the module sent them. */
struct kb_kernel_env {
	bool known;			/* the module sent an environment */
	uint32_t debug, debug_active;	/* enum kbench_kernel_debug */
	uint32_t flags;			/* enum kbench_env_flags */
	uint32_t preempt_model;		/* enum kbench_preempt_model */
	uint32_t hz;
	uint32_t hypervisor;		/* enum kbench_hypervisor */
	char vendor[48];
	uint32_t detectors;		/* INFO detectors */
};

/* Parse INFO's attributes (@tb, up to KBENCH_A_INFO_MAX) into @k. */
void kb_kernel_env_parse(struct nlattr **tb, struct kb_kernel_env *k);

enum kb_env_id {
	/* the kernel */
	KB_ENV_DEBUG,
	KB_ENV_SLUB,
	KB_ENV_PREEMPT_RT,
	KB_ENV_PREEMPTION,
	KB_ENV_HZ,
	KB_ENV_NMI_WATCHDOG,
	KB_ENV_HYPERVISOR,
	KB_ENV_PSEUDO_NMI,
	/* the measured CPU */
	KB_ENV_CPUFREQ,
	KB_ENV_GOVERNOR,
	KB_ENV_BOOST,
	KB_ENV_FREQUENCY,
	KB_ENV_SMT,
	KB_ENV_ISOLATED,
	KB_ENV_IRQS,
	KB_ENV_N,
};
#define KB_ENV_FIRST_CPU	KB_ENV_CPUFREQ

struct kb_env_item {
	bool known;		/* value could be read */
	bool problem;		/* it can distort a measurement here */
	char value[256];
	const char *effect;	/* one line: why it matters */
	char fix[96];		/* what to do ("" when nothing) */
};

struct kb_env {
	int cpu;		/* the measured CPU; -1: no CPU items */
	struct kb_env_item item[KB_ENV_N];
};

/*
 * Fill @e: the kernel's items from @k (NULL or !known: unknown, but for
 * what /proc tells), the CPU items for @cpu (-1: none).
 */
void kb_env_collect(struct kb_env *e, const struct kb_kernel_env *k, int cpu);

/* The item's JSON key ("governor") and table label ("governor"). */
const char *kb_env_key(enum kb_env_id id);
const char *kb_env_label(enum kb_env_id id);

unsigned int kb_env_problems(const struct kb_env *e);

/*
 * Does a change of the item @key change what the measured code costs (a
 * debug option, the clock, a busy sibling), rather than only what gets
 * excluded or how a run is set up?  kbenchctl diff warns about those.
 */
bool kb_env_key_moves_figures(const char *key);

/* What the text form shows (JSON is always the whole "environment"). */
enum kb_env_view {
	KB_ENV_VIEW_ALL,	/* info: every item; effect and fix of problems */
	KB_ENV_VIEW_WARNINGS,	/* run/compare: one line per problem */
	KB_ENV_VIEW_VERBOSE,	/* -v: every item with its effect */
};

/* The "environment" object (JSON) or the @view text, in one pass. */
void kb_env_print(const struct kb_env *e, enum kb_env_view view);

#endif /* KBENCHCTL_ENV_H */
