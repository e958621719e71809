/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The baseline suite (kbenchctl baseline): the kernel's primitives
 * (routines prim_* of the companion module kbench_prims.ko) and their
 * userspace counterparts (the u_* twins, uprims.c), one row each, by
 * category, with what changes the figure and why a row can be missing.
 */
#ifndef KBENCHCTL_PRIMS_H
#define KBENCHCTL_PRIMS_H

#include <stdbool.h>
#include <stddef.h>

/* The companion module and the prefix of its routines. */
#define KB_PRIMS_MODULE		"kbench_prims"
#define KB_PRIMS_PREFIX		"prim_"

struct kb_prim {
	const char *category;
	const char *name;	/* the row: "spin_lock" */
	const char *kernel;	/* its kernel routine, or NULL (userspace only) */
	const char *user;	/* its userspace twin, or NULL (kernel only) */
	const char *configs;	/* what changes the kernel's figure */
	/* why kbench_prims may not register it, and how to get it (or NULL) */
	const char *absent;
};

extern const struct kb_prim kb_prims[];
extern const size_t kb_prims_n;

/*
 * Does @p match @pattern: a comma-separated list of shell globs, each
 * against the row's name, its category and its routines' names?  NULL or
 * "" matches every row.
 */
bool kb_prim_match(const struct kb_prim *p, const char *pattern);

/*
 * Calls of the primitive in one iteration of @p's kernel routine (1 but
 * for get_random_u32/u64, which take a whole per-CPU batch): the figure
 * per call is the iteration's divided by it.
 */
unsigned int kb_prim_kernel_calls(const struct kb_prim *p);

/*
 * Does running @p at once on several CPUs contend it (baseline --cpus)?
 * The locking, atomics and refcount rows: kbench_prims.ko and uprims.c
 * give each one lock, atomic_t or refcount_t shared by every CPU.  The
 * others work on per-CPU or read-only data, or (the copies) write one
 * buffer that no real caller would share: they are measured alone.
 */
bool kb_prim_contended(const struct kb_prim *p);

/* The rows' categories, in table order: names, how many. */
size_t kb_prim_categories(const char **out, size_t max);

#endif /* KBENCHCTL_PRIMS_H */
