// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl info: the module, its counter, detectors and limits; the
 * counter userspace measurements (--user) use; the hardware PMUs; and
 * what on this machine can distort a measurement on a CPU (env.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>

#include <kbench.h>

#include "env.h"
#include "cmd.h"
#include "names.h"
#include "nl.h"
#include "opts.h"
#include "output.h"
#include "events.h"

/* libkbench's counter: KBENCH_COUNTER's, or the first usable one. */
static void print_user_counter(void)
{
	struct kbench_counter_info uc;

	if (kbench_counter_select(NULL, &uc)) {
		out_string("user_counter", "user counter:     %s\n",
			   errno == ENOENT ? "none (KBENCH_COUNTER names no counter)" :
			   "none usable");
		return;
	}
	out_string("user_counter", "user counter:     %s", uc.name);
	out_string("user_counter_read", " (%s)", uc.desc);
	out_uint("user_counter_hz", " @ %llu Hz\n", uc.hz);
}

struct info_opts {
	uint32_t cpu;
	bool has_cpu, verbose, user;
};

const struct kb_opt kb_info_table[] = {
	{ .name = "cpu", .kind = KB_OPT_U32, .metavar = "N",
	  .parse = kb_opt_parse_cpu,
	  KB_OPT_FIELD(struct info_opts, cpu),
	  KB_OPT_GIVEN(struct info_opts, has_cpu),
	  .help = "the CPU whose environment to report",
	  .def = "the current CPU, where a run without --cpu goes" },
	{ .name = "verbose", .short_name = 'v', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct info_opts, verbose),
	  .help = "the effect of every environment item, not only of problems" },
	{ .name = "user", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct info_opts, user),
	  .help = "without the module: what --user runs use (the counter, the PMUs) and the CPU's environment, judged from userspace" },
	{ NULL }
};

/* Flags as names: a line of the table, an array in JSON. */
static void print_flags(const char *key, const char *label,
			const struct kb_flag_name *names, uint32_t v)
{
	char buf[128];

	kb_flag_names(names, v, ", ", buf, sizeof(buf));
	out_text("%s%s\n", label, buf[0] ? buf : "none");
	kb_flags_json(key, names, v);
}

/* Memory of the module: in use and its cap, as the object @key. */
static void print_memory(struct nlattr **tb, const char *key,
			 const char *title, int used, int max)
{
	out_text("%s:\n", title);
	out_open_object(key);
	out_uint("bytes", "  in use:         %llu bytes\n", kb_u64(tb[used], 0));
	out_uint("bytes_max", "  cap:            %llu bytes\n",
		 kb_u64(tb[max], 0));
	out_close_object();
}

/* The module's limits: JSON key, text line, INFO attribute. */
static const struct info_limit {
	const char *key, *fmt;
	int attr;
} limits[] = {
	{ "max_samples", "  max samples:    %llu per routine and run\n", KBENCH_A_INFO_MAX_SAMPLES },
	{ "max_iterations", "  max iterations: %llu per sample\n", KBENCH_A_INFO_MAX_ITERATIONS },
	{ "max_window_us", "  max window:     %llu us\n", KBENCH_A_INFO_MAX_WINDOW_US },
	{ "max_run_ms", "  max run:        %llu ms\n", KBENCH_A_INFO_MAX_RUN_MS },
	{ "duty_pct", "  irq-off duty:   %llu%%\n", KBENCH_A_INFO_DUTY_PCT },
	{ "runs_kept", "  runs kept:      %llu\n", KBENCH_A_INFO_RUNS_KEPT },
	{ "events_max", "  max events:     %llu per run\n", KBENCH_A_INFO_EVENTS_MAX },
};

