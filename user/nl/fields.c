// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink attributes into schema fields (see fields.h).
 */
#include <stdio.h>

#include "fields.h"
#include "nl.h"

void kb_fields_parse(const struct kb_field *table, struct nlattr **tb,
		     void *obj)
{
	const struct kb_field *f;

	for (f = table; f->key; f++) {
		struct nlattr *a = f->attr ? tb[f->attr] : NULL;

		if (!f->attr)
			continue;
		switch (f->type) {
		case KB_FT_STR:
			snprintf(kb_field_str(f, obj), f->size, "%s",
				 kb_str(a, "?"));
			break;
		case KB_FT_U32:
		case KB_FT_BOOL32:
			kb_field_set(f, obj, kb_u32(a, 0), 0);
			break;
		case KB_FT_U64:
			kb_field_set(f, obj, kb_u64(a, 0), 0);
			break;
		case KB_FT_S64:
			kb_field_set(f, obj, (uint64_t)kb_s64(a, 0),
				     kb_s64(a, 0) < 0);
			break;
		default:	/* saved files' types: no attribute */
			break;
		}
		if (!a && f->has)
			*(bool *)((char *)obj + f->has) = false;
	}
}
