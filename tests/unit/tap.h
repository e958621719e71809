/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal TAP producer: every check is one numbered test line, the plan
 * is printed at the end ("1..N"), and diagnostics start with "#".
 */
#ifndef KBENCH_TAP_H
#define KBENCH_TAP_H

#include <stdarg.h>
#include <stdio.h>

/* defined in test_main.c: one numbering across all test files */
extern int tap_n, tap_failed;

static inline int __attribute__((format(printf, 2, 3)))
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

static inline void __attribute__((format(printf, 1, 2)))
diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static inline void __attribute__((format(printf, 2, 3)))
skip(const char *why, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("ok %d - ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	if (tap_failed)
		printf("# %d of %d failed\n", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* KBENCH_TAP_H */
