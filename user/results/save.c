// SPDX-License-Identifier: GPL-2.0
/*
 * Saving results: the JSON result file of user/RESULTS.md, built as a
 * json-c tree (the library load.c reads it with) and printed one key or
 * value per line (readable, diffable); the sample arrays in base64 of
 * fixed-width integers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "b64.h"
#include "core.h"
#include "base.h"
#include "names.h"
#include "output.h"
#include "resfile.h"
#include "uclocks.h"

static int name_dir(char *dir, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	/* the XDG base directory spec: relative values are invalid, ignored */
	if (xdg && xdg[0] == '/')
		return kb_path_join(dir, len, xdg, "kbench") ? -1 : 0;
	if (home && home[0])
		return kb_path_join(dir, len, home, ".local/share/kbench") ? -1 : 0;
	return -1;
}

int kb_resfile_path(const char *arg, char *path, size_t len, bool *is_name,
		    char *err, size_t errlen)
{
	char dir[4096];
	int n;

	*is_name = false;
	if (!arg || !*arg) {
		snprintf(err, errlen, "empty: give a NAME of letters, digits, '_' and '-', or a path");
		return -EINVAL;
	}
	if (strchr(arg, '/') || strchr(arg, '.')) {
		n = snprintf(path, len, "%s", arg);
		goto out_len;
	}
	if (arg[strspn(arg, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")]) {
		snprintf(err, errlen, "a NAME has letters, digits, '_' and '-' only (or give a path, with '/' or an extension)");
		return -EINVAL;
	}
	if (name_dir(dir, sizeof(dir))) {
		snprintf(err, errlen, "neither XDG_DATA_HOME nor HOME is set to say where NAMEs are stored: give a path instead");
		return -EINVAL;
	}
	n = snprintf(path, len, "%s/%s.json", dir, arg);
	*is_name = true;
out_len:
	if (n > 0 && (size_t)n < len)
		return 0;
	snprintf(err, errlen, "too long for a path");
	return -ENAMETOOLONG;
}

/* mkdir -p of the directory part of @path. */
static int make_parent(const char *path)
{
	char buf[4096], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	p = strrchr(buf, '/');
	if (!p || p == buf)
		return 0;
	*p = '\0';
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

void kb_saved_run_init(struct kb_saved_run *s, const struct kb_run *r,
		       const struct kb_run_req *q)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->run = *r;
	if (!q)
		return;
	s->req = *q;
	/* names --events copied into the request point into the copy now */
	for (i = 0; i < q->nevents; i++)
		if (q->events[i] == q->events_buf[i])
			s->req.events[i] = s->req.events_buf[i];
}

/* --- the file's own fields (resfile.h) --- */

#define NUL_R	KB_NULL_READ
#define NUL_RW	(KB_NULL_READ | KB_NULL_WRITE)

const struct kb_field kb_meta_fields[] = {
	KB_FILE_FIELD(struct kb_meta, kbenchctl_version, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_meta, kbench_version, STR, 0, NULL, NUL_RW),
	KB_FILE_FIELD(struct kb_meta, method_version, U32, 0, NULL, 0),
	KB_FILE_FIELD(struct kb_meta, kernel, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_meta, arch, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_meta, cpu_model, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_meta, hypervisor, STR, 0, NULL, NUL_RW),
	KB_FILE_FIELD(struct kb_meta, hostname, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_meta, date, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_meta, commit, STR, 0, NULL, NUL_RW),
	KB_FILE_FIELD(struct kb_meta, commit_time, STR, 0, NULL, NUL_RW),
	KB_FILE_FIELD(struct kb_meta, counter_flags, FLAGS, 0,
		      kb_counter_flag_names, 0),
	KB_FILE_FIELD(struct kb_meta, detectors, FLAGS, 0,
		      kb_sample_flag_names, 0),
	{ NULL }
};

/* the optional request values: the value or null (the default) */
const struct kb_field kb_request_fields[] = {
	KB_FILE_OPT(struct kb_run_req, cpu, U32, has_cpu, NUL_RW),
	KB_FILE_OPT(struct kb_run_req, samples, U32, has_samples, NUL_RW),
	KB_FILE_OPT(struct kb_run_req, iterations, U32, has_iterations, NUL_RW),
	KB_FILE_OPT(struct kb_run_req, target_ns, U32, has_target_ns, NUL_RW),
	KB_FILE_OPT(struct kb_run_req, warmup, U32, has_warmup, NUL_RW),
	{ NULL }
};

const struct kb_field kb_saved_run_fields[] = {
	KB_FILE_OPT(struct kb_saved_run, arg, U64, has_arg, NUL_R),
	KB_FILE_OPT(struct kb_saved_run, replicate, U32, has_replicate, NUL_R),
	{ NULL }
};

const struct kb_field kb_run_file_fields[] = {
	KB_FILE_FIELD(struct kb_run, counter_constant, BOOL, 0, NULL, 0),
	KB_FILE_FIELD(struct kb_run, kernel, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_run, date, STR, 0, NULL, NUL_R),
	KB_FILE_OPT(struct kb_run, ncpus, U32, has_ncpus, NUL_R),
	{ NULL }
};

const struct kb_field kb_routine_fields[] = {
	KB_FILE_FIELD(struct kb_result, flags, FLAGS, 0,
		      kb_result_flag_names, 0),
	{ NULL }
};

const struct kb_field kb_event_desc_fields[] = {
	KB_FILE_FIELD(struct kb_event_desc, name, STR, 0, NULL, 0),
	KB_FILE_FIELD(struct kb_event_desc, type, U32, 0, NULL, 0),
	KB_FILE_FIELD(struct kb_event_desc, config, U64, 0, NULL, 0),
	KB_FILE_FIELD(struct kb_event_desc, pmu, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_event_desc, read, STR, 0, NULL, NUL_R),
	KB_FILE_FIELD(struct kb_event_desc, enabled_ns, U64, 0, NULL, 0),
	KB_FILE_FIELD(struct kb_event_desc, running_ns, U64, 0, NULL, 0),
	{ NULL }
};

/* --- writer: a json-c tree of the file, printed once --- */

/* Arrays of more values are written in base64 (RESULTS.md); tests lower it. */
size_t kb_resfile_text_max = KB_RESFILE_TEXT_MAX;

typedef struct json_object JO;

/*
 * Building the tree: json-c returns NULL when out of memory, which a
 * member would print as null; ->oom makes the write fail instead.
 */
struct wr {
	bool oom;
};

static JO *chk(struct wr *w, JO *v)
{
	if (!v)
		w->oom = true;
	return v;
}

static void put(struct wr *w, JO *o, const char *key, JO *v)
{
	if (!o || json_object_object_add(o, key, v))
		w->oom = true;
}

static void put_str(struct wr *w, JO *o, const char *key, const char *v)
{
	put(w, o, key, chk(w, json_object_new_string(v)));
}

static void put_u64(struct wr *w, JO *o, const char *key, uint64_t v)
{
	put(w, o, key, chk(w, json_object_new_uint64(v)));
}

static void push(struct wr *w, JO *a, JO *v)
{
	if (!a || json_object_array_add(a, v))
		w->oom = true;
}

static JO *new_obj(struct wr *w)
{
	return chk(w, json_object_new_object());
}

static JO *new_arr(struct wr *w)
{
	return chk(w, json_object_new_array());
}

static JO *flag_names(struct wr *w, const struct kb_flag_name *t, uint32_t v)
{
	JO *a = new_arr(w);

	for (; t->name; t++)
		if (v & t->bit)
			push(w, a, chk(w, json_object_new_string(t->name)));
	return a;
}

/*
 * The field @f of @obj as @o's member: null where it does not apply
 * (KB_NULL_WRITE: not there, or an empty string), left out where it is
 * not there otherwise.
 */
static void put_field(struct wr *w, JO *o, const struct kb_field *f,
		      const void *obj)
{
	const char *p = (const char *)obj + f->offset;
	bool there = kb_field_present(f, obj) &&
		     !(f->type == KB_FT_STR && !p[0] &&
		       (f->null & KB_NULL_WRITE));
	uint32_t bits;
	JO *v;

	if (!there) {
		if (f->null & KB_NULL_WRITE)
			put(w, o, f->key, NULL);
		return;
	}
	switch (f->type) {
	case KB_FT_STR:
		v = json_object_new_string(p);
		break;
	case KB_FT_BOOL:
		v = json_object_new_boolean(*(const bool *)p);
		break;
	case KB_FT_BOOL32:
		v = json_object_new_boolean(kb_field_u64(f, obj) != 0);
		break;
	case KB_FT_S64:
		v = json_object_new_int64(kb_field_s64(f, obj));
		break;
	case KB_FT_FLAGS:
		memcpy(&bits, p, sizeof(bits));
		put(w, o, f->key, flag_names(w, f->names, bits));
		return;
	default:
		v = json_object_new_uint64(kb_field_u64(f, obj));
	}
	put(w, o, f->key, chk(w, v));
}

static void put_fields(struct wr *w, JO *o, const struct kb_field *table,
		       const void *obj)
{
	for (; table->key; table++)
		put_field(w, o, table, obj);
}

static JO *str_array(struct wr *w, const char *const *s, unsigned int n)
{
	JO *a = new_arr(w);
	unsigned int i;

	for (i = 0; i < n; i++)
		push(w, a, chk(w, json_object_new_string(s[i])));
	return a;
}

/*
 * An array of integers: the one writer of every array of samples in the
 * file, and of the arrays added later (call it for a new per-sample
 * array).  Up to kb_resfile_text_max values as a JSON array, more as
 *   {"encoding": "base64", "width": 4, "data": "..."}
 * the values as little-endian integers of 4 bytes when all fit in int32,
 * else 8 (RESULTS.md).
 */
static JO *ints(struct wr *w, const int64_t *v, size_t n)
{
	unsigned int width;
	size_t i, len;
	char *data;
	JO *o, *str;

	if (n <= kb_resfile_text_max) {
		o = new_arr(w);
		for (i = 0; i < n; i++)
			push(w, o, chk(w, json_object_new_int64(v[i])));
		return o;
	}
	width = kb_b64_width(v, n);
	data = malloc(kb_b64_len(n * width) + 3);
	if (!data) {
		w->oom = true;
		return NULL;
	}
	/*
	 * The base64 text needs no escaping: json-c prints it as it is
	 * (its userdata serializer), neither copied nor scanned again.
	 */
	len = kb_b64_encode_ints(data + 1, v, n, width);
	data[0] = '"';
	data[len + 1] = '"';
	data[len + 2] = '\0';
	str = chk(w, json_object_new_string(""));
	if (str)
		json_object_set_serializer(str, json_object_userdata_to_json_string,
					   data, json_object_free_userdata);
	else
		free(data);
	o = new_obj(w);
	put_str(w, o, "encoding", "base64");
	put_u64(w, o, "width", width);
	put(w, o, "data", str);
	return o;
}

static JO *meta(struct wr *w, const struct kb_meta *m)
{
	const struct kb_flag_name *t;
	JO *o = new_obj(w), *cmd = new_arr(w), *params = new_obj(w);
	JO *bits = new_obj(w);
	unsigned int i;
	int a;

	put_fields(w, o, kb_meta_fields, m);
	push(w, cmd, chk(w, json_object_new_string(prog)));
	for (a = 0; a < m->argc; a++)
		push(w, cmd, chk(w, json_object_new_string(m->argv[a])));
	put(w, o, "command", cmd);
	for (i = 0; i < m->nparams; i++)
		put_u64(w, params, m->param[i].name, m->param[i].value);
	put(w, o, "module_params", params);
	/* the bits of sample_flags.value, so the file explains itself */
	for (t = kb_sample_flag_names; t->name; t++)
		put_u64(w, bits, t->name, t->bit);
	put(w, o, "sample_flag_bits", bits);
	return o;
}

static JO *environment(struct wr *w, const struct kb_meta *m)
{
	JO *o = new_obj(w);
	unsigned int i;

	for (i = 0; i < m->nenv; i++)
		put_str(w, o, m->env[i].key, m->env[i].value);
	return o;
}

/* The kernel's integer summary (the corrected figures when has_corr). */
static JO *summary(struct wr *w, const struct kb_result *res)
{
	JO *o = new_obj(w), *excl = new_obj(w);

	put_fields(w, o, kb_summary_fields, res);
	put_fields(w, excl, kb_excl_fields, res);
	put(w, o, "excluded_by_reason", excl);
	return o;
}

/*
 * The routine's events, by name: each one's summary (the kernel's integer
 * figures, in counts) and every sample's net counts.
 */
static JO *events(struct wr *w, const struct kb_run *r,
		  const struct kb_result *res, bool overhead)
{
	JO *o = new_obj(w);
	unsigned int x;

	for (x = 0; x < r->nevents; x++) {
		const struct kb_ev_result *ev = &res->ev[x];
		JO *e = new_obj(w), *sum = new_obj(w);
		const struct kb_field *f;

		/* the corrected figures (no attribute) where the routine's are */
		for (f = kb_ev_fields; f->key; f++)
			if (f->attr || (res->has_corr && !overhead))
				put_field(w, sum, f, ev);
		put(w, e, "summary", sum);
		put(w, e, "net", ints(w, ev->net,
				      ev->net && ev->n == res->n ? ev->n : 0));
		put(w, o, r->events[x].name, e);
	}
	return o;
}

/* sample_flags: the indexes and values of the flagged samples only. */
static JO *sample_flags(struct wr *w, const struct kb_result *res)
{
	size_t i, k = 0, nf = 0;
	int64_t *idx = NULL, *val = NULL;
	JO *o = new_obj(w);

	for (i = 0; i < res->n; i++)
		nf += res->sflags[i] != 0;
	if (nf) {
		idx = malloc(nf * sizeof(*idx));
		val = malloc(nf * sizeof(*val));
		if (!idx || !val) {
			nf = 0;
			w->oom = true;
		}
		for (i = 0; nf && i < res->n; i++) {
			if (!res->sflags[i])
				continue;
			idx[k] = (int64_t)i;
			val[k++] = res->sflags[i];
		}
	}
	put(w, o, "index", ints(w, idx, nf));
	put(w, o, "value", ints(w, val, nf));
	free(idx);
	free(val);
	return o;
}

static JO *routine(struct wr *w, const struct kb_run *r,
		   const struct kb_result *res, bool overhead)
{
	JO *o = new_obj(w);

	put_fields(w, o, kb_result_fields, res);
	put(w, o, "overhead", chk(w, json_object_new_boolean(overhead)));
	put_fields(w, o, kb_routine_fields, res);
	put(w, o, "summary", summary(w, res));
	put_u64(w, o, "n", res->n);
	put(w, o, "net", ints(w, res->net, res->n));
	put(w, o, "sample_flags", sample_flags(w, res));
	if (res->ndivs)
		put(w, o, "divisors", ints(w, res->divs, res->ndivs));
	if (r->nevents)
		put(w, o, "events", events(w, r, res, overhead));
	return o;
}

/* The run's events: what each counted, where, for how long. */
static JO *event_descs(struct wr *w, const struct kb_run *r)
{
	JO *a = new_arr(w);
	unsigned int x;

	for (x = 0; x < r->nevents; x++) {
		JO *o = new_obj(w);

		put_fields(w, o, kb_event_desc_fields, &r->events[x]);
		push(w, a, o);
	}
	return a;
}

static JO *request(struct wr *w, const struct kb_run_req *q)
{
	JO *o = new_obj(w), *args;
	unsigned int i;

	put(w, o, "routines", str_array(w, q->names, q->n));
	put_fields(w, o, kb_request_fields, q);
	put(w, o, "events", str_array(w, q->events, q->nevents));
	if (q->nargs) {
		args = new_arr(w);
		for (i = 0; i < q->nargs; i++)
			push(w, args, chk(w, json_object_new_uint64(q->args[i])));
		put(w, o, "args", args);
	}
	return o;
}

/* --unit core: the calibration measured with the run (model/core.h). */
static JO *core(struct wr *w, const struct kb_core *c)
{
	const struct kb_core_key *k;
	JO *o = new_obj(w);
	double v;

	for (k = kb_core_doubles; k->key; k++) {
		v = *(const double *)((const char *)c + k->offset);
		put(w, o, k->key, isfinite(v) ?
		    chk(w, json_object_new_double(v)) : NULL);
	}
	put_u64(w, o, "rounds", c->rounds);
	put_u64(w, o, "lo_adds", c->lo_adds);
	put_u64(w, o, "hi_adds", c->hi_adds);
	return o;
}

static JO *run(struct wr *w, const struct kb_saved_run *s)
{
	const struct kb_run *r = &s->run;
	JO *o = new_obj(w), *rs = new_arr(w);
	unsigned int i;

	put_str(w, o, "side", r->user ? "user" : "kernel");
	put_fields(w, o, kb_saved_run_fields, s);
	put_fields(w, o, kb_run_fields, r);
	put_str(w, o, "status", kb_run_status_name(r));
	if (kb_run_partial(r)) {
		JO *p = new_obj(w);

		put_str(w, p, "reason", kb_run_partial(r));
		put_u64(w, p, "samples_asked", r->samples);
		put_u64(w, p, "samples_taken", kb_run_samples_taken(r));
		put(w, o, "partial", p);
	}
	put_fields(w, o, kb_run_file_fields, r);
	put(w, o, "request", request(w, &s->req));
	put(w, o, "events", event_descs(w, r));
	for (i = 0; i < r->nres; i++)
		push(w, rs, routine(w, r, &r->res[i], false));
	if (r->has_overhead)
		push(w, rs, routine(w, r, &r->overhead, true));
	put(w, o, "routines", rs);
	if (r->core.have)
		put(w, o, "core", core(w, &r->core));
	return o;
}

int kb_resfile_write(FILE *f, const struct kb_meta *m,
		     const struct kb_saved_run *runs, size_t nruns)
{
	struct wr w = { false };
	JO *top = new_obj(&w), *rs = new_arr(&w);
	char created[64];
	const char *text;
	size_t i, len = 0;
	int err = 0;

	snprintf(created, sizeof(created), "kbenchctl %s", KBENCHCTL_VERSION);
	put_str(&w, top, "format", KB_RESFILE_FORMAT);
	put_u64(&w, top, "version", KB_RESFILE_VERSION);
	put_str(&w, top, "created_by", created);
	put(&w, top, "meta", meta(&w, m));
	put(&w, top, "environment", environment(&w, m));
	for (i = 0; i < nruns; i++)
		push(&w, rs, run(&w, &runs[i]));
	put(&w, top, "runs", rs);
	/* one key or value per line, two spaces a level; '/' as it is */
	text = w.oom ? NULL :
	       json_object_to_json_string_length(top, JSON_C_TO_STRING_PRETTY |
						 JSON_C_TO_STRING_SPACED |
						 JSON_C_TO_STRING_NOSLASHESCAPE,
						 &len);
	if (!text)
		err = -ENOMEM;
	else if (fwrite(text, 1, len, f) != len || fputc('\n', f) == EOF)
		err = -EIO;
	json_object_put(top);
	return err ? err : ferror(f) ? -EIO : 0;
}

int kb_resfile_save(const char *arg, const struct kb_meta *m,
		    const struct kb_saved_run *runs, size_t nruns)
{
	char path[4096], tmp[4200], why[512];
	uint64_t t0 = kb_mono_ns();
	size_t i, samples = 0, routines = 0;
	unsigned int k;
	bool is_name;
	struct stat st;
	FILE *f;
	int err;

	err = kb_resfile_path(arg, path, sizeof(path), &is_name, why,
			      sizeof(why));
	if (err) {
		fprintf(stderr, "%s: result '%s': %s\n", prog, arg, why);
		return err;
	}
	if ((*path && path[strlen(path) - 1] == '/') ||
	    (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		fprintf(stderr, "%s: result '%s': a directory: name a file in it (%s%sNAME.json) or give a NAME\n",
			prog, arg, arg, arg[strlen(arg) - 1] == '/' ? "" : "/");
		return -EINVAL;
	}
	if (is_name && (err = make_parent(path))) {
		fprintf(stderr, "%s: cannot create the directory of %s: %s\n",
			prog, path, strerror(-err));
		return err;
	}
	/* never a half-written result under the final name */
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "we");
	if (!f) {
		err = -errno;
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, path,
			strerror(-err));
		return err;
	}
	err = kb_resfile_write(f, m, runs, nruns);
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, path,
			strerror(-err));
		unlink(tmp);
		return err;
	}
	for (i = 0; i < nruns; i++) {
		for (k = 0; k < runs[i].run.nres; k++)
			samples += runs[i].run.res[k].n;
		routines += runs[i].run.nres;
	}
	/* replicated runs (run --runs R): the routines of one and R runs */
	if (nruns > 1 && runs[0].has_replicate)
		fprintf(stderr, "%s: saved %zu runs of %u routine%s, %zu samples to %s (%lld bytes",
			prog, nruns, runs[0].run.nres,
			runs[0].run.nres == 1 ? "" : "s", samples, path,
			stat(path, &st) ? -1LL : (long long)st.st_size);
	else
		fprintf(stderr, "%s: saved %zu routine%s, %zu samples to %s (%lld bytes",
			prog, routines, routines == 1 ? "" : "s", samples, path,
			stat(path, &st) ? -1LL : (long long)st.st_size);
	if (getenv("KBENCH_TIMING"))
		fprintf(stderr, ", %.1f ms", (double)(kb_mono_ns() - t0) / 1e6);
	fprintf(stderr, ")\n");
	return 0;
}
