// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl samples: stream the raw samples of a stored run (SAMPLES_GET).
 * Each dump message is written out as it arrives: memory stays flat and
 * a million samples take well under a second.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "csv.h"
#include "cmd.h"
#include "names.h"
#include "nl.h"
#include "opts.h"
#include "output.h"
#include "pages.h"
#include "samples.h"

struct samples_opts {
	bool csv, has_routine;
	uint32_t routine;
};

const struct kb_opt kb_samples_table[] = {
	{ .name = "routine", .kind = KB_OPT_U32, .metavar = "INDEX",
	  .min = 0, .max = KBENCH_RUN_ROUTINES_MAX,
	  KB_OPT_FIELD(struct samples_opts, routine),
	  KB_OPT_GIVEN(struct samples_opts, has_routine),
	  .cmd = KBENCH_CMD_SAMPLES_GET, .attr = KBENCH_A_SAMPLES_ROUTINE,
	  .help = "only the routine with this index, in run order; the overhead routine is last" },
	{ .name = "csv", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct samples_opts, csv),
	  .help = "CSV: index,routine,net_cycles,flags (and a column per event)" },
	{ NULL }
};

struct stream {
	bool csv;
	uint64_t total;
	struct kb_csv *out;	/* with csv */
	bool events_header;	/* the CSV header with the events is out */
};

/* A message's event arrays (EVENT_NAME and EVENT_NET, in order). */
struct msg_events {
	unsigned int n;
	const char *name[KBENCH_EVENTS_MAX];
	const unsigned char *net[KBENCH_EVENTS_MAX];
};

static void msg_events(struct nlmsghdr *nlh, size_t samples,
		       struct msg_events *e)
{
	unsigned int names = 0;
	struct nlattr *a;
	int rem;

	e->n = 0;
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) == KBENCH_A_SAMPLES_EVENT_NAME &&
		    names < KBENCH_EVENTS_MAX)
			e->name[names++] = nla_get_string(a);
		else if (nla_type(a) == KBENCH_A_SAMPLES_EVENT_NET &&
			 e->n < KBENCH_EVENTS_MAX &&
			 (size_t)nla_len(a) >= samples * sizeof(int64_t))
			e->net[e->n++] = nla_data(a);
	}
	if (names < e->n)
		e->n = names;
}

/* A sample's fields, table or JSON, in an object left open. */
static void sample_fields(uint64_t index, const char *routine,
			  uint32_t routine_index, int64_t net, const char *flags)
{
	out_open_object_inline(NULL);
	out_uint("index", "%10llu", index);
	out_string("routine", " %-20s", routine);
	out_uint("routine_index", NULL, routine_index);
	out_int("net_cycles", " %14lld", net);
	out_string("flags", " %s", flags);
}

/*
 * A sample of a run with events, each event's net count after the flags:
 * CSV columns named by the events, "name=count" in the table, an
 * "events" object in JSON.
 */
static void emit_with_events(struct stream *s, uint64_t index,
			     const char *routine, uint32_t routine_index,
			     int64_t net, uint32_t flags,
			     const struct msg_events *e, size_t i)
{
	FILE *f = out_file();
	char buf[96];
	unsigned int x;
	int64_t v;

	kb_flag_names(kb_sample_flag_names, flags, "|", buf, sizeof(buf));
	if (s->csv) {
		if (!s->events_header) {
			/* instead of the counter-only header kb_csv_init() set */
			s->out->n = 0;
			fputs("index,routine,net_cycles,flags", f);
			for (x = 0; x < e->n; x++)
				fprintf(f, ",%s", e->name[x]);
			fputc('\n', f);
			s->events_header = true;
		}
		fprintf(f, "%llu,%s,%lld,%s", (unsigned long long)index,
			routine, (long long)net, buf);
		for (x = 0; x < e->n; x++) {
			memcpy(&v, e->net[x] + i * sizeof(v), sizeof(v));
			fprintf(f, ",%lld", (long long)v);
		}
		fputc('\n', f);
		return;
	}
	sample_fields(index, routine, routine_index, net, buf);
	out_open_object("events");
	for (x = 0; x < e->n; x++) {
		char fmt[48];

		memcpy(&v, e->net[x] + i * sizeof(v), sizeof(v));
		snprintf(fmt, sizeof(fmt), " %.31s=%%lld", e->name[x]);
		out_int(e->name[x], fmt, v);
	}
	out_close_object();
	out_text("\n");
	out_close_object();
}

