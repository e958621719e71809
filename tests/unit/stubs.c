// SPDX-License-Identifier: GPL-2.0
/*
 * What kbenchctl.c (main, the subcommand table) provides to the rest of
 * kbenchctl, for programs that link user/ without it: the unit tests and
 * the loader's libFuzzer harness (tests/fuzz/resfile-fuzz.c).
 */
#include <stdbool.h>
#include <stdio.h>

#include "kbenchctl.h"

const char *prog = "kbenchctl";
bool opt_json;

/* the subcommand table lives in kbenchctl.c (main); tests need a stub */
const struct subcommand subcommands[] = { { NULL, NULL, NULL, NULL } };
const struct subcommand *subcommand_find(const char *name)
{
	(void)name;
	return NULL;
}

void subcommand_usage(FILE *f, const struct subcommand *sc)
{
	(void)f;
	(void)sc;
}

int usage_error(const char *sub, const char *fmt, ...)
{
	(void)sub;
	(void)fmt;
	return EXIT_USAGE;
}
