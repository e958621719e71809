/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace counterparts of the kernel's primitives (kbenchctl
 * baseline --user): the u_* twins, a table like kb_twins[].
 */
#ifndef KBENCHCTL_UPRIMS_H
#define KBENCHCTL_UPRIMS_H

#include "twintab.h"

/* ends with a row whose name is NULL */
extern const struct kb_twin kb_uprims[];

#endif /* KBENCHCTL_UPRIMS_H */
