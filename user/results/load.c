// SPDX-License-Identifier: GPL-2.0
/*
 * Loading saved results (user/RESULTS.md).  json-c parses the document
 * (strict JSON, 64-bit integers, bounded nesting; a syntax error at a byte
 * offset, which we give as line and column); this
 * file walks it by the schema: each object is a table of fields {key,
 * type, offset} read by one loop, plus the few structures a table cannot
 * say (arrays of runs and routines, the sample arrays, the events).  Every
 * error names the file and the key path ("runs[0].routines[1].net") and
 * says what was expected; nothing a file holds can make it crash or
 * allocate more than the file's size in samples.  Unknown keys are
 * ignored (newer files of the same version add keys), unknown versions
 * refused.  Versions 1 (integer arrays as JSON arrays) and 2 (long ones
 * in base64) differ only in the arrays, and load_ints reads both forms.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kbench/bodies.h>

#include "b64.h"
#include "core.h"
#include "base.h"
#include "names.h"
#include "resfile.h"
#include "uclocks.h"

#define JP_PATH_MAX	256
#define JP_DEPTH_MAX	64

typedef struct json_object JO;

struct jp {
	const char *name;	/* file, for messages */
	char path[JP_PATH_MAX];
	char *err;
	size_t errlen;
	bool failed;
};

