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
 * off; a snippet that faults is not caught (no exception table entry can
 * cover arbitrary code), so the kernel oopses as for any module's fault.
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

#if defined(__x86_64__)
static const char kbody_head[] =
	"SYM_FUNC_START(%s)\n"
	KB_ASM_X86_LOOP_HEAD;
static const char kbody_tail[] =
	KB_ASM_X86_LOOP_TAIL "\n"
	"\tRET\n"
	"SYM_FUNC_END(%s)\n";
#define KB_ASM_KMOD
#endif

#ifdef KB_ASM_KMOD
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

/* The three files of the module; 0 or -errno. */
static int write_module(const struct kb_asm *a, const char *dir)
{
	char *body = NULL, *main = NULL, sym[32];
	unsigned int i;
	int err;

	cat(&body, "/* SPDX-License-Identifier: GPL-2.0 */\n"
		   "/* written by kbenchctl --asm: the loops (asm.h) */\n"
		   "#include <linux/linkage.h>\n\t.text\n");
	cat(&main, "%s", kmain_head);
	for (i = 0; i < a->n; i++) {
		snprintf(sym, sizeof(sym), "kbench_asm_%u", i + 1);
		cat(&body, kbody_head, sym);
		cat(&body, "\t.rept %u\n%s\n\t.endr\n", a->unroll, a->code[i]);
		cat(&body, kbody_tail, sym);
		cat(&main, "void %s(unsigned int n, void *data);\n", sym);
	}
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

/* Run make -C @dir [@target] with stdout and stderr kept in *@out. */
static int run_make(const char *dir, const char *target, char **out)
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
		execlp("make", "make", "-s", "-C", dir, target, (char *)NULL);
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
#endif

int kb_asm_kernel_build(const char *sub, struct kb_asm *a)
{
#ifndef KB_ASM_KMOD
	(void)a;
	return kb_arg_error(sub, "--asm in the kernel: no module template for this architecture yet (x86_64 has one); --user works");
#else
	struct kb_asm check = *a;
	char src[4300], stage[4200], path[4400], kver[128], *out = NULL;
	struct utsname u;
	int err, rc, fd;
	bool reuse;

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
		rc = run_make(a->dir, "all", &out);
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
	/* built for another kernel: kept, not loaded */
	if (vermagic(src, kver, sizeof(kver)) && !uname(&u) &&
	    strcmp(kver, u.release)) {
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
#endif
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
