// SPDX-License-Identifier: GPL-2.0
/*
 * --asm CODE in userspace (asm.h): the snippet in a loop of the target's
 * own assembly, assembled by the C compiler into a shared object, loaded
 * with dlopen() and timed by libkbench as any other routine.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asm.h"
#include "base.h"

#define SRC	"kbench_asm.s"
#define OBJ	"kbench_asm.so"

const char *kb_asm_name(unsigned int i)
{
	static const char *const names[KB_ASM_MAX] = { "asm1", "asm2" };

	return i < KB_ASM_MAX ? names[i] : "asm";
}

/*
 * Per architecture: the routine's entry (void fn(unsigned int n, void
 * *data): n in the first argument register, data in the second) up to
 * the loop's label 1, and the loop's end (the empty routine's two
 * instructions) through the return.  %s: the symbol.  Every target's
 * loop is here, whatever this machine is: ARCH names another one for a
 * build kept for it (kb_asm_arch_target()).
 */
static const char x86_head[] =
	"\t.text\n"
	"\t.globl %s\n"
	"\t.type %s, @function\n"
	"\t.p2align 6\n"
	"%s:\n"
	KB_ASM_X86_LOOP_HEAD;
static const char x86_tail[] =
	KB_ASM_X86_LOOP_TAIL "\tret\n"
	"\t.size %s, .-%s\n";
/* no executable stack ('@' comments nothing on x86 and powerpc) */
static const char stack_note[] = "\t.section .note.GNU-stack,\"\",@progbits\n";

static const char arm64_head[] =
	"\t.text\n"
	"\t.globl %s\n"
	"\t.type %s, %%function\n"
	"\t.p2align 6\n"
	"%s:\n"
	"\tcbz w0, 3f\n"
	"\tstp x29, x30, [sp, #-160]!\n"
	"\tstp x19, x20, [sp, #16]\n\tstp x21, x22, [sp, #32]\n"
	"\tstp x23, x24, [sp, #48]\n\tstp x25, x26, [sp, #64]\n"
	"\tstp x27, x28, [sp, #80]\n\tstp d8, d9, [sp, #96]\n"
	"\tstp d10, d11, [sp, #112]\n\tstp d12, d13, [sp, #128]\n"
	"\tstp d14, d15, [sp, #144]\n"
	KB_ASM_ARM64_LOOP_HEAD;
static const char arm64_tail[] =
	KB_ASM_ARM64_LOOP_TAIL
	"\tldp d14, d15, [sp, #144]\n\tldp d12, d13, [sp, #128]\n"
	"\tldp d10, d11, [sp, #112]\n\tldp d8, d9, [sp, #96]\n"
	"\tldp x27, x28, [sp, #80]\n\tldp x25, x26, [sp, #64]\n"
	"\tldp x23, x24, [sp, #48]\n\tldp x21, x22, [sp, #32]\n"
	"\tldp x19, x20, [sp, #16]\n"
	"\tldp x29, x30, [sp], #160\n"
	"3:\tret\n"
	"\t.size %s, .-%s\n";
static const char arm64_stack_note[] = "\t.section .note.GNU-stack,\"\",%%progbits\n";

/*
 * ELFv2: r14-r31 and f14-f31 saved below the stack pointer (the 288-byte
 * protected zone holds exactly them), CR in the caller's CR save word.
 */
static const char ppc64_head[] =
	"\t.abiversion 2\n"
	"\t.text\n"
	"\t.globl %s\n"
	"\t.type %s, @function\n"
	"\t.p2align 6\n"
	"%s:\n"
	"\tcmpwi 3, 0\n"
	"\tbeqlr\n"
	KB_ASM_PPC64_SAVE_GPRS
	"\tstfd 14, -288(1)\n\tstfd 15, -280(1)\n\tstfd 16, -272(1)\n"
	"\tstfd 17, -264(1)\n\tstfd 18, -256(1)\n\tstfd 19, -248(1)\n"
	"\tstfd 20, -240(1)\n\tstfd 21, -232(1)\n\tstfd 22, -224(1)\n"
	"\tstfd 23, -216(1)\n\tstfd 24, -208(1)\n\tstfd 25, -200(1)\n"
	"\tstfd 26, -192(1)\n\tstfd 27, -184(1)\n\tstfd 28, -176(1)\n"
	"\tstfd 29, -168(1)\n\tstfd 30, -160(1)\n\tstfd 31, -152(1)\n"
	KB_ASM_PPC64_LOOP_HEAD;
