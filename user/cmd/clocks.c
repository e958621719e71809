// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl clocks: resolution and latency of the kernel clocks
 * (CLOCK_GET dump), of the userspace clocks (--user), or both (--all).
 */
#include <errno.h>
#include <string.h>

#include "kbenchctl.h"
#include "nl.h"
#include "opts.h"
#include "output.h"
#include "uclocks.h"

struct clocks_opts {
	bool user, all;
};

const struct kb_opt kb_clocks_table[] = {
	{ .name = "user", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct clocks_opts, user),
	  .help = "the userspace clocks instead (no module needed)" },
	{ .name = "all", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct clocks_opts, all),
	  .help = "kernel and userspace clocks in one table" },
	{ NULL }
};

struct kclocks {
	struct kb_clock c[KB_UCLOCKS_MAX];
	size_t n;
};

static int clock_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct kclocks *k = arg;
	struct kb_clock *c;

	(void)nlh;
	if (k->n == KB_UCLOCKS_MAX)
		return 0;
	c = &k->c[k->n++];
	memset(c, 0, sizeof(*c));
	c->side = "kernel";
	snprintf(c->name, sizeof(c->name), "%s", kb_str(tb[KBENCH_A_CLOCK_NAME], "?"));
	snprintf(c->unit, sizeof(c->unit), "%s", kb_str(tb[KBENCH_A_CLOCK_UNIT], "?"));
	c->hz = kb_u64(tb[KBENCH_A_CLOCK_HZ], 0);
	c->res_min = kb_u64(tb[KBENCH_A_CLOCK_RES_MIN], 0);
	c->res_sum = kb_u64(tb[KBENCH_A_CLOCK_RES_SUM], 0);
	c->res_changes = kb_u32(tb[KBENCH_A_CLOCK_RES_CHANGES], 0);
	c->lat_reads = kb_u32(tb[KBENCH_A_CLOCK_LAT_READS], 0);
	c->lat_span = kb_u64(tb[KBENCH_A_CLOCK_LAT_SPAN], 0);
	c->lat_cycles = kb_u64(tb[KBENCH_A_CLOCK_LAT_CYCLES], 0);
	return 0;
}

int clocks_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct clocks_opts o = { 0 };
	struct kclocks k = { .n = 0 };
	struct kb_clock u[KB_UCLOCKS_MAX];
	size_t nu = 0, i;
	long got;
	int first, err;

	err = kb_opts_parse(sc, argc, argv, &o, &first);
	if (err)
		return kb_exit_status(err);
	if (first < argc)
		return kb_exit_status(kb_arg_error(sc->name, "unexpected argument '%s' (clocks takes only options)",
						   argv[first]));
	if (o.user && o.all)
		return kb_exit_status(kb_arg_error(sc->name, "--user and --all exclude each other (--all includes the userspace clocks)"));
	if (!o.user) {
		struct kb_nl nl;

		err = kb_nl_open(&nl);
		if (err)
			return kb_exit_status(err);
		err = kb_nl_request(&nl, kb_nl_msg(&nl, KBENCH_CMD_CLOCK_GET, true),
				    KBENCH_A_CLOCK_MAX, clock_cb, &k);
		kb_nl_close(&nl);
		if (err)
			return kb_exit_status(err);
	}
	if (o.user || o.all) {
		got = kb_uclocks_measure(u, KB_UCLOCKS_MAX);
		if (got < 0)	/* KBENCH_COUNTER names no usable counter */
			return kb_exit_status(-ENOENT);
		nu = (size_t)got;
	}

	kb_clock_print_header(o.all);
	out_open_array(NULL);
	for (i = 0; i < k.n; i++)
		kb_clock_print(&k.c[i], o.all);
	for (i = 0; i < nu; i++)
		kb_clock_print(&u[i], o.all);
	out_close_array();
	out_finish();
	return EXIT_OK;
}