static void jp_error(struct jp *j, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void jp_error(struct jp *j, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (j->failed)
		return;
	j->failed = true;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(j->err, j->errlen, "%s: %s%s%s", j->name, j->path,
		 j->path[0] ? ": " : "", what);
}

/* Key path: append ".key" or "[i]"; returns the length to restore. */
static size_t jp_push(struct jp *j, const char *key, size_t index)
{
	size_t n = strlen(j->path);

	if (key)
		snprintf(j->path + n, sizeof(j->path) - n, "%s%s", n ? "." : "", key);
	else
		snprintf(j->path + n, sizeof(j->path) - n, "[%zu]", index);
	return n;
}

static void jp_pop(struct jp *j, size_t n)
{
	if (!j->failed)	/* keep the path of the error */
		j->path[n] = '\0';
}

/* What a value is, for "expected X, found Y". */
static const char *found(const JO *v)
{
	switch (json_object_get_type(v)) {
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	case json_type_int: return "a number";
	case json_type_double: return "a fraction";
	case json_type_boolean: return "a boolean";
	default: return "null";
	}
}

static bool want(struct jp *j, const JO *v, json_type type,
		 const char *what)
{
	if (json_object_is_type(v, type))
		return true;
	jp_error(j, "expected %s, found %s", what, found(v));
	return false;
}

/* An integer within [min, max]. */
static bool get_int(struct jp *j, const JO *v, int64_t min, int64_t max,
		    int64_t *out)
{
	int64_t x;

	if (!want(j, v, json_type_int, "an integer"))
		return false;
	x = json_object_get_int64(v);
	/* json-c holds integers up to UINT64_MAX; int64 readers clamp */
	if (x == INT64_MAX && json_object_get_uint64(v) > INT64_MAX) {
		jp_error(j, "integer %llu out of range %lld..%lld",
			 (unsigned long long)json_object_get_uint64(v),
			 (long long)min, (long long)max);
		return false;
	}
	if (x < min || x > max) {
		jp_error(j, "integer %lld out of range %lld..%lld", (long long)x,
			 (long long)min, (long long)max);
		return false;
	}
	*out = x;
	return true;
}

/* An unsigned integer up to @max (json-c holds up to UINT64_MAX). */
static bool get_u64(struct jp *j, const JO *v, uint64_t max, uint64_t *out)
{
	uint64_t x;

	if (!want(j, v, json_type_int, "an integer"))
		return false;
	x = json_object_get_uint64(v);
	if (json_object_get_int64(v) < 0 || x > max) {
		jp_error(j, "integer %lld out of range 0..%llu",
			 (long long)json_object_get_int64(v),
			 (unsigned long long)max);
		return false;
	}
	*out = x;
	return true;
}

/* A string into @out of @cap bytes (NUL-terminated). */
static bool get_str(struct jp *j, const JO *v, char *out, size_t cap)
{
	if (!want(j, v, json_type_string, "a string"))
		return false;
	if ((size_t)json_object_get_string_len(v) >= cap) {
		jp_error(j, "string longer than %zu bytes", cap - 1);
		return false;
	}
	if (strlen(json_object_get_string((JO *)v)) !=
	    (size_t)json_object_get_string_len(v)) {
		jp_error(j, "\\u0000 in a string");
		return false;
	}
	memcpy(out, json_object_get_string((JO *)v),
	       (size_t)json_object_get_string_len(v) + 1);
	return true;
}

/* An array of flag names (those of newer versions ignored) into bits. */
static bool get_flags(struct jp *j, const JO *v,
		      const struct kb_flag_name *t, uint32_t *out)
{
	const struct kb_flag_name *k;
	size_t i, at;

	if (!want(j, v, json_type_array, "an array"))
		return false;
	*out = 0;
	for (i = 0; i < json_object_array_length(v); i++) {
		const JO *e = json_object_array_get_idx(v, i);

		at = jp_push(j, NULL, i);
		if (!want(j, e, json_type_string, "a string"))
			return false;
		jp_pop(j, at);
		for (k = t; k->name; k++)
			if (!strcmp(k->name, json_object_get_string((JO *)e)))
				*out |= k->bit;
	}
	return true;
}

/*
 * Read the fields of @table (model/schema.h, resfile.h) that @obj holds
 * into @base; others are kept.  A null, where the field allows it
 * (KB_NULL_READ), is an empty string or the field not there.
 */
static bool load_fields(struct jp *j, const JO *obj,
			const struct kb_field *table, void *base)
{
	const struct kb_field *f;

	for (f = table; f->key; f++) {
		char *p = (char *)base + f->offset;
		bool ok = true;
		uint32_t u32;
		int64_t x;
		size_t at;
		JO *v;

		/* present with a NULL value: JSON null */
		if (!json_object_object_get_ex(obj, f->key, &v))
			continue;
		at = jp_push(j, f->key, 0);
		if (!v && (f->null & KB_NULL_READ)) {
			if (f->has)
				*(bool *)((char *)base + f->has) = false;
			if (f->type == KB_FT_STR)
				p[0] = '\0';
			jp_pop(j, at);
			continue;
		}
		switch (f->type) {
		case KB_FT_U32:
			ok = get_int(j, v, 0, UINT32_MAX, &x);
			u32 = (uint32_t)x;
			if (ok)
				memcpy(p, &u32, sizeof(u32));
			break;
		case KB_FT_U64:
			ok = get_u64(j, v, UINT64_MAX, (uint64_t *)p);
			break;
		case KB_FT_S64:
			ok = get_int(j, v, INT64_MIN, INT64_MAX, (int64_t *)p);
			break;
		case KB_FT_BOOL:
		case KB_FT_BOOL32:
			ok = json_object_is_type(v, json_type_boolean);
			if (!ok)
				jp_error(j, "expected true or false, found %s",
					 found(v));
			else if (f->type == KB_FT_BOOL)
				*(bool *)p = json_object_get_boolean(v);
			else
				kb_field_set(f, base, json_object_get_boolean(v), 0);
			break;
		case KB_FT_STR:
			ok = get_str(j, v, p, f->size);
			break;
		case KB_FT_FLAGS:
			ok = get_flags(j, v, f->names, (uint32_t *)p);
			break;
		}
		if (!ok)
			return false;
		kb_field_set_present(f, base);
		jp_pop(j, at);
	}
	return true;
}

/* An object member @key of @obj that must be an object or an array. */
static const JO *member(struct jp *j, const JO *obj, const char *key,
			    json_type type, size_t *at)
{
	JO *v;

	/* not there: nothing pushed, popping @at restores nothing */
	*at = strlen(j->path);
	if (!json_object_object_get_ex(obj, key, &v))
		return NULL;
	*at = jp_push(j, key, 0);
	if (!want(j, v, type, type == json_type_object ? "an object" : "an array"))
		return NULL;
	return v;
}

/* The object @key of @obj, when there, read by @table into @base. */
static bool load_object(struct jp *j, const JO *obj, const char *key,
			const struct kb_field *table, void *base)
{
	size_t at;
	const JO *v = member(j, obj, key, json_type_object, &at);

	if (j->failed || (v && !load_fields(j, v, table, base)))
		return false;
	jp_pop(j, at);
	return true;
}

/* The values of a decoded array within [min, max]; else an error. */
static bool ints_in_range(struct jp *j, const int64_t *v, size_t n,
			  int64_t min, int64_t max)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i] < min || v[i] > max) {
			jp_error(j, "value [%zu] = %lld out of range %lld..%lld",
				 i, (long long)v[i], (long long)min,
				 (long long)max);
			return false;
		}
	}
	return true;
}

/*
 * An array in base64: {"encoding": "base64", "width": 4|8, "data": "..."}
 * (RESULTS.md), unknown keys ignored; decoded into an array of exactly
 * the size it holds.
 */
