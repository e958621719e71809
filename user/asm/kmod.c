// SPDX-License-Identifier: GPL-2.0
/*
 * --asm CODE in the kernel (asm.h): the snippets first assembled as in
 * userspace (the assembler's messages at the snippet's line and column,
 * in a fraction of a second), then written as a module on kbench's build
 * kit - the same loop in a .S file through the kernel's own linkage
 * macros (SYM_FUNC_START: ENDBR where IBT is on; RET: the return thunk),
 * a C file that registers the routines - built against KDIR (default the
 * running kernel's build tree), loaded, measured and unloaded.  Built for
 * another kernel than the running one, it is only built (and kept).
 *
 * Root's responsibility: the snippet runs in the kernel with interrupts
 * off.  Each of its statements has an exception table entry, so a fault
 * the kernel hands to the table (x86: a general protection fault, an
 * invalid opcode, a divide error, a page fault on a kernel address;
 * arm64 and powerpc: a data access fault) returns from the routine and
 * says which snippet (the module's faulted parameter); anything else -
 * a user address under SMAP or PAN, an undefined instruction on arm64,
 * a wild write that lands - is the kernel's to handle, as for any
 * module.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asm.h"
#include "base.h"

#define KMOD_NAME	"kbench_asm"

/*
 * Per architecture, the module's routine: its entry through the kernel's
 * linkage macros (SYM_FUNC_START: BTI or ENDBR where the kernel has them;
 * x86's RET: the return thunk), the callee-saved registers kept (no
 * floating-point or vector register: the kernel's own code may not touch
 * them), the loop as in userspace (asm.h); then (the tail) the loop's
 * end, the registers back (label 9991) and the return, and the fixup that
 * the exception table sends a faulting copy to: the snippet's number into
 * kbench_asm_faulted, then back to 9991.  A copy's every statement has its
 * entry (label 9992, put before it; no instruction added to the loop).
 * printf formats: head's %s the symbol, tail's %u the snippet's number.
 */
