/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run measured in the kernel or by the userspace twins (measure.c).
 */
#ifndef KBENCHCTL_MEASURE_H
#define KBENCHCTL_MEASURE_H

#include <stdbool.h>

#include "result.h"


#endif /* KBENCHCTL_MEASURE_H */
