// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the ABI's flag bits.
 */
#include <stdio.h>
#include <string.h>

#include <linux/kbench.h>

#include "names.h"

const struct kb_flag_name kb_counter_flag_names[] = {
	{ KBENCH_COUNTER_F_CONSTANT, "constant" },
	{ KBENCH_COUNTER_F_NONSTOP, "nonstop" },
	{ KBENCH_COUNTER_F_RELIABLE, "reliable" },
	{ KBENCH_COUNTER_F_ORDERED, "ordered" },
	{ 0, NULL }
};

/* the reasons a sample is excluded for (<kbench/schema.h>) */
const struct kb_flag_name kb_sample_flag_names[] = {
#define KBENCH_EXCL(bit, id, key, flag, attr) { flag, key },
#include <kbench/schema.h>
	{ 0, NULL }
};

const struct kb_flag_name kb_result_flag_names[] = {
	{ KBENCH_RESULT_F_CLAMPED, "clamped" },
	{ KBENCH_RESULT_F_EXCLUDED, "excluded" },
	{ 0, NULL }
};

const struct kb_flag_name kb_routine_flag_names[] = {
	{ KBENCH_ROUTINE_F_BUILTIN, "builtin" },
	{ KBENCH_ROUTINE_F_USER_TWIN, "user_twin" },
	{ KBENCH_ROUTINE_F_SETUP, "setup" },
	{ 0, NULL }
};

void kb_flag_names(const struct kb_flag_name *t, uint32_t v, const char *sep,
		   char *buf, size_t len)
{
	size_t used = 0;
	uint32_t known = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (; t->name; t++) {
		known |= t->bit;
		if (!(v & t->bit))
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s", used ? sep : "", t->name);
	}
	if (v & ~known)
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
					 "%s0x%x", used ? sep : "", v & ~known);
}
