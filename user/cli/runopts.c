// SPDX-License-Identifier: GPL-2.0
/*
 * The option table of run and compare, and how their options go together.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/kbench.h>

#include <kbench/events.h>

#include "fit.h"
#include "nl.h"
#include "opts.h"
#include "replic.h"
#include "resfile.h"
#include "asm.h"
#include "core.h"
#include "runopts.h"
#include "sysfs.h"
#include "twin.h"

#define KB_STR_(x)	#x
#define KB_STR(x)	KB_STR_(x)

/* @cpu is online, or -EINVAL after a message naming @o and @arg */
static int cpu_online(const struct kb_opt *o, const char *arg, uint32_t cpu)
{
	struct kb_cpuset online, present;
	char list[256];

	if (!kb_cpulist_read("/sys/devices/system/cpu/online", &online) &&
	    !kb_cpuset_has(&online, cpu)) {
		kb_cpulist_format(&online, list, sizeof(list));
		if (!kb_cpulist_read("/sys/devices/system/cpu/present", &present) &&
		    kb_cpuset_has(&present, cpu))
			return kb_opt_error(o, arg, "CPU %u is offline (online: %s)",
					    cpu, list);
		return kb_opt_error(o, arg, "no such CPU (online: %s)", list);
	}
	return 0;
}

int kb_opt_parse_cpu(const struct kb_opt *o, const char *arg, void *field)
{
	uint32_t cpu;
	int err;

	err = kb_opt_parse_value(o, arg, &cpu);
	if (!err)
		err = cpu_online(o, arg, cpu);
	if (!err)
		*(uint32_t *)field = cpu;
	return err;
}

/*
 * --cpus LIST|all: distinct online CPUs, as taskset lists them; a CPU
 * given twice is an error (not merged), "all" takes every online CPU.
 */
int kb_opt_parse_cpus(const struct kb_opt *o, const char *arg, void *field)
{
	struct kb_cpus_sel *sel = field;
	struct kb_cpuset online, one;
	char chunk[64];
	const char *p = arg, *end;
	unsigned int c;
	int online_err = kb_cpulist_read("/sys/devices/system/cpu/online", &online);

	memset(&sel->set, 0, sizeof(sel->set));
	sel->spec = arg;
	if (!strcmp(arg, "all")) {
		if (online_err)
			return kb_opt_error(o, arg, "cannot read the online CPUs");
		sel->set = online;
		return 0;
	}
	if (strstr(arg, "..")) {
		unsigned int n = online_err ? 0 : kb_cpuset_count(&online);
		char tail;

		if (sscanf(arg, "%u..%u%c", &sel->lo, &sel->hi, &tail) != 2 ||
		    !sel->lo || sel->lo > sel->hi)
			return kb_opt_error(o, arg, "a scaling sweep is A..K, CPU counts from A to K (1..4)");
		if (sel->hi > n || sel->hi - sel->lo >= KB_SWEEP_MAX)
			return kb_opt_error(o, arg, "at most %u CPUs (online: %u) and %d counts",
					    n, n, KB_SWEEP_MAX);
		sel->set = online;
		return 0;
	}
	for (; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		end = end ? end : p + strlen(p);
		if ((size_t)(end - p) >= sizeof(chunk) || end == p)
			return kb_opt_error(o, arg, "not a CPU list (as taskset's: 0,2-3)");
		memcpy(chunk, p, (size_t)(end - p));
		chunk[end - p] = '\0';
		if (kb_cpulist_parse(chunk, &one) || !kb_cpuset_count(&one))
			return kb_opt_error(o, arg, "not a CPU list (as taskset's: 0,2-3)");
		for (c = 0; c < KB_CPUS_MAX; c++) {
			if (!kb_cpuset_has(&one, c))
				continue;
			if (kb_cpuset_has(&sel->set, c))
				return kb_opt_error(o, arg, "CPU %u is listed twice", c);
			if (cpu_online(o, arg, c))
				return -EINVAL;
			if (c >= KB_TWIN_CPUS_MAX)
				return kb_opt_error(o, arg, "CPU %u: at most CPU %u", c,
						    KB_TWIN_CPUS_MAX - 1);
			kb_cpuset_add(&sel->set, c);
		}
	}
	if (!kb_cpuset_count(&sel->set))
		return kb_opt_error(o, arg, "no CPU");
	return 0;
}

