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

enum { OPT_USER = 0x2000, OPT_ALL };

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

int clocks_main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		OPTS_COMMON,
		{ "user", no_argument, NULL, OPT_USER },
		{ "all", no_argument, NULL, OPT_ALL },
		{ 0 }
	};
	struct kclocks k = { .n = 0 };
	struct kb_clock u[KB_UCLOCKS_MAX];
	bool user = false, all = false;
	size_t nu = 0, i;
	long got;
	int c, ret = EXIT_OK, err;

	optind = 0;
	while ((c = opts_next(argc, argv, "", longopts, &ret)) != -1) {
		if (c == -2)
			return ret;
		if (c == OPT_USER)
			user = true;
		else if (c == OPT_ALL)
			all = true;
	}
	if (optind < argc)
		return usage_error("clocks", "unexpected argument '%s'", argv[optind]);
	if (user && all)
		return usage_error("clocks", "--user and --all exclude each other");
	if (!user) {
		struct kb_nl nl;

		err = kb_nl_open(&nl);
		if (err)
			return err == -ENOENT ? EXIT_USAGE : EXIT_FAIL;
		err = kb_nl_request(&nl, kb_nl_msg(&nl, KBENCH_CMD_CLOCK_GET, true),
				    KBENCH_A_CLOCK_MAX, clock_cb, &k);
		kb_nl_close(&nl);
		if (err)
			return EXIT_FAIL;
	}
	if (user || all) {
		got = kb_uclocks_measure(u, KB_UCLOCKS_MAX);
		if (got < 0)
			return EXIT_USAGE;
		nu = (size_t)got;
	}

	kb_clock_print_header(all);
	out_open_array(NULL);
	for (i = 0; i < k.n; i++)
		kb_clock_print(&k.c[i], all);
	for (i = 0; i < nu; i++)
		kb_clock_print(&u[i], all);
	out_close_array();
	out_finish();
	return EXIT_OK;
}