/*
 * The header of the table: before the first sample, not before an error
 * (the CSV's header is the first thing kb_csv_init() buffers).
 */
static void stream_header(struct stream *s)
{
	if (!s->csv)
		out_text("%10s %-20s %14s %s\n", "INDEX", "ROUTINE", "NET_TICKS",
			 "FLAGS");
}

/* One sample line (CSV, table or JSON); exposed for the unit tests. */
void kb_sample_emit(bool csv, uint64_t index, const char *routine,
		    uint32_t routine_index, int64_t net, uint32_t flags)
{
	char buf[96];

	if (flags)
		kb_flag_names(kb_sample_flag_names, flags, "|", buf, sizeof(buf));
	else
		buf[0] = '\0';
	if (csv) {
		fprintf(out_file(), "%llu,%s,%lld,%s\n", (unsigned long long)index,
			routine, (long long)net, buf);
		return;
	}
	sample_fields(index, routine, routine_index, net, buf);
	out_text("\n");
	out_close_object();
}

static int stream_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct stream *s = arg;
	uint32_t first, ri = kb_u32(tb[KBENCH_A_SAMPLES_ROUTINE], 0);
	const char *name = kb_str(tb[KBENCH_A_SAMPLES_NAME], "?");
	struct msg_events ev;
	struct kb_page pg;
	size_t n, i;
	int err = kb_page_decode(tb, &pg);

	if (err <= 0)
		return err;
	first = pg.first;
	n = pg.n;
	if (!s->total && n)
		stream_header(s);
	msg_events(nlh, n, &ev);
	s->total += n;
	if (s->csv && !ev.n) {
		/* the plain CSV: a page at a time */
		kb_csv_rows(s->out, name, first, pg.net, pg.flags, n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		int64_t v;
		uint32_t f;

		kb_page_sample(&pg, i, &v, &f);
		if (ev.n)
			emit_with_events(s, first + i, name, ri, v, f, &ev, i);
		else
			kb_sample_emit(false, first + i, name, ri, v, f);
	}
	return 0;
}

int samples_main(const struct subcommand *sc, int argc, char *argv[])
{
	static struct kb_csv csv;
	struct samples_opts o = { 0 };
	struct stream s = { .out = &csv };
	struct kb_nl nl;
	uint32_t run_id;
	int first, err;

	err = kb_opts_parse(sc, argc, argv, &o, &first);
	if (err)
		return kb_exit_status(err);
	s.csv = o.csv;
	if (first >= argc)
		return usage_error(sc->name, "which run? (the RUN_ID that '%s run' printed first: \"run 3: ...\")",
				   prog);
	if (parse_u32(argv[first], &run_id) || !run_id)
		return kb_exit_status(kb_arg_error(sc->name, "'%s' is not a run id (a number from 1, as '%s run' prints it)",
						   argv[first], prog));
	if (first + 1 < argc)
		return kb_exit_status(kb_arg_error(sc->name, "unexpected argument '%s' (one run at a time)",
						   argv[first + 1]));
	if (s.csv && opt_json)
		return kb_exit_status(kb_arg_error(sc->name, "--csv and --json exclude each other"));
	err = kb_nl_open(&nl);
	if (err)
		return kb_exit_status(err);
	if (s.csv)
		kb_csv_init(&csv, stdout);
	out_open_object(NULL);
	out_uint("run_id", NULL, run_id);
	out_open_array("samples");
	nl.quiet = true;
	err = kb_samples_dump(&nl, run_id, o.has_routine, o.routine, stream_cb,
			      &s);
	if (err == -ENOENT && !nl.extack[0])
		/* kernels before 6.2 drop the extack of a dump's start */
		snprintf(nl.extack, sizeof(nl.extack),
			 "run not found (evicted, or never existed)");
	/* a dump's extack has no attribute offset: name the request */
	if (err && o.has_routine)
		fprintf(stderr, "%s: run %u, --routine %u: %s\n", prog, run_id,
			o.routine, nl.extack[0] ? nl.extack : strerror(-err));
	else if (err)
		fprintf(stderr, "%s: run %u: %s\n", prog, run_id,
			nl.extack[0] ? nl.extack : strerror(-err));
	if (!err && !s.total)
		stream_header(&s);
	/* the CSV header and rows so far; nothing when it failed at once */
	if (s.csv && (s.total || !err))
		kb_csv_flush(&csv);
	out_close_array();
	out_uint("count", NULL, s.total);
	out_close_object();
	out_finish();
	kb_nl_close(&nl);
	fflush(stdout);
	return kb_exit_status(err);
}
