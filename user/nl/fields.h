/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink attributes into the fields of a schema table (model/schema.h).
 */
#ifndef KBENCHCTL_FIELDS_H
#define KBENCHCTL_FIELDS_H

#include <netlink/attr.h>

#include "schema.h"

/*
 * Every field of @table with an attribute, from @tb into @obj: absent
 * numbers are 0 (and a field with a presence bool absent), absent
 * strings "?".
 */
void kb_fields_parse(const struct kb_field *table, struct nlattr **tb,
		     void *obj);

#endif /* KBENCHCTL_FIELDS_H */