/* --save, --baseline: a usable FILE|NAME, checked before measuring. */
static int parse_result_name(const struct kb_opt *o, const char *arg,
			     void *field)
{
	char path[4096], why[256];
	bool is_name;

	struct stat st;

	if (kb_resfile_path(arg, path, sizeof(path), &is_name, why, sizeof(why)))
		return kb_opt_error(o, arg, "%s", why);
	if (path[strlen(path) - 1] == '/' ||
	    (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
		return kb_opt_error(o, arg, "a directory: name a file in it (%s%sNAME.json) or give a NAME",
				    arg, arg[strlen(arg) - 1] == '/' ? "" : "/");
	*(const char **)field = arg;
	return 0;
}

/* --- routines: asked of the module (ROUTINE_GET dump) --- */

void kb_routine_info_fill(struct nlattr **tb, struct kb_routine_info *in)
{
	memset(in, 0, sizeof(*in));
	in->found = true;
	in->flags = kb_u32(tb[KBENCH_A_ROUTINE_FLAGS], 0);
	in->has_arg = tb[KBENCH_A_ROUTINE_ARG_NAME] != NULL;
	if (!in->has_arg)
		return;
	snprintf(in->arg_name, sizeof(in->arg_name), "%s",
		 kb_str(tb[KBENCH_A_ROUTINE_ARG_NAME], "?"));
	in->arg_min = kb_u64(tb[KBENCH_A_ROUTINE_ARG_MIN], 0);
	in->arg_max = kb_u64(tb[KBENCH_A_ROUTINE_ARG_MAX], 0);
	in->arg_def = kb_u64(tb[KBENCH_A_ROUTINE_ARG_DEF], 0);
}

struct routine_check {
	const char *const *want;
	struct kb_routine_info *info;	/* [nwant], or NULL */
	unsigned int nwant, count;
	bool seen[KBENCH_RUN_ROUTINES_MAX];
	unsigned int best_d[KBENCH_RUN_ROUTINES_MAX];
	char best[KBENCH_RUN_ROUTINES_MAX][KBENCH_NAME_MAX + 1];
};

static int check_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct routine_check *c = arg;
	const char *name = kb_str(tb[KBENCH_A_ROUTINE_NAME], "");
	unsigned int i, d;

	(void)nlh;
	c->count++;
	for (i = 0; i < c->nwant; i++) {
		if (!strcmp(name, c->want[i])) {
			c->seen[i] = true;
			if (c->info)
				kb_routine_info_fill(tb, &c->info[i]);
			continue;
		}
		d = kb_edit_distance(c->want[i], name);
		if (d < c->best_d[i]) {
			c->best_d[i] = d;
			snprintf(c->best[i], sizeof(c->best[i]), "%s", name);
		}
	}
	return 0;
}

int kb_routines_check(struct kb_nl *nl, const char *const *names,
		      unsigned int n, struct kb_routine_info *info)
{
	struct routine_check c = { .want = names, .info = info, .nwant = n };
	unsigned int i;
	int err;

	if (n > KBENCH_RUN_ROUTINES_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		c.best_d[i] = 3;	/* suggest names at most 2 edits away */
	err = kb_nl_request(nl, kb_nl_msg(nl, KBENCH_CMD_ROUTINE_GET, true),
			    KBENCH_A_ROUTINE_MAX, check_cb, &c);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if (c.seen[i])
			continue;
		if (c.best[i][0])
			fprintf(stderr, "%s: no routine '%s' (did you mean '%s'? %s list shows %u)\n",
				prog, names[i], c.best[i], prog, c.count);
		else
			fprintf(stderr, "%s: no routine '%s' (%s list shows %u)\n",
				prog, names[i], prog, c.count);
		return -ENOENT;
	}
	return 0;
}

/* --match OLD=NEW (repeatable): routine OLD of the old result is NEW */
static int parse_match(const struct kb_opt *row, const char *arg, void *field)
{
	struct kb_diff_opts *o = field;
	const char *eq = strchr(arg, '=');
	size_t lo, ln;
	char *buf;

	if (!eq || eq == arg || !eq[1] || strchr(eq + 1, '='))
		return kb_opt_error(row, arg, "want OLD=NEW: the routine OLD of the old result is NEW in the new one");
	lo = (size_t)(eq - arg);
	ln = strlen(eq + 1);
	if (lo > KBENCH_NAME_MAX || ln > KBENCH_NAME_MAX)
		return kb_opt_error(row, arg, "routine names are at most %d characters",
				    KBENCH_NAME_MAX);
	if (o->nmatch == KB_DIFF_MATCH_MAX)
		return kb_opt_error(row, arg, "at most %d --match pairs",
				    KB_DIFF_MATCH_MAX);
	buf = o->match_buf[o->nmatch];
	memcpy(buf, arg, lo);
	buf[lo] = '\0';
	memcpy(buf + lo + 1, eq + 1, ln + 1);
	o->match_old[o->nmatch] = buf;
	o->match_new[o->nmatch++] = buf + lo + 1;
	return 0;
}

/* --commit REV: resolved now (git), recorded by every file saved. */
static int parse_commit(const struct kb_opt *o, const char *arg, void *field)
{
	char why[512];

	if (kb_meta_set_commit(arg, why, sizeof(why)))
		return kb_opt_error(o, arg, "%s", why);
	*(const char **)field = arg;
	return 0;
}

/* Event @name's perf type and config, or -EINVAL after a message. */
static int event_lookup(const struct kb_opt *o, const char *arg,
			const char *name, unsigned int *type,
			unsigned long long *config)
{
	switch (kbench_event_parse(name, type, config)) {
	case 0:
		return 0;
	case -ERANGE:
		return kb_opt_error(o, arg, "'%s': raw event code above %s, the widest event code of this architecture's PMUs",
				    name, KBENCH_EVENT_RAW_MAX_STR);
	case -EINVAL:
		return kb_opt_error(o, arg, "'%s': a raw event is raw:0x and 1 to 16 hex digits",
				    name);
	default:
		return kb_opt_error(o, arg, "unknown event '%s' (perf's generic hardware events: cycles, instructions, branches, branch-misses, cache-references, cache-misses, ref-cycles, ...; or raw:0xNN; '%s events' lists this machine's)",
				    name, prog);
	}
}

/*
 * --events LIST: comma-separated names (include/kbench/events.h), at most
 * KBENCH_EVENTS_MAX, distinct; the field is the request.  Given twice, the
 * second list replaces the first.
 */
static int parse_events(const struct kb_opt *o, const char *arg, void *field)
{
	struct kb_run_req *q = field;
	unsigned long long config[KBENCH_EVENTS_MAX], c;
	unsigned int type[KBENCH_EVENTS_MAX], t, k;
	const char *p = arg, *end;
	char name[KBENCH_NAME_MAX + 1];
	size_t len;

	q->nevents = 0;
	do {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (!len)
			return kb_opt_error(o, arg, "an empty event name (the list is comma-separated: instructions,cycles)");
		if (len > KBENCH_NAME_MAX)
			return kb_opt_error(o, arg, "'%.*s': event names are at most %d characters",
					    (int)len, p, KBENCH_NAME_MAX);
		memcpy(name, p, len);
		name[len] = '\0';
		if (event_lookup(o, arg, name, &t, &c))
			return -EINVAL;
		if (q->nevents == KBENCH_EVENTS_MAX)
			return kb_opt_error(o, arg, "at most %d events per run; '%s' is one too many",
					    KBENCH_EVENTS_MAX, name);
		for (k = 0; k < q->nevents; k++)
			if (type[k] == t && config[k] == c)
				return kb_opt_error(o, arg, "'%s' counts what '%s' counts: give it once",
						    name, q->events[k]);
		type[q->nevents] = t;
		config[q->nevents] = c;
		memcpy(q->events_buf[q->nevents], name, len + 1);
		q->events[q->nevents] = q->events_buf[q->nevents];
		q->nevents++;
		p = end ? end + 1 : NULL;
	} while (p);
	return 0;
}

/* --metric EVENT: a name --events would take. */
static int parse_metric(const struct kb_opt *o, const char *arg, void *field)
{
	unsigned long long config;
	unsigned int type;

	if (strlen(arg) > KBENCH_NAME_MAX)
		return kb_opt_error(o, arg, "event names are at most %d characters",
				    KBENCH_NAME_MAX);
	if (event_lookup(o, arg, arg, &type, &config))
		return -EINVAL;
	*(const char **)field = arg;
	return 0;
}

/*
 * Ranges: the netlink policy's (Documentation/netlink/specs/kbench.yaml),
 * except --samples, whose 10000000 is the twins' bound; in the kernel the
 * module's own limits (INFO) apply on top.
 */
/* --asm CODE, repeatable: the snippets in order */
static int parse_asm(const struct kb_opt *o, const char *arg, void *field)
{
	struct kb_asm *a = field;

	if (a->n == KB_ASM_MAX)
		return kb_opt_error(o, arg, "at most %d snippets (compare --asm A --asm B)",
				    KB_ASM_MAX);
	if (!arg[strspn(arg, " \t\n;")])
		return kb_opt_error(o, arg, "an empty snippet (instructions separated by ';' or newlines)");
	a->code[a->n++] = arg;
	return 0;
}

const char *const kb_unit_choices[] = { "ticks", "core", NULL };

const struct kb_opt kb_run_table[] = {
	{ .name = "cpu", .kind = KB_OPT_U32, .metavar = "N", .in = KB_IN_MEASURE,
	  .parse = kb_opt_parse_cpu,
	  KB_OPT_FIELD(struct kb_run_opts, q.cpu),
	  KB_OPT_GIVEN(struct kb_run_opts, q.has_cpu),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_CPU,
	  .help = "CPU to run on",
	  .def = "the kernel's choice; with --user the current CPU" },
	{ .name = "samples", .kind = KB_OPT_U32, .metavar = "N",
	  .in = KB_IN_MEASURE, .min = 1, .max = KB_RUN_USER_SAMPLES_MAX,
	  KB_OPT_FIELD(struct kb_run_opts, q.samples),
	  KB_OPT_GIVEN(struct kb_run_opts, q.has_samples),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_SAMPLES,
	  .info_max = KBENCH_A_INFO_MAX_SAMPLES, .info_param = "max_samples",
	  .help = "samples per routine", .def = KB_STR(KB_RUN_DEFAULT_SAMPLES) },
	{ .name = "iterations", .kind = KB_OPT_U32, .metavar = "N",
	  .in = KB_IN_MEASURE, .min = 1, .max = 16777216,
	  KB_OPT_FIELD(struct kb_run_opts, q.iterations),
	  KB_OPT_GIVEN(struct kb_run_opts, q.has_iterations),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_ITERATIONS,
	  .info_max = KBENCH_A_INFO_MAX_ITERATIONS, .info_param = "max_iterations",
	  .help = "iterations per sample", .def = "adaptive, see --target-ns" },
	{ .name = "target-ns", .kind = KB_OPT_U32, .metavar = "N",
	  .in = KB_IN_MEASURE, .min = 100, .max = 20000000,
	  KB_OPT_FIELD(struct kb_run_opts, q.target_ns),
	  KB_OPT_GIVEN(struct kb_run_opts, q.has_target_ns),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_TARGET_NS,
	  .info_max = KBENCH_A_INFO_MAX_WINDOW_US, .info_scale = 1000,
	  .info_param = "max_window_us",
	  .help = "adaptive iterations: net ns per sample to reach",
	  .def = KB_STR(KB_RUN_DEFAULT_TARGET_NS) },
	{ .name = "warmup", .kind = KB_OPT_U32, .metavar = "N",
	  .in = KB_IN_MEASURE, .min = 0, .max = 10000,
	  KB_OPT_FIELD(struct kb_run_opts, q.warmup),
	  KB_OPT_GIVEN(struct kb_run_opts, q.has_warmup),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_WARMUP,
	  .help = "rounds taken and discarded first",
	  .def = KB_STR(KB_RUN_DEFAULT_WARMUP) },
	{ .name = "skew-ns", .kind = KB_OPT_U32, .metavar = "NS",
	  .in = KB_IN_RUN, .min = 0, .max = 20000000,	/* the spec's; 0 refused below */
	  KB_OPT_FIELD(struct kb_run_opts, q.skew_ns),
	  KB_OPT_GIVEN(struct kb_run_opts, q.has_skew_ns),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_SKEW_NS,
	  .help = "with --cpus: a sample whose windows started further apart than this is flagged skew on every CPU",
	  .def = "the module's target-ns / 8; --user: a tenth of the mean window" },
	{ .name = "max-window-us", .kind = KB_OPT_U32, .metavar = "US",
	  .in = KB_IN_MEASURE, .min = 1, .max = 20000,
	  KB_OPT_FIELD(struct kb_run_opts, q.max_window_us),
	  KB_OPT_GIVEN(struct kb_run_opts, q.has_max_window_us),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_MAX_WINDOW_US,
	  .info_max = KBENCH_A_INFO_MAX_WINDOW_US,
	  .info_param = "max_window_us", .kernel_only = true,
	  .help = "this run's bound on a window with interrupts off, below the module's",
	  .def = "the module's max_window_us" },
	{ .name = "events", .kind = KB_OPT_STRING, .metavar = "LIST",
	  .in = KB_IN_MEASURE, .parse = parse_events,
	  KB_OPT_FIELD(struct kb_run_opts, q),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_EVENT,
	  .help = "hardware events to count next to the counter, comma-separated: instructions, cycles, ref-cycles, branch-misses, cache-misses, ... or raw:0xNN ('kbenchctl events' lists this machine's)" },
	{ .name = "arg", .kind = KB_OPT_STRING, .metavar = "SPEC",
	  .in = KB_IN_MEASURE, .parse = kb_sweep_opt_parse,
	  KB_OPT_FIELD(struct kb_run_opts, sweep),
	  KB_OPT_GIVEN(struct kb_run_opts, has_sweep),
	  .cmd = KBENCH_CMD_RUN, .attr = KBENCH_A_RUN_ARG,
	  .help = "the routines' argument (kbenchctl list): V; or a sweep, one run per value: V,V,.. or A..B:xK (geometric) or A..B:+S (arithmetic); K, M, G multiply by 1024^1..3; at most " KB_STR(KB_SWEEP_MAX) " values",
	  .def = "each routine's own" },
	{ .name = "fit", .kind = KB_OPT_CHOICE, .metavar = "WHICH",
	  .in = KB_IN_MEASURE, .choices = kb_fit_choices,
	  KB_OPT_FIELD(struct kb_run_opts, fit),
	  KB_OPT_GIVEN(struct kb_run_opts, has_fit),
	  .help = "with a sweep: the complexity fitted to the corrected median, or the best",
	  .def = "auto" },
	{ .name = "cpus", .kind = KB_OPT_STRING, .metavar = "LIST|all",
	  .in = KB_IN_RUN, .parse = kb_opt_parse_cpus,
	  KB_OPT_FIELD(struct kb_run_opts, cpus),
	  .help = "run on these CPUs at the same time (0,2-3; all: every online one), with --user" },
	{ .name = "each-cpu", .kind = KB_OPT_FLAG, .in = KB_IN_RUN,
	  KB_OPT_FIELD(struct kb_run_opts, cpus.each),
	  .help = "run on each CPU in turn (those of --cpus, else every online one), a row each with its topology" },
	{ .name = "runs", .kind = KB_OPT_U32, .metavar = "R",
	  .in = KB_IN_RUN | KB_IN_COMPARE,
	  .min = 1, .max = KB_RUNS_MAX,
	  KB_OPT_FIELD(struct kb_run_opts, runs),
	  KB_OPT_GIVEN(struct kb_run_opts, has_runs),
	  .help = "R separate runs, each with its own probe and warm-up (--user: each a process of its own), saved in one file (--save): diff then measures the spread between runs (3 or more a side); compare: its interval over the runs",
	  .def = "1" },
	{ .name = "between", .kind = KB_OPT_STRING, .metavar = "CMD",
	  .in = KB_IN_RUN | KB_IN_COMPARE,
	  KB_OPT_FIELD(struct kb_run_opts, between),
	  .help = "with --runs: run the shell command CMD before each run after the first (e.g. reload the module under test); a failing CMD stops the runs" },
	{ .name = "spacing", .kind = KB_OPT_DOUBLE, .metavar = "S",
	  .in = KB_IN_RUN | KB_IN_COMPARE, .min = 0, .max = 3600,
	  KB_OPT_FIELD(struct kb_run_opts, spacing),
	  KB_OPT_GIVEN(struct kb_run_opts, has_spacing),
	  .help = "with --runs: a pause of S seconds before each run after the first (after --between), so that the runs sample the host's state as separate invocations do (runs back to back share it); 0: none",
	  .def = KB_STR(KB_RUNS_DEFAULT_SPACING) },
	{ .name = "asm", .kind = KB_OPT_STRING, .metavar = "CODE",
	  .in = KB_IN_MEASURE, .parse = parse_asm,
	  KB_OPT_FIELD(struct kb_run_opts, asm_),
	  .help = "measure a snippet of assembly (the target's syntax; ';' or newlines between instructions) instead of routines: repeated --unroll times in a loop, built with cc; figures per copy; compare takes two (--asm A --asm B); in the kernel a module built from it against KDIR (root; a fault the exception table catches is reported), with --user a shared object; ARCH and CROSS_COMPILE (kbuild's) build it for another machine, kept with --keep" },
	{ .name = "unroll", .kind = KB_OPT_U32, .metavar = "U",
	  .in = KB_IN_MEASURE, .min = 1, .max = KB_ASM_UNROLL_MAX,
	  KB_OPT_FIELD(struct kb_run_opts, asm_.unroll),
	  KB_OPT_GIVEN(struct kb_run_opts, has_unroll),
	  .help = "with --asm: copies of the snippet in one iteration of the loop (its 2 instructions then cost 2/U per copy)",
	  .def = KB_STR(KB_ASM_UNROLL_DEFAULT) },
	{ .name = "keep", .kind = KB_OPT_STRING, .metavar = "DIR",
	  .in = KB_IN_MEASURE, KB_OPT_FIELD(struct kb_run_opts, asm_.keep),
	  .help = "with --asm: build in DIR and keep the source and the shared object there (a later run with the same snippet reuses them)" },
	{ .name = "sign-key", .kind = KB_OPT_STRING, .metavar = "FILE",
	  .in = KB_IN_MEASURE, KB_OPT_FIELD(struct kb_run_opts, asm_.sign_key),
	  .help = "with --asm in the kernel: sign the module with this private key (PEM; with --sign-cert) through KDIR's scripts/sign-file, for a kernel that loads only signed modules (Secure Boot); without it such a kernel gets DKMS's key, /var/lib/dkms/mok.key, when there is one" },
	{ .name = "sign-cert", .kind = KB_OPT_STRING, .metavar = "FILE",
	  .in = KB_IN_MEASURE, KB_OPT_FIELD(struct kb_run_opts, asm_.sign_cert),
	  .help = "with --asm in the kernel: the certificate (DER or PEM) of --sign-key's key, one the kernel trusts (enrolled with mokutil --import)" },
	{ .name = "unit", .kind = KB_OPT_CHOICE, .metavar = "UNIT",
	  .in = KB_IN_MEASURE, .choices = kb_unit_choices,
	  KB_OPT_FIELD(struct kb_run_opts, unit),
	  .help = "what the figures count: the counter's ticks, or core cycles calibrated in the run by two chains of dependent adds (1 cycle each: no PMU needed)",
	  .def = "ticks" },
	{ .name = "user", .kind = KB_OPT_FLAG, .in = KB_IN_MEASURE,
	  KB_OPT_FIELD(struct kb_run_opts, user),
	  .help = "time the userspace twins instead (no module needed)" },
	{ .name = "kernel-vs-user", .kind = KB_OPT_FLAG, .in = KB_IN_COMPARE,
	  KB_OPT_FIELD(struct kb_run_opts, kvu),
	  .help = "one routine in the kernel and as its userspace twin" },
	{ .name = "threshold", .kind = KB_OPT_DOUBLE, .metavar = "PCT",
	  .in = KB_IN_COMPARE, .min = 0,
	  KB_OPT_FIELD(struct kb_run_opts, threshold),
	  KB_OPT_GIVEN(struct kb_run_opts, has_threshold),
	  .help = "differences below PCT percent count as equal (significant or not: the verdict says which)",
	  .def = KB_STR(KB_COMPARE_DEFAULT_THRESHOLD) },
	{ .name = "precision", .kind = KB_OPT_DOUBLE, .metavar = "PCT",
	  .in = KB_IN_MEASURE, .min = 0.001, .max = 100,
	  KB_OPT_FIELD(struct kb_run_opts, precision),
	  KB_OPT_GIVEN(struct kb_run_opts, has_precision),
	  .help = "sample until precise: run, until each median's 95% CI half-width is at most PCT% of it; compare, until the anytime-valid CI of the difference has a half-width of at most PCT% (or --max-time)" },
	{ .name = "until-resolved", .kind = KB_OPT_FLAG, .in = KB_IN_COMPARE,
	  KB_OPT_FIELD(struct kb_run_opts, until_resolved),
	  .help = "sample until the question is answered: the anytime-valid CI of the difference excludes 0 beyond the threshold (slower, faster) or lies within +-threshold (equal), or --max-time runs out; with --precision, whichever comes first" },
	{ .name = "max-time", .kind = KB_OPT_DOUBLE, .metavar = "S",
	  .in = KB_IN_MEASURE, .min = 0.01, .max = 86400,
	  KB_OPT_FIELD(struct kb_run_opts, max_time),
	  KB_OPT_GIVEN(struct kb_run_opts, has_max_time),
	  .help = "sample until answered for at most S seconds (compare with --max-time alone: --until-resolved)",
	  .def = KB_STR(KB_UNTIL_DEFAULT_MAX_TIME) },
	{ .name = "verbose", .short_name = 'v', .kind = KB_OPT_FLAG,
	  .in = KB_IN_ALL, KB_OPT_FIELD(struct kb_run_opts, verbose),
	  .help = "every figure and note (default: a summary; --json has all)" },
	{ .name = "hist", .kind = KB_OPT_FLAG, .in = KB_IN_RUN,
	  KB_OPT_FIELD(struct kb_run_opts, hist),
	  .help = "terminal histogram" },
	{ .name = "log", .kind = KB_OPT_FLAG, .in = KB_IN_RUN,
	  KB_OPT_FIELD(struct kb_run_opts, log),
	  .help = "with --hist: log-scale counts" },
	{ .name = "raw", .kind = KB_OPT_FLAG, .in = KB_IN_RUN,
	  KB_OPT_FIELD(struct kb_run_opts, raw),
	  .help = "every sample after the summary" },
	{ .name = "csv", .kind = KB_OPT_FLAG, .in = KB_IN_RUN,
	  KB_OPT_FIELD(struct kb_run_opts, csv),
	  .help = "the samples as CSV instead of the summary" },
	{ .name = "svg", .kind = KB_OPT_STRING, .metavar = "FILE",
	  .in = KB_IN_MEASURE, KB_OPT_FIELD(struct kb_run_opts, svg),
	  .help = "also write an SVG plot to FILE" },
	{ .name = "log-x", .kind = KB_OPT_FLAG, .in = KB_IN_MEASURE,
	  KB_OPT_FIELD(struct kb_run_opts, log_x),
	  .help = "with --svg: log-scale x axis" },
	{ .name = "save", .kind = KB_OPT_STRING, .metavar = "FILE|NAME",
	  .in = KB_IN_MEASURE, .parse = parse_result_name,
	  KB_OPT_FIELD(struct kb_run_opts, save),
	  .help = "also write the result with every sample (user/RESULTS.md); a NAME (no '/' or '.') is stored in ~/.local/share/kbench/" },
	{ .name = "commit", .kind = KB_OPT_STRING, .metavar = "REV",
	  .in = KB_IN_MEASURE, .parse = parse_commit,
	  KB_OPT_FIELD(struct kb_run_opts, commit),
	  .help = "with --save: record the git commit measured (REV resolved in the repository here) for history and export" },
	{ .name = "baseline", .kind = KB_OPT_STRING, .metavar = "FILE|NAME",
	  .in = KB_IN_RUN, .parse = parse_result_name,
	  KB_OPT_FIELD(struct kb_run_opts, baseline),
	  .help = "diff the run against a saved result as 'kbenchctl diff' does, with the options that follow; exit 1 on a regression" },
	{ .name = "threshold", .kind = KB_OPT_DOUBLE, .metavar = "PCT",
	  .in = KB_IN_RUN | KB_IN_DIFF, .min = 0,
	  KB_OPT_FIELD(struct kb_run_opts, diff.threshold),
	  KB_OPT_GIVEN(struct kb_run_opts, diff.has_threshold),
	  .help = "noise threshold of the diff in percent, the same for files of single and of replicated runs: a change is called only when its whole 95% CI lies beyond +-PCT; 0: 'no significant difference' when the CI holds 0",
	  .def = KB_STR(KB_DIFF_DEFAULT_THRESHOLD) },
	{ .name = "seed", .kind = KB_OPT_U64, .metavar = "N", .in = KB_IN_ALL,
	  KB_OPT_FIELD(struct kb_run_opts, diff.seed),
	  KB_OPT_GIVEN(struct kb_run_opts, diff.has_seed),
	  .help = "seed of the bootstrap", .def = KB_STR(KB_DIFF_DEFAULT_SEED) },
	{ .name = "fail-on", .kind = KB_OPT_CHOICE, .metavar = "WHAT",
	  .in = KB_IN_RUN | KB_IN_DIFF, .choices = kb_diff_fail_on_choices,
	  KB_OPT_FIELD(struct kb_run_opts, diff.fail_on),
	  KB_OPT_GIVEN(struct kb_run_opts, diff.has_fail_on),
	  .help = "exit 1 when a routine regressed, or when any changed",
	  .def = "regressed" },
	{ .name = "bisect", .kind = KB_OPT_FLAG, .in = KB_IN_RUN | KB_IN_DIFF,
	  KB_OPT_FIELD(struct kb_run_opts, diff.bisect),
	  .help = "for git bisect run: exit 125 (skip) when a routine is inconclusive or changed only between single runs" },
	{ .name = "trust-single", .kind = KB_OPT_FLAG,
	  .in = KB_IN_RUN | KB_IN_DIFF,
	  KB_OPT_FIELD(struct kb_run_opts, diff.trust_single),
	  .help = "exit 1 on a regression between single runs too (their run-to-run noise is unseen: for runs that repeat exactly, as under qemu icount)" },
	{ .name = "markdown", .kind = KB_OPT_FLAG, .in = KB_IN_RUN | KB_IN_DIFF,
	  KB_OPT_FIELD(struct kb_run_opts, diff.markdown),
	  .help = "the diff as a Markdown table (commit messages, reviews)" },
	{ .name = "match", .kind = KB_OPT_STRING, .metavar = "OLD=NEW",
	  .in = KB_IN_RUN | KB_IN_DIFF, .parse = parse_match,
	  KB_OPT_FIELD(struct kb_run_opts, diff),
	  .help = "compare routine OLD with NEW of another name (repeatable)" },
	{ .name = "metric", .kind = KB_OPT_STRING, .metavar = "EVENT",
	  .in = KB_IN_ALL, .parse = parse_metric,
	  KB_OPT_FIELD(struct kb_run_opts, diff.metric),
	  .help = "compare the counts of a hardware event per iteration instead of the counter's ticks (compare: counted without --events too)" },
	{ .name = "check", .kind = KB_OPT_FLAG, .in = KB_IN_DIFF,
	  KB_OPT_FIELD(struct kb_run_opts, check),
	  .help = "only load and validate each FILE" },
	{ NULL }
};

/* Names as the ABI allows them: [a-z0-9_]{1,KBENCH_NAME_MAX}. */
static bool name_ok(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n && !s[n] && n <= KBENCH_NAME_MAX;
}

/*
 * A routine positional argument: NAME, or NAME:ARG with one value of the
 * routine's own (the same routine may then come twice, at two values).
 */
static int routine_arg(const char *sub, char *word, struct kb_run_opts *o)
{
	char *colon = strchr(word, ':'), err[256];
	struct kb_sweep one;

	if (colon) {
		*colon = '\0';
		if (kb_sweep_parse(colon + 1, &one, err, sizeof(err)))
			return kb_arg_error(sub, "%s:%s: %s", word, colon + 1, err);
		if (one.kind != KB_SWEEP_ONE)
			return kb_arg_error(sub, "%s:%s: one value per routine (a sweep is --arg %s)",
					    word, colon + 1, colon + 1);
		o->q.args[o->q.n] = one.v[0];
		o->routine_args = true;
	}
	if (!name_ok(word))
		return kb_arg_error(sub, "bad routine name '%s' (names are 1 to %d of a-z, 0-9 and _; see '%s list')",
				    word, KBENCH_NAME_MAX, prog);
	o->q.names[o->q.n++] = word;
	return colon ? 1 : 0;
}

/* How the arguments (--arg, NAME:ARG) go together with the rest. */
static int check_args(const char *sub, bool run, struct kb_run_opts *o,
		      unsigned int with_arg)
{
	unsigned int i, k;

	/*
	 * the same routine twice: at two arguments (two series), or in
	 * compare --user at the same one, the A/A null experiment (the
	 * module runs a routine once per run: there foo foobar is the A/A)
	 */
	for (k = 1; k < o->q.n; k++)
		for (i = 0; i < k; i++)
			if (!strcmp(o->q.names[i], o->q.names[k]) &&
			    (!with_arg || o->q.args[i] == o->q.args[k]) &&
			    (run || !o->user))
				return kb_arg_error(sub, "routine '%s' given twice: give the two their own arguments (%s:64 %s:128)%s",
						    o->q.names[k], o->q.names[k],
						    o->q.names[k], run ? "" :
						    "; an A/A comparison is compare --user X X, or foo foobar in the kernel");
	if (with_arg && with_arg != o->q.n)
		return kb_arg_error(sub, "give every routine its argument (NAME:ARG), or none");
	if (with_arg && o->has_sweep)
		return kb_arg_error(sub, "--arg and NAME:ARG exclude each other: --arg is every routine's");
	if (with_arg) {
		o->q.nargs = o->q.n;
		return 0;
	}
	if (o->has_fit && !kb_sweep_is_sweep(&o->sweep))
		return kb_arg_error(sub, "--fit goes with a sweep (--arg A..B:xK, A..B:+S or V,V,...)");
	if (!o->has_sweep)
		return 0;
	if (!kb_sweep_is_sweep(&o->sweep)) {
		o->q.nargs = 1;
		o->q.args[0] = o->sweep.v[0];
		return 0;
	}
	if (o->kvu)
		return kb_arg_error(sub, "--kernel-vs-user takes one --arg value, not a sweep");
	if (run && (o->hist || o->raw))
		return kb_arg_error(sub, "--hist and --raw show one run: not with a sweep (-v shows every run)");
	return 0;
}

/*
 * --unit core: the calibration fits in the run beside the routines (a
 * sweep's value is an argument for all), and the run is one the
 * calibration can be interleaved with.
 */
static int check_unit_core(const char *sub, struct kb_run_opts *o)
{
	struct kb_run_req q = o->q, cq;
	unsigned int slot[2];

	if (o->kvu || o->cpus.spec || o->cpus.each || o->has_precision ||
	    o->has_max_time || o->until_resolved || o->diff.metric)
		return kb_arg_error(sub, "--unit core calibrates within one run on one CPU: not with --kernel-vs-user, --cpus, --each-cpu, --precision, --max-time, --until-resolved or --metric");
	if (o->has_sweep && !q.nargs) {
		q.nargs = 1;
		q.args[0] = o->sweep.v[0];
	}
	o->q.unit_core = true;
	return kb_core_request(sub, &q, &cq, slot);
}

int kb_run_opts_parse(const struct subcommand *sc, int argc, char *argv[],
		      struct kb_run_opts *o)
{
	const char *sub = sc->name, *given;
	bool run = sc->opts_in & KB_IN_RUN;
	const struct kb_opt *opt;
	unsigned int with_arg = 0;
	int first, err, i;

	memset(o, 0, sizeof(*o));
	o->q.progress = true;
	kb_diff_opts_init(&o->diff);
	err = kb_opts_parse(sc, argc, argv, o, &first);
	if (err)
		return err;
	for (opt = kb_run_table; opt->name && o->user; opt++)
		if (opt->kernel_only && *((bool *)o + opt->given - 1))
			return kb_arg_error(sub, "--%s is a bound of the module's runs, which have interrupts off: not with --user",
					    opt->name);
	o->diff.full = o->verbose;
	if (o->asm_.n && first < argc)
		return kb_arg_error(sub, "--asm measures its snippet%s instead of routines: not with '%s'",
				    o->asm_.n > 1 ? "s" : "", argv[first]);
	if ((o->asm_.sign_key || o->asm_.sign_cert) && (!o->asm_.n || o->user))
		return kb_arg_error(sub, "%s goes with --asm CODE in the kernel (a module to sign)",
				    o->asm_.sign_key ? "--sign-key" : "--sign-cert");
	if (!o->asm_.sign_key != !o->asm_.sign_cert)
		return kb_arg_error(sub, "%s wants %s too: a key and its certificate",
				    o->asm_.sign_key ? "--sign-key" : "--sign-cert",
				    o->asm_.sign_key ? "--sign-cert" : "--sign-key");
	if ((o->has_unroll || o->asm_.keep) && !o->asm_.n)
		return kb_arg_error(sub, "%s goes with --asm CODE",
				    o->has_unroll ? "--unroll" : "--keep");
	if (o->asm_.n && (o->cpus.spec || o->cpus.each || o->kvu))
		return kb_arg_error(sub, "--asm runs its snippets on one CPU: not with --cpus, --each-cpu or --kernel-vs-user");
	o->asm_.kernel = o->asm_.n && !o->user;
	if (!o->has_unroll)
		o->asm_.unroll = KB_ASM_UNROLL_DEFAULT;
	for (i = 0; i < (int)o->asm_.n; i++)
		o->q.names[o->q.n++] = kb_asm_name((unsigned int)i);
	o->q.unroll = o->asm_.n ? o->asm_.unroll : 0;
	for (i = first; i < argc; i++) {
		if (run && o->q.n == KBENCH_RUN_ROUTINES_MAX)
			return kb_arg_error(sub, "at most %d routines per run; '%s' is one too many",
					    KBENCH_RUN_ROUTINES_MAX, argv[i]);
		if (!run && o->q.n == 2)
			return kb_arg_error(sub, "two routines only; '%s' is one too many",
					    argv[i]);
		err = routine_arg(sub, argv[i], o);
		if (err < 0)
			return err;
		with_arg += (unsigned int)err;
	}
	if (!o->q.n) {
		usage_error(sub, run ? "which routine? (see '%s list')" :
				       "which two routines? (see '%s list')", prog);
		return -EINVAL;
	}
	if (o->log && !o->hist)
		return kb_arg_error(sub, "--log goes with --hist");
	if (o->log_x && !o->svg)
		return kb_arg_error(sub, "--log-x goes with --svg");
	if (!o->has_runs)
		o->runs = 1;
	if (o->between && o->runs < 2)
		return kb_arg_error(sub, "--between '%s' runs between replicated runs: give --runs 2 or more",
				    o->between);
	if (o->has_spacing && o->runs < 2)
		return kb_arg_error(sub, "--spacing %g pauses between replicated runs: give --runs 2 or more",
				    o->spacing);
	if (!o->has_spacing)
		o->spacing = KB_RUNS_DEFAULT_SPACING;
	if (o->runs > 1 && (o->has_sweep || o->cpus.spec || o->cpus.each ||
			    o->csv || o->svg || o->hist || o->raw))
		return kb_arg_error(sub, "--runs %u: not with --arg sweeps, --cpus, --each-cpu, --csv, --svg, --hist or --raw (one run does those; --json gives every run's figures)",
				    o->runs);
	if (!run && o->runs > 1 && (o->kvu || o->diff.metric ||
				    o->has_precision || o->has_max_time ||
				    o->until_resolved))
		return kb_arg_error(sub, "--runs %u: not with --kernel-vs-user, --metric, --precision, --until-resolved or --max-time (compare --runs compares the runs' medians)",
				    o->runs);
	if (o->csv && (opt_json || o->verbose || o->hist || o->raw || o->baseline))
		return kb_arg_error(sub, "--csv replaces the summary: not with --json, --verbose, --hist, --raw or --baseline");
	given = kb_diff_opts_given(&o->diff);
	if (run && given && !o->baseline)
		return kb_arg_error(sub, "%s is an option of the diff against a saved result: it goes with --baseline FILE|NAME",
				    given);
	if (o->diff.markdown && opt_json)
		return kb_arg_error(sub, "--markdown and --json exclude each other");
	if (o->kvu) {
		if (o->q.n != 1)
			return kb_arg_error(sub, "--kernel-vs-user takes one routine, not %u",
					    o->q.n);
		if (o->user)
			return kb_arg_error(sub, "--kernel-vs-user and --user exclude each other (--kernel-vs-user runs both)");
	} else if (!run && o->q.n != 2) {
		return kb_arg_error(sub, "needs two routines (or one with --kernel-vs-user)");
	}
	if (o->diff.metric && !run && kb_run_req_add_event(&o->q, o->diff.metric))
		return kb_arg_error(sub, "--metric %s: --events has %d events already; add %s to them instead",
				    o->diff.metric, KBENCH_EVENTS_MAX,
				    o->diff.metric);
	if (o->q.has_skew_ns && !o->q.skew_ns)
		return kb_arg_error(sub, "--skew-ns 0: at least 1");
	if (o->q.has_skew_ns && !o->cpus.spec && !o->cpus.each)
		return kb_arg_error(sub, "--skew-ns bounds a concurrent run: it goes with --cpus");
	if ((o->has_precision || o->has_max_time || o->until_resolved) &&
	    (o->q.nevents || o->kvu || o->has_sweep || o->baseline))
		return kb_arg_error(sub, "--precision, --until-resolved and --max-time sample one run until answered: not with --events, --metric, --kernel-vs-user, --arg sweeps or --baseline");
	if (o->cpus.spec || o->cpus.each) {
		const char *what = o->cpus.each ? "--each-cpu" : "--cpus";

		if (o->q.has_cpu)
			return kb_arg_error(sub, "%s and --cpu exclude each other (--cpus N runs on CPU N alone)",
					    what);
		if (o->q.has_skew_ns && o->cpus.each)
			return kb_arg_error(sub, "--skew-ns bounds a concurrent run (--cpus), not --each-cpu");
		if (o->cpus.hi && o->cpus.each)
			return kb_arg_error(sub, "--each-cpu takes a CPU list, not the counts %s",
					    o->cpus.spec);
		if (o->q.nevents || o->has_precision || o->has_max_time ||
		    o->has_sweep || o->baseline || o->hist || o->raw ||
		    (!o->cpus.hi && (o->svg || o->csv || o->verbose)))
			return kb_arg_error(sub, "%s: not with --events, --precision, --max-time, --arg sweeps, --baseline, --hist, --raw, nor with a CPU list --svg, --csv or -v (--json gives every figure)",
					    what);
		if (o->save)
			return kb_arg_error(sub, "%s: --save is refused: the saved-result format (user/RESULTS.md) has no place for a run of several CPUs and their skew yet",
					    what);
		if (o->cpus.hi) {	/* a sweep over the CPU counts */
			o->sweep.spec = o->cpus.spec;
			o->sweep.kind = KB_SWEEP_ARITH;
			o->sweep.step = 1;
			for (o->sweep.n = 0; o->sweep.n <= o->cpus.hi - o->cpus.lo;
			     o->sweep.n++)
				o->sweep.v[o->sweep.n] = o->cpus.lo + o->sweep.n;
		}
	}
	if (o->commit && !o->save)
		return kb_arg_error(sub, "--commit is recorded in a saved result: add --save FILE|NAME");
	/* rows with a given flag get no default from the table */
	if (!o->has_threshold)
		o->threshold = KB_COMPARE_DEFAULT_THRESHOLD;
	if (!o->has_max_time)
		o->max_time = KB_UNTIL_DEFAULT_MAX_TIME;
	err = check_args(sub, run, o, with_arg);
	if (!err && o->unit == KB_UNIT_CORE)
		err = check_unit_core(sub, o);
	return err;
}

int kb_run_req_add_event(struct kb_run_req *q, const char *name)
{
	unsigned long long c, ci;
	unsigned int t, ti, i;

	if (kbench_event_parse(name, &t, &c))
		return -EINVAL;
	for (i = 0; i < q->nevents; i++)
		if (!kbench_event_parse(q->events[i], &ti, &ci) && ti == t &&
		    ci == c)
			return 0;
	if (q->nevents == KBENCH_EVENTS_MAX)
		return -E2BIG;
	snprintf(q->events_buf[q->nevents], sizeof(q->events_buf[0]), "%s",
		 name);
	q->events[q->nevents] = q->events_buf[q->nevents];
	q->nevents++;
	return 0;
}

/*
 * Every argument of the request, or of each sweep value, is within the
 * routine's range, and given only to routines that take one: an error
 * here costs no run.
 */
static int check_arg_ranges(const char *sub, const struct kb_run_opts *o)
{
	const struct kb_routine_info *in;
	unsigned int i, k, nv;
	const uint64_t *v;

	if (o->q.nargs) {
		v = o->q.args;
		nv = o->q.nargs;
	} else if (o->has_sweep) {
		v = o->sweep.v;
		nv = o->sweep.n;
	} else {
		return 0;
	}
	for (i = 0; i < o->q.n; i++) {
		in = &o->info[i];
		if (!in->has_arg)
			return kb_arg_error(sub, "routine '%s' takes no argument ('%s list' shows the ones that do)",
					    o->q.names[i], prog);
		for (k = 0; k < nv; k++) {
			/* NAME:ARG: each routine its own */
			if (o->routine_args && k != i)
				continue;
			if (v[k] >= in->arg_min && v[k] <= in->arg_max)
				continue;
			return kb_arg_error(sub, "%s%llu: routine '%s' takes %llu..%llu %s",
					    o->routine_args ? "" : "--arg ",
					    (unsigned long long)v[k], o->q.names[i],
					    (unsigned long long)in->arg_min,
					    (unsigned long long)in->arg_max,
					    in->arg_name);
		}
	}
	return 0;
}

int kb_run_opts_check_twins(struct kb_run_opts *o, const char *sub)
{
	const struct kb_twin *tw;
	unsigned int i;

	for (i = 0; i < o->q.n; i++) {
		tw = kb_twin_find(o->q.names[i]);
		if (!tw)
			continue;	/* the twin run names it */
		o->info[i].found = true;
		o->info[i].has_arg = tw->arg_name;
		if (tw->arg_name)
			snprintf(o->info[i].arg_name, sizeof(o->info[i].arg_name),
				 "%s", tw->arg_name);
		o->info[i].arg_min = tw->arg_min;
		o->info[i].arg_max = tw->arg_max;
		o->info[i].arg_def = tw->arg_def;
	}
	for (i = 0; i < o->q.n; i++)
		if (!o->info[i].found)
			return 0;
	return check_arg_ranges(sub, o);
}

static int info_limits_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	uint32_t *v = arg;
	int i;

	(void)nlh;
	for (i = 1; i <= KBENCH_A_INFO_MAX; i++)
		if (tb[i] && nla_len(tb[i]) == sizeof(uint32_t))
			v[i] = nla_get_u32(tb[i]);
	return 0;
}

int kb_run_opts_check_module(struct kb_run_opts *o,
			     const struct subcommand *sc)
{
	uint32_t info[KBENCH_A_INFO_MAX + 1] = { 0 };
	struct kb_nl nl;
	int err;

	err = kb_nl_open(&nl);
	if (err)
		return err;
	err = kb_nl_request(&nl, kb_nl_msg(&nl, KBENCH_CMD_INFO, false),
			    KBENCH_A_INFO_MAX, info_limits_cb, info);
	if (!err)
		err = kb_opts_check_info(kb_run_table, sc->opts_in, o, info,
					 KBENCH_A_INFO_MAX + 1);
	if (!err)
		err = kb_routines_check(&nl, o->q.names, o->q.n, o->info);
	kb_nl_close(&nl);
	if (!err)
		err = check_arg_ranges(sc->name, o);
	return err;
}
