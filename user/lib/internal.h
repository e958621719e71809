/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkbench internals: what counter.c gives measure.c.
 */
#ifndef KBENCH_LIB_INTERNAL_H
#define KBENCH_LIB_INTERNAL_H

#include <kbench/engine.h>

#define KB_EXPORT __attribute__((visibility("default")))

/*
 * The counter for @name (NULL: $KBENCH_COUNTER, else the first usable row
 * of the preference list), probed; NULL with errno ENOENT (no such name)
 * or ENODEV (not usable here).
 */
const struct kbench_counter *kb_counter_pick(const char *name);

#endif /* KBENCH_LIB_INTERNAL_H */
