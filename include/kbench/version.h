/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench's version, the one place it is written: the module's
 * (MODULE_VERSION, INFO), kbenchctl's (-V, saved results), libkbench's
 * and the package's (the top Makefile and user/lib/Makefile read it here).
 */
#ifndef _KBENCH_VERSION_H
#define _KBENCH_VERSION_H

#define KBENCH_VERSION		"1.0.0"

#endif /* _KBENCH_VERSION_H */
