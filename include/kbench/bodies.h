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
 *   chase      1 dependent load; dec; jnz          3
 *   add_n      jmp *reg; @adds dependent add; loop adds + 2 (x86_64)
 *
 * arm64 uses add/mul/ldr and the loop subs; b.ne, powerpc64 add/mulld/ld
 * and addic.; bne: the same counts on every architecture, but for add_n
 * (below): adds + 3 on arm64, adds + 2 on powerpc64.
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
#define KBENCH_INSNS_CHASE	3

/*
 * add_n: @adds dependent adds per iteration, 1 .. KBENCH_ADD_N_MAX, in one
 * iteration count that varies per call.  An unrolled block of
 * KBENCH_ADD_N_MAX adds is entered @adds adds before its end, so the back
 * edge of the loop needs a computed (indirect) branch; what it costs per
 * iteration, on top of the adds:
 *
 *   x86_64     2  jmp *reg (to the entry); loop (dec rcx and branch in one)
 *   arm64      3  ret reg (to the entry); subs; b.ne
 *   powerpc64  2  blr (to the entry, held in LR); bdnz (dec CTR and branch)
 *
 * arm64 has no decrement-and-branch instruction, hence its 3.  The
 * indirect branches are of the kinds that need no landing pad: a RET
 * (arm64: BTI checks BR and BLR only) and BLR (powerpc64).  The x86 JMP
 * does need one, an ENDBR64, where the kernel enforces IBT: there
 * kbench.ko uses kbench_body_add_n_endbr() instead, an ENDBR64 before
 * every add (2 x @adds + 2 instructions).
 */
#define KBENCH_ADD_N_MAX	1024

/*
 * The core-cycle calibration (kbenchctl --unit core): add_n at two
 * lengths, KBENCH_CORE_LO_ADDS adds (the built-in core_cal, or add_n with
 * that argument) and KBENCH_CORE_HI_ADDS (add_n's default), interleaved
 * with the routines measured.  Both run the same loop, so the difference
 * of their costs is the cost of HI - LO dependent adds alone: on a core
 * whose register add has a latency of one cycle, counter ticks per core
 * cycle = (T(HI) - T(LO)) / (HI - LO).  Under -icount shift=0 that
 * difference is exactly HI - LO instructions, on every architecture (the
 * loop's share, 2 or 3, cancels).
 */
#define KBENCH_CORE_LO_ADDS	32
#define KBENCH_CORE_HI_ADDS	64
#if defined(__aarch64__)
#define KBENCH_INSNS_ADD_N(adds)	((adds) + 3)
#else
#define KBENCH_INSNS_ADD_N(adds)	((adds) + 2)
#endif

#define __KBENCH_STR(x)		#x
#define KBENCH_STR(x)		__KBENCH_STR(x)

/*
 * Marks add_n's indirect jump for the kernel's objtool (the kernel defines
 * it to ANNOTATE_RETPOLINE_SAFE before including this header: the jump's
 * target is one of the block's own instructions); nothing in userspace.
 */
#ifndef KBENCH_BODY_INDIRECT_OK
#define KBENCH_BODY_INDIRECT_OK	""
#endif

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

/* @p: a cyclic chain of pointers; returns where the chase stopped. */
static inline void *kbench_body_chase(unsigned int n, void *p)
{
	if (!n)
		return p;
	asm volatile("1:	mov (%1), %1\n\t"
		     "	dec %0\n\t"
		     "	jnz 1b\n\t"
		     : "+r" (n), "+r" (p) : : "cc", "memory");
	return p;
}

/*
 * add_n (see the top).  The block is entered through a conditional jump
 * that is always taken, so that it is also reachable by falling through:
 * objtool follows every instruction of a kernel function.  Each add is
 * the same 3 bytes (explicit registers, no REX choice left to the
 * compiler), so the entry is the block's end minus 3 x @adds.  `loop`
 * decrements the whole rcx: @n is zero-extended into it.
 */
