// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: what the running kernel knows that can distort a measurement
 * (INFO's environment): the debug options that add work to kernel code,
 * the preemption model, HZ, the hypervisor the kernel detected and
 * whether NMIs can run inside windows (arm64's pseudo-NMIs).
 *
 * Only facts the kernel alone can tell are here.  What sysfs and procfs
 * show to everyone (cpufreq, SMT, isolation, interrupts, the NMI
 * watchdog) kbenchctl reads itself, and so is slub_debug: no exported
 * symbol says whether it is on, and struct kmem_cache is private to mm/
 * since 6.2, so kbenchctl reads /sys/kernel/slab.
 */
#include <linux/debug_locks.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <net/genetlink.h>

#if defined(CONFIG_X86)
#include <asm/hypervisor.h>
#include <linux/processor.h>
#elif defined(CONFIG_ARM64)
#include <linux/arm-smccc.h>
#include <xen/xen.h>
#elif defined(CONFIG_PPC64)
#include <asm/firmware.h>
#endif

#include "kbench_internal.h"

/* Set once at load: the hypervisor cannot change under a running kernel. */
static u32 kbench_hypervisor;
static char kbench_hypervisor_vendor[40];

/* The debug options compiled into this kernel (the module shares its config). */
static u32 kbench_env_debug(void)
{
	static const struct {
		bool on;
		u32 flag;
	} opts[] = {
		{ IS_ENABLED(CONFIG_LOCKDEP), KBENCH_DEBUG_F_LOCKDEP },
		{ IS_ENABLED(CONFIG_PROVE_LOCKING), KBENCH_DEBUG_F_PROVE_LOCKING },
		{ IS_ENABLED(CONFIG_DEBUG_ATOMIC_SLEEP),
		  KBENCH_DEBUG_F_DEBUG_ATOMIC_SLEEP },
		{ IS_ENABLED(CONFIG_DEBUG_PREEMPT), KBENCH_DEBUG_F_DEBUG_PREEMPT },
		{ IS_ENABLED(CONFIG_KASAN), KBENCH_DEBUG_F_KASAN },
		{ IS_ENABLED(CONFIG_KCSAN), KBENCH_DEBUG_F_KCSAN },
		{ IS_ENABLED(CONFIG_KMSAN), KBENCH_DEBUG_F_KMSAN },
		{ IS_ENABLED(CONFIG_UBSAN), KBENCH_DEBUG_F_UBSAN },
		{ IS_ENABLED(CONFIG_KCOV), KBENCH_DEBUG_F_KCOV },
		{ IS_ENABLED(CONFIG_DEBUG_PAGEALLOC),
		  KBENCH_DEBUG_F_DEBUG_PAGEALLOC },
		{ IS_ENABLED(CONFIG_DEBUG_OBJECTS), KBENCH_DEBUG_F_DEBUG_OBJECTS },
		{ IS_ENABLED(CONFIG_SLUB_DEBUG_ON), KBENCH_DEBUG_F_SLUB_DEBUG_ON },
		{ IS_ENABLED(CONFIG_DEBUG_KMEMLEAK), KBENCH_DEBUG_F_KMEMLEAK },
		{ IS_ENABLED(CONFIG_DEBUG_SPINLOCK),
		  KBENCH_DEBUG_F_DEBUG_SPINLOCK },
		{ IS_ENABLED(CONFIG_LOCK_STAT), KBENCH_DEBUG_F_LOCK_STAT },
	};
	u32 flags = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opts); i++)
		if (opts[i].on)
			flags |= opts[i].flag;
	return flags;
}

/*
 * Of @debug, the options in effect now.  Lockdep turns itself off at its
 * first report (debug_locks = 0): its hooks then return at once.
 * debug_pagealloc costs nothing unless enabled at boot.  slub_debug is
 * unknown here (see the top of the file), the others cannot be turned off.
 */
static u32 kbench_env_debug_active(u32 debug)
{
	u32 active = debug & ~KBENCH_DEBUG_F_SLUB_DEBUG_ON;

	if (!READ_ONCE(debug_locks))
		active &= ~(KBENCH_DEBUG_F_LOCKDEP |
			    KBENCH_DEBUG_F_PROVE_LOCKING);
	if (!debug_pagealloc_enabled())
		active &= ~KBENCH_DEBUG_F_DEBUG_PAGEALLOC;
	return active;
}

