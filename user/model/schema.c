// SPDX-License-Identifier: GPL-2.0
/*
 * The field tables' accessors (schema.h); the tables of the result's
 * structs are expanded from the lists in result.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "schema.h"

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
