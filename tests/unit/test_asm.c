// SPDX-License-Identifier: GPL-2.0
/*
 * --asm (user/asm/asm.c): the source around a snippet, the assembler's
 * messages mapped onto the snippet's line and column, and the command
 * line's paths: a bad snippet, no compiler, a run, a reused --keep DIR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm.h"
#include "tap.h"
#include "tests.h"

static void test_map(void)
{
	struct kb_asm a = { .n = 2, .unroll = 3 };
	unsigned int line[KB_ASM_MAX];
	char src[65536], out[4096], msgs[1024];
	unsigned int n;
	int len;

	a.code[0] = "add %rax, %rbx";
	a.code[1] = "nop\n  add %rax, %rbx; fooo %rcx";
	len = kb_asm_source(&a, src, sizeof(src), line);
#if defined(__x86_64__) || defined(__aarch64__) || defined(__powerpc64__)
	ok(len > 0 && line[0] < line[1] && strstr(src, "\t.rept 3\n") &&
	   strstr(src, "kbench_asm_1:") && strstr(src, "kbench_asm_2:"),
	   "asm: the source holds both routines, each snippet in a .rept of 3 (lines %u and %u)",
	   line[0], line[1]);
#else
	ok(len == -EOPNOTSUPP, "asm: no loop on this architecture: refused");
	return;
#endif
	/* gas repeats a message once per copy of a .rept */
	snprintf(msgs, sizeof(msgs),
		 "/tmp/x/kbench_asm.s: Assembler messages:\n"
		 "/tmp/x/kbench_asm.s:%u: Error: no such instruction: `fooo %%rcx'\n"
		 "/tmp/x/kbench_asm.s:%u: Error: no such instruction: `fooo %%rcx'\n"
		 "/tmp/x/kbench_asm.s:%u: Error: no such instruction: `fooo %%rcx'\n",
		 line[1] + 1, line[1] + 1, line[1] + 1);
	n = kb_asm_map_errors(&a, msgs, line, out, sizeof(out));
	ok(n == 1 && !strcmp(out,
	   "--asm 'nop\n  add %rax, %rbx; fooo %rcx': line 2, column 19: Error: no such instruction: `fooo %rcx'\n"
	   "      add %rax, %rbx; fooo %rcx\n"
	   "                      ^\n"),
	   "asm: a message of the second snippet's line 2 once, with its column and a caret");
	if (n != 1)
		diag("%u: %s", n, out);
	/* no quoted text: the line's first instruction */
	snprintf(msgs, sizeof(msgs), "k.s:%u: Error: junk at end of line\n",
		 line[0]);
	n = kb_asm_map_errors(&a, msgs, line, out, sizeof(out));
	ok(n == 1 && strstr(out, "--asm 'add %rax, %rbx': line 1, column 1: Error: junk at end of line\n"),
	   "asm: without quoted text, the column of the line's first instruction");
	/* outside the snippets: passed on as it is */
	n = kb_asm_map_errors(&a, "k.s:1: Error: odd\n", line, out, sizeof(out));
	ok(n == 0 && !strcmp(out, "k.s:1: Error: odd\n"),
	   "asm: a message outside the snippets is kept as the assembler wrote it");
}

static int cmd(const char *args, char **out)
{
	char c[1100];

	snprintf(c, sizeof(c), "%s 2>&1", args);
	return unit_cmd_out(c, out);
}

