// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl's ground floor: the program's name, the --json switch, exit
 * statuses, the messages of a bad argument and the wall clock (base.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base.h"

const char *prog = "kbenchctl";
bool opt_json;
int opt_color;

int kb_exit_status(int err)
{
	if (err >= 0)
		return EXIT_OK;
	return err == -EINVAL || err == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
}

static void vmsg(const char *sub, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s%s%s: ", prog, sub ? " " : "", sub ? sub : "");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int kb_arg_error(const char *sub, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(sub, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int usage_error(const char *sub, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(sub, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s help%s%s' for more information.\n", prog,
		sub ? " " : "", sub ? sub : "");
	return EXIT_USAGE;
}

uint64_t kb_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int kb_path_join(char *buf, size_t len, const char *dir, const char *name)
{
	size_t dl = strlen(dir);
	int n;

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	n = snprintf(buf, len, "%.*s%s%s", (int)dl, dir,
		     dl && dir[dl - 1] == '/' ? "" : "/", name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void kb_iso_utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
}
