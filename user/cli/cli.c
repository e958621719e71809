// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl's subcommands, their --help (synopsis, description and the
 * option lines generated from their tables) and exit statuses.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kbenchctl.h"
#include "opts.h"
#include "runopts.h"

const char *prog = "kbenchctl";
bool opt_json;

static const struct kb_opt kb_global_table[] = {
	{ .name = "version", .short_name = 'V', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct kb_common_opts, version),
	  .help = "the version of kbenchctl and of its netlink family" },
	{ NULL }
};

const struct subcommand kb_global = {
	.synopsis = "[options] SUBCOMMAND [ARGS...]\n"
		    "       kbenchctl help [SUBCOMMAND]",
	.description = "Exact timing of kernel routines (kbench.ko over generic netlink).",
	.opts = kb_global_table,
	.notes = "Exit status: 0 ok, 1 failure, 2 usage error (a bad option or value, an\n"
		 "unknown subcommand, routine or run) or the kbench module not loaded;\n"
		 "diff and run --baseline: 1 a regression, 2 also an unreadable result file.\n",
};

const struct subcommand subcommands[] = {
	{ .name = "info", .fn = info_main,
	  .description = "show the module, its counter and limits, and what can distort a measurement",
	  .synopsis = "info [--cpu N] [-v] [--json]",
	  .opts = kb_info_table },
	{ .name = "list", .fn = list_main,
	  .description = "list the registered routines",
	  .synopsis = "list [--json]" },
	{ .name = "clocks", .fn = clocks_main,
	  .description = "resolution and latency of the kernel (and userspace) clocks",
	  .synopsis = "clocks [--user | --all] [--json]",
	  .opts = kb_clocks_table },
	{ .name = "run", .fn = run_main,
	  .description = "measure up to 4 routines, interleaved",
	  .synopsis = "run ROUTINE [ROUTINE...] [options]",
	  .opts = kb_run_table, .opts_in = KB_IN_RUN },
	{ .name = "compare", .fn = compare_main,
	  .description = "compare two routines, or a routine in the kernel and in userspace",
	  .synopsis = "compare A B [options]\n"
		      "   or: kbenchctl compare ROUTINE --kernel-vs-user [options]",
	  .opts = kb_run_table, .opts_in = KB_IN_COMPARE },
	{ .name = "events", .fn = events_main,
	  .description = "list the hardware events of this machine's PMUs, per CPU type",
	  .synopsis = "events [-v] [--json]",
	  .opts = kb_events_table },
	{ .name = "samples", .fn = samples_main,
	  .description = "export the raw samples of a stored run",
	  .synopsis = "samples RUN_ID [--routine INDEX] [--csv | --json]",
	  .opts = kb_samples_table },
	{ .name = "diff", .fn = diff_main,
	  .description = "compare two saved results (exit 1 on a regression)",
	  .synopsis = "diff OLD NEW [options]\n"
		      "   or: kbenchctl diff --check FILE...",
	  .opts = kb_run_table, .opts_in = KB_IN_DIFF,
	  .notes = "OLD, NEW and FILE are result files, or NAMEs saved by 'kbenchctl run\n"
		   "--save NAME' (in $XDG_DATA_HOME/kbench/, else ~/.local/share/kbench/).\n"
		   "Exit status: 0 no regression, 1 a regression beyond the threshold (with\n"
		   "--fail-on changed: any change), 2 a usage error or an unreadable or\n"
		   "invalid result file.  The result format and the verdict rule: RESULTS.md.\n" },
	{ .name = "tune", .fn = tune_main,
	  .description = "prepare a CPU for measuring, show or undo it (root)",
	  .synopsis = "tune --cpu N [--dry-run] [--state FILE] [-v] [--json]\n"
		      "   or: kbenchctl tune --show [--cpu N] [--state FILE]\n"
		      "   or: kbenchctl tune --reset [--dry-run] [--state FILE]",
	  .opts = kb_tune_table,
	  .notes = "tune --cpu N sets the cpufreq governor of N to performance, turns boost\n"
		   "and the NMI watchdog off, takes N's SMT siblings offline and steers\n"
		   "interrupts away from N; it saves what it changes to the state file\n"
		   "first.  tune --reset restores exactly that.  Exit status: 0 ok, 1 a\n"
		   "setting could not be saved, changed or restored, 2 usage.\n" },
	{ .name = "new", .fn = new_main,
	  .description = "write a benchmark module directory (Makefile, NAME.c, README)",
	  .synopsis = "new NAME [DIR] [--force]",
	  .opts = kb_new_table,
	  .notes = "NAME (a-z first, then a-z, 0-9, _; at most 31) names the module and its\n"
		   "routine; DIR (default NAME) must not exist unless --force.  Nothing is\n"
		   "written on error.  The Makefile includes kbench's build kit (pkg-config\n"
		   "--variable=mkfile kbench): make, sudo make load, sudo make run.\n" },
	{ NULL }
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
	const struct subcommand *s;

	/* the description as a sentence */
	fprintf(f, "Usage: %s %s\n\n%c%s%s\n", prog, sc->synopsis,
		toupper((unsigned char)sc->description[0]), sc->description + 1,
		sc->name ? "." : "");
	if (!sc->name) {
		fprintf(f, "\nSubcommands:\n");
		for (s = subcommands; s->name; s++)
			fprintf(f, "  %-9s %s\n", s->name, s->description);
	}
	fprintf(f, "\nOptions:\n");
	kb_opts_usage(f, sc);
	if (sc->notes)
		fprintf(f, "\n%s", sc->notes);
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

int unknown_subcommand(const char *name)
{
	const struct subcommand *sc, *best = NULL;
	unsigned int d, best_d = 3;
	char list[128];
	size_t used = 0;

	for (sc = subcommands; sc->name; sc++) {
		used += (size_t)snprintf(list + used, used < sizeof(list) ?
					 sizeof(list) - used : 0, "%s%s",
					 used ? ", " : "", sc->name);
		d = kb_edit_distance(name, sc->name);
		if (d < best_d) {
			best_d = d;
			best = sc;
		}
	}
	if (best)
		return usage_error(NULL, "unknown subcommand '%s' (did you mean '%s'?)",
				   name, best->name);
	return usage_error(NULL, "unknown subcommand '%s' (subcommands: %s)",
			   name, list);
}

int kb_exit_status(int err)
{
	if (err >= 0)
		return EXIT_OK;
	return err == -EINVAL || err == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
}
