// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the arm64 counter table (the virtual counter).
 */
#include <linux/arm-smccc.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <asm/arch_timer.h>
#include <asm/pvclock-abi.h>

#include "kbench_internal.h"

/*
 * The row's read, called outside windows (gaps): preemptible there, so
 * preemption is held off around the per-CPU erratum lookup, as the arch
 * timer driver's own arch_counter_get_cntvct_stable() does.
 */
static u64 kbench_cntvct_read(void)
{
	u64 val;

	preempt_disable_notrace();
	val = kbench_ctr_read();
	preempt_enable_notrace();
	return val;
}

KBENCH_DEFINE_WINDOW(kbench_cntvct_window, kbench_ctr_read, kbench_irq_off,
		     kbench_irq_on, kbench_snap_begin, kbench_snap_end)

static int kbench_cntvct_probe(struct kbench_counter *c)
{
	/*
	 * arch_timer_get_rate() is not exported to modules; CNTFRQ_EL0 is
	 * what the arch timer driver uses unless the firmware overrides it.
	 * The generic timer runs at a fixed rate, also in idle states.
	 */
	int err = kbench_counter_fixed_rate(c, arch_timer_get_cntfrq());

	/* pseudo-NMIs can run in windows: the snapshot flags them */
	if (!err && kbench_arch_pseudo_nmi())
		c->detectors |= KBENCH_SAMPLE_F_NMI;
	return err;
}

struct kbench_counter kbench_counters[] = {
	KBENCH_COUNTER_ROW("cntvct", "__arch_counter_get_cntvct_stable()",
			   kbench_cntvct_read, kbench_cntvct_window,
			   kbench_cntvct_probe),
};

const unsigned int kbench_nr_counters = ARRAY_SIZE(kbench_counters);

/*
 * The steal detector on arm64: SMCCC PV time (DEN0057A), which KVM
 * offers.  PV_TIME_ST returns the IPA of the calling vCPU's stolen-time
 * record; the kernel maps it the same way for its own steal clock
 * (arch/arm64/kernel/paravirt.c), whose readers are not exported.  The
 * features are asked as the kernel asks them; without PV time (bare
 * metal, qemu TCG) the detector is unavailable.
 */
int kbench_arch_steal_probe(void)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_invoke(ARM_SMCCC_ARCH_FEATURES_FUNC_ID,
			     ARM_SMCCC_HV_PV_TIME_FEATURES, &res);
	if (res.a0 != SMCCC_RET_SUCCESS)
		return -ENODEV;
	arm_smccc_1_1_invoke(ARM_SMCCC_HV_PV_TIME_FEATURES,
			     ARM_SMCCC_HV_PV_TIME_ST, &res);
	return res.a0 == SMCCC_RET_SUCCESS ? 0 : -ENODEV;
}

void *kbench_arch_steal_map(void)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_invoke(ARM_SMCCC_HV_PV_TIME_ST, &res);
	if ((long)res.a0 < 0)
		return NULL;
	return memremap(res.a0, sizeof(struct pvclock_vcpu_stolen_time),
			MEMREMAP_WB);
}

void kbench_arch_steal_unmap(void *rec)
{
	memunmap(rec);
}