static const char ppc64_tail[] =
	KB_ASM_PPC64_LOOP_TAIL
	KB_ASM_PPC64_RESTORE_GPRS
	"\tlfd 14, -288(1)\n\tlfd 15, -280(1)\n\tlfd 16, -272(1)\n"
	"\tlfd 17, -264(1)\n\tlfd 18, -256(1)\n\tlfd 19, -248(1)\n"
	"\tlfd 20, -240(1)\n\tlfd 21, -232(1)\n\tlfd 22, -224(1)\n"
	"\tlfd 23, -216(1)\n\tlfd 24, -208(1)\n\tlfd 25, -200(1)\n"
	"\tlfd 26, -192(1)\n\tlfd 27, -184(1)\n\tlfd 28, -176(1)\n"
	"\tlfd 29, -168(1)\n\tlfd 30, -160(1)\n\tlfd 31, -152(1)\n"
	"\tlwz 0, 8(1)\n\tmtcr 0\n"
	"\tblr\n"
	"\t.size %s, .-%s\n";

static const struct {
	const char *name;	/* kbuild's ARCH */
	const char *head, *tail, *note;
	const char *gcc, *cross;	/* Debian's gcc-GCC, CROSS_COMPILE */
} loops[] = {
	[KB_ASM_X86_64] = { "x86_64", x86_head, x86_tail, stack_note,
			    "x86-64-linux-gnu", "x86_64-linux-gnu-" },
	[KB_ASM_ARM64] = { "arm64", arm64_head, arm64_tail, arm64_stack_note,
			   "aarch64-linux-gnu", "aarch64-linux-gnu-" },
	[KB_ASM_PPC64] = { "powerpc", ppc64_head, ppc64_tail, stack_note,
			   "powerpc64le-linux-gnu", "powerpc64le-linux-gnu-" },
};

enum kb_asm_arch kb_asm_arch_native(void)
{
#if defined(__x86_64__)
	return KB_ASM_X86_64;
#elif defined(__aarch64__)
	return KB_ASM_ARM64;
#elif defined(__powerpc64__)
	return KB_ASM_PPC64;
#else
	return KB_ASM_NATIVE;	/* none: refused */
#endif
}

enum kb_asm_arch kb_asm_arch_target(void)
{
	const char *arch = getenv("ARCH");

	if (!arch || !arch[0])
		return kb_asm_arch_native();
	if (!strcmp(arch, "x86_64") || !strcmp(arch, "x86"))
		return KB_ASM_X86_64;
	if (!strcmp(arch, "arm64"))
		return KB_ASM_ARM64;
	if (!strcmp(arch, "powerpc"))
		return KB_ASM_PPC64;
	return KB_ASM_NATIVE;
}

const char *kb_asm_arch_name(enum kb_asm_arch arch)
{
	return arch > KB_ASM_NATIVE && arch < KB_ASM_NARCH ? loops[arch].name : "none";
}

/* The symbol of snippet @i. */
static void sym_of(unsigned int i, char *buf, size_t len)
{
	snprintf(buf, len, "kbench_asm_%u", i + 1);
}

static unsigned int lines_of(const char *s)
{
	unsigned int n = 1;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Append printf output at *@at of @buf; false when it did not fit. */
static bool __attribute__((format(printf, 4, 5)))
put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *at, *at < len ? len - *at : 0, fmt, ap);
	va_end(ap);
	if (n < 0 || *at + (size_t)n >= len)
		return false;
	*at += (size_t)n;
	return true;
}