/*
 * The preemption model now.  With PREEMPT_DYNAMIC the preempt_model_*()
 * accessors read the mode chosen at boot (preempt=) or since (debugfs);
 * without it they are constants.  PREEMPT_RT kernels without dynamic
 * preemption answer false to all of none/voluntary/full, and are fully
 * preemptible.  Debian's 6.12-rt adds lazy and laziest (KBENCH_HAVE_*).
 */
static u32 kbench_env_preempt_model(void)
{
#ifdef KBENCH_HAVE_PREEMPT_LAZIEST
	if (preempt_model_laziest())
		return KBENCH_PREEMPT_LAZIEST;
#endif
#ifdef KBENCH_HAVE_PREEMPT_LAZY
	if (preempt_model_lazy())
		return KBENCH_PREEMPT_LAZY;
#endif
	if (preempt_model_none())
		return KBENCH_PREEMPT_NONE;
	if (preempt_model_voluntary())
		return KBENCH_PREEMPT_VOLUNTARY;
	return KBENCH_PREEMPT_FULL;
}

#if defined(CONFIG_X86)
/* Keep the printable ASCII of a vendor signature; stop at its NUL. */
static void kbench_env_set_vendor(const char *sig, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len && sig[i]; i++)
		if (sig[i] >= 0x20 && sig[i] < 0x7f &&
		    n + 1 < sizeof(kbench_hypervisor_vendor))
			kbench_hypervisor_vendor[n++] = sig[i];
	kbench_hypervisor_vendor[n] = '\0';
}

/*
 * x86_hyper_type is the hypervisor whose driver the kernel chose (exported
 * on 6.1 and 6.12).  A hypervisor the kernel has no driver for (qemu TCG,
 * bhyve) still sets the CPU's hypervisor bit (CPUID.1:ECX[31]): that is
 * "other".  CPUID leaf 0x40000000 holds the vendor signature, but only
 * when that bit is set.
 */
static void kbench_env_hypervisor_init(void)
{
	u32 eax, sig[3];

	if (hypervisor_is_type(X86_HYPER_KVM))
		kbench_hypervisor = KBENCH_HYPERVISOR_KVM;
	else if (hypervisor_is_type(X86_HYPER_XEN_PV) ||
		 hypervisor_is_type(X86_HYPER_XEN_HVM))
		kbench_hypervisor = KBENCH_HYPERVISOR_XEN;
	else if (hypervisor_is_type(X86_HYPER_MS_HYPERV))
		kbench_hypervisor = KBENCH_HYPERVISOR_HYPERV;
	else if (hypervisor_is_type(X86_HYPER_VMWARE))
		kbench_hypervisor = KBENCH_HYPERVISOR_VMWARE;
	else if (!hypervisor_is_type(X86_HYPER_NATIVE) ||
		 boot_cpu_has(X86_FEATURE_HYPERVISOR))
		kbench_hypervisor = KBENCH_HYPERVISOR_OTHER;
	else
		kbench_hypervisor = KBENCH_HYPERVISOR_NONE;

	if (boot_cpu_has(X86_FEATURE_HYPERVISOR)) {
		cpuid(0x40000000, &eax, &sig[0], &sig[1], &sig[2]);
		kbench_env_set_vendor((const char *)sig, sizeof(sig));
	}
}
#elif defined(CONFIG_ARM64)
/*
 * arm64 has no CPUID bit for "under a hypervisor".  Xen guests know they
 * are one (xen_domain()).  Otherwise SMCCC 1.1 over HVC means firmware
 * calls reach a hypervisor at EL2; its vendor UID says which, where it
 * answers (KVM does: the kernel asks it too, for its KVM services).  A
 * host booted at EL2 calls firmware with SMC: none.  So does qemu's TCG
 * virt machine, whose PSCI firmware offers SMCCC 1.0 only (no conduit for
 * 1.1 calls); whether the kernel started at EL1 is not exported.
 */
