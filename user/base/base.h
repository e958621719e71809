/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl's ground floor: what every layer may use without reaching up
 * to the CLI (cli/cli.h): the program's name for messages, the global
 * --json switch, the version, the exit statuses and the message of a bad
 * argument.  It includes nothing of kbenchctl's own.
 */
#ifndef KBENCHCTL_BASE_H
#define KBENCHCTL_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <kbench/version.h>
/* kbenchctl is versioned with kbench (include/kbench/version.h) */
#define KBENCHCTL_VERSION	KBENCH_VERSION

/* Exit codes (documented in JSON.md and the man page). */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* kernel error, measurement failure */
#define EXIT_USAGE	2	/* usage error or module missing */
/* diff and run --baseline: 1 is a regression, 2 any error of theirs */
#define EXIT_REGRESSED	1

extern const char *prog;	/* "kbenchctl" */
extern bool opt_json;		/* global --json */
extern int opt_color;		/* global --color: enum kb_color_when (color.h) */

/*
 * The exit status of a step: 0 for 0 or a positive "done" (--help was
 * printed); for -errno, a bad argument (-EINVAL)
 * or something named that does not exist (-ENOENT: a routine, a run, the
 * module) is a usage error (2); anything else a failure (1).  Only the
 * *_main functions call it: everything below them returns -errno.
 */
int kb_exit_status(int err);

/* @t as ISO 8601 in UTC, "2026-11-28T12:00:00Z", into @buf ("" if none). */
void kb_iso_utc(time_t t, char *buf, size_t len);

/*
 * @dir and @name joined by one '/' into @buf, whatever slashes @dir ends
 * in ("results/" and "results" give "results/x.json"; "/" stays "/").
 * 0, or -ENAMETOOLONG.
 */
int kb_path_join(char *buf, size_t len, const char *dir, const char *name);

/* CLOCK_MONOTONIC now in ns: the wall time of kbenchctl's own steps. */
uint64_t kb_mono_ns(void);

/* "kbenchctl SUB: msg" to stderr (no hint); returns -EINVAL. */
int kb_arg_error(const char *sub, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "kbenchctl SUB: msg" + a hint to stderr; returns EXIT_USAGE. */
int usage_error(const char *sub, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* KBENCHCTL_BASE_H */
