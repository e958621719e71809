// SPDX-License-Identifier: GPL-2.0
/*
 * Option tables: the parser on a table of every kind (the rows future
 * options will be: a choice, a file, a list with its own parser), the
 * subcommands' tables, --help generated from them, the INFO limits and the
 * names of options in the kernel's errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kbench.h>

#include "subcommands.h"
#include "opts.h"
#include "runopts.h"
#include "tap.h"
#include "tests.h"

struct demo {
	uint32_t n;
	bool has_n;
	uint64_t big;
	double pct;
	const char *file;
	int metric;
	unsigned int list[4], nlist;
	bool flag;
};

static const char *const demo_metrics[] = { "cycles", "instructions", NULL };

/* a row with its own parser: "1,2,4" (what an --arg sweep will need) */
static int parse_list(const struct kb_opt *o, const char *arg, void *field)
{
	struct demo *d = (struct demo *)((char *)field - offsetof(struct demo, list));
	char *end;

	d->nlist = 0;
	do {
		if (d->nlist == 4)
			return kb_opt_error(o, arg, "at most 4 values");
		d->list[d->nlist++] = (unsigned int)strtoul(arg, &end, 10);
		arg = end + (*end == ',');
	} while (*end == ',');
	return *end ? kb_opt_error(o, arg, "not a list") : 0;
}

static const struct kb_opt demo_table[] = {
	{ .name = "n", .kind = KB_OPT_U32, .metavar = "N", .min = 1, .max = 100,
	  KB_OPT_FIELD(struct demo, n), KB_OPT_GIVEN(struct demo, has_n),
	  .help = "a bounded number", .def = "50" },
	{ .name = "big", .kind = KB_OPT_U64, .metavar = "N",
	  KB_OPT_FIELD(struct demo, big), .help = "any u64", .def = "7" },
	{ .name = "pct", .kind = KB_OPT_DOUBLE, .metavar = "PCT", .min = 0,
	  .max = 100, KB_OPT_FIELD(struct demo, pct), .help = "a percentage" },
	{ .name = "save", .kind = KB_OPT_STRING, .metavar = "FILE",
	  KB_OPT_FIELD(struct demo, file), .help = "a file", .in = 2 },
	{ .name = "metric", .kind = KB_OPT_CHOICE, .metavar = "NAME",
	  .choices = demo_metrics, KB_OPT_FIELD(struct demo, metric),
	  .help = "a choice", .def = "instructions" },
	{ .name = "list", .kind = KB_OPT_STRING, .metavar = "LIST",
	  .parse = parse_list, KB_OPT_FIELD(struct demo, list),
	  .help = "a list" },
	{ .name = "flag", .short_name = 'f', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct demo, flag), .help = "a flag" },
	{ NULL }
};

static const struct subcommand demo_sc = {
	.name = "demo", .synopsis = "demo [options]", .description = "a demo",
	.opts = demo_table, .opts_in = 1,
};

static int stderr_saved = -1;

static void quiet(bool on)
{
	if (on) {
		int null = open("/dev/null", O_WRONLY);

		fflush(stderr);
		stderr_saved = dup(2);
		dup2(null, 2);
		close(null);
	} else {
		fflush(stderr);
		dup2(stderr_saved, 2);
		close(stderr_saved);
	}
}

