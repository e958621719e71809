/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Saved results in the formats where kernel performance is tracked
 * (kbenchctl export, Documentation/kbenchctl.8): one file per format,
 * after hyperfine's src/export/.  export.c loads the files into points,
 * one per routine of each run of each file, with the median per
 * iteration and its interval; each format writes them as its consumers
 * read them.  history (cmd/history.c) reads the same points.
 */
#ifndef KBENCHCTL_EXPORT_H
#define KBENCHCTL_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "resfile.h"

enum kb_export_format {
	KB_EXPORT_GBENCH,	/* Google Benchmark's JSON (gbench.c) */
	KB_EXPORT_KCIDB,	/* KernelCI's KCIDB I/O schema v5.3 (kcidb.c) */
	KB_EXPORT_LKP,		/* LKP's `key: value` stats (lkp.c) */
	KB_EXPORT_BMF,		/* bencher's Metric Format (bmf.c) */
	KB_EXPORT_GAB,		/* github-action-benchmark (gab.c) */
};
extern const char *const kb_export_format_names[];	/* NULL-terminated */

struct kb_export_opts {
	int format;		/* enum kb_export_format */
	const char *out;	/* -o FILE; NULL: stdout */
	const char *origin;	/* KCIDB origin */
	const char *checkout_id, *build_id;	/* KCIDB ids (with origin:) */
	const char *commit;	/* KCIDB checkout's git_commit_hash (40 hex) */
	const char *prefix;	/* LKP key prefix */
	bool with_host;		/* the hostname and kernel command line too */
};

/*
 * One routine of one run of one file: its benchmark name (the same for
 * the same routine, side and argument in every file: the files are the
 * repetitions) and its figures over the valid samples.
 */
struct kb_export_point {
	size_t file;			/* index into kb_export.files */
	const struct kb_saved_run *run;
	const struct kb_result *res;
	/* "ROUTINE", "ROUTINE/ARG" (Google Benchmark's naming); "user:" first for twin runs */
	char name[KBENCH_NAME_MAX + 32];
	/* the same as people read it everywhere else: "ROUTINE:ARG [user]" */
	char label[KBENCH_NAME_MAX + 32];
	size_t bench;			/* index of its benchmark (first seen) */
	double median, ci_lo, ci_hi;	/* counter ticks per iteration */
	double ns, ns_lo, ns_hi;	/* the same in ns; NAN: rate unknown */
	size_t valid;			/* samples in the figures */
};

struct kb_export {
	size_t nfiles;
	struct kb_resfile *files;
	char *const *paths;
	struct kb_export_point *pts;
	size_t npts;
	size_t nbench;			/* distinct names, in order of first sight */
};

/*
 * Load @n files (FILE|NAME) and compute every point.  0, or -errno after
 * a message naming the file (@sub: the subcommand, for messages).
 */
int kb_export_load(const char *sub, char *const *paths, size_t n,
		   struct kb_export *x);
void kb_export_free(struct kb_export *x);

/*
 * The word in the names of keys and measures that carry a run's
 * per-iteration figures, kept as it always was so that series continue:
 * "cycles" for the TSC, else "ticks" (@key) or "cntvct ticks" (a measure
 * name).  Not a unit: where a format has a unit field, it gets
 * kb_export_unit_text().
 */
const char *kb_export_unit(const struct kb_saved_run *s, bool key);
/* What the figures count, for a unit field: "tsc ticks" (kb_run_unit_text()) */
const char *kb_export_unit_text(const struct kb_saved_run *s);

/*
 * A git commit the kernel release names: the "-gHASH" suffix
 * scripts/setlocalversion writes (12 hex digits or more), into @buf; ""
 * when there is none.
 */
void kb_export_commit(const char *release, char *buf, size_t len);

/*
 * Benchmark @b summed up for formats that hold one value per name (BMF,
 * github-action-benchmark): its one point, or with repetitions (*@reps
 * files) the median of their medians, the interval their range.
 */
int kb_export_bench_figures(const struct kb_export *x, size_t b,
			    struct kb_export_point *out, size_t *reps);
/* @name as a key of dots, letters, digits, '_' and '-' ("/" a dot). */
void kb_export_key(const char *name, char *buf, size_t len);

/* The formats: @x into @f.  0 or -errno (after a message). */
int kb_export_gbench(FILE *f, const struct kb_export *x,
		     const struct kb_export_opts *o);
int kb_export_kcidb(FILE *f, const struct kb_export *x,
		    const struct kb_export_opts *o);
int kb_export_lkp(FILE *f, const struct kb_export *x,
		  const struct kb_export_opts *o);
int kb_export_bmf(FILE *f, const struct kb_export *x,
		  const struct kb_export_opts *o);
int kb_export_gab(FILE *f, const struct kb_export *x,
		  const struct kb_export_opts *o);

/* A number as JSON (its shortest decimal); NULL (null) when not finite. */
struct json_object;
struct json_object *kb_json_num(double v);

/*
 * @m as a JSON object: kernel, commit (kb_export_commit()), arch,
 * cpu_model, hypervisor, date, versions, and "environment" holding the
 * file's environment object (strings).  The hostname and the kernel
 * command line only @with_host (export --with-host): exports go to shared
 * databases; else "withheld" names what was left out and how to add it.
 */
struct json_object *kb_export_meta_object(const struct kb_meta *m,
					  bool with_host);
/* What an export leaves out without --with-host, for its "withheld" */
#define KB_EXPORT_WITHHELD	"hostname and kernel command line (export --with-host adds them)"
/* The value of environment key @key of @m, or NULL. */
const char *kb_meta_env_value(const struct kb_meta *m, const char *key);

/* A json-c document printed to @f (pretty, no slash escapes). */
int kb_export_print_json(FILE *f, struct json_object *doc);

/*
 * The formats of one value per benchmark: @add puts each benchmark's
 * figures (kb_export_bench_figures()) into @doc, in order of first
 * sight; then @doc is printed to @f.  0 or -errno; @doc is freed.
 */
int kb_export_bench_json(FILE *f, const struct kb_export *x,
			 struct json_object *doc,
			 void (*add)(struct json_object *doc,
				     const struct kb_export_point *p,
				     size_t reps));

#endif /* KBENCHCTL_EXPORT_H */