static void kbench_env_hypervisor_init(void)
{
	struct arm_smccc_res res;

	if (xen_domain()) {
		kbench_hypervisor = KBENCH_HYPERVISOR_XEN;
		strscpy(kbench_hypervisor_vendor, "Xen",
			sizeof(kbench_hypervisor_vendor));
		return;
	}
	if (arm_smccc_1_1_get_conduit() != SMCCC_CONDUIT_HVC) {
		kbench_hypervisor = KBENCH_HYPERVISOR_NONE;
		return;
	}
	kbench_hypervisor = KBENCH_HYPERVISOR_OTHER;
	arm_smccc_1_1_invoke(ARM_SMCCC_VENDOR_HYP_CALL_UID_FUNC_ID, &res);
	if ((long)res.a0 == SMCCC_RET_NOT_SUPPORTED)
		return;
	snprintf(kbench_hypervisor_vendor, sizeof(kbench_hypervisor_vendor),
		 "%08x-%08x-%08x-%08x", (u32)res.a0, (u32)res.a1,
		 (u32)res.a2, (u32)res.a3);
	if ((u32)res.a0 == ARM_SMCCC_VENDOR_HYP_UID_KVM_REG_0 &&
	    (u32)res.a1 == ARM_SMCCC_VENDOR_HYP_UID_KVM_REG_1 &&
	    (u32)res.a2 == ARM_SMCCC_VENDOR_HYP_UID_KVM_REG_2 &&
	    (u32)res.a3 == ARM_SMCCC_VENDOR_HYP_UID_KVM_REG_3)
		kbench_hypervisor = KBENCH_HYPERVISOR_KVM;
}
#elif defined(CONFIG_PPC64)
/*
 * A pseries kernel runs in a logical partition of a PAPR hypervisor
 * (PowerVM, or KVM/qemu); which one is_kvm_guest() knows, but its static
 * key is not exported on 6.1.  powernv runs on bare metal.
 */
static void kbench_env_hypervisor_init(void)
{
	if (firmware_has_feature(FW_FEATURE_LPAR)) {
		kbench_hypervisor = KBENCH_HYPERVISOR_OTHER;
		strscpy(kbench_hypervisor_vendor, "PAPR LPAR",
			sizeof(kbench_hypervisor_vendor));
	} else {
		kbench_hypervisor = KBENCH_HYPERVISOR_NONE;
	}
}
#endif

void kbench_env_init(void)
{
	kbench_env_hypervisor_init();
}

/*
 * Where local_irq_save() masks interrupts by priority in the GIC (arm64,
 * irqchip.gicv3_pseudo_nmi=1 on a CONFIG_ARM64_PSEUDO_NMI kernel), the
 * interrupts the kernel made NMIs still run inside windows.  A constant
 * false elsewhere, and on kernels built without the option.
 */
static bool kbench_env_pseudo_nmi(void)
{
#ifdef CONFIG_ARM64
	return kbench_arch_pseudo_nmi();
#else
	return false;
#endif
}

/**
 * kbench_env_flags() - the environment flags of the running kernel
 *
 * Return: enum kbench_env_flags, as INFO's environment and every RUN
 * reply report them.
 */
u32 kbench_env_flags(void)
{
	u32 flags = 0;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		flags |= KBENCH_ENV_F_PREEMPT_RT;
	if (IS_ENABLED(CONFIG_PREEMPT_DYNAMIC))
		flags |= KBENCH_ENV_F_PREEMPT_DYNAMIC;
	if (kbench_env_pseudo_nmi())
		flags |= KBENCH_ENV_F_PSEUDO_NMI;
	return flags;
}

/**
 * kbench_env_put() - put INFO's environment nest into a message
 * @msg: the INFO reply
 *
 * Return: 0, or -EMSGSIZE when @msg is full (nothing is left in it).
 */
int kbench_env_put(struct sk_buff *msg)
{
	u32 debug = kbench_env_debug(), flags = kbench_env_flags();
	struct nlattr *nest;

	nest = nla_nest_start(msg, KBENCH_A_INFO_ENVIRONMENT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, KBENCH_A_ENV_DEBUG, debug) ||
	    nla_put_u32(msg, KBENCH_A_ENV_DEBUG_ACTIVE,
			kbench_env_debug_active(debug)) ||
	    nla_put_u32(msg, KBENCH_A_ENV_FLAGS, flags) ||
	    nla_put_u32(msg, KBENCH_A_ENV_PREEMPT_MODEL,
			kbench_env_preempt_model()) ||
	    nla_put_u32(msg, KBENCH_A_ENV_HZ, HZ) ||
	    nla_put_u32(msg, KBENCH_A_ENV_HYPERVISOR, kbench_hypervisor) ||
	    (kbench_hypervisor_vendor[0] &&
	     nla_put_string(msg, KBENCH_A_ENV_HYPERVISOR_VENDOR,
			    kbench_hypervisor_vendor))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}
