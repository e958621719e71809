// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl list: the registered routines (ROUTINE_GET dump).
 */
#include <errno.h>
#include <string.h>

#include "kbenchctl.h"
#include "names.h"
#include "nl.h"
#include "opts.h"
#include "output.h"

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
	out_uint("bytes_per_iter", "%10llu  ",
		 kb_u32(tb[KBENCH_A_ROUTINE_BYTES_PER_ITER], 0));
	out_text("%-18s ", buf[0] ? buf : "-");
	kb_flags_json("flags", kb_routine_flag_names, flags);
	out_string("description", "%s\n", kb_str(tb[KBENCH_A_ROUTINE_DESC], ""));
	out_close_object();
	return 0;
}

int list_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct kb_nl nl;
	int err;

	err = opts_none_open(sc, argc, argv, &nl);
	if (err)
		return err > 0 ? EXIT_OK : kb_exit_status(err);
	out_text("%-20s %-16s %10s  %-18s %s\n", "ROUTINE", "MODULE",
		 "BYTES/ITER", "FLAGS", "DESCRIPTION");
	out_open_array(NULL);
	err = kb_nl_request(&nl, kb_nl_msg(&nl, KBENCH_CMD_ROUTINE_GET, true),
			    KBENCH_A_ROUTINE_MAX, list_cb, NULL);
	out_close_array();
	out_finish();
	kb_nl_close(&nl);
	return kb_exit_status(err);
}
