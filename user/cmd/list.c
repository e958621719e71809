// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl list: the registered routines (ROUTINE_GET dump), or with
 * --user the userspace twins (twin.h), which need no module.
 */
#include <errno.h>
#include <string.h>

#include "cmd.h"
#include "names.h"
#include "nl.h"
#include "opts.h"
#include "output.h"
#include "runopts.h"
#include "sweep.h"
#include "twin.h"

struct list_opts {
	bool user;
};

const struct kb_opt kb_list_table[] = {
	{ .name = "user", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct list_opts, user),
	  .help = "the userspace twins (run --user), which need no module" },
	{ NULL }
};

/* An argument's unit, range and default: "adds 1..1024 (64)" or "-" */
static void arg_text(const char *name, uint64_t min, uint64_t max,
		     uint64_t def, char *text, size_t len)
{
	char lo[24], hi[24], d[24];
	bool bytes = !strcmp(name, "bytes");

	kb_sweep_format(min, bytes, lo, sizeof(lo));
	kb_sweep_format(max, bytes, hi, sizeof(hi));
	kb_sweep_format(def, bytes, d, sizeof(d));
	snprintf(text, len, "%s %s..%s (%s)", name, lo, hi, d);
}

/* The twins, from their table: what run --user and compare --user take. */
static int list_twins(void)
{
	const struct kb_twin *t;
	char text[96];

	out_text("%-20s %-26s %s\n", "ROUTINE (--user)", "ARGUMENT (DEFAULT)",
		 "DESCRIPTION");
	out_open_array(NULL);
	for (t = kb_twins; t->name; t++) {
		out_open_object(NULL);
		out_string("name", "%-20s ", t->name);
		out_string("side", NULL, "user");
		if (t->arg_name) {
			arg_text(t->arg_name, t->arg_min, t->arg_max,
				 t->arg_def, text, sizeof(text));
			out_text("%-26s ", text);
			out_open_object("arg");
			out_string("unit", NULL, t->arg_name);
			out_uint("min", NULL, t->arg_min);
			out_uint("max", NULL, t->arg_max);
			out_uint("default", NULL, t->arg_def);
			out_close_object();
		} else {
			out_null("arg");
			out_text("%-26s ", "-");
		}
		out_string("description", "%s\n", t->desc);
		out_close_object();
	}
	out_close_array();
	out_finish();
	return EXIT_OK;
}

/* "bytes 4K..256M (1M)": the unit, the range and the default */
static void list_arg(struct nlattr **tb)
{
	struct kb_routine_info in;
	char text[96];

	kb_routine_info_fill(tb, &in);
	if (!in.has_arg) {
		out_null("arg");
		out_text("%-26s ", "-");
		return;
	}
	arg_text(in.arg_name, in.arg_min, in.arg_max, in.arg_def, text,
		 sizeof(text));
	out_text("%-26s ", text);
	out_open_object("arg");
	out_string("unit", NULL, in.arg_name);
	out_uint("min", NULL, in.arg_min);
	out_uint("max", NULL, in.arg_max);
	out_uint("default", NULL, in.arg_def);
	out_close_object();
}

static int list_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	uint32_t flags = kb_u32(tb[KBENCH_A_ROUTINE_FLAGS], 0);
	char buf[64];

	(void)nlh;
	(void)arg;
	kb_flag_names(kb_routine_flag_names, flags, ",", buf, sizeof(buf));
	out_open_object(NULL);
	out_string("name", "%-20s ", kb_str(tb[KBENCH_A_ROUTINE_NAME], NULL));
	out_string("module", "%-16s ", kb_str(tb[KBENCH_A_ROUTINE_MODULE], NULL));
	list_arg(tb);
	out_uint("bytes_per_iter", "%10llu  ",
		 kb_u32(tb[KBENCH_A_ROUTINE_BYTES_PER_ITER], 0));
	out_text("%-23s ", buf[0] ? buf : "-");
	kb_flags_json("flags", kb_routine_flag_names, flags);
	out_string("description", "%s\n", kb_str(tb[KBENCH_A_ROUTINE_DESC], ""));
	out_close_object();
	return 0;
}

int list_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct list_opts o = { 0 };
	struct kb_nl nl;
	int err;

	err = kb_opts_parse_noargs(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	if (o.user)
		return list_twins();
	err = kb_nl_open(&nl);
	if (err) {
		if (err == -ENOENT)
			fprintf(stderr, "%s: without the module, 'kbenchctl list --user' lists the userspace twins that run --user measures\n",
				prog);
		return kb_exit_status(err);
	}
	out_text("%-20s %-16s %-26s %10s  %-23s %s\n", "ROUTINE", "MODULE",
		 "ARGUMENT (DEFAULT)", "BYTES/ITER", "FLAGS", "DESCRIPTION");
	out_open_array(NULL);
	err = kb_nl_request(&nl, kb_nl_msg(&nl, KBENCH_CMD_ROUTINE_GET, true),
			    KBENCH_A_ROUTINE_MAX, list_cb, NULL);
	out_close_array();
	out_finish();
	kb_nl_close(&nl);
	return kb_exit_status(err);
}
