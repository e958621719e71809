// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl: command-line client of the kbench kernel module.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbenchctl.h"
#include "output.h"

#include <linux/kbench.h>

const char *prog = "kbenchctl";
bool opt_json;

const struct subcommand subcommands[] = {
	{ "info", info_main, "show the module, its counter and limits",
	  "info [--json]\n" },
	{ "list", list_main, "list the registered routines",
	  "list [--json]\n" },
	{ "clocks", clocks_main, "resolution and latency of the kernel (and userspace) clocks",
	  "clocks [--user | --all] [--json]\n"
	  "  --user      measure the userspace clocks (no module needed)\n"
	  "  --all       kernel and userspace clocks in one table\n" },
	{ "run", run_main, "measure up to 4 routines, interleaved",
	  "run ROUTINE [ROUTINE...] [options]\n"
	  "  --cpu N          CPU to run on (default: kernel's choice; --user: current CPU)\n"
	  "  --samples N      samples per routine (default 1000)\n"
	  "  --iterations N   iterations per sample (default: adaptive)\n"
	  "  --target-ns N    adaptive iterations: window target (default 20000)\n"
	  "  --warmup N       samples discarded first (default 10)\n"
	  "  --user           time the userspace twin instead (no module needed)\n"
	  "  --json           one JSON object (keys in JSON.md)\n"
	  "  --hist [--log]   terminal histogram (log-scale counts)\n"
	  "  --raw            every sample after the summary\n"
	  "  --csv            the samples as CSV instead of the summary\n"
	  "  --svg FILE [--log-x]  write an SVG plot (log-scale x axis)\n"
	  "  --save FILE|NAME write the result with every sample (RESULTS.md);\n"
	  "                   a NAME (no '/', no '.') goes to ~/.local/share/kbench/\n"
	  "  --baseline FILE|NAME  compare with a saved result (as 'diff');\n"
	  "                   exit 1 on a regression; takes diff's --threshold PCT,\n"
	  "                   --seed N, --fail-on regressed|changed, --markdown,\n"
	  "                   --match OLD=NEW\n" },
	{ "compare", compare_main, "compare two routines, or a routine in the kernel and in userspace",
	  "compare A B [options]\n"
	  "   or: kbenchctl compare ROUTINE --kernel-vs-user [options]\n"
	  "  --cpu N          CPU to run on\n"
	  "  --samples N      samples per routine (default 1000)\n"
	  "  --iterations N   iterations per sample (default: adaptive)\n"
	  "  --warmup N       samples discarded first (default 10)\n"
	  "  --threshold PCT  differences below PCT percent are equal (default 1)\n"
	  "  --seed N         bootstrap seed (default 1)\n"
	  "  --user           compare the userspace twins (no module needed)\n"
	  "  --json           one JSON object\n"
	  "  --svg FILE [--log-x]  write an SVG plot\n"
	  "  --save FILE|NAME write both runs with every sample (RESULTS.md)\n" },
	{ "samples", samples_main, "export the raw samples of a stored run",
	  "samples RUN_ID [--routine INDEX] [--csv | --json]\n"
	  "  --routine INDEX  only that routine (0.. in run order; then the overhead)\n"
	  "  --csv            CSV: index,routine,net_cycles,flags\n" },
	{ "diff", diff_main, "compare two saved results: changes, verdicts, exit 1 on a regression",
	  "diff OLD NEW [options]     (files, or NAMEs saved with run --save NAME)\n"
	  "   or: kbenchctl diff --check FILE...\n"
	  "  --threshold PCT  noise threshold: smaller changes are 'no change' (default 2)\n"
	  "  --fail-on WHAT   exit 1 when a routine 'regressed' (default) or 'changed'\n"
	  "  --seed N         bootstrap seed (default 1)\n"
	  "  --match OLD=NEW  compare routine OLD with NEW of another name (repeatable)\n"
	  "  --markdown       a Markdown table (commit messages, cover letters)\n"
	  "  --json           one JSON object\n"
	  "  --check          only load and validate each FILE\n"
	  "Exit status: 0 no regression, 1 a regression beyond the threshold,\n"
	  "2 usage error or an unreadable or invalid file.\n" },
	{ NULL, NULL, NULL, NULL }
};

const struct subcommand *subcommand_find(const char *name)
{
	const struct subcommand *sc;

	for (sc = subcommands; sc->name; sc++)
		if (!strcmp(sc->name, name))
			return sc;
	return NULL;
}

void subcommand_usage(FILE *f, const struct subcommand *sc)
{
	fprintf(f, "Usage: %s %s", prog, sc->usage);
	fprintf(f, "  -h, --help       this help\n\n%s\n", sc->description);
}

int usage_error(const char *sub, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s%s%s: ", prog, sub ? " " : "", sub ? sub : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s help%s%s' for more information.\n", prog,
		sub ? " " : "", sub ? sub : "");
	return EXIT_USAGE;
}

static void usage(FILE *f)
{
	const struct subcommand *sc;

	fprintf(f, "Usage: %s [--json] SUBCOMMAND [ARGS...]\n"
		   "       %s help [SUBCOMMAND]\n"
		   "       %s --version\n\n"
		   "Exact timing of kernel routines (kbench.ko over generic netlink).\n\n"
		   "Subcommands:\n", prog, prog, prog);
	for (sc = subcommands; sc->name; sc++)
		fprintf(f, "  %-9s %s\n", sc->name, sc->description);
	fprintf(f, "\nExit status: 0 ok, 1 failure (diff, run --baseline: a regression),\n"
		   "2 usage error, module missing or an unreadable result file.\n");
}

static int help_main(int argc, char *argv[])
{
	const struct subcommand *sc;

	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	sc = subcommand_find(argv[1]);
	if (!sc)
		return usage_error(NULL, "unknown subcommand '%s'", argv[1]);
	subcommand_usage(stdout, sc);
	return EXIT_OK;
}

int main(int argc, char *argv[])
{
	const struct subcommand *sc;
	int i = 1, ret;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			opt_json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			printf("kbenchctl %s (netlink family %s v%d)\n",
			       KBENCHCTL_VERSION, KBENCH_GENL_NAME,
			       KBENCH_GENL_VERSION);
			return EXIT_OK;
		} else {
			return usage_error(NULL, "unknown option '%s'", argv[i]);
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help"))
		return help_main(argc - i, argv + i);
	sc = subcommand_find(argv[i]);
	if (!sc)
		return usage_error(NULL, "unknown subcommand '%s'", argv[i]);
	out_init(stdout, opt_json);
	ret = sc->fn(argc - i, argv + i);
	if (fflush(stdout) && ret == EXIT_OK)
		ret = EXIT_FAIL;
	return ret;
}