static bool load_b64(struct jp *j, const JO *obj, int64_t **out,
		     size_t *count)
{
	JO *enc = NULL, *width = NULL, *data = NULL;
	bool has_enc = json_object_object_get_ex(obj, "encoding", &enc);
	bool has_width = json_object_object_get_ex(obj, "width", &width);
	bool has_data = json_object_object_get_ex(obj, "data", &data);
	const char *s;
	int64_t w = 0;
	size_t bad, len, at;
	long long n;
	int64_t *v;

	if (!has_enc || !has_width || !has_data) {
		jp_error(j, "an array of integers is [...] or {\"encoding\": \"base64\", \"width\": 4 or 8, \"data\": \"...\"}; this object has no \"%s\"",
			 !has_enc ? "encoding" : !has_width ? "width" : "data");
		return false;
	}
	at = jp_push(j, "encoding", 0);
	if (!want(j, enc, json_type_string, "a string"))
		return false;
	jp_pop(j, at);
	if (strcmp(json_object_get_string(enc), "base64")) {
		jp_error(j, "encoding '%.32s': this kbenchctl reads 'base64'",
			 json_object_get_string(enc));
		return false;
	}
	at = jp_push(j, "width", 0);
	if (!get_int(j, width, 0, INT64_MAX, &w))
		return false;
	jp_pop(j, at);
	if (w != 4 && w != 8) {
		jp_error(j, "width %lld: integers of 4 or 8 bytes", (long long)w);
		return false;
	}
	at = jp_push(j, "data", 0);
	if (!want(j, data, json_type_string, "a string"))
		return false;
	jp_pop(j, at);
	s = json_object_get_string(data);
	len = (size_t)json_object_get_string_len(data);
	n = kb_b64_count(s, len, (unsigned int)w);
	v = n < 0 ? NULL : malloc(n ? (size_t)n * sizeof(*v) : 1);
	if (n >= 0 && !v) {
		jp_error(j, "out of memory");
		return false;
	}
	if (!v || kb_b64_decode_ints(v, s, len, (unsigned int)w, &bad) != n) {
		if (!v)
			bad = kb_b64_bad(s, len);
		if (bad == len)
			jp_error(j, "base64 data of %zu characters is not whole %u-byte integers (truncated or edited?)",
				 len, (unsigned int)w);
		else if (s[bad] >= 0x20 && s[bad] < 0x7f)
			jp_error(j, "'%c' in base64 data (character %zu)",
				 s[bad], bad);
		else
			jp_error(j, "byte 0x%02x in base64 data (character %zu)",
				 (unsigned char)s[bad], bad);
		free(v);
		return false;
	}
	*out = v;
	*count = (size_t)n;
	return true;
}

/*
 * An array of integers within [min, max]: a JSON array, or the base64
 * object above.  The document holds it already: the allocation is bounded
 * by the file's size.
 */
static bool load_ints(struct jp *j, const JO *a, int64_t **out,
		      size_t *count, int64_t min, int64_t max)
{
	size_t i, n;
	int64_t *v;

	if (json_object_is_type(a, json_type_object)) {
		if (!load_b64(j, a, out, count))
			return false;
		if (ints_in_range(j, *out, *count, min, max))
			return true;
		free(*out);
		*out = NULL;
		return false;
	}
	if (!want(j, a, json_type_array, "an array"))
		return false;
	n = json_object_array_length(a);
	v = malloc(n ? n * sizeof(*v) : 1);
	if (!v) {
		jp_error(j, "out of memory");
		return false;
	}
	for (i = 0; i < n; i++) {
		const JO *e = json_object_array_get_idx(a, i);
		int64_t x = json_object_get_int64(e);

		if (!json_object_is_type(e, json_type_int) ||
		    (x == INT64_MAX && json_object_get_uint64(e) > INT64_MAX)) {
			jp_push(j, NULL, i);
			if (want(j, e, json_type_int, "an integer"))
				jp_error(j, "integer out of range");
			free(v);
			return false;
		}
		v[i] = x;
	}
	if (!ints_in_range(j, v, n, min, max)) {
		free(v);
		return false;
	}
	*out = v;
	*count = n;
	return true;
}

/* The integer array @key of @obj, when there (load_ints()). */
static bool ints_member(struct jp *j, const JO *obj, const char *key,
			int64_t **out, size_t *count, int64_t min, int64_t max)
{
	size_t at;
	JO *a;

	if (!json_object_object_get_ex(obj, key, &a))
		return true;
	at = jp_push(j, key, 0);
	if (!load_ints(j, a, out, count, min, max))
		return false;
	jp_pop(j, at);
	return true;
}

/*
 * A routine's "divisors": pairs of a sample index (increasing, below n)
 * and a divisor of N (at least 1).
 */