static void test_asm_cli(void)
{
	char c[1024], dir[] = "/tmp/kbench-asm-test-XXXXXX", *out;
	int rc;

#if !defined(__x86_64__)
	skip("the snippets below are x86_64's", "asm: command line");
	return;
#endif
	snprintf(c, sizeof(c), "%s run --asm 'add %%rax, %%rbx; fooo %%rcx' --user",
		 kbenchctl_bin);
	rc = cmd(c, &out);
	if (!ok(rc == 2 && !strcmp(out,
		"kbenchctl run: --asm 'add %rax, %rbx; fooo %rcx': line 1, column 17: Error: no such instruction: `fooo %rcx'\n"
		"    add %rax, %rbx; fooo %rcx\n"
		"                    ^\n"),
		"asm: a bad snippet: the assembler's message at its line and column, exit 2"))
		diag("exit %d: %s", rc, out);
	free(out);

	snprintf(c, sizeof(c), "CC=kbench-no-such-cc %s run --asm nop --user",
		 kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "kbenchctl: --asm: no C compiler 'kbench-no-such-cc' to assemble the snippet: install one (Debian: apt install gcc) or name it in CC"),
	   "asm: no compiler: what to install, exit 2");
	free(out);

	/* in the kernel without the build kit: the kit's own message */
	snprintf(c, sizeof(c),
		 "KBENCH_MK= PKG_CONFIG_PATH=/nonexistent PKG_CONFIG_LIBDIR=/nonexistent %s run --asm nop",
		 kbenchctl_bin);
	rc = cmd(c, &out);
	if (!ok(rc == 1 && strstr(out, "kbenchctl run: --asm: building the module in ") &&
		strstr(out, "kbench's build kit not found: install kbench (make install), set"),
		"asm: in the kernel without kbench's build kit: what to install, exit 1"))
		diag("exit %d: %s", rc, out);
	free(out);
	snprintf(c, sizeof(c), "%s run --asm fooo", kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "kbenchctl run: --asm 'fooo': line 1, column 1: Error: no such instruction: `fooo'"),
	   "asm: in the kernel too, a bad snippet is the assembler's message at its line and column before any module is built");
	free(out);
	snprintf(c, sizeof(c), "%s run add_chain --user --unroll 4", kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "kbenchctl run: --unroll goes with --asm CODE"),
	   "asm: --unroll without --asm is refused");
	free(out);
	snprintf(c, sizeof(c), "%s run add_chain --asm nop --user", kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "kbenchctl run: --asm measures its snippet instead of routines: not with 'add_chain'"),
	   "asm: routines and --asm do not mix");
	free(out);
	snprintf(c, sizeof(c), "%s run --asm ' ; ' --user", kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "an empty snippet"), "asm: an empty snippet is refused");
	free(out);
	snprintf(c, sizeof(c), "env -u CC -u CROSS_COMPILE ARCH=arm64 %s run --asm nop --user",
		 kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "kbenchctl run: --asm for ARCH=arm64 on this x86_64 machine: nothing of it runs here; --keep DIR keeps the build for the arm64 machine"),
	   "asm: ARCH naming another machine without --keep: nothing would be left, refused");
	free(out);
	snprintf(c, sizeof(c), "env -u CC -u CROSS_COMPILE ARCH=arm64 %s run --asm nop --user --keep /tmp/kbench-unit-never",
		 kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "name its compiler in CROSS_COMPILE (Debian: apt install gcc-aarch64-linux-gnu; CROSS_COMPILE=aarch64-linux-gnu-)") &&
	   access("/tmp/kbench-unit-never", F_OK),
	   "asm: ARCH=arm64 with no cross compiler named: which to install and how to name it, nothing made");
	free(out);
	snprintf(c, sizeof(c), "ARCH=sparc %s run --asm nop --user", kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "kbenchctl run: --asm: ARCH=sparc: no loop for it (x86_64, arm64 and powerpc have one; unset ARCH for this machine's)"),
	   "asm: an ARCH with no loop is named");
	free(out);
	snprintf(c, sizeof(c), "%s run --asm nop --sign-key k.pem", kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "kbenchctl run: --sign-key wants --sign-cert too: a key and its certificate"),
	   "asm: --sign-key without its certificate is refused");
	free(out);
	snprintf(c, sizeof(c), "%s run --asm nop --user --sign-key k.pem --sign-cert c.der",
		 kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "kbenchctl run: --sign-key goes with --asm CODE in the kernel (a module to sign)"),
	   "asm: --sign-key with --user (nothing to sign) is refused");
	free(out);
	if (system("command -v aarch64-linux-gnu-gcc >/dev/null 2>&1")) {
		skip("no aarch64-linux-gnu-gcc", "asm: a build kept for arm64");
	} else {
		snprintf(c, sizeof(c),
			 "d=$(mktemp -d) && ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- %s run --asm 'add x3, x3, x4' --unroll 4 --user --keep $d/k 2>&1 && grep -c -e 'subs x28, x28, #1' -e 'stp d8, d9' $d/k/kbench_asm.s && file $d/k/kbench_asm.so; rm -rf $d",
			 kbenchctl_bin);
		rc = cmd(c, &out);
		if (!ok(rc == 0 && strstr(out, "kbench_asm.so built for ARCH=arm64, not this machine: kept in ") &&
			strstr(out, "not loaded\n2\n") && strstr(out, "ARM aarch64"),
			"asm: ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- --user --keep DIR: arm64's loop, assembled by the cross compiler, kept, not loaded"))
			diag("exit %d: %s", rc, out);
		free(out);
	}
	snprintf(c, sizeof(c), "%s compare --asm nop --asm nop --asm nop --user",
		 kbenchctl_bin);
	rc = cmd(c, &out);
	ok(rc == 2 && strstr(out, "at most 2 snippets"), "asm: at most two snippets");
	free(out);

	/* a run: per copy, the loop stated; --keep DIR keeps and reuses */
	if (!mkdtemp(dir)) {
		ok(0, "asm: mkdtemp");
		return;
	}
	snprintf(c, sizeof(c),
		 "%s --json run --asm 'add %%rax, %%rax' --unroll 8 --user --samples 50 --keep %s/k | grep -c -e '\"unroll\": 8' -e '\"code\": \"add %%rax, %%rax\"' -e '\"loop_per_copy\"'",
		 kbenchctl_bin, dir);
	rc = cmd(c, &out);
	ok(rc == 0 && atoi(out) == 3, "asm: --json: the copies, the snippet, the loop's share per copy");
	free(out);
	snprintf(c, sizeof(c),
		 "touch -d '2000-01-01' %s/k/kbench_asm.so && %s run --asm 'add %%rax, %%rax' --unroll 8 --user --samples 20 --keep %s/k >/dev/null && find %s/k/kbench_asm.so -newermt 2001-01-01 | wc -l",
		 dir, kbenchctl_bin, dir, dir);
	rc = cmd(c, &out);
	ok(rc == 0 && atoi(out) == 0, "asm: --keep DIR with the same snippet: its build reused, not rebuilt");
	free(out);
	snprintf(c, sizeof(c),
		 "%s run --asm 'add %%rax, %%rax' --unroll 9 --user --samples 20 --keep %s/k >/dev/null && grep -c '.rept 9' %s/k/kbench_asm.s",
		 kbenchctl_bin, dir, dir);
	rc = cmd(c, &out);
	ok(rc == 0 && atoi(out) == 1, "asm: --keep DIR with another --unroll: rebuilt");
	free(out);
	/* valgrind: a compare of two snippets in core cycles, a bad snippet */
	snprintf(c, sizeof(c),
		 "command -v valgrind >/dev/null || exit 77; V='valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99'; $V %s compare --asm 'add %%rax, %%rax' --asm nop --user --samples 20 --unit core >/dev/null 2>&1; a=$?; $V %s run --asm fooo --user >/dev/null 2>&1; echo $a $?",
		 kbenchctl_bin, kbenchctl_bin);
	rc = cmd(c, &out);
	if (rc == 77)
		skip("no valgrind", "valgrind kbenchctl --asm: no errors, no leaks");
	else
		ok(rc == 0 && !strcmp(out, "0 2\n"),
		   "valgrind kbenchctl compare --asm A --asm B --unit core, and a bad snippet: no errors, no leaks");
	free(out);
	snprintf(c, sizeof(c), "rm -rf %s", dir);
	rc = cmd(c, &out);
	free(out);
}

void test_asm(void)
{
	test_map();
	test_asm_cli();
}
