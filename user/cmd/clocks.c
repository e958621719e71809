// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl clocks: resolution and latency of the kernel clocks
 * (CLOCK_GET dump), of the userspace clocks (--user), or both (--all).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "fields.h"
#include "cmd.h"
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

/* A clock of CLOCK_GET's dump. */
static const struct kb_field clock_fields[] = {
	KB_FIELD(struct kb_clock, name, STR, KBENCH_A_CLOCK_NAME),
	KB_FIELD(struct kb_clock, unit, STR, KBENCH_A_CLOCK_UNIT),
	KB_FIELD(struct kb_clock, hz, U64, KBENCH_A_CLOCK_HZ),
	KB_FIELD(struct kb_clock, res_min, U64, KBENCH_A_CLOCK_RES_MIN),
	KB_FIELD(struct kb_clock, res_sum, U64, KBENCH_A_CLOCK_RES_SUM),
	KB_FIELD(struct kb_clock, res_changes, U32, KBENCH_A_CLOCK_RES_CHANGES),
	KB_FIELD(struct kb_clock, lat_reads, U32, KBENCH_A_CLOCK_LAT_READS),
	KB_FIELD(struct kb_clock, lat_span, U64, KBENCH_A_CLOCK_LAT_SPAN),
	KB_FIELD(struct kb_clock, lat_cycles, U64, KBENCH_A_CLOCK_LAT_CYCLES),
	{ NULL }
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
	kb_fields_parse(clock_fields, tb, c);
	return 0;
}

static void clock_print_header(bool side)
{
	if (side)
		out_text("%-7s ", "SIDE");
	out_text("%-26s %-7s %12s %12s %12s %12s %12s %10s %10s\n", "CLOCK",
		 "UNIT", "RES_MIN", "RES_MEAN", "RES_MIN_NS", "RES_MEAN_NS",
		 "LATENCY", "LAT_NS", "LAT_TICKS");
}

static void clock_print(const struct kb_clock *c, bool side)
{
	double mean = kb_clock_res_mean(c), lat = kb_clock_latency(c);

	out_open_object(NULL);
	out_string("side", side ? "%-7s " : NULL, c->side);
	out_string("name", "%-26s", c->name);
	/* JSON keeps the module's word; the counter's units are ticks */
	out_string("unit", NULL, c->unit);
	out_text(" %-7s", strcmp(c->unit, "cycles") ? c->unit : "ticks");
	out_uint("hz", NULL, c->hz);
	if (c->res_changes)
		out_uint("resolution_min", " %12llu", c->res_min);
	else
		out_double("resolution_min", " %12.0f", NAN);
	out_double("resolution_mean", " %12.3f", mean);
	out_double("resolution_min_ns", " %12.3f",
		   c->res_changes ? kb_clock_to_ns(c, (double)c->res_min) : NAN);
	out_double("resolution_mean_ns", " %12.3f", kb_clock_to_ns(c, mean));
	out_uint("resolution_changes", NULL, c->res_changes);
	out_double("latency", " %12.3f", lat);
	out_double("latency_ns", " %10.2f", kb_clock_to_ns(c, lat));
	out_double("latency_cycles", " %10.1f\n",
		   c->lat_reads ? (double)c->lat_cycles / (c->lat_reads + 1.0) : NAN);
	out_uint("latency_reads", NULL, c->lat_reads);
	out_uint("latency_span", NULL, c->lat_span);
	out_uint("latency_span_cycles", NULL, c->lat_cycles);
	if (c->counter[0]) {
		out_string("counter", NULL, c->counter);
		out_uint("counter_hz", NULL, c->counter_hz);
	}
	out_close_object();
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

	clock_print_header(o.all);
	out_open_array(NULL);
	for (i = 0; i < k.n; i++)
		clock_print(&k.c[i], o.all);
	for (i = 0; i < nu; i++)
		clock_print(&u[i], o.all);
	out_close_array();
	out_finish();
	return EXIT_OK;
}
