// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl export and history: saved results loaded into points, one
 * per routine of each run of each file (export.h), and what the format
 * writers share.
 */
#include <ctype.h>
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "export.h"
#include "stats.h"

const char *const kb_export_format_names[] = {
	[KB_EXPORT_GBENCH] = "gbench",
	[KB_EXPORT_KCIDB] = "kcidb",
	[KB_EXPORT_LKP] = "lkp",
	[KB_EXPORT_BMF] = "bmf",
	[KB_EXPORT_GAB] = "gab",
	NULL
};

const char *kb_export_unit(const struct kb_saved_run *s, bool key)
{
	static char buf[48];

	if (!strcmp(s->run.counter, "tsc") || !s->run.counter[0])
		return "cycles";
	if (key)
		return "ticks";
	snprintf(buf, sizeof(buf), "%s ticks", s->run.counter);
	return buf;
}

const char *kb_export_unit_text(const struct kb_saved_run *s)
{
	static char buf[KBENCH_NAME_MAX + 48];

	return kb_run_unit_text(&s->run, buf, sizeof(buf));
}

void kb_export_commit(const char *release, char *buf, size_t len)
{
	const char *p = release, *g = NULL;
	size_t n;

	buf[0] = '\0';
	/* the last "-g" followed by hex digits to the end or a '-' */
	while ((p = strstr(p, "-g"))) {
		n = strspn(p + 2, "0123456789abcdef");
		if (n >= 12 && (p[2 + n] == '\0' || p[2 + n] == '-' ||
				p[2 + n] == '+'))
			g = p + 2;
		p += 2;
	}
	if (!g)
		return;
	n = strspn(g, "0123456789abcdef");
	if (n < len)
		snprintf(buf, len, "%.*s", (int)n, g);
}

static void point_name(struct kb_export_point *p)
{
	const struct kb_saved_run *s = p->run;
	const struct kb_result *r = p->res;
	size_t used;

	used = (size_t)snprintf(p->name, sizeof(p->name), "%s%s",
				s->run.user ? "user:" : "", r->routine);
	if (used < sizeof(p->name) && (s->has_arg || r->has_arg))
		snprintf(p->name + used, sizeof(p->name) - used, "/%llu",
			 (unsigned long long)(s->has_arg ? s->arg : r->arg));
	if (s->has_arg || r->has_arg)
		snprintf(p->label, sizeof(p->label), "%s:%llu%s", r->routine,
			 (unsigned long long)(s->has_arg ? s->arg : r->arg),
			 s->run.user ? " [user]" : "");
	else
		snprintf(p->label, sizeof(p->label), "%s%s", r->routine,
			 s->run.user ? " [user]" : "");
}

static int add_points(const char *sub, struct kb_export *x, size_t f,
		      size_t *cap)
{
	struct kb_resfile *rf = &x->files[f];
	size_t r, i;
	unsigned int k;

	for (r = 0; r < rf->nruns; r++) {
		struct kb_saved_run *s = &rf->runs[r];

		for (k = 0; k < s->run.nres; k++) {
			struct kb_result *res = &s->run.res[k];
			struct kb_export_point *p;
			int err;

			err = kb_result_analyze(res, s->run.iterations);
			if (err) {
				kb_arg_error(sub, "%s: routine '%s': %s",
					     x->paths[f], res->routine,
					     strerror(-err));
				return err;
			}
			if (!res->st.count) {
				fprintf(stderr, "%s %s: %s: routine '%s' has no valid sample: left out\n",
					prog, sub, x->paths[f], res->routine);
				continue;
			}
			if (x->npts == *cap) {
				size_t nc = *cap ? 2 * *cap : 16;
				void *np = realloc(x->pts, nc * sizeof(*x->pts));

				if (!np)
					return -ENOMEM;
				x->pts = np;
				*cap = nc;
			}
			p = &x->pts[x->npts];
			memset(p, 0, sizeof(*p));
			p->file = f;
			p->run = s;
			p->res = res;
			point_name(p);
			p->median = res->st.median;
			p->ci_lo = res->st.ci_lo;
			p->ci_hi = res->st.ci_hi;
			p->ns = kb_run_ns(&s->run, p->median);
			p->ns_lo = kb_run_ns(&s->run, p->ci_lo);
			p->ns_hi = kb_run_ns(&s->run, p->ci_hi);
			p->valid = res->st.count;
			p->bench = x->nbench;
			for (i = 0; i < x->npts; i++)
				if (!strcmp(x->pts[i].name, p->name)) {
					p->bench = x->pts[i].bench;
					break;
				}
			if (p->bench == x->nbench)
				x->nbench++;
			x->npts++;
		}
	}
	return 0;
}

int kb_export_load(const char *sub, char *const *paths, size_t n,
		   struct kb_export *x)
{
	char err[768];
	size_t f, cap = 0;
	int ret;

