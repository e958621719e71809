// SPDX-License-Identifier: GPL-2.0
/*
 * Saving results: the JSON result file of user/RESULTS.md.  The small
 * parts are written one key per line (readable, diffable); the sample
 * arrays in base64 of fixed-width integers, encoded straight into a chunk
 * buffer that goes to the file with write(2), so a million samples cost
 * about what copying the file does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "b64.h"
#include "kbenchctl.h"
#include "names.h"
#include "output.h"
#include "resfile.h"

static int name_dir(char *dir, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	/* the XDG base directory spec: relative values are invalid, ignored */
	if (xdg && xdg[0] == '/')
		n = snprintf(dir, len, "%s/kbench", xdg);
	else if (home && home[0])
		n = snprintf(dir, len, "%s/.local/share/kbench", home);
	else
		return -1;
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int kb_resfile_path(const char *arg, char *path, size_t len, bool *is_name,
		    char *err, size_t errlen)
{
	char dir[4096];
	const char *p;
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
	for (p = arg; *p; p++) {
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '_' && *p != '-') {
			snprintf(err, errlen, "a NAME has letters, digits, '_' and '-' only (or give a path, with '/' or an extension)");
			return -EINVAL;
		}
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

/* --- writer --- */

/* Arrays of more values are written in base64 (RESULTS.md); tests lower it. */
size_t kb_resfile_text_max = KB_RESFILE_TEXT_MAX;

struct wr {
	FILE *f;
	size_t n;
	char chunk[1 << 18];
};

/* Straight to the file: a 10 MB result is not copied through stdio. */
static void wr_flush(struct wr *w)
{
	kb_write_fd(w->f, w->chunk, w->n);
	w->n = 0;
}

static void wr_raw(struct wr *w, const char *s, size_t len)
{
	if (w->n + len > sizeof(w->chunk))
		wr_flush(w);
	if (len > sizeof(w->chunk)) {
		kb_write_fd(w->f, s, len);
		return;
	}
	memcpy(w->chunk + w->n, s, len);
	w->n += len;
}

static void wr_s(struct wr *w, const char *s)
{
	wr_raw(w, s, strlen(s));
}

/* A JSON string, escaped as the output layer escapes it. */
static void wr_str(struct wr *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	wr_raw(w, "\"", 1);
	for (; *p; p++) {
		if (w->n + 6 > sizeof(w->chunk))
			wr_flush(w);
		w->n += json_escape_char(w->chunk + w->n, *p);
	}
	wr_raw(w, "\"", 1);
}

/* Newline, indentation and "key": (after a comma unless @first). */
static void wr_key(struct wr *w, int depth, const char *key, bool first)
{
	static const char spaces[] = "                ";

	if (!first)
		wr_raw(w, ",", 1);
	wr_raw(w, "\n", 1);
	wr_raw(w, spaces, (size_t)(depth < 16 ? depth : 16));
	wr_str(w, key);
	wr_raw(w, ": ", 2);
}

static void wr_u64(struct wr *w, uint64_t v)
{
	if (w->n + 24 > sizeof(w->chunk))
		wr_flush(w);
	w->n += kb_put_u64(w->chunk + w->n, v);
}

static void wr_s64(struct wr *w, int64_t v)
{
	if (w->n + 24 > sizeof(w->chunk))
		wr_flush(w);
	w->n += kb_put_s64(w->chunk + w->n, v);
}

static void kv_str(struct wr *w, int d, const char *k, const char *v, bool *first)
{
	wr_key(w, d, k, *first);
	*first = false;
	wr_str(w, v);
}

/* "" as null: a field that does not apply (no module, no hypervisor) */
static void kv_str_null(struct wr *w, int d, const char *k, const char *v,
			bool *first)
{
	if (v[0]) {
		kv_str(w, d, k, v, first);
		return;
	}
	wr_key(w, d, k, *first);
	*first = false;
	wr_s(w, "null");
}

static void kv_u64(struct wr *w, int d, const char *k, uint64_t v, bool *first)
{
	wr_key(w, d, k, *first);
	*first = false;
	wr_u64(w, v);
}

static void kv_s64(struct wr *w, int d, const char *k, int64_t v, bool *first)
{
	wr_key(w, d, k, *first);
	*first = false;
	wr_s64(w, v);
}

static void kv_bool(struct wr *w, int d, const char *k, bool v, bool *first)
{
	wr_key(w, d, k, *first);
	*first = false;
	wr_s(w, v ? "true" : "false");
}

/* "key": value or null, for the optional request values */
static void kv_opt(struct wr *w, int d, const char *k, bool has, uint64_t v,
		   bool *first)
{
	wr_key(w, d, k, *first);
	*first = false;
	if (has)
		wr_u64(w, v);
	else
		wr_s(w, "null");
}

static void wr_flag_names(struct wr *w, const struct kb_flag_name *t, uint32_t v)
{
	bool first = true;

	wr_raw(w, "[", 1);
	for (; t->name; t++) {
		if (!(v & t->bit))
			continue;
		if (!first)
			wr_raw(w, ", ", 2);
		first = false;
		wr_str(w, t->name);
	}
	wr_raw(w, "]", 1);
}

static void write_meta(struct wr *w, const struct kb_meta *m)
{
	const struct kb_flag_name *t;
	bool first = true, f2;
	unsigned int i;
	int a;

	wr_key(w, 1, "meta", false);
	wr_raw(w, "{", 1);
	kv_str(w, 2, "kbenchctl_version", m->kbenchctl_version, &first);
	kv_str_null(w, 2, "kbench_version", m->kbench_version, &first);
	kv_u64(w, 2, "method_version", m->method_version, &first);
	kv_str(w, 2, "kernel", m->kernel, &first);
	kv_str(w, 2, "arch", m->arch, &first);
	kv_str(w, 2, "cpu_model", m->cpu_model, &first);
	kv_str_null(w, 2, "hypervisor", m->hypervisor, &first);
	kv_str(w, 2, "hostname", m->hostname, &first);
	kv_str(w, 2, "date", m->date, &first);
	wr_key(w, 2, "command", false);
	wr_raw(w, "[", 1);
	wr_str(w, prog);
	for (a = 0; a < m->argc; a++) {
		wr_raw(w, ", ", 2);
		wr_str(w, m->argv[a]);
	}
	wr_raw(w, "]", 1);
	wr_key(w, 2, "counter_flags", false);
	wr_flag_names(w, kb_counter_flag_names, m->counter_flags);
	wr_key(w, 2, "detectors", false);
	wr_flag_names(w, kb_sample_flag_names, m->detectors);
	wr_key(w, 2, "module_params", false);
	wr_raw(w, "{", 1);
	for (i = 0; i < m->nparams; i++) {
		if (i)
			wr_raw(w, ", ", 2);
		wr_str(w, m->param[i].name);
		wr_raw(w, ": ", 2);
		wr_u64(w, m->param[i].value);
	}
	wr_raw(w, "}", 1);
	/* the bits of sample_flags.value, so the file explains itself */
	wr_key(w, 2, "sample_flag_bits", false);
	wr_raw(w, "{", 1);
	for (t = kb_sample_flag_names, f2 = true; t->name; t++, f2 = false) {
		if (!f2)
			wr_raw(w, ", ", 2);
		wr_str(w, t->name);
		wr_raw(w, ": ", 2);
		wr_u64(w, t->bit);
	}
	wr_raw(w, "}\n }", 4);

	wr_key(w, 1, "environment", false);
	wr_raw(w, "{", 1);
	for (i = 0, first = true; i < m->nenv; i++)
		kv_str(w, 2, m->env[i].key, m->env[i].value, &first);
	wr_s(w, m->nenv ? "\n }" : "}");
}

static void write_summary(struct wr *w, const struct kb_result *res)
{
	bool first = true;
	unsigned int i;

	wr_key(w, 5, "summary", false);
	wr_raw(w, "{", 1);
	kv_u64(w, 6, "samples", res->samples, &first);
	kv_u64(w, 6, "valid", res->valid, &first);
	wr_key(w, 6, "excluded_by_reason", false);
	wr_raw(w, "{", 1);
	for (i = 0; i < KB_EXCL_N; i++) {
		if (i)
			wr_raw(w, ", ", 2);
		wr_str(w, kb_excl_key[i]);
		wr_raw(w, ": ", 2);
		wr_u64(w, res->excl[i]);
	}
	wr_raw(w, "}", 1);
	kv_s64(w, 6, "net_min", res->net_min, &first);
	kv_s64(w, 6, "net_median", res->net_median, &first);
	kv_s64(w, 6, "net_max", res->net_max, &first);
	kv_s64(w, 6, "net_sum", res->net_sum, &first);
	kv_s64(w, 6, "per_iter_min_milli", res->per_iter_min_milli, &first);
	kv_s64(w, 6, "per_iter_median_milli", res->per_iter_median_milli, &first);
	if (res->has_corr) {
		kv_s64(w, 6, "corr_min_milli", res->corr_min_milli, &first);
		kv_s64(w, 6, "corr_median_milli", res->corr_median_milli, &first);
	}
	wr_s(w, "\n     }");
}

/*
 * An array of integers: the one writer of every array of samples in the
 * file, and of the arrays added later (call it for a new per-sample
 * array).  Up to kb_resfile_text_max values as a JSON array, more as
 *   {"encoding": "base64", "width": 4, "data": "..."}
 * the values as little-endian integers of 4 bytes when all fit in int32,
 * else 8 (RESULTS.md).  The base64 goes straight into the chunk, a piece
 * of a multiple of 3 values at a time (no padding between pieces).
 */
static void wr_ints(struct wr *w, const int64_t *v, size_t n)
{
	enum { PIECE = 3 * 1024 };
	unsigned int width;
	size_t i;

	if (n <= kb_resfile_text_max) {
		wr_raw(w, "[", 1);
		for (i = 0; i < n; i++) {
			if (i)
				wr_raw(w, ", ", 2);
			wr_s64(w, v[i]);
		}
		wr_raw(w, "]", 1);
		return;
	}
	width = kb_b64_width(v, n);
	wr_s(w, width == 4 ?
		"{\"encoding\": \"base64\", \"width\": 4, \"data\": \"" :
		"{\"encoding\": \"base64\", \"width\": 8, \"data\": \"");
	for (i = 0; i < n; i += PIECE) {
		size_t k = n - i < PIECE ? n - i : PIECE;

		if (w->n + kb_b64_len(k * width) > sizeof(w->chunk))
			wr_flush(w);
		w->n += kb_b64_encode_ints(w->chunk + w->n, v + i, k, width);
	}
	wr_raw(w, "\"}", 2);
}

/*
 * The routine's events, by name: each one's summary (the kernel's integer
 * figures, in counts) and every sample's net counts.
 */
static void write_events(struct wr *w, const struct kb_run *r,
			 const struct kb_result *res, bool overhead)
{
	bool first_ev = true;
	unsigned int x;

	wr_key(w, 5, "events", false);
	wr_raw(w, "{", 1);
	for (x = 0; x < r->nevents; x++) {
		const struct kb_ev_result *ev = &res->ev[x];
		bool first = true;

		wr_key(w, 6, r->events[x].name, first_ev);
		first_ev = false;
		wr_raw(w, "{", 1);
		wr_key(w, 7, "summary", true);
		wr_raw(w, "{", 1);
		kv_s64(w, 8, "net_min", ev->net_min, &first);
		kv_s64(w, 8, "net_median", ev->net_median, &first);
		kv_s64(w, 8, "net_max", ev->net_max, &first);
		kv_s64(w, 8, "net_sum", ev->net_sum, &first);
		kv_s64(w, 8, "per_iter_min_milli", ev->per_iter_min_milli, &first);
		kv_s64(w, 8, "per_iter_median_milli", ev->per_iter_median_milli,
		       &first);
		if (res->has_corr && !overhead) {
			kv_s64(w, 8, "corr_min_milli", ev->corr_min_milli, &first);
			kv_s64(w, 8, "corr_median_milli", ev->corr_median_milli,
			       &first);
		}
		wr_s(w, "\n       }");
		wr_key(w, 7, "net", false);
		wr_ints(w, ev->net, ev->net && ev->n == res->n ? ev->n : 0);
		wr_s(w, "\n      }");
	}
	wr_s(w, "\n     }");
}

/* Nearly every sample has flags 0: one pass of ORs before counting. */
static size_t count_flagged(const uint32_t *f, size_t n)
{
	size_t i, c = 0;

	if (!kb_or32(f, n))
		return 0;
	for (i = 0; i < n; i++)
		c += f[i] != 0;
	return c;
}

/* sample_flags: the indexes and values of the flagged samples only. */
static int write_flags(struct wr *w, const struct kb_result *res)
{
	size_t i, k = 0, nf = count_flagged(res->sflags, res->n);
	int64_t *idx = NULL, *val = NULL;

	if (nf) {
		idx = malloc(nf * sizeof(*idx));
		val = malloc(nf * sizeof(*val));
		if (!idx || !val) {
			free(idx);
			free(val);
			return -ENOMEM;
		}
		for (i = 0; i < res->n; i++) {
			if (!res->sflags[i])
				continue;
			idx[k] = (int64_t)i;
			val[k++] = res->sflags[i];
		}
	}
	wr_key(w, 5, "sample_flags", false);
	wr_s(w, "{\"index\": ");
	wr_ints(w, idx, nf);
	wr_s(w, ", \"value\": ");
	wr_ints(w, val, nf);
	wr_s(w, "}");
	free(idx);
	free(val);
	return 0;
}

static int write_routine(struct wr *w, const struct kb_run *r,
			 const struct kb_result *res, bool overhead,
			 bool first_routine)
{
	bool first = true;
	int err;

	if (!first_routine)
		wr_raw(w, ",", 1);
	wr_s(w, "\n    {");
	kv_str(w, 5, "routine", res->routine, &first);
	kv_u64(w, 5, "index", res->index, &first);
	kv_bool(w, 5, "overhead", overhead, &first);
	kv_u64(w, 5, "bytes_per_iter", res->bytes_per_iter, &first);
	if (res->has_arg)
		kv_u64(w, 5, "arg", res->arg, &first);
	wr_key(w, 5, "flags", false);
	wr_flag_names(w, kb_result_flag_names, res->flags);
	write_summary(w, res);
	kv_u64(w, 5, "n", res->n, &first);
	wr_key(w, 5, "net", false);
	wr_ints(w, res->net, res->n);
	err = write_flags(w, res);
	if (!err && r->nevents)
		write_events(w, r, res, overhead);
	wr_s(w, "\n    }");
	return err;
}

/* The run's events: what each counted, where, for how long. */
static void write_event_descs(struct wr *w, const struct kb_run *r)
{
	unsigned int x;

	wr_key(w, 3, "events", false);
	wr_raw(w, "[", 1);
	for (x = 0; x < r->nevents; x++) {
		const struct kb_event_desc *e = &r->events[x];
		bool first = true;

		wr_s(w, x ? ",\n    {" : "\n    {");
		kv_str(w, 5, "name", e->name, &first);
		kv_u64(w, 5, "type", e->type, &first);
		kv_u64(w, 5, "config", e->config, &first);
		kv_str(w, 5, "pmu", e->pmu, &first);
		kv_str(w, 5, "read", e->read, &first);
		kv_u64(w, 5, "enabled_ns", e->enabled_ns, &first);
		kv_u64(w, 5, "running_ns", e->running_ns, &first);
		wr_s(w, "\n    }");
	}
	wr_s(w, r->nevents ? "\n   ]" : "]");
}

/* A request's array of @n names, as key @key of depth 4. */
static void write_names(struct wr *w, const char *key, const char *const *names,
			unsigned int n, bool first)
{
	unsigned int i;

	wr_key(w, 4, key, first);
	wr_raw(w, "[", 1);
	for (i = 0; i < n; i++) {
		if (i)
			wr_raw(w, ", ", 2);
		wr_str(w, names[i]);
	}
	wr_raw(w, "]", 1);
}

static int write_run(struct wr *w, const struct kb_saved_run *s, bool first_run)
{
	const struct kb_run *r = &s->run;
	const struct kb_run_req *q = &s->req;
	bool first = true;
	unsigned int i;
	int err = 0;

	if (!first_run)
		wr_raw(w, ",", 1);
	wr_s(w, "\n  {");
	kv_str(w, 3, "side", r->user ? "user" : "kernel", &first);
	if (s->has_arg)
		kv_u64(w, 3, "arg", s->arg, &first);
	kv_u64(w, 3, "run_id", r->run_id, &first);
	kv_u64(w, 3, "cpu", r->cpu, &first);
	kv_u64(w, 3, "samples", r->samples, &first);
	kv_u64(w, 3, "iterations", r->iterations, &first);
	kv_bool(w, 3, "adaptive", r->adaptive, &first);
	kv_u64(w, 3, "target_ns", r->target_ns, &first);
	kv_u64(w, 3, "warmup", r->warmup, &first);
	kv_str(w, 3, "counter", r->counter, &first);
	kv_u64(w, 3, "counter_hz", r->counter_hz, &first);
	kv_bool(w, 3, "counter_constant", r->counter_constant, &first);
	kv_u64(w, 3, "elapsed_ns", r->elapsed_ns, &first);
	kv_u64(w, 3, "span_cycles", r->span_cycles, &first);
	kv_u64(w, 3, "routine_cycles", r->routine_cycles, &first);
	kv_u64(w, 3, "window_cycles", r->window_cycles, &first);
	kv_u64(w, 3, "mem_bytes", r->mem_bytes, &first);
	kv_str(w, 3, "status", r->status == KBENCH_RUN_TIMEOUT ? "timeout" :
			       "complete", &first);
	kv_str(w, 3, "kernel", r->kernel, &first);
	kv_str(w, 3, "date", r->date, &first);

	wr_key(w, 3, "request", false);
	wr_raw(w, "{", 1);
	write_names(w, "routines", q->names, q->n, true);
	first = false;
	kv_opt(w, 4, "cpu", q->has_cpu, q->cpu, &first);
	kv_opt(w, 4, "samples", q->has_samples, q->samples, &first);
	kv_opt(w, 4, "iterations", q->has_iterations, q->iterations, &first);
	kv_opt(w, 4, "target_ns", q->has_target, q->target_ns, &first);
	kv_opt(w, 4, "warmup", q->has_warmup, q->warmup, &first);
	write_names(w, "events", q->events, q->nevents, false);
	if (q->nargs) {
		wr_key(w, 4, "args", false);
		wr_raw(w, "[", 1);
		for (i = 0; i < q->nargs; i++) {
			if (i)
				wr_raw(w, ", ", 2);
			wr_u64(w, q->args[i]);
		}
		wr_raw(w, "]", 1);
	}
	wr_s(w, "\n   }");
	write_event_descs(w, r);

	wr_key(w, 3, "routines", false);
	wr_raw(w, "[", 1);
	for (i = 0; !err && i < r->nres; i++)
		err = write_routine(w, r, &r->res[i], false, i == 0);
	if (!err && r->has_overhead)
		err = write_routine(w, r, &r->overhead, true, r->nres == 0);
	wr_s(w, "\n   ]\n  }");
	return err;
}

int kb_resfile_write(FILE *f, const struct kb_meta *m,
		     const struct kb_saved_run *runs, size_t nruns)
{
	struct wr *w = malloc(sizeof(*w));
	char created[64];
	bool first = true;
	size_t i;
	int err = 0;

	if (!w)
		return -ENOMEM;
	w->f = f;
	w->n = 0;
	snprintf(created, sizeof(created), "kbenchctl %s", KBENCHCTL_VERSION);
	wr_raw(w, "{", 1);
	kv_str(w, 1, "format", KB_RESFILE_FORMAT, &first);
	kv_u64(w, 1, "version", KB_RESFILE_VERSION, &first);
	kv_str(w, 1, "created_by", created, &first);
	write_meta(w, m);
	wr_key(w, 1, "runs", false);
	wr_raw(w, "[", 1);
	for (i = 0; !err && i < nruns; i++)
		err = write_run(w, &runs[i], i == 0);
	wr_s(w, "\n ]\n}\n");
	wr_flush(w);
	free(w);
	return err ? err : ferror(f) ? -EIO : 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int kb_resfile_save(const char *arg, const struct kb_meta *m,
		    const struct kb_saved_run *runs, size_t nruns)
{
	char path[4096], tmp[4200], why[512];
	double t0 = now_ms();
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
	fprintf(stderr, "%s: saved %zu routine%s, %zu samples to %s (%lld bytes",
		prog, routines, routines == 1 ? "" : "s", samples, path,
		stat(path, &st) ? -1LL : (long long)st.st_size);
	if (getenv("KBENCH_TIMING"))
		fprintf(stderr, ", %.1f ms", now_ms() - t0);
	fprintf(stderr, ")\n");
	return 0;
}