static const struct {
	const char *include, *head, *tail;
	const char *entry;	/* the table entry of label 9992 */
	char comment;		/* the assembler's comment character */
} kloops[] = {
	[KB_ASM_X86_64] = {
		.include = "#include <linux/linkage.h>\n#include <asm/asm.h>\n",
		.head = "SYM_FUNC_START(%s)\n" KB_ASM_X86_LOOP_HEAD,
		.tail = KB_ASM_X86_LOOP_END
			"9991:\n" KB_ASM_X86_LOOP_POPS "\n\tRET\n"
			"9990:\n\tmovl $%u, kbench_asm_faulted(%%rip)\n\tjmp 9991b\n",
		.entry = "\t_ASM_EXTABLE(9992b, 9990f)\n",
		.comment = '#',
	},
	[KB_ASM_ARM64] = {
		.include = "#include <linux/linkage.h>\n#include <asm/asm-extable.h>\n",
		.head = "SYM_FUNC_START(%s)\n"
			"\tcbz w0, 3f\n"
			"\tstp x29, x30, [sp, #-96]!\n"
			"\tmov x29, sp\n"
			"\tstp x19, x20, [sp, #16]\n\tstp x21, x22, [sp, #32]\n"
			"\tstp x23, x24, [sp, #48]\n\tstp x25, x26, [sp, #64]\n"
			"\tstp x27, x28, [sp, #80]\n"
			KB_ASM_ARM64_LOOP_HEAD,
		.tail = KB_ASM_ARM64_LOOP_TAIL
			"9991:\n"
			"\tldp x27, x28, [sp, #80]\n\tldp x25, x26, [sp, #64]\n"
			"\tldp x23, x24, [sp, #48]\n\tldp x21, x22, [sp, #32]\n"
			"\tldp x19, x20, [sp, #16]\n"
			"\tldp x29, x30, [sp], #96\n"
			"3:\tret\n"
			"9990:\n\tadrp x9, kbench_asm_faulted\n"
			"\tmov w10, #%u\n"
			"\tstr w10, [x9, :lo12:kbench_asm_faulted]\n"
			"\tb 9991b\n",
		.entry = "\t_ASM_EXTABLE_UACCESS(9992b, 9990f)\n",
		.comment = '/',
	},
	[KB_ASM_PPC64] = {
		.include = "#include <linux/linkage.h>\n",
		.head = "SYM_FUNC_START(%s)\n"
			"\tcmpwi 3, 0\n"
			"\tbeqlr\n"
			KB_ASM_PPC64_SAVE_GPRS
			KB_ASM_PPC64_LOOP_HEAD,
		/* the fixup: the flag's address from its own (no TOC of ours) */
		.tail = KB_ASM_PPC64_LOOP_TAIL
			"9991:\n" KB_ASM_PPC64_RESTORE_GPRS
			"\tlwz 0, 8(1)\n\tmtcr 0\n"
			"\tblr\n"
			"9990:\n\tmflr 0\n\tbcl 20, 31, 9993f\n"
			"9993:\tmflr 9\n\tmtlr 0\n"
			"\taddis 9, 9, (kbench_asm_faulted - 9993b)@ha\n"
			"\taddi 9, 9, (kbench_asm_faulted - 9993b)@l\n"
			"\tli 10, %u\n\tstw 10, 0(9)\n"
			"\tb 9991b\n",
		/* asm/extable.h's EX_TABLE, whose header is not for .S files */
		.entry = "\t.section __ex_table, \"a\"; .balign 4; .long (9992b) - .; .long (9990f) - .; .previous\n",
		.comment = '#',
	},
};
static const char kmakefile[] =
	"# SPDX-License-Identifier: GPL-2.0\n"
	"# written by kbenchctl --asm: the snippets as a kbench module\n"
	"obj-m := " KMOD_NAME ".o\n"
	KMOD_NAME "-y := " KMOD_NAME "_main.o " KMOD_NAME "_body.o\n"
	"KBENCH_MK ?= $(shell pkg-config --variable=mkfile kbench 2>/dev/null)\n"
	"ifeq ($(KBENCH_MK),)\n"
	"$(error kbench's build kit not found: install kbench (make install), set \\\n"
	"	PKG_CONFIG_PATH to the directory of its kbench.pc, or KBENCH_MK=/path/to/kbench.mk)\n"
	"endif\n"
	"include $(KBENCH_MK)\n"
	"all:\n"
	"\t$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBENCH_KBUILD_ARGS) modules\n";

static const char kmain_head[] =
	"// SPDX-License-Identifier: GPL-2.0\n"
	"/* written by kbenchctl --asm: the snippets as kbench routines */\n"
	"#include <linux/kbench.h>\n"
	"#include <linux/module.h>\n"
	"#include <linux/slab.h>\n"
	"\n";

