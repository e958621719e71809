/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the ABI's flag bits, for tables, JSON and CSV.
 */
#ifndef KBENCHCTL_NAMES_H
#define KBENCHCTL_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct kb_flag_name {
	uint32_t bit;
	const char *name;
};

extern const struct kb_flag_name kb_counter_flag_names[];
/* in bit order: entry i names bit i (KB_EXCL_* in result.h) */
extern const struct kb_flag_name kb_sample_flag_names[];
extern const struct kb_flag_name kb_result_flag_names[];
extern const struct kb_flag_name kb_routine_flag_names[];

/* Names of the bits set in @v joined by @sep ("" if none); unknown as 0x.. */
void kb_flag_names(const struct kb_flag_name *t, uint32_t v, const char *sep,
		   char *buf, size_t len);

#endif /* KBENCHCTL_NAMES_H */