/* Parse a space-separated command line into @d. */
static int parse(const struct subcommand *sc, const char *line, void *d,
		 int *first)
{
	static char buf[256];	/* o points into it after the return */
	char *argv[32], *tok;
	int argc = 0, err;

	snprintf(buf, sizeof(buf), "demo %s", line);
	for (tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	quiet(true);
	err = kb_opts_parse(sc, argc, argv, d, first);
	quiet(false);
	return err;
}

static void test_parser(void)
{
	struct demo d;
	int first;

	memset(&d, 0, sizeof(d));
	ok(!parse(&demo_sc, "", &d, &first) && d.n == 0 && !d.has_n &&
	   d.big == 7 && d.metric == 1 && first == 1,
	   "defaults: parsed into rows without a given flag, shown only for the others");
	memset(&d, 0, sizeof(d));
	ok(!parse(&demo_sc, "x --n 100 --big 18446744073709551615 --pct 2.5 --metric cycles -f y",
		  &d, &first) &&
	   d.n == 100 && d.has_n && d.big == UINT64_MAX && d.pct == 2.5 &&
	   d.metric == 0 && d.flag && first == 10,
	   "every kind parsed; positional arguments permuted after the options");
	ok(!parse(&demo_sc, "--list 1,2,4", &d, &first) && d.nlist == 3 &&
	   d.list[2] == 4, "a row with its own parser");
	ok(parse(&demo_sc, "--list 1,2,3,4,5", &d, &first) == -EINVAL,
	   "its errors are usage errors");
	ok(parse(&demo_sc, "--n 0", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--n 101", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--n -3", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--n 1x", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--big 18446744073709551616", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--pct 100.5", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--pct nan", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--metric bogus", &d, &first) == -EINVAL,
	   "out of range, negative, junk, overflow, NaN and unknown choices are refused");
	ok(parse(&demo_sc, "--save f", &d, &first) == -EINVAL,
	   "a row of another subcommand (.in) is unknown here");
	ok(parse(&demo_sc, "--n", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--flag=1", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "--nope", &d, &first) == -EINVAL &&
	   parse(&demo_sc, "-z", &d, &first) == -EINVAL,
	   "missing values, values for flags and unknown options are refused");
	ok(kb_edit_distance("sampels", "samples") == 2 &&
	   kb_edit_distance("", "abc") == 3 && kb_edit_distance("cpu", "cpu") == 0,
	   "edit distance for 'did you mean'");
}

static char *usage_of(const struct subcommand *sc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	subcommand_usage(f, sc);
	fclose(f);
	return buf;
}

/* Undo the wrapping: newlines and the indentation after them to a space. */
static void flatten(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\n') {
			*d++ = ' ';
			while (s[1] == ' ')
				s++;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* Every row a subcommand takes is in its --help, and no other row is. */
static void test_tables(void)
{
	const struct subcommand *sc;
	const struct kb_opt *o;
	char *text, want[64];
	bool all = true, wrap = true;

	for (sc = subcommands; sc->name; sc++) {
		text = usage_of(sc);
		for (o = sc->opts; o && o->name; o++) {
			bool in = !o->in || (o->in & sc->opts_in);
			const struct kb_opt *same;

			/* a name may have a row per subcommand (--threshold) */
			for (same = sc->opts; !in && same->name; same++)
				if (same != o && !strcmp(same->name, o->name) &&
				    (!same->in || (same->in & sc->opts_in)))
					break;
			if (!in && same->name)
				continue;

			snprintf(want, sizeof(want), "--%s %s", o->name,
				 o->metavar ? o->metavar : "");
			if (!!strstr(text, want) != in) {
				diag("%s --help: %s %s", sc->name, want,
				     in ? "missing" : "present");
				all = false;
			}
			if (!o->help || (o->kind != KB_OPT_FLAG && !o->metavar))
				all = false;
		}
		if (!strstr(text, "--json") || !strstr(text, "--help"))
			all = false;
		{
			char *line = text, *nl;

			for (; (nl = strchr(line, '\n')); line = nl + 1)
				if (nl - line > 79)
					wrap = false;
		}
		free(text);
	}
	ok(all, "--help of every subcommand lists exactly its table's rows, with help and metavar");
	ok(wrap, "--help lines fit 79 columns");
	text = usage_of(subcommand_find("run"));
	flatten(text);
	ok(strstr(text, "--iterations N") &&
	   strstr(text, "1 to 16777216; in the kernel at most max_iterations") &&
	   strstr(text, "default: 1000)"),
	   "run --help: ranges, module limits and defaults come from the rows");
	free(text);
	text = usage_of(&kb_global);
	ok(strstr(text, "Subcommands:\n  info ") && strstr(text, "--version"),
	   "global --help: subcommands and global options");
	free(text);
}

static void test_info_limits(void)
{
	struct kb_run_opts o;
	uint32_t info[KBENCH_A_INFO_MAX + 1] = { 0 };

	memset(&o, 0, sizeof(o));
	info[KBENCH_A_INFO_MAX_SAMPLES] = 1000;
	info[KBENCH_A_INFO_MAX_WINDOW_US] = 1000;
	o.q.samples = 1000;
	o.q.has_samples = true;
	o.q.target_ns = 5000000;	/* not given: not checked */
	ok(!kb_opts_check_info(kb_run_table, KB_IN_RUN, &o, info,
			       KBENCH_A_INFO_MAX + 1),
	   "INFO limits: a value at the module's maximum passes");
	o.q.samples = 1001;
	quiet(true);
	ok(kb_opts_check_info(kb_run_table, KB_IN_RUN, &o, info,
			      KBENCH_A_INFO_MAX + 1) == -EINVAL,
	   "INFO limits: --samples above max_samples is refused");
	o.q.samples = 1;
	o.q.has_target_ns = true;
	ok(kb_opts_check_info(kb_run_table, KB_IN_COMPARE, &o, info,
			      KBENCH_A_INFO_MAX + 1) == -EINVAL,
	   "INFO limits: --target-ns above max_window_us x 1000 is refused");
	quiet(false);
}

static void test_attr_names(void)
{
	uint32_t cpu = 7, idx = 3;
	char buf[96];

	ok(kb_opts_name_attr(KBENCH_CMD_RUN, KBENCH_A_RUN_CPU, &cpu, 4, buf,
			     sizeof(buf)) && !strcmp(buf, "--cpu 7"),
	   "the kernel's bad attribute RUN cpu is --cpu 7");
	ok(kb_opts_name_attr(KBENCH_CMD_RUN, KBENCH_A_RUN_ROUTINE, "nosuch", 7,
			     buf, sizeof(buf)) && !strcmp(buf, "routine 'nosuch'"),
	   "RUN routine is the routine argument");
	ok(kb_opts_name_attr(KBENCH_CMD_SAMPLES_GET, KBENCH_A_SAMPLES_ROUTINE,
			     &idx, 4, buf, sizeof(buf)) && !strcmp(buf, "--routine 3"),
	   "SAMPLES_GET routine is --routine");
	ok(!kb_opts_name_attr(KBENCH_CMD_INFO, 1, &idx, 4, buf, sizeof(buf)),
	   "attributes no option sets have no name");
}

/*
 * The ranges of the rows that fill request attributes are the spec's
 * (Documentation/netlink/specs/kbench.yaml): only --samples may go beyond
 * (the twins' bound; in the kernel INFO max_samples applies) and --cpu
 * is checked against the online CPUs instead.
 */
static void spec_ranges(const struct kb_opt *table, const char *set)
{
	char cmd[512], name[64], lo[32], hi[32];
	const struct kb_opt *o;
	unsigned int rows = 0;
	bool same = true;
	FILE *p;

	if (system("python3 -c 'import yaml' 2>/dev/null")) {
		skip("no python3-yaml", "option ranges of '%s' equal the spec's", set);
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 %s/../spec_bounds.py %s/../../../Documentation/netlink/specs/kbench.yaml %s",
		 fixtures_dir, fixtures_dir, set);
	p = popen(cmd, "r");
	while (p && fscanf(p, "%63s %31s %31s", name, lo, hi) == 3) {
		for (o = table; o->name && strcmp(o->name, name); o++)
			;
		if (!o->name || !o->attr)
			continue;
		rows++;
		if (!strcmp(name, "cpu"))
			continue;
		if (o->min != atof(lo) ||
		    (o->info_max ? o->max < atof(hi) : o->max != atof(hi))) {
			diag("--%s: %.0f..%.0f, spec %s..%s", name, o->min, o->max,
			     lo, hi);
			same = false;
		}
	}
	if (p)
		pclose(p);
	ok(rows && same, "option ranges of '%s' equal the spec's (%u rows)", set, rows);
}

/* kb_run_opts_parse() of "SUB LINE" (run, compare), quietly. */
static int parse_run(const char *sub, const char *line, struct kb_run_opts *o)
{
	static char buf[256];	/* o points into it after the return */
	char *argv[32], *tok;
	int argc = 0, err;

	snprintf(buf, sizeof(buf), "%s %s", sub, line);
	for (tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	quiet(true);
	err = kb_run_opts_parse(subcommand_find(sub), argc, argv, o);
	quiet(false);
	return err;
}

/* run --baseline takes diff's own rows; their defaults and given flags. */
static void test_diff_rows(void)
{
	const struct kb_opt *o;
	struct kb_run_opts ro;
	bool same = true;

	for (o = kb_run_table; o->name; o++)
		if ((o->in & KB_IN_DIFF) && !(o->in & KB_IN_RUN) &&
		    strcmp(o->name, "check"))
			same = false;
	ok(same, "every option of diff but --check is also one of run (for --baseline)");
	ok(!parse_run("run", "add_chain", &ro) && ro.diff.threshold == 2 &&
	   ro.diff.seed == 1 && ro.diff.fail_on == KB_DIFF_FAIL_REGRESSED &&
	   !kb_diff_opts_given(&ro.diff),
	   "run: the diff's defaults (threshold 2, seed 1, fail on regressed), none given");
	ok(!parse_run("run", "add_chain --baseline b.json --threshold 5 --fail-on changed --match a=b --match c=d --markdown --seed 9 -v",
		      &ro) &&
	   !strcmp(ro.baseline, "b.json") && ro.diff.threshold == 5 &&
	   ro.diff.has_threshold && ro.diff.fail_on == KB_DIFF_FAIL_CHANGED &&
	   ro.diff.nmatch == 2 && !strcmp(ro.diff.match_old[1], "c") &&
	   !strcmp(ro.diff.match_new[1], "d") && ro.diff.markdown &&
	   ro.diff.seed == 9 && ro.diff.full,
	   "run --baseline with every diff option");
	ok(parse_run("run", "add_chain --markdown", &ro) == -EINVAL &&
	   parse_run("run", "add_chain --seed 3", &ro) == -EINVAL,
	   "run: diff options without --baseline are refused");
	ok(!parse_run("compare", "a b --seed 4", &ro) && ro.threshold == 1 &&
	   ro.diff.seed == 4 && parse_run("compare", "a b --baseline x", &ro) == -EINVAL,
	   "compare: its own --threshold (default 1), the shared --seed, no --baseline");
}

void test_opts(void)
{
	spec_ranges(kb_run_table, "run");
	spec_ranges(kb_samples_table, "samples");
	test_parser();
	test_tables();
	test_info_limits();
	test_attr_names();
	test_diff_rows();
}
