// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl option parsing helpers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "nl.h"
#include "output.h"

int opts_next(int argc, char *argv[], const char *shortopts,
	      const struct option *longopts, int *exit_code)
{
	char optstring[64];
	int c;

	snprintf(optstring, sizeof(optstring), ":h%s", shortopts);
	opterr = 0;
	c = getopt_long(argc, argv, optstring, longopts, NULL);
	switch (c) {
	case OPT_JSON:
		opt_json = true;
		out_init(stdout, true);
		return opts_next(argc, argv, shortopts, longopts, exit_code);
	case OPT_HELP:
		subcommand_usage(stdout, subcommand_find(argv[0]));
		*exit_code = EXIT_OK;
		return -2;
	case ':':
		*exit_code = usage_error(argv[0], "option '%s' needs a value",
					 argv[optind - 1]);
		return -2;
	case '?':
		if (optopt)
			*exit_code = usage_error(argv[0], "unknown option '-%c'",
						 optopt);
		else
			*exit_code = usage_error(argv[0], "unknown option '%s'",
						 argv[optind - 1]);
		return -2;
	default:
		return c;
	}
}

int opt_u32(const char *sub, const char *name, const char *arg, uint32_t *v)
{
	if (parse_u32(arg, v))
		return usage_error(sub, "--%s: '%s' is not a number from 0 to 4294967295",
				   name, arg);
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int opts_none_open(int argc, char *argv[], const char *sub, struct kb_nl *nl)
{
	static const struct option longopts[] = { OPTS_COMMON, { 0 } };
	int c, ret = EXIT_OK, err;

	optind = 0;
	while ((c = opts_next(argc, argv, "", longopts, &ret)) != -1)
		if (c == -2)
			return ret;
	if (optind < argc)
		return usage_error(sub, "unexpected argument '%s'", argv[optind]);
	err = kb_nl_open(nl);
	if (err)
		return err == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
	return -1;
}