	memset(x, 0, sizeof(*x));
	x->paths = paths;
	x->files = calloc(n ? n : 1, sizeof(*x->files));
	if (!x->files)
		return -ENOMEM;
	for (f = 0; f < n; f++) {
		ret = kb_resfile_load(paths[f], &x->files[f], err, sizeof(err));
		if (ret) {
			kb_arg_error(sub, "%s", err);
			goto out_free;
		}
		x->nfiles++;
		ret = add_points(sub, x, f, &cap);
		if (ret)
			goto out_free;
	}
	if (!x->npts) {
		ret = kb_arg_error(sub, "no routine with valid samples in %s",
				   n == 1 ? paths[0] : "these files");
		goto out_free;
	}
	return 0;
out_free:
	kb_export_free(x);
	return ret;
}

void kb_export_free(struct kb_export *x)
{
	size_t f;

	for (f = 0; f < x->nfiles; f++)
		kb_resfile_free(&x->files[f]);
	free(x->files);
	free(x->pts);
	memset(x, 0, sizeof(*x));
}

struct json_object *kb_json_num(double v)
{
	char buf[40];
	int prec;

	if (!isfinite(v))
		return NULL;	/* null */
	/* the shortest decimal that reads back as @v, as output.c writes */
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, v);
	return json_object_new_double_s(v, buf);
}

int kb_export_print_json(FILE *f, struct json_object *doc)
{
	const char *s;
	size_t len;

	if (!doc)
		return -ENOMEM;
	s = json_object_to_json_string_length(doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE,
					      &len);
	if (!s) {
		json_object_put(doc);
		return -ENOMEM;
	}
	fwrite(s, 1, len, f);
	fputc('\n', f);
	json_object_put(doc);
	return ferror(f) ? -EIO : 0;
}

int kb_export_bench_json(FILE *f, const struct kb_export *x,
			 struct json_object *doc,
			 void (*add)(struct json_object *doc,
				     const struct kb_export_point *p,
				     size_t reps))
{
	struct kb_export_point p;
	size_t b, reps;
	int err;

	if (!doc)
		return -ENOMEM;
	for (b = 0; b < x->nbench; b++) {
		err = kb_export_bench_figures(x, b, &p, &reps);
		if (err) {
			json_object_put(doc);
			return err;
		}
		add(doc, &p, reps);
	}
	return kb_export_print_json(f, doc);
}

static void put_str(struct json_object *o, const char *key, const char *v)
{
	if (v && v[0])
		json_object_object_add(o, key, json_object_new_string(v));
}

struct json_object *kb_export_meta_object(const struct kb_meta *m,
					  bool with_host)
{
	struct json_object *o = json_object_new_object(), *env;
	char commit[48];
	unsigned int i;

	if (!o)
		return NULL;
	put_str(o, "kernel", m->kernel);
	kb_export_commit(m->kernel, commit, sizeof(commit));
	put_str(o, "commit", commit);
	put_str(o, "measured_commit", m->commit);
	put_str(o, "measured_commit_time", m->commit_time);
	put_str(o, "arch", m->arch);
	put_str(o, "cpu_model", m->cpu_model);
	put_str(o, "hypervisor", m->hypervisor);
	if (with_host)
		put_str(o, "hostname", m->hostname);
	else
		put_str(o, "withheld", KB_EXPORT_WITHHELD);
	put_str(o, "date", m->date);
	put_str(o, "kbench_version", m->kbench_version);
	put_str(o, "kbenchctl_version", m->kbenchctl_version);
	json_object_object_add(o, "method_version",
			       json_object_new_int64(m->method_version));
	env = json_object_new_object();
	for (i = 0; env && i < m->nenv; i++)
		if (with_host || strcmp(m->env[i].key, "cmdline"))
			json_object_object_add(env, m->env[i].key,
				       json_object_new_string(m->env[i].value));
	json_object_object_add(o, "environment", env);
	return o;
}

const char *kb_meta_env_value(const struct kb_meta *m, const char *key)
{
	unsigned int i;

	for (i = 0; i < m->nenv; i++)
		if (!strcmp(m->env[i].key, key))
			return m->env[i].value;
	return NULL;
}

int kb_export_bench_figures(const struct kb_export *x, size_t b,
			    struct kb_export_point *out, size_t *reps)
{
	double *v, *w;
	size_t i, n = 0;

	v = calloc(2 * (x->npts ? x->npts : 1), sizeof(*v));
	if (!v)
		return -ENOMEM;
	w = v + x->npts;
	for (i = 0; i < x->npts; i++) {
		if (x->pts[i].bench != b)
			continue;
		if (!n)
			*out = x->pts[i];
		v[n] = x->pts[i].median;
		w[n++] = x->pts[i].ns;
	}
	*reps = n;
	if (n >= 2) {
		/* across the files: the median of the medians, their range */
		qsort(v, n, sizeof(*v), kb_cmp_double);
		qsort(w, n, sizeof(*w), kb_cmp_double);
		out->median = kb_median_sorted(v, n);
		out->ci_lo = v[0];
		out->ci_hi = v[n - 1];
		out->ns = kb_median_sorted(w, n);
		out->ns_lo = w[0];
		out->ns_hi = w[n - 1];
	}
	free(v);
	return 0;
}

void kb_export_key(const char *name, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", name);
	for (i = 0; buf[i]; i++)
		if (!isalnum((unsigned char)buf[i]) && buf[i] != '_' &&
		    buf[i] != '-' && buf[i] != '.')
			buf[i] = buf[i] == '/' ? '.' : '_';
}
