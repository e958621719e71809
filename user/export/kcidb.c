// SPDX-License-Identifier: GPL-2.0
/*
 * KCIDB, KernelCI's common database (kernelci/kcidb-io, I/O schema v5.3,
 * kcidb_io/schema/v05_03.py): "checkouts", "builds" and "tests", linked
 * by ids that start with the submitting CI system's origin and a colon.
 * A measurement is a test with status "DONE" and a "number" {value,
 * unit}: one per routine of each file, at path kbench.ROUTINE (.ARG for
 * a sweep's argument; kbench.user.ROUTINE for a twin run), the median
 * per iteration in the counter's unit; its interval, the ns and the
 * counter in "misc", the machine in environment.misc.  The file holds no
 * checkout or build ids: they default to ORIGIN:RELEASE and
 * ORIGIN:RELEASE-ARCH of the kernel measured (--checkout-id, --build-id),
 * with -gHASH12 after RELEASE when the file records the commit measured
 * (run --save --commit), which is then the checkout's git_commit_hash.
 */
#include <ctype.h>
#include <errno.h>
#include <json.h>
#include <math.h>
#include <string.h>

#include "base.h"
#include "export.h"

#define ID_MAX	512

/*
 * The checkout's full hash: --commit, else the commit the file records
 * (run --save --commit: the code measured) where the schema takes it
 * (40 hex digits); NULL when neither.
 */
static const char *commit_hash(const struct kb_export_opts *o,
			       const struct kb_meta *m)
{
	if (o->commit)
		return o->commit;
	if (strlen(m->commit) == 40)
		return m->commit;
	return NULL;
}

/* ORIGIN:RELEASE[-gHASH12]; a file's recorded commit tells checkouts apart */
static void ids(const struct kb_export_opts *o, const struct kb_meta *m,
		char *checkout, char *build)
{
	const char *kernel = m->kernel[0] ? m->kernel : "unknown";
	char sfx[24] = "";

	if (!o->commit && m->commit[0])
		snprintf(sfx, sizeof(sfx), "-g%.12s", m->commit);
	if (o->checkout_id)
		snprintf(checkout, ID_MAX, "%s", o->checkout_id);
	else
		snprintf(checkout, ID_MAX, "%s:%s%s", o->origin, kernel, sfx);
	if (o->build_id)
		snprintf(build, ID_MAX, "%s", o->build_id);
	else
		snprintf(build, ID_MAX, "%s:%s%s-%s", o->origin, kernel, sfx,
			 m->arch[0] ? m->arch : "unknown");
}

/* Is @id among the "id"s of @list? */
static bool listed(struct json_object *list, const char *id)
{
	size_t i, n = json_object_array_length(list);
	struct json_object *v;

	for (i = 0; i < n; i++)
		if (json_object_object_get_ex(json_object_array_get_idx(list, i),
					      "id", &v) &&
		    !strcmp(json_object_get_string(v), id))
			return true;
	return false;
}

static void add_checkout(struct json_object *list, const char *id,
			 const struct kb_meta *m, const struct kb_export_opts *o)
{
	const char *hash = commit_hash(o, m);
	struct json_object *c, *misc;
	char commit[48];

	if (listed(list, id) || !(c = json_object_new_object()))
		return;
	json_object_object_add(c, "id", json_object_new_string(id));
	json_object_object_add(c, "origin", json_object_new_string(o->origin));
	if (hash)
		json_object_object_add(c, "git_commit_hash",
				       json_object_new_string(hash));
	kb_export_commit(m->kernel, commit, sizeof(commit));
	/* the release names its commit: scripts/setlocalversion's describe */
	if (commit[0])
		json_object_object_add(c, "git_commit_name",
				       json_object_new_string(m->kernel));
	misc = json_object_new_object();
	json_object_object_add(misc, "kernel", json_object_new_string(m->kernel));
	if (commit[0])
		json_object_object_add(misc, "commit", json_object_new_string(commit));
	json_object_object_add(c, "misc", misc);
	json_object_array_add(list, c);
}

static void add_build(struct json_object *list, const char *id,
		      const char *checkout, const struct kb_meta *m,
		      const struct kb_export_opts *o)
{
	struct json_object *b, *misc;
	char arch[sizeof(m->arch)];
	size_t i;

	if (listed(list, id) || !(b = json_object_new_object()))
		return;
	json_object_object_add(b, "id", json_object_new_string(id));
	json_object_object_add(b, "checkout_id", json_object_new_string(checkout));
	json_object_object_add(b, "origin", json_object_new_string(o->origin));
	/* the schema's architecture: lower case, digits and '_' */
	for (i = 0; m->arch[i] && i + 1 < sizeof(arch); i++)
		arch[i] = isalnum((unsigned char)m->arch[i]) ?
			  (char)tolower((unsigned char)m->arch[i]) : '_';
	arch[i] = '\0';
	if (arch[0])
		json_object_object_add(b, "architecture", json_object_new_string(arch));
	misc = json_object_new_object();
	json_object_object_add(misc, "kernel", json_object_new_string(m->kernel));
	json_object_object_add(b, "misc", misc);
	json_object_array_add(list, b);
}

