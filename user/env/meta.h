/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small facts of the machine for a saved result's metadata and the events
 * report (meta.c; the metadata itself: results/resfile.h).
 */
#ifndef KBENCHCTL_META_H
#define KBENCHCTL_META_H

#include <stddef.h>
#include <stdint.h>

/* First line of @path without its newline, or "" (absent, unreadable). */
void kb_read_line(const char *path, char *buf, size_t len);
/*
 * The hypervisor this runs under (x86: CPUID's vendor, "KVMKVMKVM",
 * "TCGTCGTCGTCG"; else /sys/hypervisor/type or the device tree), "" if
 * none is seen.
 */
void kb_hypervisor(char *buf, size_t len);

#endif /* KBENCHCTL_META_H */