static unsigned int count_lines(const char *buf, size_t at)
{
	unsigned int n = 1;
	size_t i;

	for (i = 0; i < at; i++)
		n += buf[i] == '\n';
	return n;
}

int kb_asm_source(const struct kb_asm *a, char *buf, size_t len,
		  unsigned int line[KB_ASM_MAX])
{
	enum kb_asm_arch arch = a->arch ? a->arch : kb_asm_arch_native();
	char sym[32];
	size_t at = 0;
	unsigned int i;

	if (arch <= KB_ASM_NATIVE || arch >= KB_ASM_NARCH)
		return -EOPNOTSUPP;
	/* the snippets are written as given: their lines are the source's */
	for (i = 0; i < a->n; i++) {
		sym_of(i, sym, sizeof(sym));
		if (!put(buf, len, &at, loops[arch].head, sym, sym, sym) ||
		    !put(buf, len, &at, "\t.rept %u\n", a->unroll))
			return -E2BIG;
		line[i] = count_lines(buf, at);
		if (!put(buf, len, &at, "%s\n\t.endr\n", a->code[i]) ||
		    !put(buf, len, &at, loops[arch].tail, sym, sym))
			return -E2BIG;
	}
	if (!put(buf, len, &at, loops[arch].note))
		return -E2BIG;
	return (int)at;
}

/* Where in @line the assembler's quoted text (`...') of @msg starts. */
static size_t column_of(const char *code_line, size_t n, const char *msg)
{
	const char *q = strchr(msg, '`'), *e;
	size_t k, i;

	if (q && (e = strchr(q + 1, '\'')) && e > q + 1) {
		k = (size_t)(e - q - 1);
		for (i = 0; i + k <= n; i++)
			if (!strncmp(code_line + i, q + 1, k))
				return i;
	}
	for (i = 0; i < n && (code_line[i] == ' ' || code_line[i] == '\t'); i++)
		;
	return i < n ? i : 0;
}

unsigned int kb_asm_map_errors(const struct kb_asm *a, const char *msgs,
			       const unsigned int line[KB_ASM_MAX], char *out,
			       size_t len)
{
	const char *p = msgs, *nl, *c, *m, *cl;
	unsigned int mapped = 0, i, l, k;
	char entry[1024];
	size_t at = 0, col, n;

	out[0] = '\0';
	for (; *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		/* "FILE.s:LINE: Error: MESSAGE" */
		c = strstr(p, ".s:");
		if (!c || c > nl || sscanf(c + 3, "%u:", &l) != 1)
			continue;
		m = strchr(c + 3, ':');
		if (!m || m > nl)
			continue;
		for (m++; *m == ' '; m++)
			;
		for (i = 0; i < a->n; i++)
			if (l >= line[i] && l < line[i] + lines_of(a->code[i]))
				break;
		if (i == a->n) {
			snprintf(entry, sizeof(entry), "%.*s\n", (int)(nl - p), p);
		} else {
			cl = a->code[i];
			for (k = line[i]; k < l; k++)
				cl = strchr(cl, '\n') + 1;
			n = strcspn(cl, "\n");
			col = column_of(cl, n, m);
			snprintf(entry, sizeof(entry),
				 "--asm '%s': line %u, column %zu: %.*s\n    %.*s\n    %*s^\n",
				 a->code[i], l - line[i] + 1, col + 1,
				 (int)(nl - m), m, (int)n, cl, (int)col, "");
		}
		/* .rept repeats each message once a copy: keep the first */
		if (strstr(out, entry))
			continue;
		if (strlen(entry) >= len - at)
			break;
		memcpy(out + at, entry, strlen(entry) + 1);
		at += strlen(entry);
		mapped += i < a->n;
	}
	return mapped;
}