#define KBENCH_BODY_ADD_N_X86(n, adds, insn, size)			\
do {									\
	unsigned long __cnt = (n), __acc = 0, __entry;			\
									\
	asm volatile("	lea 3f(%%rip), %[entry]\n\t"			\
		     "	sub %[off], %[entry]\n\t"			\
		     "	test %[cnt], %[cnt]\n\t"			\
		     "	jnz 4f\n\t"					\
		     "	.rept " KBENCH_STR(KBENCH_ADD_N_MAX) "\n\t"	\
		     insn						\
		     "	.endr\n\t"					\
		     "3:	loop 4f\n\t"				\
		     "	jmp 5f\n\t"					\
		     "4:\n\t"						\
		     KBENCH_BODY_INDIRECT_OK "\n\t"			\
		     "	jmp *%[entry]\n\t"				\
		     "5:\n\t"						\
		     : [cnt] "+c" (__cnt), "+a" (__acc),		\
		       [entry] "=&r" (__entry)				\
		     : "d" (1UL), [off] "r" ((unsigned long)(size) * (adds)) \
		     : "cc");						\
} while (0)

static inline void kbench_body_add_n(unsigned int n, unsigned int adds)
{
	if (!n || !adds || adds > KBENCH_ADD_N_MAX)
		return;
	KBENCH_BODY_ADD_N_X86(n, adds, "	add %%rdx, %%rax\n\t", 3);
}

/*
 * The same where kernel IBT is enforced: every possible entry is an
 * ENDBR64 (4 bytes; a NOP elsewhere), so each iteration runs 2 x @adds + 2
 * instructions.
 */
