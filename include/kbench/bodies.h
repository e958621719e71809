/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: loop bodies of the arithmetic built-in routines.
 *
 * This one header is compiled into both kbench.ko and userspace (the
 * twins of kbenchctl, libkbench's overhead routine), so the kernel routine
 * and its userspace twin execute the same instructions.  It must not
 * include any header: it is built in both worlds.
 *
 * Each body is written in assembly so the instruction count per iteration is
 * fixed by construction, not by the compiler:
 *
 *   routine    per iteration                       instructions
 *   empty      dec; jnz                            2
 *   add_chain  4 dependent add; dec; jnz           6
 *   mul_chain  4 dependent imul; dec; jnz          6
 *   load_l1    4 dependent loads (ring); dec; jnz  6
 *
 * arm64 uses add/mul/ldr and the loop subs; b.ne, powerpc64 add/mulld/ld
 * and addic.; bne: the same counts on every architecture.
 *
 * Under qemu -icount shift=0 one TSC tick is one instruction, so the net
 * cycles per iteration equal these numbers exactly; with the `empty`
 * overhead subtracted, add_chain, mul_chain and load_l1 give 4.  icount
 * makes one instruction one nanosecond, so counters that are not 1 GHz
 * advance by counter_hz / 1e9 per instruction: arm64's CNTVCT (62.5 MHz in
 * qemu) once every 16 instructions, powerpc's timebase (512 MHz) 0.512
 * times per instruction.
 * Callers pass n >= 1; n == 0 returns at once.
 */
#ifndef _KBENCH_BODIES_H
#define _KBENCH_BODIES_H

#define KBENCH_INSNS_EMPTY	2
#define KBENCH_INSNS_ADD_CHAIN	6
#define KBENCH_INSNS_MUL_CHAIN	6
#define KBENCH_INSNS_LOAD_L1	6

/* load_l1: a ring of pointers, small enough to stay in L1. */
#define KBENCH_L1_RING_WORDS	64

#if defined(__x86_64__)

static inline void kbench_body_empty(unsigned int n)
{
	if (!n)
		return;
	asm volatile("1:	dec %0\n\t"
		     "	jnz 1b\n\t"
		     : "+r" (n) : : "cc");
}

static inline void kbench_body_add_chain(unsigned int n)
{
	unsigned long acc = 0, inc = 1;

	if (!n)
		return;
	asm volatile("1:	add %2, %1\n\t"
		     "	add %2, %1\n\t"
		     "	add %2, %1\n\t"
		     "	add %2, %1\n\t"
		     "	dec %0\n\t"
		     "	jnz 1b\n\t"
		     : "+r" (n), "+r" (acc) : "r" (inc) : "cc");
}

static inline void kbench_body_mul_chain(unsigned int n)
{
	unsigned long acc = 1, mul = 3;

	if (!n)
		return;
	asm volatile("1:	imul %2, %1\n\t"
		     "	imul %2, %1\n\t"
		     "	imul %2, %1\n\t"
		     "	imul %2, %1\n\t"
		     "	dec %0\n\t"
		     "	jnz 1b\n\t"
		     : "+r" (n), "+r" (acc) : "r" (mul) : "cc");
}

/* @ring: KBENCH_L1_RING_WORDS pointers, each to the next (see _ring_init). */
static inline void kbench_body_load_l1(unsigned int n, void *ring)
{
	void *p = ring;

	if (!n)
		return;
	asm volatile("1:	mov (%1), %1\n\t"
		     "	mov (%1), %1\n\t"
		     "	mov (%1), %1\n\t"
		     "	mov (%1), %1\n\t"
		     "	dec %0\n\t"
		     "	jnz 1b\n\t"
		     : "+r" (n), "+r" (p) : : "cc", "memory");
}

#elif defined(__aarch64__)

static inline void kbench_body_empty(unsigned int n)
{
	if (!n)
		return;
	asm volatile("1:	subs %w0, %w0, #1\n\t"
		     "	b.ne 1b\n\t"
		     : "+r" (n) : : "cc");
}