static bool divisors_valid(const struct kb_result *res)
{
	size_t i;

	if (res->ndivs % 2)
		return false;
	for (i = 0; i < res->ndivs; i += 2)
		if ((size_t)res->divs[i] >= res->n || res->divs[i + 1] < 1 ||
		    (i && res->divs[i] <= res->divs[i - 2]))
			return false;
	return true;
}

/* --- schema --- */

/* What a routine's or a run's object says that is not a member of it. */
struct routine_extra {
	bool overhead, has_n;
	uint32_t n;
};

static const struct kb_field routine_extra_fields[] = {
	KB_FILE_FIELD(struct routine_extra, overhead, BOOL, 0, NULL, 0),
	KB_FILE_OPT(struct routine_extra, n, U32, has_n, KB_NULL_READ),
	{ NULL }
};

struct run_extra {
	char side[16], status[16];
};

static const struct kb_field run_extra_fields[] = {
	KB_FILE_FIELD(struct run_extra, side, STR, 0, NULL, 0),
	KB_FILE_FIELD(struct run_extra, status, STR, 0, NULL, 0),
	{ NULL }
};

/* "partial": why a run has fewer samples than asked (RESULTS.md) */
struct partial_extra {
	char reason[32];
	uint32_t samples_asked, samples_taken;
};

static const struct kb_field partial_fields[] = {
	KB_FILE_FIELD(struct partial_extra, reason, STR, 0, NULL, 0),
	KB_FILE_FIELD(struct partial_extra, samples_asked, U32, 0, NULL, 0),
	KB_FILE_FIELD(struct partial_extra, samples_taken, U32, 0, NULL, 0),
	{ NULL }
};

static bool load_meta(struct jp *j, const JO *o, struct kb_meta *m)
{
	const JO *params;
	size_t at;

	if (!load_fields(j, o, kb_meta_fields, m))
		return false;
	params = member(j, o, "module_params", json_type_object, &at);
	if (j->failed)
		return false;
	if (!params)
		return true;
	json_object_object_foreach((JO *)params, key, v) {
		struct kb_meta_param *p;
		size_t at2;
		int64_t x;

		if (m->nparams >= KB_META_PARAMS_MAX)
			break;
		p = &m->param[m->nparams++];
		snprintf(p->name, sizeof(p->name), "%s", key);
		at2 = jp_push(j, key, 0);
		if (!get_int(j, v, 0, INT64_MAX, &x))
			return false;
		p->value = (uint64_t)x;
		jp_pop(j, at2);
	}
	jp_pop(j, at);
	return true;
}

/* Scalars of the environment object, kept as text; the rest skipped. */
static void load_env(const JO *o, struct kb_meta *m)
{
	json_object_object_foreach((JO *)o, key, v) {
		struct kb_meta_env *e = &m->env[m->nenv];

		if (m->nenv == KB_META_ENV_MAX)
			break;
		switch (json_object_get_type(v)) {
		case json_type_string:
			/* an over-long report value: skipped, not fatal */
			if ((size_t)json_object_get_string_len(v) >= sizeof(e->value))
				continue;
			snprintf(e->value, sizeof(e->value), "%s",
				 json_object_get_string(v));
			break;
		case json_type_object:
		case json_type_array:
			continue;
		default:
			/* a scalar as the file has it (json-c keeps the text) */
			snprintf(e->value, sizeof(e->value), "%s",
				 v ? json_object_to_json_string(v) : "null");
		}
		snprintf(e->key, sizeof(e->key), "%s", key);
		m->nenv++;
	}
}

static bool load_request(struct jp *j, const JO *o, struct kb_run_req *q)
{
	int64_t *args = NULL;
	size_t i, n = 0;
	bool ok;

	/* the routines' names are kept by the routines themselves */
	if (!load_fields(j, o, kb_request_fields, q))
		return false;
	ok = ints_member(j, o, "args", &args, &n, 0, INT64_MAX);
	if (ok && n > KBENCH_RUN_ROUTINES_MAX) {
		jp_push(j, "args", 0);
		jp_error(j, "more than %d args", KBENCH_RUN_ROUTINES_MAX);
		ok = false;
	}
	for (i = 0; ok && i < n; i++)
		q->args[i] = (uint64_t)args[i];
	if (ok)
		q->nargs = (unsigned int)n;
	free(args);
	return ok;
}

/* A routine's "summary" (the corrected figures absent for the overhead). */
static bool load_summary(struct jp *j, const JO *o, struct kb_result *res)
{
	return load_fields(j, o, kb_summary_fields, res) &&
	       load_object(j, o, "excluded_by_reason", kb_excl_fields, res);
}

/*
 * "events": {"NAME": {"summary": {...}, "net": [...]}, ...} of a routine,
 * put in the order of the run's event list: each must be one of the run's,
 * with a value per sample.
 */
