// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl list: the registered routines (ROUTINE_GET dump).
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

/* "bytes 4K..256M (1M)": the unit, the range and the default */
static void list_arg(struct nlattr **tb)
{
	char lo[24], hi[24], def[24], text[96];
	struct kb_routine_info in;
	bool bytes;

	kb_routine_info_fill(tb, &in);
	if (!in.has_arg) {
		out_null("arg");
		out_text("%-26s ", "-");
		return;
	}
	bytes = !strcmp(in.arg_name, "bytes");
	kb_sweep_format(in.arg_min, bytes, lo, sizeof(lo));
	kb_sweep_format(in.arg_max, bytes, hi, sizeof(hi));
	kb_sweep_format(in.arg_def, bytes, def, sizeof(def));
	snprintf(text, sizeof(text), "%s %s..%s (%s)", in.arg_name, lo, hi, def);
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

/*
 * For subcommands that take only the common options: parse them and open
 * the kbench family.  0 with @nl open, 1 after --help, or -errno (printed).
 */
static int opts_none_open(const struct subcommand *sc, int argc, char *argv[],
		   struct kb_nl *nl)
{
	int err = kb_opts_parse_noargs(sc, argc, argv, NULL);

	return err ? err : kb_nl_open(nl);
}

int list_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct kb_nl nl;
	int err;

	err = opts_none_open(sc, argc, argv, &nl);
	if (err)
		return kb_exit_status(err);
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