/* Read all of @fd into a malloc'd, NUL-terminated string (NULL: none). */
static char *slurp(int fd)
{
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	ssize_t r;

	while (s && (r = read(fd, s + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (cap - n < 1024) {
			char *t = realloc(s, cap *= 2);

			if (!t) {
				free(s);
				return NULL;
			}
			s = t;
		}
	}
	if (s)
		s[n] = '\0';
	return s;
}

/*
 * $CC -shared -nostdlib SRC -o OBJ in @dir, its stderr in *@err.  The
 * exit status, 127 when the compiler could not be run, -1 on failure.
 */
static int compile(const char *cc, const char *dir, char **err)
{
	char src[4200], obj[4200];
	int pfd[2], status;
	pid_t pid;

	snprintf(src, sizeof(src), "%s/" SRC, dir);
	snprintf(obj, sizeof(obj), "%s/" OBJ, dir);
	if (pipe(pfd))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (!pid) {
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execlp(cc, cc, "-shared", "-nostdlib", "-Wa,--noexecstack",
		       "-o", obj, src, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	*err = slurp(pfd[0]);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Is @path a file holding exactly @len bytes of @text? */
static bool same_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_RDONLY);
	char *s;
	bool same;

	if (fd < 0)
		return false;
	s = slurp(fd);
	close(fd);
	same = s && strlen(s) == len && !memcmp(s, text, len);
	free(s);
	return same;
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len)
		err = -EIO;
	if (fclose(f) && !err)
		err = -EIO;
	return err;
}

/* The build directory: --keep DIR (made), else a fresh temporary one. */
static int make_dir(const char *sub, struct kb_asm *a)
{
	const char *tmp = getenv("TMPDIR");

	if (a->keep) {
		if (mkdir(a->keep, 0755) && errno != EEXIST) {
			kb_arg_error(sub, "--keep %s: cannot make it: %s", a->keep,
				     strerror(errno));
			return -EINVAL;
		}
		snprintf(a->dir, sizeof(a->dir), "%s", a->keep);
		return 0;
	}
	snprintf(a->dir, sizeof(a->dir), "%s/kbench-asm-XXXXXX",
		 tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(a->dir)) {
		fprintf(stderr, "%s: --asm: cannot make a build directory in %s: %s (set TMPDIR to a writable directory)\n",
			prog, tmp && tmp[0] == '/' ? tmp : "/tmp", strerror(errno));
		return -EIO;
	}
	a->tmp = true;
	return 0;
}

/*
 * The target (asm.h) into a->arch and, for another machine's, its
 * compiler into *@cc: $CROSS_COMPILE's gcc, as kbuild takes it, else $CC.
 * 0 or -EINVAL (printed).
 */
static int target(const char *sub, struct kb_asm *a, const char **cc,
		  char *buf, size_t len)
{
	const char *arch = getenv("ARCH"), *cross = getenv("CROSS_COMPILE");
	const char *own = kb_asm_arch_name(kb_asm_arch_native());

	a->arch = kb_asm_arch_target();
	if (a->arch == KB_ASM_NATIVE && arch && arch[0])
		return kb_arg_error(sub, "--asm: ARCH=%s: no loop for it (x86_64, arm64 and powerpc have one; unset ARCH for this machine's)",
				    arch);
	if (a->arch == KB_ASM_NATIVE)
		return kb_arg_error(sub, "--asm: no loop for this architecture (x86_64, arm64 and powerpc64 have one)");
	if (a->arch == kb_asm_arch_native())
		return 0;
	if (!a->keep && !a->check_only)
		return kb_arg_error(sub, "--asm for ARCH=%s on this %s machine: nothing of it runs here; --keep DIR keeps the build for the %s machine",
				    arch, own, arch);
	if (cross && cross[0]) {
		snprintf(buf, len, "%sgcc", cross);
		*cc = buf;
	} else if (!getenv("CC")) {
		return kb_arg_error(sub, "--asm for ARCH=%s on this %s machine: name its compiler in CROSS_COMPILE (Debian: apt install gcc-%s; CROSS_COMPILE=%s)",
				    arch, own, loops[a->arch].gcc,
				    loops[a->arch].cross);
	}
	return 0;
}

int kb_asm_build(const char *sub, struct kb_asm *a)
{
	const char *cc = getenv("CC");
	unsigned int line[KB_ASM_MAX], i;
	char ccbuf[512];
	char path[4200], sym[32], *err = NULL, *msg;
	size_t len = 65536;
	char *src = NULL;
	int n, rc, ret;

	if (!cc || !cc[0])
		cc = "cc";
	ret = target(sub, a, &cc, ccbuf, sizeof(ccbuf));
	if (ret)
		return ret;
	do {
		free(src);
		len *= 4;
		src = malloc(len);
		n = src ? kb_asm_source(a, src, len, line) : -ENOMEM;
	} while (n == -E2BIG && len < (256u << 20));
	if (n < 0) {
		free(src);
		return kb_arg_error(sub, "--asm: the source of %u copies does not fit in memory: a smaller --unroll",
				    a->unroll);
	}
	ret = make_dir(sub, a);
	if (ret)
		goto out_free;
	snprintf(path, sizeof(path), "%s/" SRC, a->dir);
	/* --keep DIR with this very source built there already: reuse it */
	if (!(a->keep && same_file(path, src, (size_t)n) &&
	      (snprintf(path, sizeof(path), "%s/" OBJ, a->dir), !access(path, R_OK)))) {
		snprintf(path, sizeof(path), "%s/" SRC, a->dir);
		ret = write_file(path, src, (size_t)n);
		if (ret) {
			fprintf(stderr, "%s: --asm: cannot write %s: %s\n", prog,
				path, strerror(-ret));
			ret = -EIO;
			goto out_free;
		}
		rc = compile(cc, a->dir, &err);
		if (rc == 127) {
			fprintf(stderr, "%s: --asm: no C compiler '%s' to assemble the snippet: install one (Debian: apt install gcc) or name it in CC\n",
				prog, cc);
			ret = -ENOENT;
			goto out_free;
		}
		if (rc) {
			msg = malloc(len);
			if (msg && kb_asm_map_errors(a, err ? err : "", line, msg,
						     len))
				fprintf(stderr, "%s %s: %s", prog, sub, msg);
			else
				fprintf(stderr, "%s %s: --asm: %s failed (exit %d):\n%s",
					prog, sub, cc, rc, err ? err : "");
			free(msg);
			ret = -EINVAL;
			goto out_free;
		}
	}
	snprintf(path, sizeof(path), "%s/" OBJ, a->dir);
	if (a->check_only) {
		ret = 0;
		goto out_free;
	}
	if (a->arch != kb_asm_arch_native()) {
		fprintf(stderr, "%s: --asm: %s built for ARCH=%s, not this machine: kept in %s, not loaded\n",
			prog, OBJ, kb_asm_arch_name(a->arch), a->dir);
		a->built_only = true;
		ret = 0;
		goto out_free;
	}
	a->so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!a->so) {
		fprintf(stderr, "%s: --asm: cannot load %s: %s\n", prog, path,
			dlerror());
		ret = -EIO;
		goto out_free;
	}
	for (i = 0; i < a->n; i++) {
		sym_of(i, sym, sizeof(sym));
		*(void **)&a->run[i] = dlsym(a->so, sym);
		a->scratch[i] = aligned_alloc(64, KB_ASM_SCRATCH_BYTES);
		if (!a->run[i] || !a->scratch[i]) {
			fprintf(stderr, "%s: --asm: %s: %s\n", prog, path,
				a->run[i] ? "out of memory" : "no routine in it");
			ret = -EIO;
			goto out_free;
		}
		memset(a->scratch[i], 0, KB_ASM_SCRATCH_BYTES);
	}
	ret = 0;
out_free:
	free(src);
	free(err);
	return ret;
}

void kb_asm_user_free(struct kb_asm *a)
{
	char path[4200];
	unsigned int i;

	for (i = 0; i < KB_ASM_MAX; i++) {
		free(a->scratch[i]);
		a->scratch[i] = NULL;
	}
	if (a->so)
		dlclose(a->so);
	a->so = NULL;
	if (a->tmp && !a->kernel) {
		snprintf(path, sizeof(path), "%s/" SRC, a->dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/" OBJ, a->dir);
		unlink(path);
		rmdir(a->dir);
		a->tmp = false;
	}
}
