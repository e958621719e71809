/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Saved results (user/RESULTS.md): one JSON file holding every run of an
 * invocation with its raw samples, the request and the metadata a later
 * comparison needs.  save.c writes it, load.c reads it back, meta.c
 * collects the metadata, diff.c compares two of them.
 */
#ifndef KBENCHCTL_RESFILE_H
#define KBENCHCTL_RESFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"

#define KB_RESFILE_FORMAT	"kbench-result"
/*
 * Raised only for changes an older reader would misread (RESULTS.md):
 * version 2 writes long integer arrays in base64, which a version 1 reader
 * would take for a wrong type.  Every version from 1 on is read.
 */
#define KB_RESFILE_VERSION	2
/* Larger files are refused before they are read (1M samples: ~10 MB). */
#define KB_RESFILE_MAX_BYTES	(1ULL << 30)
/*
 * Integer arrays of at most this many values are written as JSON arrays,
 * longer ones in base64 (RESULTS.md).  kb_resfile_text_max holds it; the
 * unit tests change it to write either form.
 */
#define KB_RESFILE_TEXT_MAX	16
extern size_t kb_resfile_text_max;

#define KB_META_PARAMS_MAX	16
#define KB_META_ENV_MAX		32

struct kb_meta_param {
	char name[48];
	uint64_t value;
};

/* One scalar of the environment object, kept as text for comparison. */
struct kb_meta_env {
	char key[48];
	char value[1024];
};

struct kb_meta {
	char kbenchctl_version[32];
	char kbench_version[32];	/* module's INFO version; --user: libkbench's */
	uint32_t method_version;	/* KBENCH_METHOD_VERSION */
	char kernel[136];
	char arch[72];
	char cpu_model[128];
	char hypervisor[64];		/* "" when none was detected */
	char hostname[128];
	char date[40];			/* ISO 8601, UTC */
	/* run --commit REV: the code measured; "" when not given */
	char commit[72];		/* full hash (SHA-1 40, SHA-256 64 hex) */
	char commit_time[40];		/* its committer date, ISO 8601 UTC; "" unknown */
	uint32_t counter_flags, detectors;	/* from INFO (kernel runs) */
	unsigned int nparams;		/* module parameters from INFO */
	struct kb_meta_param param[KB_META_PARAMS_MAX];
	unsigned int nenv;
	struct kb_meta_env env[KB_META_ENV_MAX];
	/* writing only: the command line, for the record */
	int argc;
	char *const *argv;
};

/* One run of the file: a kernel or twin run, with its sweep argument. */
struct kb_saved_run {
	struct kb_run run;
	bool has_arg;		/* a sweep value (run --arg) */
	uint64_t arg;
	/*
	 * one of R replicated runs (run --runs R, R > 1): its index from 0;
	 * the runs of one routine, side and sweep value that carry it are
	 * the replicates diff compares by their spread (RESULTS.md)
	 */
	bool has_replicate;
	uint32_t replicate;
	struct kb_run_req req;	/* as asked (names point into run) */
	bool analyzed;		/* kb_run_analyze() done (runs just measured) */
};

struct kb_resfile {
	struct kb_meta meta;
	struct kb_saved_run *runs;
	size_t nruns;
};

/*
 * Where a FILE|NAME argument points.  An argument with a '/' or a '.' is a
 * path, as given; anything else is a NAME stored as NAME.json under
 * $XDG_DATA_HOME/kbench/ (an absolute XDG_DATA_HOME) or else
 * ~/.local/share/kbench/.  0, or -EINVAL / -ENAMETOOLONG with what is
 * wrong and how to fix it in @err (the caller names @arg).
 */
int kb_resfile_path(const char *arg, char *path, size_t len, bool *is_name,
		    char *err, size_t errlen);

/*
 * Fill @m now: uname, /proc/cpuinfo, CPUID, sysfs, and the module's INFO
 * when @kernel (a kernel run); @cpu is the CPU measured (-1: unknown).
 */
void kb_meta_collect(struct kb_meta *m, bool kernel, int cpu, int argc,
		     char *const *argv);

/*
 * Resolve @rev (run --commit) in the git repository of the current
 * directory to its full hash and committer date, kept for every later
 * kb_meta_collect().  Without git or a repository, a full hash (40 or 64
 * hex digits) is kept as given, with no date.  0, or -EINVAL with the
 * reason in @why.
 */
int kb_meta_set_commit(const char *rev, char *why, size_t len);

/*
 * Add the environment report of the run (env.h) to @m's environment: its
 * CPU, every known item's value under the item's key, and "problems" (the
 * keys of the problems, comma-separated, or "none").
 */
struct kb_env;
void kb_meta_add_env(struct kb_meta *m, const struct kb_env *e);

/*
 * Write @nruns runs to @path (FILE|NAME resolved by kb_resfile_path),
 * atomically (a temporary file renamed over it).  Prints what it saved on
 * stderr (with the time taken when KBENCH_TIMING is set).  0, or -errno
 * after a message naming the file.
 */
int kb_resfile_save(const char *arg, const struct kb_meta *m,
		    const struct kb_saved_run *runs, size_t nruns);

/* The same into an open stream (unit tests). */
int kb_resfile_write(FILE *f, const struct kb_meta *m,
		     const struct kb_saved_run *runs, size_t nruns);

/*
 * Read @arg (FILE|NAME).  0 with @rf filled, or -errno with a message
 * naming the file and what is wrong (byte offset and key) in @err
 * (-EINVAL: not a valid result file; -ENOENT: no such file).
 */
int kb_resfile_load(const char *arg, struct kb_resfile *rf, char *err,
		    size_t errlen);
/*
 * Parse @len bytes (not NUL-terminated); @name is used in messages.
 * 0 or -EINVAL.
 */
int kb_resfile_parse(const char *buf, size_t len, const char *name,
		     struct kb_resfile *rf, char *err, size_t errlen);
void kb_resfile_free(struct kb_resfile *rf);

/*
 * The file's own fields beside the schema's tables (model/schema.h),
 * defined in save.c: save.c writes and load.c reads each object's scalars
 * by one loop over its tables.  A new scalar of an object is one line.
 *   kb_meta_fields        "meta" (struct kb_meta)
 *   kb_request_fields     a run's "request" (struct kb_run_req)
 *   kb_saved_run_fields   a run's sweep "arg" and "replicate" (struct kb_saved_run)
 *   kb_run_file_fields    a run's, after kb_run_fields (struct kb_run)
 *   kb_routine_fields     a routine's, after kb_result_fields
 *   kb_event_desc_fields  an entry of a run's "events"
 */
extern const struct kb_field kb_meta_fields[];
extern const struct kb_field kb_request_fields[];
extern const struct kb_field kb_saved_run_fields[];
extern const struct kb_field kb_run_file_fields[];
extern const struct kb_field kb_routine_fields[];
extern const struct kb_field kb_event_desc_fields[];

/* A row of those: @member of @type, present when @has (0: always). */
#define KB_FILE_FIELD(type, member, t, has, names, null)		\
	{ #member, KB_FT_##t, offsetof(type, member),			\
	  sizeof(((type *)0)->member), 0, NULL, has, names, null }
#define KB_FILE_OPT(type, member, t, has, null)				\
	KB_FILE_FIELD(type, member, t, offsetof(type, has), NULL, null)

/*
 * A run just measured, for saving: a shallow copy of @r (it shares the
 * samples: free only @r) with the request @q beside it.
 */
void kb_saved_run_init(struct kb_saved_run *s, const struct kb_run *r,
		       const struct kb_run_req *q);

#endif /* KBENCHCTL_RESFILE_H */
