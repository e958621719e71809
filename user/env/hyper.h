/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor seen from userspace as kbench.ko sees it (hyper.c), for
 * the environment report of a run without the module (--user).
 */
#ifndef KBENCHCTL_HYPER_H
#define KBENCHCTL_HYPER_H

#include <stddef.h>
#include <stdint.h>

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

#endif /* KBENCHCTL_HYPER_H */