static int info_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	const struct info_opts *o = arg;
	const struct info_limit *l;
	struct kb_kernel_env k;
	struct kb_env e;
	int cpu;

	(void)nlh;
	out_open_object(NULL);
	out_string("version", "version:          %s\n",
		   kb_str(tb[KBENCH_A_INFO_VERSION], NULL));
	out_string("arch", "arch:             %s\n",
		   kb_str(tb[KBENCH_A_INFO_ARCH], NULL));
	out_string("kernel", "kernel:           %s\n",
		   kb_str(tb[KBENCH_A_INFO_KERNEL], NULL));
	out_uint("nr_cpus", "cpus:             %llu\n",
		 kb_u32(tb[KBENCH_A_INFO_NR_CPUS], 0));
	out_string("counter", "counter:          %s",
		   kb_str(tb[KBENCH_A_INFO_COUNTER], NULL));
	out_uint("counter_hz", " @ %llu Hz\n",
		 kb_u64(tb[KBENCH_A_INFO_COUNTER_HZ], 0));
	print_flags("counter_flags", "counter flags:    ", kb_counter_flag_names,
		    kb_u32(tb[KBENCH_A_INFO_COUNTER_FLAGS], 0));
	print_flags("detectors", "detectors:        ", kb_sample_flag_names,
		    kb_u32(tb[KBENCH_A_INFO_DETECTORS], 0));
	print_user_counter();
	kb_pmu_print_info();
	out_text("limits:\n");
	out_open_object("limits");
	for (l = limits; l < limits + sizeof(limits) / sizeof(limits[0]); l++)
		out_uint(l->key, l->fmt, kb_u32(tb[l->attr], 0));
	out_close_object();
	print_memory(tb, "store", "sample store", KBENCH_A_INFO_STORE_BYTES,
		     KBENCH_A_INFO_STORE_BYTES_MAX);
	/* a module older than routines with setups has neither */
	if (tb[KBENCH_A_INFO_SETUP_BYTES_MAX])
		print_memory(tb, "setup", "built-in routines' setup memory",
			     KBENCH_A_INFO_SETUP_BYTES,
			     KBENCH_A_INFO_SETUP_BYTES_MAX);

	/* a run without --cpu goes where its request is handled: here */
	cpu = o->has_cpu ? (int)o->cpu : sched_getcpu();
	kb_kernel_env_parse(tb, &k);
	kb_env_collect(&e, &k, cpu);
	out_text("\n");
	kb_env_print(&e, o->verbose ? KB_ENV_VIEW_VERBOSE : KB_ENV_VIEW_ALL);
	out_close_object();
	return 0;
}

/* --user: libkbench's counter, the PMUs and the CPU's environment */
static int info_user(const struct info_opts *o)
{
	struct kb_env e;
	int cpu = o->has_cpu ? (int)o->cpu : sched_getcpu();

	out_open_object(NULL);
	out_string("version", "version:          %s (kbenchctl and libkbench)\n",
		   KBENCH_VERSION);
	out_string("side", "side:             %s\n", "user (no module asked)");
	print_user_counter();
	kb_pmu_print_info();
	kb_env_collect(&e, NULL, cpu);
	out_text("\n");
	kb_env_print(&e, o->verbose ? KB_ENV_VIEW_VERBOSE : KB_ENV_VIEW_ALL);
	out_close_object();
	out_finish();
	return EXIT_OK;
}

int info_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct info_opts o = { 0 };
	struct kb_nl nl;
	int err;

	err = kb_opts_parse_noargs(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	if (o.user)
		return info_user(&o);
	err = kb_nl_open(&nl);
	if (err) {
		if (err == -ENOENT)
			fprintf(stderr, "%s: without the module, 'kbenchctl info --user' reports what --user runs use\n",
				prog);
		return kb_exit_status(err);
	}
	err = kb_nl_request(&nl, kb_nl_msg(&nl, KBENCH_CMD_INFO, false),
			    KBENCH_A_INFO_MAX, info_cb, &o);
	out_finish();
	kb_nl_close(&nl);
	return kb_exit_status(err);
}