/* kbench.ROUTINE[.ARG], kbench.user.ROUTINE[.ARG]: the schema's path */
static void test_path(const struct kb_export_point *p, char *buf, size_t len)
{
	char key[sizeof(p->name)];
	const char *name = p->name;
	size_t i;

	if (!strncmp(name, "user:", 5))
		name += 5;
	snprintf(key, sizeof(key), "%s", name);
	for (i = 0; key[i]; i++)
		if (key[i] == '/')
			key[i] = '.';
		else if (!isalnum((unsigned char)key[i]) && key[i] != '-')
			key[i] = '_';
	snprintf(buf, len, "kbench.%s%s", p->run->run.user ? "user." : "", key);
}

static struct json_object *test(const struct kb_export *x,
				const struct kb_export_point *p,
				const char *build, const struct kb_export_opts *o)
{
	const struct kb_meta *m = &x->files[p->file].meta;
	const struct kb_run *r = &p->run->run;
	struct json_object *t = json_object_new_object(), *num, *misc, *env;
	char path[KBENCH_NAME_MAX + 48], id[ID_MAX + 256], comment[400];

	if (!t)
		return NULL;
	test_path(p, path, sizeof(path));
	snprintf(id, sizeof(id), "%s:%s:%s:%zu:%u", build, path,
		 m->date[0] ? m->date : "-", p->file, p->res->index);
	json_object_object_add(t, "id", json_object_new_string(id));
	json_object_object_add(t, "build_id", json_object_new_string(build));
	json_object_object_add(t, "origin", json_object_new_string(o->origin));
	json_object_object_add(t, "path", json_object_new_string(path));
	json_object_object_add(t, "status", json_object_new_string("DONE"));
	if (m->date[0])
		json_object_object_add(t, "start_time", json_object_new_string(m->date));
	if (r->elapsed_ns)
		json_object_object_add(t, "duration",
				       kb_json_num((double)r->elapsed_ns / 1e9));
	num = json_object_new_object();
	json_object_object_add(num, "value", kb_json_num(p->median));
	json_object_object_add(num, "unit",
			       json_object_new_string(kb_export_unit_text(p->run)));
	json_object_object_add(t, "number", num);

	env = json_object_new_object();
	snprintf(comment, sizeof(comment), "%s%s%s%s%s",
		 o->with_host ? m->hostname : "", o->with_host ? ", " : "",
		 m->cpu_model, m->hypervisor[0] ? ", hypervisor " : "",
		 m->hypervisor);
	json_object_object_add(env, "comment", json_object_new_string(comment));
	json_object_object_add(env, "misc",
			       kb_export_meta_object(m, o->with_host));
	json_object_object_add(t, "environment", env);

	misc = json_object_new_object();
	json_object_object_add(misc, "routine", json_object_new_string(p->res->routine));
	json_object_object_add(misc, "side",
			       json_object_new_string(r->user ? "user" : "kernel"));
	json_object_object_add(misc, "unit",
			       json_object_new_string(kb_export_unit_text(p->run)));
	json_object_object_add(misc, "median_per_iter", kb_json_num(p->median));
	json_object_object_add(misc, "ci_lower", kb_json_num(p->ci_lo));
	json_object_object_add(misc, "ci_upper", kb_json_num(p->ci_hi));
	json_object_object_add(misc, "ci_coverage", kb_json_num(p->res->st.ci_coverage));
	json_object_object_add(misc, "median_ns", kb_json_num(p->ns));
	json_object_object_add(misc, "ci_lower_ns", kb_json_num(p->ns_lo));
	json_object_object_add(misc, "ci_upper_ns", kb_json_num(p->ns_hi));
	json_object_object_add(misc, "samples", json_object_new_uint64(p->valid));
	json_object_object_add(misc, "iterations",
			       json_object_new_uint64(r->iterations));
	json_object_object_add(misc, "counter", json_object_new_string(r->counter));
	json_object_object_add(misc, "counter_hz", json_object_new_uint64(r->counter_hz));
	json_object_object_add(misc, "file", json_object_new_string(x->paths[p->file]));
	json_object_object_add(t, "misc", misc);
	return t;
}

int kb_export_kcidb(FILE *f, const struct kb_export *x,
		    const struct kb_export_opts *o)
{
	struct json_object *doc = json_object_new_object(), *v, *co, *bu, *te;
	char checkout[ID_MAX], build[ID_MAX];
	size_t i;

	co = json_object_new_array();
	bu = json_object_new_array();
	te = json_object_new_array();
	v = json_object_new_object();
	if (!doc || !co || !bu || !te || !v) {
		json_object_put(doc);
		json_object_put(co);
		json_object_put(bu);
		json_object_put(te);
		json_object_put(v);
		return -ENOMEM;
	}
	json_object_object_add(v, "major", json_object_new_int(5));
	json_object_object_add(v, "minor", json_object_new_int(3));
	json_object_object_add(doc, "version", v);
	json_object_object_add(doc, "checkouts", co);
	json_object_object_add(doc, "builds", bu);
	json_object_object_add(doc, "tests", te);
	for (i = 0; i < x->npts; i++) {
		const struct kb_export_point *p = &x->pts[i];
		const struct kb_meta *m = &x->files[p->file].meta;

		ids(o, m, checkout, build);
		add_checkout(co, checkout, m, o);
		add_build(bu, build, checkout, m, o);
		json_object_array_add(te, test(x, p, build, o));
	}
	return kb_export_print_json(f, doc);
}
