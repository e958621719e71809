// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl option parsing helpers.
 */
#include <stdio.h>
#include <string.h>

#include "opts.h"
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