static inline void kbench_body_add_n_endbr(unsigned int n, unsigned int adds)
{
	if (!n || !adds || adds > KBENCH_ADD_N_MAX)
		return;
	KBENCH_BODY_ADD_N_X86(n, adds,
			      "	endbr64\n\t	add %%rdx, %%rax\n\t", 7);
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

static inline void *kbench_body_chase(unsigned int n, void *p)
{
	if (!n)
		return p;
	asm volatile("1:	ldr %1, [%1]\n\t"
		     "	subs %w0, %w0, #1\n\t"
		     "	b.ne 1b\n\t"
		     : "+r" (n), "+r" (p) : : "cc", "memory");
	return p;
}

/*
 * add_n (see the top): the back edge is `ret entry`, an indirect branch
 * that BTI does not check (a BR would need a BTI landing pad on every add
 * where the kernel enforces BTI).  Each add is 4 bytes.
 */
static inline void kbench_body_add_n(unsigned int n, unsigned int adds)
{
	unsigned long acc = 0, inc = 1, entry;

	if (!n || !adds || adds > KBENCH_ADD_N_MAX)
		return;
	asm volatile("	adr %[entry], 3f\n\t"
		     "	sub %[entry], %[entry], %[off]\n\t"
		     "	b 4f\n\t"
		     "	.rept " KBENCH_STR(KBENCH_ADD_N_MAX) "\n\t"
		     "	add %[acc], %[acc], %[inc]\n\t"
		     "	.endr\n\t"
		     "3:	subs %w[cnt], %w[cnt], #1\n\t"
		     "	b.ne 4f\n\t"
		     "	b 5f\n\t"
		     "4:	ret %[entry]\n\t"
		     "5:\n\t"
		     : [cnt] "+r" (n), [acc] "+r" (acc), [entry] "=&r" (entry)
		     : [inc] "r" (inc), [off] "r" (4UL * adds)
		     : "cc");
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

static inline void *kbench_body_chase(unsigned int n, void *p)
{
	unsigned long cnt = n;

	if (!n)
		return p;
	asm volatile("1:	ld %1, 0(%1)\n\t"
		     "	addic. %0, %0, -1\n\t"
		     "	bne 1b\n\t"
		     : "+r" (cnt), "+b" (p) : : "cr0", "xer", "memory");
	return p;
}

/*
 * add_n (see the top): CTR counts the iterations (bdnz), LR holds the
 * entry (blr); bcl 20,31 is the form of "branch and link to the next
 * instruction" that leaves the return-address predictor alone.  Each add
 * is 4 bytes.  "b": addi reads r0 as 0, so the entry is not in r0.
 */
static inline void kbench_body_add_n(unsigned int n, unsigned int adds)
{
	unsigned long cnt = n, acc = 0, inc = 1, entry;

	if (!n || !adds || adds > KBENCH_ADD_N_MAX)
		return;
	asm volatile("	mtctr %[cnt]\n\t"
		     "	bcl 20, 31, 1f\n\t"
		     "1:	mflr %[entry]\n\t"
		     "	addi %[entry], %[entry], 3f - 1b\n\t"
		     "	subf %[entry], %[off], %[entry]\n\t"
		     "	mtlr %[entry]\n\t"
		     "	b 4f\n\t"
		     "	.rept " KBENCH_STR(KBENCH_ADD_N_MAX) "\n\t"
		     "	add %[acc], %[acc], %[inc]\n\t"
		     "	.endr\n\t"
		     "3:	bdnz 4f\n\t"
		     "	b 5f\n\t"
		     "4:	blr\n\t"
		     "5:\n\t"
		     : [acc] "+r" (acc), [entry] "=&b" (entry)
		     : [cnt] "r" (cnt), [inc] "r" (inc), [off] "r" (4UL * adds)
		     : "lr", "ctr");
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

/*
 * jhash of KBENCH_JHASH_BYTES bytes, the body of kbench_example's `foo'
 * and `foobar' (identical: the null experiment) and of their userspace
 * twins.  Bob Jenkins' lookup3 as the kernel's jhash() (linux/jhash.h)
 * computes it, written here in C so that both worlds can include it (the
 * instruction count is the compiler's, not fixed by construction as the
 * assembly bodies above are).  @buf is 4-byte aligned.
 */
#define KBENCH_JHASH_BYTES	64
#define KBENCH_JHASH_INITVAL	0xdeadbeefU

static inline unsigned int kbench_rol32(unsigned int w, unsigned int s)
{
	return (w << (s & 31)) | (w >> ((-s) & 31));
}

static inline unsigned int kbench_jhash64(const void *buf, unsigned int init)
{
	const unsigned char *k = (const unsigned char *)buf;
	unsigned int a, b, c, len = KBENCH_JHASH_BYTES, w[3];

	a = KBENCH_JHASH_INITVAL + len + init;
	b = a;
	c = a;
	while (len > 12) {
		__builtin_memcpy(w, k, sizeof(w));
		a += w[0];
		b += w[1];
		c += w[2];
		/* __jhash_mix */
		a -= c; a ^= kbench_rol32(c, 4); c += b;
		b -= a; b ^= kbench_rol32(a, 6); a += c;
		c -= b; c ^= kbench_rol32(b, 8); b += a;
		a -= c; a ^= kbench_rol32(c, 16); c += b;
		b -= a; b ^= kbench_rol32(a, 19); a += c;
		c -= b; c ^= kbench_rol32(b, 4); b += a;
		len -= 12;
		k += 12;
	}
	/* 64 = 5 x 12 + 4: the last 4 bytes go to a, then __jhash_final */
	a += (unsigned int)k[3] << 24 | (unsigned int)k[2] << 16 |
	     (unsigned int)k[1] << 8 | k[0];
	c ^= b; c -= kbench_rol32(b, 14);
	a ^= c; a -= kbench_rol32(c, 11);
	b ^= a; b -= kbench_rol32(a, 25);
	c ^= b; c -= kbench_rol32(b, 16);
	a ^= c; a -= kbench_rol32(c, 4);
	b ^= a; b -= kbench_rol32(a, 14);
	c ^= b; c -= kbench_rol32(b, 24);
	return c;
}

#endif /* _KBENCH_BODIES_H */
