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

/*
 * The hypervisor as kbench.ko reports it (enum kbench_hypervisor), seen
 * from userspace, from what each source says ("" where it says nothing):
 * @cpuid the x86 CPUID leaf 0x40000000 signature (only when the CPU's
 * hypervisor bit is set), @sys_type /sys/hypervisor/type, @dmi_vendor and
 * @dmi_product /sys/class/dmi/id/sys_vendor and product_name.  @vendor
 * gets the name to show ("KVMKVMKVM", "xen", "QEMU").  @x86_bare: on x86
 * with the hypervisor bit clear (the kernel's "none" whatever DMI says).
 */
uint32_t kb_hypervisor_classify(const char *cpuid, const char *sys_type,
				const char *dmi_vendor, const char *dmi_product,
				char *vendor, size_t len);
/* The same, read from this machine. */
uint32_t kb_hypervisor_detect(char *vendor, size_t len);

#endif /* KBENCHCTL_META_H */