static bool load_events(struct jp *j, const JO *o, const struct kb_run *r,
			struct kb_result *res)
{
	json_object_object_foreach((JO *)o, name, ev) {
		int idx = kb_run_event_index(r, name);
		struct kb_ev_result *e;
		size_t at = jp_push(j, name, 0);

		if (idx < 0) {
			jp_error(j, "routine '%s': event '%s' is not one of the run's \"events\"",
				 res->routine, name);
			return false;
		}
		if (!want(j, ev, json_type_object, "an object"))
			return false;
		e = &res->ev[idx];
		if (!load_object(j, ev, "summary", kb_ev_fields, e))
			return false;
		if (!ints_member(j, ev, "net", &e->net, &e->n, INT64_MIN,
				 INT64_MAX))
			return false;
		e->cap = e->n;
		/* a "net" there (never NULL, even empty) of the wrong length */
		if (e->net && e->n != res->n) {
			jp_error(j, "routine '%s': event '%s' has not one sample per sample",
				 res->routine, name);
			return false;
		}
		jp_pop(j, at);
	}
	return true;
}

/* "events": [{"name": ..., ...}, ...] of a run into @r->events. */
static bool load_event_descs(struct jp *j, const JO *a, struct kb_run *r)
{
	size_t i, at;

	for (i = 0; i < json_object_array_length(a); i++) {
		const JO *o = json_object_array_get_idx(a, i);
		struct kb_event_desc *e = &r->events[r->nevents];

		at = jp_push(j, NULL, i);
		if (r->nevents == KBENCH_EVENTS_MAX) {
			jp_error(j, "more than %d events", KBENCH_EVENTS_MAX);
			return false;
		}
		memset(e, 0, sizeof(*e));
		if (!want(j, o, json_type_object, "an object") ||
		    !load_fields(j, o, kb_event_desc_fields, e))
			return false;
		if (!e->name[0]) {
			jp_error(j, "an event without a \"name\"");
			return false;
		}
		r->nevents++;
		jp_pop(j, at);
	}
	return true;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > KBENCH_NAME_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* "sample_flags": {"index": [...], "value": [...]} into @res->sflags. */
static bool load_sample_flags(struct jp *j, const JO *o,
			      struct kb_result *res)
{
	int64_t *idx = NULL, *val = NULL;
	size_t ni = 0, nv = 0, i;
	bool ok = ints_member(j, o, "index", &idx, &ni, 0, INT64_MAX) &&
		  ints_member(j, o, "value", &val, &nv, 1, UINT32_MAX);

	if (ok && ni != nv) {
		jp_error(j, "routine '%s': sample_flags.index holds %zu entries, sample_flags.value %zu",
			 res->routine, ni, nv);
		ok = false;
	}
	for (i = 0; ok && i < ni; i++) {
		if (idx[i] >= (int64_t)res->n || (i && idx[i] <= idx[i - 1])) {
			jp_error(j, "routine '%s': sample_flags.index[%zu] = %lld is %s",
				 res->routine, i, (long long)idx[i],
				 idx[i] >= (int64_t)res->n ? "past the last sample" :
				 "not above the one before");
			ok = false;
		}
	}
	for (i = 0; ok && i < ni; i++)
		res->sflags[idx[i]] = (uint32_t)val[i];
	free(idx);
	free(val);
	return ok;
}

/* A routine of @run: into @res, which the caller frees on failure. */
static bool load_routine(struct jp *j, const JO *o, struct kb_run *run,
			 struct kb_result *res, bool *overhead)
{
	struct routine_extra x = { 0 };
	const JO *v;
	size_t at;

	if (!want(j, o, json_type_object, "an object") ||
	    !load_fields(j, o, kb_result_fields, res) ||
	    !load_fields(j, o, kb_routine_fields, res) ||
	    !load_fields(j, o, routine_extra_fields, &x))
		return false;
	*overhead = x.overhead;
	if (!valid_name(res->routine)) {
		jp_error(j, "routine without a valid \"routine\" name (1-%d characters)",
			 KBENCH_NAME_MAX);
		return false;
	}
	if (!x.has_n || !json_object_object_get_ex(o, "net", NULL)) {
		jp_error(j, "routine '%s' without \"%s\"", res->routine,
			 x.has_n ? "net" : "n");
		return false;
	}
	v = member(j, o, "summary", json_type_object, &at);
	if (j->failed || (v && !load_summary(j, v, res)))
		return false;
	jp_pop(j, at);
	if (!ints_member(j, o, "net", &res->net, &res->n, INT64_MIN, INT64_MAX))
		return false;
	res->cap = res->n;
	if (res->n != x.n) {
		jp_error(j, "routine '%s': \"n\" is %u but \"net\" holds %zu samples",
			 res->routine, x.n, res->n);
		return false;
	}
	res->sflags = calloc(res->n ? res->n : 1, sizeof(*res->sflags));
	if (!res->sflags) {
		jp_error(j, "out of memory");
		return false;
	}
	v = member(j, o, "sample_flags", json_type_object, &at);
	if (j->failed || (v && !load_sample_flags(j, v, res)))
		return false;
	jp_pop(j, at);
	if (!ints_member(j, o, "divisors", &res->divs, &res->ndivs, 0,
			 UINT32_MAX))
		return false;
	if (!divisors_valid(res)) {
		jp_error(j, "routine '%s': \"divisors\" is not a list of (first sample, divisor) pairs in sample order",
			 res->routine);
		return false;
	}
	v = member(j, o, "events", json_type_object, &at);
	if (j->failed || (v && !load_events(j, v, run, res)))
		return false;
	jp_pop(j, at);
	if (!*overhead && run->nres >= KBENCH_RUN_ROUTINES_MAX) {
		jp_error(j, "more than %d routines in one run",
			 KBENCH_RUN_ROUTINES_MAX);
		return false;
	}
	if (*overhead && run->has_overhead) {
		jp_error(j, "two overhead routines in one run");
		return false;
	}
	return true;
}

static void result_free(struct kb_result *res)
{
	unsigned int e;

	free(res->net);
	free(res->sflags);
	free(res->divs);
	for (e = 0; e < KBENCH_EVENTS_MAX; e++)
		free(res->ev[e].net);
}

/*
 * A run's "core" object (--unit core; absent before it): the calibration,
 * a ratio above 0 and chains of LO < HI adds.
 */
static bool load_core(struct jp *j, const JO *o, struct kb_core *c)
{
	const struct kb_core_key *k;
	int64_t n[3];
	unsigned int i;
	size_t at;
	JO *v;

	memset(c, 0, sizeof(*c));
	c->lag1 = NAN;
	c->ci_widen = NAN;	/* absent before it was saved */
	for (k = kb_core_doubles; k->key; k++) {
		if (!json_object_object_get_ex(o, k->key, &v) || !v)
			continue;
		at = jp_push(j, k->key, 0);
		if (!json_object_is_type(v, json_type_double) &&
		    !want(j, v, json_type_int, "a number"))
			return false;
		*(double *)((char *)c + k->offset) = json_object_get_double(v);
		jp_pop(j, at);
	}
	for (k = kb_core_ints, i = 0; k->key; k++, i++) {
		if (!json_object_object_get_ex(o, k->key, &v)) {
			jp_error(j, "no \"%s\"", k->key);
			return false;
		}
		at = jp_push(j, k->key, 0);
		if (!get_int(j, v, 1, i ? KBENCH_ADD_N_MAX : INT64_MAX, &n[i]))
			return false;
		jp_pop(j, at);
	}
	c->rounds = (uint64_t)n[0];
	c->lo_adds = (uint32_t)n[1];
	c->hi_adds = (uint32_t)n[2];
	if (!(c->ratio > 0) || !isfinite(c->ratio) || c->lo_adds >= c->hi_adds) {
		jp_error(j, "not a calibration: \"ticks_per_cycle\" %g (above 0), \"lo_adds\" %u below \"hi_adds\" %u",
			 c->ratio, c->lo_adds, c->hi_adds);
		return false;
	}
	c->have = true;
	return true;
}

static bool load_run(struct jp *j, const JO *o, struct kb_saved_run *s)
{
	struct run_extra x = { "kernel", "complete" };
	struct partial_extra p = { "", 0, 0 };
	struct kb_run *r = &s->run;
	const JO *a, *v;
	size_t i, at;

	if (!want(j, o, json_type_object, "an object") ||
	    !load_fields(j, o, kb_run_fields, r) ||
	    !load_fields(j, o, kb_run_file_fields, r) ||
	    !load_fields(j, o, kb_saved_run_fields, s) ||
	    !load_fields(j, o, run_extra_fields, &x) ||
	    !load_object(j, o, "partial", partial_fields, &p))
		return false;
	v = member(j, o, "request", json_type_object, &at);
	if (j->failed || (v && !load_request(j, v, &s->req)))
		return false;
	jp_pop(j, at);
	/* the event list first: the routines' events are ordered by it */
	v = member(j, o, "events", json_type_array, &at);
	if (j->failed || (v && !load_event_descs(j, v, r)))
		return false;
	jp_pop(j, at);
	a = member(j, o, "routines", json_type_array, &at);
	if (j->failed)
		return false;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		const JO *ro = json_object_array_get_idx(a, i);
		struct kb_result tmp;
		bool overhead = false;
		size_t at2 = jp_push(j, NULL, i);

		memset(&tmp, 0, sizeof(tmp));
		if (!load_routine(j, ro, r, &tmp, &overhead)) {
			result_free(&tmp);
			return false;
		}
		if (overhead) {
			r->overhead = tmp;
			r->has_overhead = true;
		} else {
			r->res[r->nres++] = tmp;
		}
		jp_pop(j, at2);
	}
	jp_pop(j, at);
	v = member(j, o, "core", json_type_object, &at);
	if (j->failed || (v && !load_core(j, v, &r->core)))
		return false;
	jp_pop(j, at);
	kb_run_correct_events(r);
	if (!strcmp(x.side, "user"))
		r->user = true;
	else if (strcmp(x.side, "kernel")) {
		jp_error(j, "\"side\" is '%s', not 'kernel' or 'user'", x.side);
		return false;
	}
	if (!strcmp(x.status, "timeout"))
		r->status = KBENCH_RUN_TIMEOUT;
	/* a reason this version does not know leaves the run as it reads */
	if (!strcmp(x.status, "interrupted") || !strcmp(p.reason, "interrupted"))
		r->interrupted = true;
	for (i = 0; i < r->nres; i++)
		s->req.names[i] = r->res[i].routine;
	s->req.n = r->nres;
	for (i = 0; i < r->nevents; i++)
		s->req.events[i] = r->events[i].name;
	s->req.nevents = r->nevents;
	return true;
}

