// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_difftest: one routine, kbench_diff_test, whose loop body is
 * exactly KBENCH_DIFF_INSNS instructions per iteration (x86_64): the test
 * module of `kbenchctl diff`.  Built twice from this one source with
 * KBENCH_DIFF_INSNS=7 and 8, it is "the same routine before and after a
 * patch" whose cost under qemu -icount shift=0 is known exactly: 8/7 - 1 =
 * +14.29 %.  tests/results/ builds it (Makefile) and loads it in the VM.
 *
 * Built with KBENCH_DIFF_LOADS=1 the KBENCH_DIFF_INSNS - 2 instructions
 * are loads of one word instead of nops: the plain-TCG test's pair (4 and
 * 34 instructions, 2 and 32 loads), whose cost in host time follows the
 * loads (TCG translates a nop to nothing and a load to a softmmu lookup),
 * so that the second is several times the first on any host.
 */
#include <linux/kbench.h>
#include <linux/module.h>

#ifndef KBENCH_DIFF_INSNS
#define KBENCH_DIFF_INSNS	7
#endif
#if KBENCH_DIFF_INSNS < 2
#error "KBENCH_DIFF_INSNS counts the loop's dec and jnz: at least 2"
#endif
#ifndef CONFIG_X86_64
#error "kbench_difftest counts x86_64 instructions"
#endif

#define KBENCH_DIFF_STR2(x)	#x
#define KBENCH_DIFF_STR(x)	KBENCH_DIFF_STR2(x)

#if defined(KBENCH_DIFF_LOADS) && KBENCH_DIFF_LOADS
#define KBENCH_DIFF_BODY	"mov %2, %1"
#define KBENCH_DIFF_WHAT	" (loads)"
#else
#define KBENCH_DIFF_BODY	"nop"
#define KBENCH_DIFF_WHAT	""
#endif

/* what the loads read */
static unsigned long kbench_difftest_word;

/* KBENCH_DIFF_INSNS - 2 nops (or loads), dec, jnz: per iteration, exactly. */
static noinline void kbench_difftest_run(unsigned int iterations, void *data)
{
	unsigned long scratch;

	if (!iterations)
		return;
	asm volatile("1:\n\t"
		     ".rept " KBENCH_DIFF_STR(KBENCH_DIFF_INSNS) " - 2\n\t"
		     KBENCH_DIFF_BODY "\n\t"
		     ".endr\n\t"
		     "dec %0\n\t"
		     "jnz 1b\n\t"
		     : "+r" (iterations), "=&r" (scratch)
		     : "m" (kbench_difftest_word) : "cc");
}

static struct kbench_routine kbench_difftest_routine = {
	.name = "kbench_diff_test",
	.desc = KBENCH_DIFF_STR(KBENCH_DIFF_INSNS) " instructions per iteration" KBENCH_DIFF_WHAT " (diff test)",
	.run = kbench_difftest_run,
};

static int __init kbench_difftest_init(void)
{
	return kbench_register_routine(&kbench_difftest_routine);
}

static void __exit kbench_difftest_exit(void)
{
	kbench_unregister_routine(&kbench_difftest_routine);
}

module_init(kbench_difftest_init);
module_exit(kbench_difftest_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench diff test: " KBENCH_DIFF_STR(KBENCH_DIFF_INSNS)
		   " instructions per iteration" KBENCH_DIFF_WHAT);