static inline void kbench_body_add_chain(unsigned int n)
{
	unsigned long acc = 0, inc = 1;

	if (!n)
		return;
	asm volatile("1:	add %1, %1, %2\n\t"
		     "	add %1, %1, %2\n\t"
		     "	add %1, %1, %2\n\t"
		     "	add %1, %1, %2\n\t"
		     "	subs %w0, %w0, #1\n\t"
		     "	b.ne 1b\n\t"
		     : "+r" (n), "+r" (acc) : "r" (inc) : "cc");
}

static inline void kbench_body_mul_chain(unsigned int n)
{
	unsigned long acc = 1, mul = 3;

	if (!n)
		return;
	asm volatile("1:	mul %1, %1, %2\n\t"
		     "	mul %1, %1, %2\n\t"
		     "	mul %1, %1, %2\n\t"
		     "	mul %1, %1, %2\n\t"
		     "	subs %w0, %w0, #1\n\t"
		     "	b.ne 1b\n\t"
		     : "+r" (n), "+r" (acc) : "r" (mul) : "cc");
}

static inline void kbench_body_load_l1(unsigned int n, void *ring)
{
	void *p = ring;

	if (!n)
		return;
	asm volatile("1:	ldr %1, [%1]\n\t"
		     "	ldr %1, [%1]\n\t"
		     "	ldr %1, [%1]\n\t"
		     "	ldr %1, [%1]\n\t"
		     "	subs %w0, %w0, #1\n\t"
		     "	b.ne 1b\n\t"
		     : "+r" (n), "+r" (p) : : "cc", "memory");
}

#elif defined(__powerpc64__)

/*
 * The trip count is widened to 64 bits: addic. compares the whole register
 * with 0.  addic. also writes XER[CA], hence the "xer" clobber.
 */
static inline void kbench_body_empty(unsigned int n)
{
	unsigned long cnt = n;

	if (!n)
		return;
	asm volatile("1:	addic. %0, %0, -1\n\t"
		     "	bne 1b\n\t"
		     : "+r" (cnt) : : "cr0", "xer");
}

static inline void kbench_body_add_chain(unsigned int n)
{
	unsigned long cnt = n, acc = 0, inc = 1;

	if (!n)
		return;
	asm volatile("1:	add %1, %1, %2\n\t"
		     "	add %1, %1, %2\n\t"
		     "	add %1, %1, %2\n\t"
		     "	add %1, %1, %2\n\t"
		     "	addic. %0, %0, -1\n\t"
		     "	bne 1b\n\t"
		     : "+r" (cnt), "+r" (acc) : "r" (inc) : "cr0", "xer");
}

static inline void kbench_body_mul_chain(unsigned int n)
{
	unsigned long cnt = n, acc = 1, mul = 3;

	if (!n)
		return;
	asm volatile("1:	mulld %1, %1, %2\n\t"
		     "	mulld %1, %1, %2\n\t"
		     "	mulld %1, %1, %2\n\t"
		     "	mulld %1, %1, %2\n\t"
		     "	addic. %0, %0, -1\n\t"
		     "	bne 1b\n\t"
		     : "+r" (cnt), "+r" (acc) : "r" (mul) : "cr0", "xer");
}

/* "b": a base register other than r0 (r0 as a base reads as 0). */
static inline void kbench_body_load_l1(unsigned int n, void *ring)
{
	unsigned long cnt = n;
	void *p = ring;

	if (!n)
		return;
	asm volatile("1:	ld %1, 0(%1)\n\t"
		     "	ld %1, 0(%1)\n\t"
		     "	ld %1, 0(%1)\n\t"
		     "	ld %1, 0(%1)\n\t"
		     "	addic. %0, %0, -1\n\t"
		     "	bne 1b\n\t"
		     : "+r" (cnt), "+b" (p) : : "cr0", "xer", "memory");
}

#else
#error "kbench/bodies.h: no loop bodies for this architecture yet"
#endif

/*
 * Link @ring into one cycle through all its words: i -> 5i + 1 (mod 64) has
 * full period (Hull-Dobell), so the chase visits every word.
 */
static inline void kbench_body_load_l1_ring_init(void **ring)
{
	unsigned int i;

	for (i = 0; i < KBENCH_L1_RING_WORDS; i++)
		ring[i] = &ring[(i * 5 + 1) % KBENCH_L1_RING_WORDS];
}

#endif /* _KBENCH_BODIES_H */
