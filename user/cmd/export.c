// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl export FILE... --format F [-o OUT]: saved results in the
 * formats where kernel performance is tracked (export/: one file per
 * format, after hyperfine's src/export/).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "cmd.h"
#include "opts.h"

struct export_cli {
	struct kb_export_opts o;
	bool has_format;
};

/* KCIDB's origin: ^[a-z0-9_]+$ (kcidb-io, v5.3) */
static int parse_origin(const struct kb_opt *o, const char *arg, void *field)
{
	if (!*arg || arg[strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_")])
		return kb_opt_error(o, arg, "an origin is lower-case letters, digits and '_' (KCIDB's pattern ^[a-z0-9_]+$)");
	*(const char **)field = arg;
	return 0;
}

/* KCIDB's ids: ORIGIN:REST */
static int parse_id(const struct kb_opt *o, const char *arg, void *field)
{
	size_t n = strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_");

	if (!n || arg[n] != ':')
		return kb_opt_error(o, arg, "a KCIDB id is ORIGIN:ANYTHING, ORIGIN lower-case letters, digits and '_'");
	*(const char **)field = arg;
	return 0;
}

static int parse_commit(const struct kb_opt *o, const char *arg, void *field)
{
	if (strlen(arg) != 40 || arg[strspn(arg, "0123456789abcdef")])
		return kb_opt_error(o, arg, "the full commit hash: 40 lower-case hex digits (git rev-parse HEAD)");
	*(const char **)field = arg;
	return 0;
}

const struct kb_opt kb_export_table[] = {
	{ .name = "format", .short_name = 'f', .kind = KB_OPT_CHOICE,
	  .metavar = "FORMAT", .choices = kb_export_format_names,
	  KB_OPT_FIELD(struct export_cli, o.format),
	  KB_OPT_GIVEN(struct export_cli, has_format),
	  .help = "gbench (Google Benchmark JSON), kcidb (KernelCI, schema v5.3), lkp (key: value), bmf (bencher), gab (github-action-benchmark customSmallerIsBetter)" },
	{ .name = "output", .short_name = 'o', .kind = KB_OPT_STRING,
	  .metavar = "FILE", KB_OPT_FIELD(struct export_cli, o.out),
	  .help = "write to FILE instead of the standard output" },
	{ .name = "origin", .kind = KB_OPT_STRING, .metavar = "NAME",
	  .parse = parse_origin, KB_OPT_FIELD(struct export_cli, o.origin),
	  .help = "kcidb: the CI system submitting (a-z, 0-9, _)",
	  .def = "kbench" },
	{ .name = "checkout-id", .kind = KB_OPT_STRING, .metavar = "ID",
	  .parse = parse_id, KB_OPT_FIELD(struct export_cli, o.checkout_id),
	  .help = "kcidb: the checkout's id, ORIGIN:... (default ORIGIN:RELEASE of the kernel measured)" },
	{ .name = "build-id", .kind = KB_OPT_STRING, .metavar = "ID",
	  .parse = parse_id, KB_OPT_FIELD(struct export_cli, o.build_id),
	  .help = "kcidb: the build's id, ORIGIN:... (default ORIGIN:RELEASE-ARCH)" },
	{ .name = "commit", .kind = KB_OPT_STRING, .metavar = "HASH",
	  .parse = parse_commit, KB_OPT_FIELD(struct export_cli, o.commit),
	  .help = "kcidb: the checkout's full git commit hash" },
	{ .name = "with-host", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct export_cli, o.with_host),
	  .help = "include the hostname and the kernel command line (left out by default: exports go to shared databases)" },
	{ .name = "prefix", .kind = KB_OPT_STRING, .metavar = "TEXT",
	  KB_OPT_FIELD(struct export_cli, o.prefix),
	  .help = "lkp: put TEXT before every key" },
	{ NULL }
};

static int (*const writers[])(FILE *, const struct kb_export *,
			      const struct kb_export_opts *) = {
	[KB_EXPORT_GBENCH] = kb_export_gbench,
	[KB_EXPORT_KCIDB] = kb_export_kcidb,
	[KB_EXPORT_LKP] = kb_export_lkp,
	[KB_EXPORT_BMF] = kb_export_bmf,
	[KB_EXPORT_GAB] = kb_export_gab,
};

int export_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct export_cli c;
	struct kb_export x;
	FILE *f = stdout;
	int first, err;

	memset(&c, 0, sizeof(c));
	err = kb_opts_parse(sc, argc, argv, &c, &first);
	if (err)
		return kb_exit_status(err);
	if (!c.has_format)
		return usage_error(sc->name, "which format? --format gbench|kcidb|lkp|bmf|gab");
	if (first >= argc)
		return usage_error(sc->name, "which results? (files, or NAMEs saved by '%s run --save NAME')",
				   prog);
	if (opt_json)
		return kb_exit_status(kb_arg_error(sc->name, "--json: export writes the --format asked for"));
	err = kb_export_load(sc->name, argv + first, (size_t)(argc - first), &x);
	if (err)
		return kb_exit_status(err == -ENOENT || err == -EINVAL ? -EINVAL : err);
	if (c.o.out) {
		f = fopen(c.o.out, "w");
		if (!f) {
			err = -errno;
			kb_arg_error(sc->name, "-o %s: %s", c.o.out, strerror(-err));
			kb_export_free(&x);
			return EXIT_FAIL;
		}
	}
	err = writers[c.o.format](f, &x, &c.o);
	if (f != stdout && fclose(f) && !err)
		err = -EIO;
	if (err) {
		kb_arg_error(sc->name, "writing %s: %s", c.o.out ? c.o.out : "the output",
			     strerror(-err));
		if (c.o.out)
			unlink(c.o.out);
	}
	kb_export_free(&x);
	return err ? EXIT_FAIL : EXIT_OK;
}
