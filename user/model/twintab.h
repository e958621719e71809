/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row of a table of userspace twins: the arithmetic built-ins' (twin.c)
 * and the baseline's primitives' (uprims.c).  A header without a .c of
 * its own, so that the tables do not depend on each other.
 */
#ifndef KBENCHCTL_TWINTAB_H
#define KBENCHCTL_TWINTAB_H

#include <stdint.h>

struct kb_twin {
	const char *name;
	const char *desc;
	void (*run)(unsigned int iterations, void *data);
	unsigned int insns;	/* instructions per iteration (+ the argument) */
	/* its argument, as the kernel routine's (NULL: none) */
	const char *arg_name;
	uint64_t arg_min, arg_max, arg_def;
	/* a contention routine's data on the c-th CPU of a run (NULL: none) */
	void *(*data)(unsigned int c);
	void *ptr;		/* else its data, when not NULL */
};

/* the CPUs a concurrent run of the twins may have */
#define KB_TWIN_CPUS_MAX	1024

#endif /* KBENCHCTL_TWINTAB_H */