static bool load_top(struct jp *j, const JO *top, struct kb_resfile *rf)
{
	JO *format = NULL, *version;
	const JO *runs, *v;
	int64_t ver;
	size_t i, at;

	if (!json_object_object_get_ex(top, "format", &format) ||
	    !json_object_is_type(format, json_type_string)) {
		jp_error(j, "not a kbench result file (no \"format\": \"%s\"; 'kbenchctl run --json' output cannot be compared: save with --save)",
			 KB_RESFILE_FORMAT);
		return false;
	}
	if (strcmp(json_object_get_string(format), KB_RESFILE_FORMAT)) {
		jp_error(j, "not a kbench result file (format '%.64s', want '%s')",
			 json_object_get_string(format), KB_RESFILE_FORMAT);
		return false;
	}
	if (!json_object_object_get_ex(top, "version", &version)) {
		jp_error(j, "no \"version\" key");
		return false;
	}
	at = jp_push(j, "version", 0);
	if (!get_int(j, version, 0, INT64_MAX, &ver))
		return false;
	if (ver > KB_RESFILE_VERSION || ver < 1) {
		jp_error(j, "result format version %lld; this kbenchctl (%s) reads versions 1 to %d%s",
			 (long long)ver, KBENCHCTL_VERSION, KB_RESFILE_VERSION,
			 ver > KB_RESFILE_VERSION ?
			 ": written by a newer kbenchctl, upgrade to read it" : "");
		return false;
	}
	jp_pop(j, at);
	v = member(j, top, "meta", json_type_object, &at);
	if (j->failed || (v && !load_meta(j, v, &rf->meta)))
		return false;
	jp_pop(j, at);
	v = member(j, top, "environment", json_type_object, &at);
	if (j->failed)
		return false;
	if (v) {
		load_env(v, &rf->meta);
		jp_pop(j, at);
	}
	runs = member(j, top, "runs", json_type_array, &at);
	if (j->failed)
		return false;
	if (!runs) {
		jp_error(j, "no \"runs\" array");
		return false;
	}
	rf->runs = calloc(json_object_array_length(runs) ?
			  json_object_array_length(runs) : 1, sizeof(*rf->runs));
	if (!rf->runs) {
		jp_error(j, "out of memory");
		return false;
	}
	for (i = 0; i < json_object_array_length(runs); i++) {
		size_t at2 = jp_push(j, NULL, i);

		v = json_object_array_get_idx(runs, i);
		/* counted before loading: freed even if half-loaded */
		rf->nruns++;
		if (!load_run(j, v, &rf->runs[i]))
			return false;
		jp_pop(j, at2);
	}
	return true;
}

