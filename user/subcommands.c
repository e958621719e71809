// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl's subcommands (subcommands.h): the table main() dispatches on,
 * each row's --help (synopsis, description, notes; the option lines come
 * from its table), the error for a name that is not one, and the option
 * behind a netlink attribute (for kernel errors that name it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/kbench.h>

#include "cmd.h"
#include "opts.h"
#include "runopts.h"
#include "subcommands.h"

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
	.subs = subcommands,
	.notes = "Exit status: 0 ok, 1 failure, 2 usage error (a bad option or value, an\n"
		 "unknown subcommand, routine or run) or the kbench module not loaded;\n"
		 "diff and run --baseline: 1 a regression, 2 also an unreadable result file;\n"
		 "run and compare --user stopped by Ctrl-C: 130 (SIGTERM: 143).\n",
};

/* run's and compare's: long and interrupted runs */
static const char kb_run_notes[] =
	"A run that looks like taking over 10 s says so on stderr (\"about 7 min\n"
	"for ...\"), and shows its progress there when stderr is a terminal.\n"
	"--user: Ctrl-C (or SIGTERM) stops the sampling at the next round; what was\n"
	"measured is reported and saved (--save) marked partial, and the exit\n"
	"status is 130 (143).  A second Ctrl-C ends kbenchctl at once.  Kernel runs,\n"
	"--runs, sweeps and --cpus keep nothing of an interrupted run.\n";

const struct subcommand subcommands[] = {
	{ .name = "info", .fn = info_main,
	  .description = "show the module, its counter and limits, and what can distort a measurement",
	  .synopsis = "info [--cpu N] [--user] [-v] [--json]",
	  .opts = kb_info_table },
	{ .name = "list", .fn = list_main,
	  .description = "list the registered routines (--user: the userspace twins)",
	  .synopsis = "list [--user] [--json]",
	  .opts = kb_list_table },
	{ .name = "clocks", .fn = clocks_main,
	  .description = "resolution and latency of the kernel (and userspace) clocks",
	  .synopsis = "clocks [--user | --all] [--json]",
	  .opts = kb_clocks_table },
	{ .name = "run", .fn = run_main,
	  .description = "measure up to 4 routines, interleaved",
	  .synopsis = "run ROUTINE [ROUTINE...] [options]",
	  .opts = kb_run_table, .opts_in = KB_IN_RUN,
	  .notes = kb_run_notes },
	{ .name = "compare", .fn = compare_main,
	  .description = "compare two routines, or a routine in the kernel and in userspace",
	  .synopsis = "compare A B [options]\n"
		      "   or: kbenchctl compare ROUTINE --kernel-vs-user [options]",
	  .opts = kb_run_table, .opts_in = KB_IN_COMPARE,
	  .notes = kb_run_notes },
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
	{ .name = "export", .fn = export_main,
	  .description = "write saved results for KernelCI, LKP, Google Benchmark, dashboards",
	  .synopsis = "export FILE... --format FORMAT [-o OUT] [options]",
	  .opts = kb_export_table,
	  .notes = "FILE is a result file, or a NAME saved by 'kbenchctl run --save NAME'.  Each\n"
		   "FILE is one repetition of the routines it holds (matched by routine, side\n"
		   "and argument).  Exit status: 0 written, 1 a write failed, 2 a usage error\n"
		   "or an unreadable or invalid result file.  The formats: kbenchctl(8).\n" },
	{ .name = "history", .fn = history_main,
	  .description = "find where a routine got slower over saved results in commit order",
	  .synopsis = "history FILE... | DIR [--threshold PCT] [--svg FILE] [--json]",
	  .opts = kb_history_table,
	  .notes = "FILEs in the order given (oldest first), or every *.json of DIR in the\n"
		   "order of the commits they record (run --save --commit REV: committer\n"
		   "dates), else of the dates they were measured.  Change points:\n"
		   "E-divisive means (Matteson and James 2014) with a permutation test.\n"
		   "Exit status: 0 no regression, 1 a step up beyond the threshold, 2 a\n"
		   "usage error or an unreadable or invalid result file.\n" },
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
	{ .name = "baseline", .fn = baseline_main,
	  .description = "the kernel's own primitives and their userspace counterparts, by category",
	  .synopsis = "baseline [--user | --all] [--match GLOB[,GLOB...]] [options]",
	  .opts = kb_baseline_table,
	  .notes = "The kernel's primitives are the routines prim_* of the companion module\n"
		   "kbench_prims.ko (baseline runs 'modprobe kbench_prims' when they are missing).\n"
		   "A primitive this kernel cannot run with interrupts off (PREEMPT_RT's sleeping\n"
		   "locks) or lacks (its configuration off) is a row marked missing, with why.\n"
		   "--cpus 0,1: the locking and atomics rows (one lock or line shared by all\n"
		   "CPUs) each one run on all of them at once, as run --cpus; per call the CPUs'\n"
		   "median; the other rows alone on the first CPU.\n"
		   "Exit status: 0 every selected routine measured or missing on this kernel,\n"
		   "1 a measurement failed or nothing could be measured, 2 a usage error (an\n"
		   "unknown primitive in --match) or kbench or kbench_prims not loaded.\n" },
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

/* Positional arguments that travel as attributes. */
static const struct {
	uint8_t cmd;
	uint16_t attr;
	const char *fmt;	/* one %s: the value as text */
} kb_arg_attrs[] = {
	{ KBENCH_CMD_RUN, KBENCH_A_RUN_ROUTINE, "routine '%s'" },
	{ KBENCH_CMD_SAMPLES_GET, KBENCH_A_SAMPLES_RUN_ID, "run %s" },
};

/* The payload as text: a string, or a u32/u64 when @len says so. */
static void attr_text(const void *data, size_t len, bool string, char *buf,
		      size_t size)
{
	uint32_t v32;
	uint64_t v64;

	if (string) {
		snprintf(buf, size, "%.*s", (int)strnlen(data, len), (const char *)data);
	} else if (len == sizeof(v32)) {
		memcpy(&v32, data, sizeof(v32));
		snprintf(buf, size, "%u", v32);
	} else if (len == sizeof(v64)) {
		memcpy(&v64, data, sizeof(v64));
		snprintf(buf, size, "%llu", (unsigned long long)v64);
	} else {
		snprintf(buf, size, "?");
	}
}

bool kb_opts_name_attr(uint8_t cmd, uint16_t attr, const void *data,
		       size_t len, char *buf, size_t size)
{
	const struct subcommand *sc;
	const struct kb_opt *o;
	char val[64];
	size_t i;

	for (i = 0; i < sizeof(kb_arg_attrs) / sizeof(kb_arg_attrs[0]); i++) {
		if (kb_arg_attrs[i].cmd != cmd || kb_arg_attrs[i].attr != attr)
			continue;
		attr_text(data, len, cmd == KBENCH_CMD_RUN, val, sizeof(val));
		snprintf(buf, size, kb_arg_attrs[i].fmt, val);
		return true;
	}
	for (sc = subcommands; sc->name; sc++) {
		for (o = sc->opts; o && o->name; o++) {
			if (o->cmd != cmd || o->attr != attr)
				continue;
			attr_text(data, len, o->kind == KB_OPT_STRING, val,
				  sizeof(val));
			snprintf(buf, size, "--%s %s", o->name, val);
			return true;
		}
	}
	return false;
}
