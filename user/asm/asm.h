/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --asm CODE: a snippet of the target's assembly, repeated U times in the
 * body of a loop, assembled with the C compiler into a shared object and
 * loaded as a userspace routine (asm.c).  The loop is the empty routine's
 * (include/kbench/bodies.h: dec; jnz on x86_64, subs; b.ne on arm64,
 * addic.; bne on powerpc64), so its own cost is what `empty`, measured in
 * every run, costs.  What a snippet may use:
 *
 *   x86_64     every register but %rsp and %r15 (the loop's counter);
 *              %r14 points to a 4096-byte scratch buffer (64-byte aligned)
 *   arm64      every register but sp and x28 (the counter); x27 the buffer
 *   powerpc64  every register but r1, r2, r13 and r30 (the counter); r31
 *              the buffer
 *
 * Callee-saved registers are saved and restored around the loop.  Labels
 * must be local numeric ones (1:, 1b): the snippet is repeated.
 */
#ifndef KBENCHCTL_ASM_H
#define KBENCHCTL_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * x86_64's loop, written once for the userspace object (asm.c) and the
 * module (kmod.c), so that both time the same instructions: after the
 * entry, the callee-saved registers kept, the count in %r15, the scratch
 * buffer in %r14, label 1 (the snippets follow); then the empty routine's
 * dec; jnz (the loop's end) and the registers back (the pops), up to
 * label 3 where the return goes.
 * printf formats (%% for %).
 */
#define KB_ASM_X86_LOOP_HEAD					\
	"\ttest %%edi, %%edi\n"					\
	"\tjz 3f\n"						\
	"\tpush %%rbx\n\tpush %%rbp\n\tpush %%r12\n"		\
	"\tpush %%r13\n\tpush %%r14\n\tpush %%r15\n"		\
	"\tmov %%edi, %%r15d\n"					\
	"\tmov %%rsi, %%r14\n"					\
	"\t.p2align 6\n"						\
	"1:\n"
#define KB_ASM_X86_LOOP_END					\
	"\t.att_syntax prefix\n"					\
	"\tdec %%r15\n"						\
	"\tjnz 1b\n"
#define KB_ASM_X86_LOOP_POPS					\
	"\tpop %%r15\n\tpop %%r14\n\tpop %%r13\n"		\
	"\tpop %%r12\n\tpop %%rbp\n\tpop %%rbx\n"		\
	"3:"
#define KB_ASM_X86_LOOP_TAIL KB_ASM_X86_LOOP_END KB_ASM_X86_LOOP_POPS

/*
 * arm64's and powerpc64's loops alike (the userspace object saves the
 * floating-point callee-saved registers too; the kernel's must not touch
 * them): the count and the buffer in their registers, label 1, ...; the
 * empty routine's two instructions.
 */
#define KB_ASM_ARM64_LOOP_HEAD					\
	"\tmov w28, w0\n"					\
	"\tmov x27, x1\n"					\
	"\t.p2align 6\n"					\
	"1:\n"
#define KB_ASM_ARM64_LOOP_TAIL					\
	"\tsubs x28, x28, #1\n"					\
	"\tb.ne 1b\n"
#define KB_ASM_PPC64_SAVE_GPRS					\
	"\tmfcr 0\n\tstw 0, 8(1)\n"				\
	"\tstd 14, -144(1)\n\tstd 15, -136(1)\n\tstd 16, -128(1)\n"	\
	"\tstd 17, -120(1)\n\tstd 18, -112(1)\n\tstd 19, -104(1)\n"	\
	"\tstd 20, -96(1)\n\tstd 21, -88(1)\n\tstd 22, -80(1)\n"	\
	"\tstd 23, -72(1)\n\tstd 24, -64(1)\n\tstd 25, -56(1)\n"	\
	"\tstd 26, -48(1)\n\tstd 27, -40(1)\n\tstd 28, -32(1)\n"	\
	"\tstd 29, -24(1)\n\tstd 30, -16(1)\n\tstd 31, -8(1)\n"
#define KB_ASM_PPC64_RESTORE_GPRS					\
	"\tld 14, -144(1)\n\tld 15, -136(1)\n\tld 16, -128(1)\n"	\
	"\tld 17, -120(1)\n\tld 18, -112(1)\n\tld 19, -104(1)\n"	\
	"\tld 20, -96(1)\n\tld 21, -88(1)\n\tld 22, -80(1)\n"	\
	"\tld 23, -72(1)\n\tld 24, -64(1)\n\tld 25, -56(1)\n"	\
	"\tld 26, -48(1)\n\tld 27, -40(1)\n\tld 28, -32(1)\n"	\
	"\tld 29, -24(1)\n\tld 30, -16(1)\n\tld 31, -8(1)\n"
#define KB_ASM_PPC64_LOOP_HEAD					\
	"\trldicl 30, 3, 0, 32\n"				\
	"\tmr 31, 4\n"						\
	"\t.p2align 6\n"					\
	"1:\n"
#define KB_ASM_PPC64_LOOP_TAIL					\
	"\taddic. 30, 30, -1\n"					\
	"\tbne 1b\n"

/*
 * The architecture a snippet is built for: this machine's (KB_ASM_NATIVE,
 * 0), or the one kbuild's ARCH names (x86_64 or x86, arm64, powerpc) for a
 * build kept for that machine (--keep DIR; CROSS_COMPILE names its
 * compiler, as for kbuild).
 */
enum kb_asm_arch {
	KB_ASM_NATIVE,
	KB_ASM_X86_64,
	KB_ASM_ARM64,
	KB_ASM_PPC64,
	KB_ASM_NARCH,
};
enum kb_asm_arch kb_asm_arch_native(void);	/* KB_ASM_NATIVE: none */
enum kb_asm_arch kb_asm_arch_target(void);	/* KB_ASM_NATIVE: unknown ARCH */
const char *kb_asm_arch_name(enum kb_asm_arch arch);

/* --asm given at most this often (compare: two) */
#define KB_ASM_MAX		2
/* --unroll: the default and the largest */
#define KB_ASM_UNROLL_DEFAULT	100
#define KB_ASM_UNROLL_MAX	10000
/* the scratch buffer a snippet gets */
#define KB_ASM_SCRATCH_BYTES	4096

struct kb_asm {
	unsigned int n;			/* snippets */
	const char *code[KB_ASM_MAX];
	uint32_t unroll;		/* copies an iteration */
	const char *keep;		/* --keep DIR: build there and keep it */
	const char *sign_key, *sign_cert;	/* --sign-key, --sign-cert */
	/* built: */
	char dir[4096];			/* where the source and object are */
	bool tmp;			/* dir is ours to remove */
	void *so;			/* dlopen() handle */
	void (*run[KB_ASM_MAX])(unsigned int iterations, void *data);
	void *scratch[KB_ASM_MAX];
	enum kb_asm_arch arch;		/* built for (0: this machine) */
	bool check_only;		/* assembled, not loaded */
	/* in the kernel: a module built from them (kmod.c) */
	bool kernel;
	bool built_only;		/* for another kernel: not loaded */
	bool loaded;
};

/* The routine name of snippet @i ("asm1", "asm2"). */
const char *kb_asm_name(unsigned int i);

/*
 * Write the snippets' source, assemble it with $CC (cc) into a shared
 * object (reused from --keep DIR when the source there is the same) and
 * load it.  0, or -EINVAL after the assembler's message in the snippet's
 * line and column, -ENOENT when there is no compiler (what to install),
 * -EIO.  @sub names the subcommand in messages.
 */
int kb_asm_build(const char *sub, struct kb_asm *a);

/*
 * kb_asm_build(), then the snippets as userspace routines (twin.h) named
 * kb_asm_name(i).  0 or -errno (printed).
 */
int kb_asm_prepare(const char *sub, struct kb_asm *a);	/* prepare.c */

/*
 * In the kernel (kmod.c): the snippets checked by the assembler (their
 * errors mapped as above), written as a module on kbench's build kit in
 * a->dir (--keep DIR, reused when unchanged, or a temporary one), built
 * against KDIR (default the running kernel's) and loaded, registering
 * routines kb_asm_name(i).  Built for another kernel: built_only, not
 * loaded.  0 or -errno (printed).
 */
int kb_asm_kernel_build(const char *sub, struct kb_asm *a);
void kb_asm_kernel_unload(struct kb_asm *a);
/*
 * The snippet (1-based) whose copy faulted in the loaded module, caught by
 * its exception table (kmod.c), or 0.
 */
int kb_asm_kernel_faulted(const struct kb_asm *a);

/* The code of the snippet measured as @routine now, or NULL (prepare.c). */
const char *kb_asm_code(const char *routine);

/* Unload and (without --keep) remove the build (prepare.c). */
void kb_asm_free(struct kb_asm *a);
/* kb_asm_free()'s userspace part: the object unloaded, its files removed. */
void kb_asm_user_free(struct kb_asm *a);

/*
 * The source for @a's snippets into @buf (@len bytes); the first line of
 * each snippet's first copy in @line (1-based).  The length written, or
 * -E2BIG.  (The builder's; the unit tests check it.)
 */
int kb_asm_source(const struct kb_asm *a, char *buf, size_t len,
		  unsigned int line[KB_ASM_MAX]);

/*
 * The assembler's stderr @msgs mapped onto the snippets (@line: their
 * first lines in the source, as kb_asm_source() gave): each message once,
 * "--asm 'CODE': line L, column C: MESSAGE" and the line with a caret,
 * into @out.  The number of messages that fell in a snippet.
 */
unsigned int kb_asm_map_errors(const struct kb_asm *a, const char *msgs,
			       const unsigned int line[KB_ASM_MAX], char *out,
			       size_t len);

#endif /* KBENCHCTL_ASM_H */
