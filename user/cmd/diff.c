// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl diff OLD NEW: two saved results compared (results/diff.c,
 * printed by output/diffprint.c); diff --check FILE...: files validated.
 * The options are run's (cli/runopts.c).
 */
#include <errno.h>
#include <string.h>

#include "color.h"
#include "diff.h"
#include "diffprint.h"
#include "cmd.h"
#include "opts.h"
#include "output.h"
#include "runopts.h"

/* diff --check FILE...: load and validate each; the first error. */
static int check_files(const char *sub, int argc, char *argv[])
{
	char err[768];
	int i, ret = 0, e;

	out_open_array(NULL);
	for (i = 0; i < argc; i++) {
		struct kb_resfile rf;
		size_t r, samples = 0, routines = 0, partial = 0;
		unsigned int k;

		out_open_object(NULL);
		out_string("file", "%s: ", argv[i]);
		e = kb_resfile_load(argv[i], &rf, err, sizeof(err));
		if (e) {
			kb_arg_error(sub, "%s", err);
			out_bool("valid", NULL, false);
			out_text("%s", kb_color(out_file(), KB_BAD));
			out_string("error", "invalid", err);
			out_text("%s\n", kb_color_end(out_file()));
			out_close_object();
			ret = ret ? ret : e;
			continue;
		}
		for (r = 0; r < rf.nruns; r++) {
			partial += kb_run_partial(&rf.runs[r].run) != NULL;
			routines += rf.runs[r].run.nres;
			for (k = 0; k < rf.runs[r].run.nres; k++)
				samples += rf.runs[r].run.res[k].n;
		}
		out_bool("valid", NULL, true);
		out_uint("runs", "ok, %llu run", rf.nruns);
		out_text("%s", rf.nruns == 1 ? "" : "s");
		out_uint("routines", ", %llu routine", routines);
		out_text("%s", routines == 1 ? "" : "s");
		out_uint("samples", ", %llu samples", samples);
		out_string("date", ", %s", rf.meta.date);
		out_string("kernel", ", %s", rf.meta.kernel);
		/* valid all the same: the samples it has are as measured */
		out_uint("partial_runs", partial ? ", partial: %llu run" : NULL,
			 partial);
		if (partial)
			out_text("%s with fewer samples than asked (interrupted or timed out)",
				 partial == 1 ? "" : "s");
		out_text("\n");
		out_close_object();
		kb_resfile_free(&rf);
	}
	out_close_array();
	out_finish();
	return ret;
}

/* The options and arguments of diff, and how they go together. */
static int diff_parse(const struct subcommand *sc, int argc, char *argv[],
		      struct kb_run_opts *o, int *first)
{
	const char *given;
	int err, n;

	memset(o, 0, sizeof(*o));
	kb_diff_opts_init(&o->diff);
	err = kb_opts_parse(sc, argc, argv, o, first);
	if (err)
		return err;
	o->diff.full = o->verbose;
	n = argc - *first;
	if (o->check) {
		given = kb_diff_opts_given(&o->diff);
		if (given)
			return kb_arg_error(sc->name, "--check only loads and validates files: not with %s",
					    given);
		if (!n)
			return kb_arg_error(sc->name, "--check: which files? (result files, or NAMEs saved by '%s run --save NAME')",
					    prog);
		return 0;
	}
	if (!n) {
		usage_error(sc->name, "which two results? (files, or NAMEs saved by '%s run --save NAME')",
			    prog);
		return -EINVAL;
	}
	if (n == 1)
		return kb_arg_error(sc->name, "needs two results, OLD and NEW; '%s' is only the first",
				    argv[*first]);
	if (n > 2)
		return kb_arg_error(sc->name, "two results only; '%s' is one too many",
				    argv[*first + 2]);
	if (o->diff.markdown && opt_json)
		return kb_arg_error(sc->name, "--markdown and --json exclude each other");
	return 0;
}

int diff_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct kb_resfile rf[2];
	struct kb_run_opts o;
	int regressed = EXIT_OK;
	char err[768];
	int first, ret, i;

	ret = diff_parse(sc, argc, argv, &o, &first);
	if (ret)
		return kb_diff_exit_status(ret, EXIT_OK);
	if (o.check)
		return kb_diff_exit_status(check_files(sc->name, argc - first,
						       argv + first), EXIT_OK);
	for (i = 0; i < 2; i++) {
		ret = kb_resfile_load(argv[first + i], &rf[i], err, sizeof(err));
		if (ret) {
			kb_arg_error(sc->name, "%s", err);
			if (i)
				kb_resfile_free(&rf[0]);
			return kb_diff_exit_status(ret, EXIT_OK);
		}
	}
	ret = kb_diff_print(NULL, argv[first], &rf[0], argv[first + 1], &rf[1],
			    &o.diff, &regressed);
	out_finish();
	kb_resfile_free(&rf[0]);
	kb_resfile_free(&rf[1]);
	return kb_diff_exit_status(ret, regressed);
}
