/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl samples (samples.c).
 */
#ifndef KBENCHCTL_SAMPLES_H
#define KBENCHCTL_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>

/* One sample line of `samples` (CSV, table or JSON); exposed for tests. */
void kb_sample_emit(bool csv, uint64_t index, const char *routine,
		    uint32_t routine_index, int64_t net, uint32_t flags);

#endif /* KBENCHCTL_SAMPLES_H */
