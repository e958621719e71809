// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor seen from userspace (hyper.h): the CPU's word, sysfs and
 * DMI, judged as the kernel judges them.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <linux/kbench.h>
#include "hyper.h"
#include "sysfs.h"

/* DMI strings of virtual machines: a word of sys_vendor or product_name */
static const struct {
	const char *word;
	uint32_t type;
} dmi_hypervisors[] = {
	{ "KVM", KBENCH_HYPERVISOR_KVM },	/* "KVM Virtual Machine", Red Hat */
	{ "Google Compute Engine", KBENCH_HYPERVISOR_KVM },
	{ "Xen", KBENCH_HYPERVISOR_XEN },
	{ "HVM domU", KBENCH_HYPERVISOR_XEN },
	{ "VMware", KBENCH_HYPERVISOR_VMWARE },
	{ "Virtual Machine", KBENCH_HYPERVISOR_HYPERV },	/* Microsoft's */
	{ "QEMU", KBENCH_HYPERVISOR_OTHER },
	{ "VirtualBox", KBENCH_HYPERVISOR_OTHER },
	{ "Amazon EC2", KBENCH_HYPERVISOR_OTHER },
	{ "BHYVE", KBENCH_HYPERVISOR_OTHER },
	{ "Parallels", KBENCH_HYPERVISOR_OTHER },
	{ "OpenStack", KBENCH_HYPERVISOR_OTHER },
	{ "Firecracker", KBENCH_HYPERVISOR_OTHER },
};

uint32_t kb_hypervisor_classify(const char *cpuid, const char *sys_type,
				const char *dmi_vendor, const char *dmi_product,
				char *vendor, size_t len)
{
	size_t i;

	vendor[0] = '\0';
	/* the CPU's own word first, as the kernel's x86_hyper_type */
	if (cpuid[0]) {
		snprintf(vendor, len, "%s", cpuid);
		if (!strcmp(cpuid, "KVMKVMKVM"))
			return KBENCH_HYPERVISOR_KVM;
		if (!strcmp(cpuid, "XenVMMXenVMM"))
			return KBENCH_HYPERVISOR_XEN;
		if (!strcmp(cpuid, "Microsoft Hv"))
			return KBENCH_HYPERVISOR_HYPERV;
		if (!strcmp(cpuid, "VMwareVMware"))
			return KBENCH_HYPERVISOR_VMWARE;
		return KBENCH_HYPERVISOR_OTHER;
	}
	if (sys_type[0]) {
		snprintf(vendor, len, "%s", sys_type);
		return !strcmp(sys_type, "xen") ? KBENCH_HYPERVISOR_XEN :
		       KBENCH_HYPERVISOR_OTHER;
	}
	for (i = 0; i < sizeof(dmi_hypervisors) / sizeof(dmi_hypervisors[0]); i++) {
		const char *w = dmi_hypervisors[i].word;

		if (strstr(dmi_product, w) || strstr(dmi_vendor, w)) {
			snprintf(vendor, len, "%s", strstr(dmi_product, w) ?
				 dmi_product : dmi_vendor);
			return dmi_hypervisors[i].type;
		}
	}
	return KBENCH_HYPERVISOR_NONE;
}

uint32_t kb_hypervisor_detect(char *vendor, size_t len)
{
	char cpuid[16] = "", sys_type[32] = "", dv[64] = "", dp[64] = "";

#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	/*
	 * CPUID.1:ECX[31] is set by hypervisors (qemu's TCG too); leaf
	 * 0x40000000 holds the vendor only then.  Clear: bare metal, as the
	 * kernel judges it, whatever DMI says.  Not asked when the files
	 * describe another machine (a moved sysfs root: the unit tests).
	 */
	if (kb_sys_root_moved())
		goto files;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1U << 31))) {
		vendor[0] = '\0';
		return KBENCH_HYPERVISOR_NONE;
	}
	__cpuid(0x40000000, a, b, c, d);
	memcpy(cpuid, &b, 4);
	memcpy(cpuid + 4, &c, 4);
	memcpy(cpuid + 8, &d, 4);
	cpuid[12] = '\0';
	for (a = 0; cpuid[a]; a++)
		if (!isprint((unsigned char)cpuid[a]))
			cpuid[a] = '?';
	if (!cpuid[0])
		snprintf(cpuid, sizeof(cpuid), "unknown");
files:
#endif
	kb_sys_read("/sys/hypervisor/type", sys_type, sizeof(sys_type));
	kb_sys_read("/sys/class/dmi/id/sys_vendor", dv, sizeof(dv));
	kb_sys_read("/sys/class/dmi/id/product_name", dp, sizeof(dp));
	return kb_hypervisor_classify(cpuid, sys_type, dv, dp, vendor, len);
}