/* A parse error at byte @off: "file:LINE:COLUMN: what". */
static void syntax_error(struct jp *j, const char *buf, size_t off,
			 const char *what)
{
	size_t line = 1, col = 1, i;

	for (i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(j->err, j->errlen, "%s:%zu:%zu: %s", j->name, line, col, what);
	j->failed = true;
}

int kb_resfile_parse(const char *buf, size_t len, const char *name,
		     struct kb_resfile *rf, char *err, size_t errlen)
{
	struct jp j = { .name = name, .err = err, .errlen = errlen };
	enum json_tokener_error jerr;
	struct json_tokener *tok;
	JO *top;
	size_t i = 0, end;

	memset(rf, 0, sizeof(*rf));
	if (errlen)
		err[0] = '\0';
	while (i < len && buf[i] && strchr(" \t\r\n", buf[i]))
		i++;
	if (i == len) {
		jp_error(&j, "empty file: not a kbench result");
		return -EINVAL;
	}
	if (buf[i] != '{') {
		unsigned char c = (unsigned char)buf[i];

		if (c >= 0x20 && c < 0x7f)
			jp_error(&j, "not a kbench result file (not a JSON object: starts with '%c')", c);
		else
			jp_error(&j, "not a kbench result file (not a JSON object: starts with byte 0x%02x)", c);
		return -EINVAL;
	}
	if (len > KB_RESFILE_MAX_BYTES) {
		jp_error(&j, "larger than a result file may be");
		return -EFBIG;
	}
	/*
	 * Strict JSON (no trailing commas or leading zeros, no data after
	 * the object), nesting bounded; integers stay integers (a fraction
	 * is a double) of up to 64 bits.  Strings are taken as bytes, as
	 * before json-c: validating UTF-8 cost 20 ms a million samples.
	 */
	tok = json_tokener_new_ex(JP_DEPTH_MAX);
	if (!tok) {
		jp_error(&j, "out of memory");
		return -ENOMEM;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	top = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (jerr == json_tokener_success && end < len)
		jerr = json_tokener_error_parse_unexpected;
	if (jerr != json_tokener_success) {
		json_object_put(top);
		syntax_error(&j, buf, end,
			     jerr == json_tokener_continue ?
			     "unexpected end of the file (truncated?)" :
			     jerr == json_tokener_error_depth ?
			     "nested more than 64 deep" :
			     json_tokener_error_desc(jerr));
		return -EINVAL;
	}
	if (!load_top(&j, top, rf)) {
		json_object_put(top);
		kb_resfile_free(rf);
		return -EINVAL;
	}
	json_object_put(top);
	return 0;
}

void kb_resfile_free(struct kb_resfile *rf)
{
	size_t i;

	for (i = 0; i < rf->nruns; i++)
		kb_run_free(&rf->runs[i].run);
	free(rf->runs);
	memset(rf, 0, sizeof(*rf));
}

int kb_resfile_load(const char *arg, struct kb_resfile *rf, char *err,
		    size_t errlen)
{
	char path[4096], why[256], *buf, *b2;
	size_t len = 0, cap = 1 << 16;
	uint64_t t0 = kb_mono_ns();
	struct stat st;
	bool is_name;
	ssize_t n = 0;
	int fd, ret;

	memset(rf, 0, sizeof(*rf));
	ret = kb_resfile_path(arg, path, sizeof(path), &is_name, why,
			      sizeof(why));
	if (ret) {
		snprintf(err, errlen, "result '%s': %s", arg, why);
		return ret;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (is_name && ret == -ENOENT)
			snprintf(err, errlen, "no saved result '%s' (looked for %s; 'kbenchctl run ROUTINE --save %s' writes it)",
				 arg, path, arg);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory (name a result file in it; 'kbenchctl history %s' reads every *.json in it)",
			 path, path);
		ret = -EISDIR;
		goto out_close;
	}
	if (S_ISREG(st.st_mode))
		cap = (size_t)st.st_size + 1;
	if ((uint64_t)cap > KB_RESFILE_MAX_BYTES) {
		snprintf(err, errlen, "%s: %lld bytes, more than a result file may have (%llu)",
			 path, (long long)st.st_size,
			 (unsigned long long)KB_RESFILE_MAX_BYTES);
		ret = -EFBIG;
		goto out_close;
	}
	/* a regular file in one read; a pipe's in a doubling buffer */
	buf = malloc(cap);
	while (buf) {
		if (len == cap) {
			ret = cap < KB_RESFILE_MAX_BYTES ? -ENOMEM : -EFBIG;
			b2 = ret == -ENOMEM ? realloc(buf, cap * 2) : NULL;
			if (!b2) {
				snprintf(err, errlen, "%s: %s", path,
					 ret == -ENOMEM ? "out of memory" :
					 "larger than a result file may be");
				goto out_free;
			}
			buf = b2;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		ret = -ENOMEM;
		goto out_close;
	}
	if (n < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out_free;
	}
	ret = kb_resfile_parse(buf, len, path, rf, err, errlen);
	if (!ret && getenv("KBENCH_TIMING"))
		fprintf(stderr, "%s: loaded %s (%zu bytes) in %.1f ms\n", prog,
			path, len, (double)(kb_mono_ns() - t0) / 1e6);
out_free:
	free(buf);
out_close:
	close(fd);
	return ret;
}