/* Append to the growing string *@s (NULL on failure: then stays NULL). */
static void __attribute__((format(printf, 2, 3)))
cat(char **s, const char *fmt, ...)
{
	size_t old = *s ? strlen(*s) : 0;
	va_list ap;
	char *t;
	int n;

	if (!*s && old)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	t = n < 0 ? NULL : realloc(*s, old + (size_t)n + 1);
	if (!t) {
		free(*s);
		*s = NULL;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(t + old, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*s = t;
}

static int put_file(const char *dir, const char *name, const char *text)
{
	char path[4200];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fputs(text, f) == EOF)
		err = -EIO;
	if (fclose(f) && !err)
		err = -EIO;
	return err;
}

/*
 * The snippet @code into *@body, each statement (between ';' and line
 * ends, outside comments) after label 9992 and followed by its exception
 * table entry.  The instructions are the snippet's, in its order.
 */
static void put_statements(char **body, const char *code, int arch)
{
	const char *p = code, *e;
	size_t n;

	while (*p) {
		/* one statement: up to ';' or a line's end, a comment skipped */
		for (e = p; *e && *e != ';' && *e != '\n'; e++)
			if (*e == kloops[arch].comment &&
			    (kloops[arch].comment != '/' || e[1] == '/')) {
				e += strcspn(e, "\n");
				break;
			}
		n = (size_t)(e - p);
		if (strspn(p, " \t") < n)
			cat(body, "9992:\t%.*s\n%s", (int)n, p, kloops[arch].entry);
		p = *e ? e + 1 : e;
	}
}

/* The three files of the module; 0 or -errno. */
static int write_module(const struct kb_asm *a, const char *dir)
{
	char *body = NULL, *main = NULL, sym[32];
	int arch = a->arch;
	unsigned int i;
	int err;

	cat(&body, "/* SPDX-License-Identifier: GPL-2.0 */\n"
		   "/* written by kbenchctl --asm: the loops (asm.h) */\n"
		   "%s\t.text\n", kloops[arch].include);
	cat(&main, "%s", kmain_head);
	for (i = 0; i < a->n; i++) {
		snprintf(sym, sizeof(sym), "kbench_asm_%u", i + 1);
		cat(&body, kloops[arch].head, sym);
		cat(&body, "\t.rept %u\n", a->unroll);
		put_statements(&body, a->code[i], arch);
		cat(&body, "\t.endr\n");
		cat(&body, kloops[arch].tail, i + 1);
		cat(&body, "SYM_FUNC_END(%s)\n", sym);
		cat(&main, "void %s(unsigned int n, void *data);\n", sym);
	}
	cat(&main,
	    "\n/* the snippet that faulted (1-based): its fixup sets it */\n"
	    "extern int kbench_asm_faulted;\n"
	    "int kbench_asm_faulted;\n"
	    "module_param_named(faulted, kbench_asm_faulted, int, 0444);\n"
	    "MODULE_PARM_DESC(faulted, \"the snippet whose copy faulted, caught by the exception table (1-based; 0: none)\");\n");
	cat(&main, "\nstatic struct kbench_routine kbench_asm_routines[] = {\n");
	for (i = 0; i < a->n; i++)
		cat(&main, "\t{ .name = \"%s\", .desc = \"kbenchctl --asm snippet %u, %u copies an iteration\", .run = kbench_asm_%u },\n",
		    kb_asm_name(i), i + 1, a->unroll, i + 1);
	cat(&main,
	    "};\n\n"
	    "static int __init kbench_asm_init(void)\n{\n"
	    "\tunsigned int i;\n\tint err;\n\n"
	    "\tfor (i = 0; i < ARRAY_SIZE(kbench_asm_routines); i++) {\n"
	    "\t\tkbench_asm_routines[i].data = kzalloc(%d, GFP_KERNEL);\n"
	    "\t\tif (!kbench_asm_routines[i].data) {\n"
	    "\t\t\terr = -ENOMEM;\n\t\t\tgoto out_free;\n\t\t}\n\t}\n"
	    "\terr = kbench_register_routines(kbench_asm_routines,\n"
	    "\t\t\t\t       ARRAY_SIZE(kbench_asm_routines));\n"
	    "\tif (!err)\n\t\treturn 0;\n"
	    "out_free:\n"
	    "\tfor (i = 0; i < ARRAY_SIZE(kbench_asm_routines); i++)\n"
	    "\t\tkfree(kbench_asm_routines[i].data);\n"
	    "\treturn err;\n}\n\n"
	    "static void __exit kbench_asm_exit(void)\n{\n"
	    "\tunsigned int i;\n\n"
	    "\tkbench_unregister_routines(kbench_asm_routines,\n"
	    "\t\t\t\t   ARRAY_SIZE(kbench_asm_routines));\n"
	    "\tfor (i = 0; i < ARRAY_SIZE(kbench_asm_routines); i++)\n"
	    "\t\tkfree(kbench_asm_routines[i].data);\n}\n\n"
	    "module_init(kbench_asm_init);\n"
	    "module_exit(kbench_asm_exit);\n"
	    "MODULE_LICENSE(\"GPL\");\n"
	    "MODULE_DESCRIPTION(\"kbench: snippets of kbenchctl --asm\");\n",
	    KB_ASM_SCRATCH_BYTES);
	err = body && main ? 0 : -ENOMEM;
	if (!err)
		err = put_file(dir, KMOD_NAME "_body.S", body);
	if (!err)
		err = put_file(dir, KMOD_NAME "_main.c", main);
	if (!err)
		err = put_file(dir, "Makefile", kmakefile);
	free(body);
	free(main);
	return err;
}

/* Run @argv with stdout and stderr kept in *@out; its exit status. */
static int run_cmd(const char *const argv[], char **out)
{
	int pfd[2], status;
	size_t cap = 4096, n = 0;
	ssize_t r;
	pid_t pid;

	*out = malloc(cap);
	if (!*out || pipe(pfd))
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	while ((r = read(pfd[0], *out + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (cap - n < 1024) {
			char *t = realloc(*out, cap *= 2);

			if (!t)
				break;
			*out = t;
		}
	}
	(*out)[n] = '\0';
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The release a module was built for (its vermagic's first word). */
static bool vermagic(const char *ko, char *buf, size_t len)
{
	static const char key[] = "vermagic=";
	char *data, *p;
	bool found = false;
	size_t n = 0, cap = 1 << 20;
	ssize_t r;
	int fd = open(ko, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	data = malloc(cap);
	while (data && (r = read(fd, data + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (cap - n < 4096) {
			char *t = realloc(data, cap *= 2);

			if (!t)
				break;
			data = t;
		}
	}
	close(fd);
	if (data)
		data[n] = '\0';
	for (p = data; data && p + sizeof(key) < data + n; p++)
		if (!memcmp(p, key, sizeof(key) - 1)) {
			p += sizeof(key) - 1;
			snprintf(buf, len, "%.*s", (int)strcspn(p, " "), p);
			found = true;
			break;
		}
	free(data);
	return found;
}

/* Is @path's content exactly that of @other? */
static bool same_files(const char *a, const char *b)
{
	char cmd[9000];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return !system(cmd);
}

/* Does the kernel we run load only signed modules (Secure Boot)? */
static bool kernel_wants_signed(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/module/module/parameters/sig_enforce", "r");
	bool yes = false;

	if (f) {
		yes = fgets(buf, sizeof(buf), f) && buf[0] == 'Y';
		fclose(f);
	}
	f = fopen("/sys/kernel/security/lockdown", "r");
	if (f) {
		/* "none [integrity] confidentiality": anything but none */
		yes |= fgets(buf, sizeof(buf), f) && !strstr(buf, "[none]") &&
		       strchr(buf, '[');
		fclose(f);
	}
	return yes;
}

static bool is_signed(const char *ko)
{
	static const char magic[] = "~Module signature appended~\n";
	char tail[sizeof(magic) - 1];
	int fd = open(ko, O_RDONLY | O_CLOEXEC);
	bool yes;

	if (fd < 0)
		return false;
	yes = lseek(fd, -(off_t)sizeof(tail), SEEK_END) >= 0 &&
	      read(fd, tail, sizeof(tail)) == (ssize_t)sizeof(tail) &&
	      !memcmp(tail, magic, sizeof(tail));
	close(fd);
	return yes;
}

/*
 * Sign @ko when --sign-key was given, or when this kernel wants signed
 * modules (then with DKMS's key, if any), through KDIR's scripts/sign-file
 * and the kernel's CONFIG_MODULE_SIG_HASH; a module signed already is
 * left.  0, or -errno after a message saying what to do.
 */
static int sign(const char *sub, const struct kb_asm *a, const char *ko,
		bool loading)
{
	static const char dkms_key[] = "/var/lib/dkms/mok.key";
	static const char dkms_cert[] = "/var/lib/dkms/mok.pub";
	const char *key = a->sign_key, *cert = a->sign_cert;
	const char *kdir = getenv("KDIR");
	char tool[4300], conf[4300], build[256], line[256], hash[64] = "sha256";
	char *argv_out = NULL;
	struct utsname u;
	FILE *f;
	int rc;

	if (is_signed(ko))
		return 0;
	if (!key) {
		if (!loading || !kernel_wants_signed())
			return 0;
		if (access(dkms_key, R_OK) || access(dkms_cert, R_OK))
			return kb_arg_error(sub, "--asm: this kernel loads only signed modules (Secure Boot or lockdown): --sign-key KEY --sign-cert CERT with a key it trusts (DKMS's, %s, enrolled with mokutil --import %s, is not readable here)",
					    dkms_key, dkms_cert);
		key = dkms_key;
		cert = dkms_cert;
	}
	if (kdir && strlen(kdir) > 4096)
		return kb_arg_error(sub, "KDIR: longer than 4096 characters");
	if (!kdir || !kdir[0]) {
		if (uname(&u))
			return -errno;
		snprintf(build, sizeof(build), "/lib/modules/%.64s/build", u.release);
		kdir = build;
	}
	snprintf(tool, sizeof(tool), "%s/scripts/sign-file", kdir);
	snprintf(conf, sizeof(conf), "%s/include/config/auto.conf", kdir);
	f = fopen(conf, "r");
	while (f && fgets(line, sizeof(line), f))
		/* "sha256", quoted or not */
		if (sscanf(line, "CONFIG_MODULE_SIG_HASH=%63[^\n]", hash) == 1) {
			if (hash[0] == '"')
				memmove(hash, hash + 1, strlen(hash));
			hash[strcspn(hash, "\"")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	if (access(tool, X_OK))
		return kb_arg_error(sub, "--asm: no %s to sign the module with: install the kernel's build tree (Debian: apt install linux-headers-$(uname -r))",
				    tool);
	rc = run_cmd((const char *const[]){ tool, hash, key, cert, ko, NULL },
		     &argv_out);
	if (rc) {
		fprintf(stderr, "%s %s: --asm: signing %s with %s failed (exit %d):\n%s",
			prog, sub, ko, key, rc, argv_out ? argv_out : "");
		free(argv_out);
		return -EIO;
	}
	free(argv_out);
	return 0;
}

int kb_asm_kernel_build(const char *sub, struct kb_asm *a)
{
	struct kb_asm check = *a;
	char src[4300], stage[4200], path[4400], kver[128], *out = NULL;
	struct utsname u;
	int err, rc, fd;
	bool reuse, other;

	a->arch = kb_asm_arch_target();
	if (a->arch == KB_ASM_NATIVE) {
		/* the assembler check below says why */
		check.check_only = true;
		return kb_asm_build(sub, &check);
	}

	if (!a->keep) {
		const char *tmp = getenv("TMPDIR");

		snprintf(a->dir, sizeof(a->dir), "%s/kbench-asm-XXXXXX",
			 tmp && tmp[0] == '/' ? tmp : "/tmp");
		if (!mkdtemp(a->dir))
			return kb_arg_error(sub, "--asm: cannot make a build directory: %s (set TMPDIR)",
					    strerror(errno));
		a->tmp = true;
	} else {
		if (mkdir(a->keep, 0755) && errno != EEXIST)
			return kb_arg_error(sub, "--keep %s: cannot make it: %s",
					    a->keep, strerror(errno));
		snprintf(a->dir, sizeof(a->dir), "%s", a->keep);
	}
	/* written aside first: an unchanged module in --keep DIR is reused */
	snprintf(stage, sizeof(stage), "%s/.new", a->dir);
	if (mkdir(stage, 0755) && errno != EEXIST)
		return kb_arg_error(sub, "--asm: cannot write in %s: %s", a->dir,
				    strerror(errno));
	err = write_module(a, stage);
	if (err) {
		fprintf(stderr, "%s: --asm: cannot write the module in %s: %s\n",
			prog, stage, strerror(-err));
		return -EIO;
	}
	snprintf(src, sizeof(src), "%s/" KMOD_NAME "_body.S", a->dir);
	snprintf(path, sizeof(path), "%s/" KMOD_NAME "_body.S", stage);
	reuse = same_files(src, path);
	snprintf(src, sizeof(src), "%s/" KMOD_NAME ".ko", a->dir);
	reuse = reuse && !access(src, R_OK);
	if (!reuse) {
		/* the snippet assembled as in userspace: its errors mapped */
		check.keep = NULL;
		check.check_only = true;
		check.kernel = false;	/* a userspace build, its own files */
		err = kb_asm_build(sub, &check);
		kb_asm_user_free(&check);
		if (err)
			return err;
	}
	if (!reuse) {
		static const char *const files[] = {
			KMOD_NAME "_body.S", KMOD_NAME "_main.c", "Makefile",
		};
		unsigned int i;

		for (i = 0; i < 3; i++) {
			char from[4300], to[4300];

			snprintf(from, sizeof(from), "%s/%s", stage, files[i]);
			snprintf(to, sizeof(to), "%s/%s", a->dir, files[i]);
			rename(from, to);
		}
		rc = run_cmd((const char *const[]){ "make", "-s", "-C", a->dir,
						     "all", NULL }, &out);
		if (rc) {
			fprintf(stderr, "%s %s: --asm: building the module in %s failed%s:\n%s",
				prog, sub, a->dir,
				rc == 127 ? " (no make: apt install make)" : "",
				out ? out : "");
			free(out);
			return rc == 127 ? -ENOENT : -EIO;
		}
		free(out);
		out = NULL;
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", stage);
	if (system(path))
		fprintf(stderr, "%s: --asm: could not remove %s\n", prog, stage);
	/* built for another kernel: kept, not loaded (signed if asked) */
	other = vermagic(src, kver, sizeof(kver)) && !uname(&u) &&
		strcmp(kver, u.release);
	err = sign(sub, a, src, !other);
	if (err)
		return err;
	if (other) {
		fprintf(stderr, "%s: --asm: %s built for kernel %s, not the running %s: kept in %s, not loaded\n",
			prog, KMOD_NAME ".ko", kver, u.release, a->dir);
		a->built_only = true;
		return 0;
	}
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
		err = errno;
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "%s: --asm: cannot load %s: %s%s\n", prog, src,
			strerror(err),
			err == EEXIST ? " (a " KMOD_NAME " is loaded already: rmmod " KMOD_NAME ")" :
			err == EPERM ? " (loading a module needs root: CAP_SYS_MODULE)" :
			err == ENOENT ? " (is kbench loaded? modprobe kbench)" : "");
		return -EIO;
	}
	close(fd);
	a->loaded = true;
	return 0;
}

int kb_asm_kernel_faulted(const struct kb_asm *a)
{
	FILE *f;
	int n = 0;

	if (!a->loaded)
		return 0;
	f = fopen("/sys/module/" KMOD_NAME "/parameters/faulted", "r");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

void kb_asm_kernel_unload(struct kb_asm *a)
{
	if (!a->loaded)
		return;
	if (syscall(SYS_delete_module, KMOD_NAME, O_NONBLOCK))
		fprintf(stderr, "%s: --asm: cannot unload %s: %s (rmmod %s)\n",
			prog, KMOD_NAME, strerror(errno), KMOD_NAME);
	a->loaded = false;
}
