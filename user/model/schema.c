// SPDX-License-Identifier: GPL-2.0
/*
 * The field tables of schema.h, expanded from the lists.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "result.h"
#include "schema.h"

#define FIELD(type_, key, t, m, attr_, fmt_, has_)			\
	{ key, KB_FT_##t, offsetof(type_, m),				\
	  sizeof(((type_ *)0)->m), attr_, fmt_, has_, NULL, 0 }

#define RUN_FIELD(m, t, attr, fmt) \
	FIELD(struct kb_run, #m, t, m, attr, fmt, 0),
const struct kb_field kb_run_fields[] = {
	KB_RUN_FIELDS(RUN_FIELD)
	{ NULL }
};

#define RESULT_FIELD(m, t, attr) \
	FIELD(struct kb_result, #m, t, m, attr, NULL, 0),
/* an optional one: null in a saved file, as not there */
#define RESULT_OPT(m, t, attr, has) \
	{ #m, KB_FT_##t, offsetof(struct kb_result, m), \
	  sizeof(((struct kb_result *)0)->m), attr, NULL, \
	  offsetof(struct kb_result, has), NULL, KB_NULL_READ },
const struct kb_field kb_result_fields[] = {
	KB_RESULT_FIELDS(RESULT_FIELD, RESULT_OPT)
	{ NULL }
};

const struct kb_field kb_summary_fields[] = {
#define KBENCH_COUNT(m, sum, attr) \
	FIELD(struct kb_result, #m, U32, m, attr, NULL, 0),
#define KBENCH_SERIES(m, sum, attr, ev_attr) \
	FIELD(struct kb_result, #m, S64, m, attr, NULL, 0),
#define KBENCH_CORR(m, sum, attr) \
	FIELD(struct kb_result, #m, S64, m, attr, NULL, \
	      offsetof(struct kb_result, has_corr)),
#include <kbench/schema.h>
	{ NULL }
};

const struct kb_field kb_ev_fields[] = {
#define KBENCH_SERIES(m, sum, attr, ev_attr) \
	FIELD(struct kb_ev_result, #m, S64, m, ev_attr, NULL, 0),
#define KBENCH_CORR(m, sum, attr) \
	FIELD(struct kb_ev_result, #m, S64, m, 0, NULL, 0),
#include <kbench/schema.h>
	{ NULL }
};

const struct kb_field kb_excl_fields[] = {
#define KBENCH_EXCL(bit, id, key, flag, attr) \
	FIELD(struct kb_result, key, U32, excl[bit], attr, NULL, 0),
#include <kbench/schema.h>
	{ NULL }
};

const char *const kb_excl_key[KB_EXCL_N] = {
#define KBENCH_EXCL(bit, id, key, flag, attr) [bit] = key,
#include <kbench/schema.h>
};

const struct kb_field *kb_field_find(const struct kb_field *table,
				     const char *key)
{
	for (; table->key; table++)
		if (!strcmp(table->key, key))
			return table;
	return NULL;
}

int kb_field_present(const struct kb_field *f, const void *obj)
{
	return !f->has || *(const bool *)((const char *)obj + f->has);
}

void kb_field_set_present(const struct kb_field *f, void *obj)
{
	if (f->has)
		*(bool *)((char *)obj + f->has) = true;
}

uint64_t kb_field_u64(const struct kb_field *f, const void *obj)
{
	const char *p = (const char *)obj + f->offset;
	uint32_t u32;
	uint64_t u64;

	if (f->type == KB_FT_U32 || f->type == KB_FT_BOOL32) {
		memcpy(&u32, p, sizeof(u32));
		return u32;
	}
	memcpy(&u64, p, sizeof(u64));
	return u64;
}

int64_t kb_field_s64(const struct kb_field *f, const void *obj)
{
	return (int64_t)kb_field_u64(f, obj);
}

int kb_field_set(const struct kb_field *f, void *obj, uint64_t v, int neg)
{
	char *p = (char *)obj + f->offset;
	uint32_t u32 = (uint32_t)v;

	switch (f->type) {
	case KB_FT_U32:
	case KB_FT_BOOL32:
		if (neg || v > (f->type == KB_FT_BOOL32 ? 1 : UINT32_MAX))
			return -ERANGE;
		memcpy(p, &u32, sizeof(u32));
		break;
	case KB_FT_U64:
		if (neg)
			return -ERANGE;
		memcpy(p, &v, sizeof(v));
		break;
	case KB_FT_S64:
		if (!neg && v > INT64_MAX)
			return -ERANGE;
		memcpy(p, &v, sizeof(v));
		break;
	default:
		return -EINVAL;
	}
	kb_field_set_present(f, obj);
	return 0;
}

char *kb_field_str(const struct kb_field *f, void *obj)
{
	return (char *)obj + f->offset;
}
