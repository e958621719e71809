// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl: command-line client of the kbench kernel module.
 */
#include <stdio.h>
#include <string.h>

#include "subcommands.h"
#include "nl.h"
#include "opts.h"
#include "output.h"

#include <linux/kbench.h>

static int help_main(int argc, char *argv[])
{
	const struct subcommand *sc;

	if (argc < 2) {
		subcommand_usage(stdout, &kb_global);
		return EXIT_OK;
	}
	sc = subcommand_find(argv[1]);
	if (!sc)
		return unknown_subcommand(argv[1]);
	subcommand_usage(stdout, sc);
	return EXIT_OK;
}

int main(int argc, char *argv[])
{
	const struct subcommand *sc;
	int first, ret;

	out_init(stdout, false);
	/* kernel errors name the option that set the attribute */
	kb_nl_set_attr_namer(kb_opts_name_attr);
	ret = kb_opts_parse(&kb_global, argc, argv, &kb_common, &first);
	if (ret)
		return kb_exit_status(ret);
	if (kb_common.version) {
		printf("kbenchctl %s (netlink family %s v%d)\n",
		       KBENCHCTL_VERSION, KBENCH_GENL_NAME, KBENCH_GENL_VERSION);
		return EXIT_OK;
	}
	if (first >= argc) {
		subcommand_usage(stderr, &kb_global);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[first], "help"))
		return help_main(argc - first, argv + first);
	sc = subcommand_find(argv[first]);
	if (!sc)
		return unknown_subcommand(argv[first]);
	ret = sc->fn(sc, argc - first, argv + first);
	if (fflush(stdout) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	return ret;
}
