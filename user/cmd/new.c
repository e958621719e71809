// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl new NAME [DIR]: write a ready benchmark module directory --
 * a Makefile that includes kbench's build kit (kbench.mk: the include path,
 * kbench's Module.symvers, KDIR), NAME.c with one routine that takes an
 * argument and has a setup and a teardown, and a README of the next
 * commands.
 *
 * All or nothing: the files are written into a fresh directory next to DIR
 * and renamed into place at the end, so an error (a bad name, DIR exists,
 * a full disk, no permission) leaves nothing behind.  With --force into an
 * existing DIR, the three files replace their namesakes there, each renamed
 * over it only after all three were written.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "opts.h"

#include <linux/kbench.h>

struct new_opts {
	bool force;
};

const struct kb_opt kb_new_table[] = {
	{ .name = "force", .short_name = 'f', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct new_opts, force),
	  .help = "write into DIR even if it exists (replacing the three files)" },
	{ NULL }
};

/*
 * The templates: "@NAME@" is the module's name.  The routine has the
 * module's name too, so `kbenchctl list` shows where it comes from.
 */
static const char makefile_tmpl[] =
"# SPDX-License-Identifier: GPL-2.0\n"
"#\n"
"# @NAME@: a kbench benchmark module (written by `kbenchctl new @NAME@`).\n"
"#\n"
"#   make                 @NAME@.ko for the running kernel\n"
"#   make KDIR=/lib/modules/VERSION/build\n"
"#                        for another kernel (kbench must be installed for it)\n"
"#   make W=1             with the kernel's extra warnings\n"
"#   sudo make load       load kbench (modprobe), then @NAME@.ko\n"
"#   sudo make run        kbenchctl run @NAME@ over a sweep of its argument\n"
"#   sudo make unload     rmmod @NAME@\n"
"#   make clean\n"
"#   make KBENCH_VARIANT=old\n"
"#                        @NAME@_old.ko, routine @NAME@_old: build the code\n"
"#                        before a change so, then the changed code as usual,\n"
"#                        load both, and `kbenchctl compare @NAME@_old @NAME@`\n"
"#                        times them in one interleaved run (load, run and\n"
"#                        unload take the same KBENCH_VARIANT)\n"
"#\n"
"# kbench's build kit, kbench.mk, comes from `pkg-config kbench` (set\n"
"# PKG_CONFIG_PATH for an install outside its search path, or KBENCH_MK):\n"
"# it adds kbench's include path, passes kbench's Module.symvers for KDIR's\n"
"# kernel to the kernel's make and defaults KDIR to the running kernel.\n"
"\n"
"obj-m := @NAME@.o\n"
"\n"
"KBENCH_MK ?= $(shell pkg-config --variable=mkfile kbench 2>/dev/null)\n"
"ifeq ($(KBENCH_MK),)\n"
"$(error kbench's build kit not found: 'pkg-config --variable=mkfile kbench' \\\n"
"	names no file; install kbench (make install), set PKG_CONFIG_PATH to the \\\n"
"	directory of its kbench.pc, or KBENCH_MK=/path/to/kbench.mk)\n"
"endif\n"
"include $(KBENCH_MK)\n"
"\n"
"ifeq ($(KERNELRELEASE),)\n"
"# the sweep of `make run`: the argument from 64 to 4096 bytes, x4\n"
"RUN_ARGS ?= --arg 64..4096:x4\n"
"\n"
"all:\n"
"\t$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBENCH_KBUILD_ARGS) modules\n"
"\n"
"# load, run and unload build nothing: as root, a build would leave files\n"
"# that root owns here\n"
"load:\n"
"\t@test -f @NAME@$(KBENCH_MODSUFFIX).ko || { echo '@NAME@$(KBENCH_MODSUFFIX).ko is not built: run make first' >&2; exit 1; }\n"
"\tgrep -q '^kbench ' /proc/modules || modprobe kbench\n"
"\tinsmod @NAME@$(KBENCH_MODSUFFIX).ko\n"
"\n"
"run:\n"
"\tkbenchctl run @NAME@$(KBENCH_MODSUFFIX) $(RUN_ARGS)\n"
"\n"
"unload:\n"
"\trmmod @NAME@$(KBENCH_MODSUFFIX)\n"
"\n"
"clean:\n"
"\t$(MAKE) -C $(KDIR) M=$(CURDIR) clean\n"
"\n"
".PHONY: all load run unload clean\n"
"endif\n";

static const char source_tmpl[] =
"// SPDX-License-Identifier: GPL-2.0\n"
"/*\n"
" * @NAME@: a kbench benchmark module (written by `kbenchctl new @NAME@`).\n"
" *\n"
" * Routine `@NAME@` sums a buffer of `bytes` bytes, its argument: put the\n"
" * code you want to time in @NAME@_run(), what it works on in\n"
" * @NAME@_setup(), and free that in @NAME@_teardown().\n"
" *\n"
" *   make && sudo make load\n"
" *   kbenchctl list                     @NAME@ and its argument\n"
" *   kbenchctl run @NAME@ --arg 64..4096:x4\n"
" *\n"
" * run() executes its body exactly @iterations times with interrupts and\n"
" * preemption off: it must not sleep, allocate, lock or print.  Keep its\n"
" * result alive (a WRITE_ONCE() to a sink) so the compiler cannot drop the\n"
" * work.  setup() and teardown() run in process context around every run:\n"
" * they may sleep and allocate.  See Documentation/kbench.rst, \"Writing a\n"
" * benchmark module\", and include/linux/kbench.h.\n"
" */\n"
"#include <linux/kbench.h>\n"
"#include <linux/module.h>\n"
"#include <linux/random.h>\n"
"#include <linux/sizes.h>\n"
"#include <linux/slab.h>\n"
"\n"
"/* What setup prepares for one run. */\n"
"struct @NAME@_buf {\n"
"\tsize_t len;\n"
"\tu8 bytes[];\n"
"};\n"
"\n"
"static u64 @NAME@_sink;\n"
"\n"
"/* The code being timed: one iteration sums the buffer. */\n"
"static noinline void @NAME@_run(unsigned int iterations, void *data)\n"
"{\n"
"\tconst struct @NAME@_buf *b = data;\n"
"\tu64 sum = 0;\n"
"\tsize_t i;\n"
"\n"
"\twhile (iterations--)\n"
"\t\tfor (i = 0; i < b->len; i++)\n"
"\t\t\tsum += b->bytes[i];\n"
"\tWRITE_ONCE(@NAME@_sink, sum);\n"
"}\n"
"\n"
"/*\n"
" * Before each run, on the run's CPU: a buffer of s->arg bytes (kbench has\n"
" * checked the range of .arg below) of random content.  Throughput is per\n"
" * byte summed: bytes_per_iter is the argument.\n"
" */\n"
"static int @NAME@_setup(struct kbench_setup *s)\n"
"{\n"
"\tstruct @NAME@_buf *b;\n"
"\n"
"\tb = kvmalloc(struct_size(b, bytes, s->arg), GFP_KERNEL);\n"
"\tif (!b)\n"
"\t\treturn -ENOMEM;\n"
"\tb->len = s->arg;\n"
"\tget_random_bytes(b->bytes, b->len);\n"
"\ts->data = b;\n"
"\ts->bytes_per_iter = s->arg;\n"
"\treturn 0;\n"
"}\n"
"\n"
"/* After each run whose setup succeeded: completed, failed or aborted. */\n"
"static void @NAME@_teardown(void *data)\n"
"{\n"
"\tkvfree(data);\n"
"}\n"
"\n"
"static struct kbench_routine @NAME@_routines[] = {\n"
"\t{\n"
"\t\t.name = \"@NAME@\",\n"
"\t\t.desc = \"sum of arg bytes\",\n"
"\t\t.run = @NAME@_run,\n"
"\t\t.arg = { .name = \"bytes\", .min = 1, .max = SZ_1M, .def = 256 },\n"
"\t\t.setup_ctx = @NAME@_setup,\n"
"\t\t.teardown = @NAME@_teardown,\n"
"\t},\n"
"};\n"
"\n"
"/* init registers the routines (all or none), exit unregisters them */\n"
"module_kbench_routines(@NAME@_routines);\n"
"\n"
"MODULE_LICENSE(\"GPL\");\n"
"MODULE_DESCRIPTION(\"kbench benchmark: @NAME@\");\n";

static const char readme_tmpl[] =
"@NAME@: a kbench benchmark module\n"
"\n"
"Written by `kbenchctl new @NAME@`.  @NAME@.c registers one routine,\n"
"`@NAME@`, which sums a buffer of `bytes` bytes (its argument); replace\n"
"its body with the code you want to time.  Then:\n"
"\n"
"    make                  # @NAME@.ko for the running kernel\n"
"    sudo make load        # modprobe kbench, insmod @NAME@.ko\n"
"    sudo make run         # kbenchctl run @NAME@ --arg 64..4096:x4\n"
"\n"
"`kbenchctl list` shows the routine and its argument; `kbenchctl run\n"
"@NAME@ --arg 1024` measures one size.  For another kernel: make\n"
"KDIR=/lib/modules/VERSION/build (kbench must be installed for it: make\n"
"install KVER=VERSION, or DKMS).  `sudo make unload` removes the module.\n"
"\n"
"Is a change faster?  Build the code before it as a variant, then the\n"
"changed code, load both and compare them in one interleaved run:\n"
"\n"
"    make KBENCH_VARIANT=old && sudo make load KBENCH_VARIANT=old\n"
"    (change @NAME@.c)\n"
"    make && sudo make load\n"
"    kbenchctl compare @NAME@_old:1024 @NAME@:1024\n"
"\n"
"See `man kbenchctl` and kbench's Documentation/kbench.rst, \"Writing a\n"
"benchmark module\".\n";

/*
 * A module name that is also a C identifier prefix and a routine name:
 * a lower-case letter, then lower-case letters, digits and '_'.
 */
static int check_name(const char *sub, const char *name)
{
	const char *p;

	if (!*name)
		return kb_arg_error(sub, "the name is empty");
	if (strlen(name) > KBENCH_NAME_MAX)
		return kb_arg_error(sub, "'%s': at most %d characters (a routine name)",
				    name, KBENCH_NAME_MAX);
	for (p = name; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) &&
		    *p != '_')
			return kb_arg_error(sub, "'%s': '%c' is not allowed: use a-z, 0-9 and _",
					    name, *p);
	if (!islower((unsigned char)name[0]))
		return kb_arg_error(sub, "'%s': must begin with a letter (a-z): it names C functions",
				    name);
	if (!strcmp(name, "kbench"))
		return kb_arg_error(sub, "'kbench' is kbench's own module: choose another name");
	return 0;
}

/* @tmpl with every "@NAME@" replaced by @name, into a new buffer. */
static char *expand(const char *tmpl, const char *name)
{
	static const char key[] = "@NAME@";
	size_t kl = sizeof(key) - 1, nl = strlen(name), n = 0, len;
	const char *p, *q;
	char *out, *o;

	for (p = tmpl; (q = strstr(p, key)); p = q + kl)
		n++;
	len = strlen(tmpl) + n * nl - n * kl;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	for (p = tmpl, o = out; (q = strstr(p, key)); p = q + kl) {
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
		memcpy(o, name, nl);
		o += nl;
	}
	strcpy(o, p);
	return out;
}

/* @dir/@file into @buf: 0, or -ENAMETOOLONG. */
static int join(char *buf, size_t size, const char *dir, const char *file)
{
	return kb_path_join(buf, size, dir, file);
}

/* Write @text to @dir/@file (new, mode 0644).  0 or -errno (printed). */
static int write_file(const char *sub, const char *dir, const char *file,
		      const char *text)
{
	char path[PATH_MAX];
	size_t len = strlen(text);
	int fd, err = 0;
	FILE *f;

	if (join(path, sizeof(path), dir, file))
		return kb_arg_error(sub, "%s/%s: path too long", dir, file);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "%s %s: %s: %s\n", prog, sub, path, strerror(-err));
		return err;
	}
	errno = 0;
	if (fwrite(text, 1, len, f) != len || fflush(f))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	if (err)
		fprintf(stderr, "%s %s: %s: %s\n", prog, sub, path, strerror(-err));
	return err;
}

struct new_file {
	const char *suffix;	/* the file: NAME + suffix, or the suffix alone */
	bool named;
	const char *tmpl;
};

static const struct new_file new_files[] = {
	{ "Makefile", false, makefile_tmpl },
	{ ".c", true, source_tmpl },
	{ "README", false, readme_tmpl },
};

#define NEW_NFILES	(sizeof(new_files) / sizeof(new_files[0]))

static void file_name(const struct new_file *f, const char *name, char *buf,
		      size_t size)
{
	snprintf(buf, size, "%s%s", f->named ? name : "", f->suffix);
}

/* Remove the staging directory and what it holds. */
static void unstage(const char *stage, const char *name)
{
	char path[PATH_MAX], file[64];
	unsigned int i;

	for (i = 0; i < NEW_NFILES; i++) {
		file_name(&new_files[i], name, file, sizeof(file));
		if (!join(path, sizeof(path), stage, file))
			unlink(path);
	}
	rmdir(stage);
}

/*
 * Move the staged files into @dir: the whole directory when @dir does not
 * exist, else (--force) each file over its namesake.
 */
static int commit(const char *sub, const char *stage, const char *dir,
		  const char *name, bool exists)
{
	char from[PATH_MAX], to[PATH_MAX], file[64];
	unsigned int i;

	if (!exists) {
		if (rename(stage, dir)) {
			int err = -errno;

			fprintf(stderr, "%s %s: %s: %s\n", prog, sub, dir, strerror(errno));
			return err;
		}
		return 0;
	}
	for (i = 0; i < NEW_NFILES; i++) {
		file_name(&new_files[i], name, file, sizeof(file));
		if (join(from, sizeof(from), stage, file) ||
		    join(to, sizeof(to), dir, file)) {
			fprintf(stderr, "%s %s: %s/%s: path too long\n", prog, sub, dir, file);
			return -ENAMETOOLONG;
		}
		if (rename(from, to)) {
			int err = -errno;

			fprintf(stderr, "%s %s: %s: %s\n", prog, sub, to, strerror(errno));
			return err;
		}
	}
	rmdir(stage);
	return 0;
}

int new_main(const struct subcommand *sc, int argc, char *argv[])
{
	char parent[PATH_MAX], stage[PATH_MAX], file[64];
	const char *name, *dir;
	struct new_opts o = { 0 };
	bool exists = false;
	struct stat st;
	unsigned int i;
	int first, err;

	err = kb_opts_parse(sc, argc, argv, &o, &first);
	if (err)
		return kb_exit_status(err);
	if (first >= argc)
		return usage_error(sc->name, "which name? (kbenchctl new NAME [DIR]: NAME is the module and its routine)");
	if (argc - first > 2)
		return kb_exit_status(kb_arg_error(sc->name, "unexpected argument '%s' (NAME and DIR only)",
						   argv[first + 2]));
	if (opt_json)
		return kb_exit_status(kb_arg_error(sc->name, "--json: new writes files, it prints no result"));
	name = argv[first];
	dir = first + 1 < argc ? argv[first + 1] : name;
	err = check_name(sc->name, name);
	if (err)
		return kb_exit_status(err);
	if (!*dir)
		return kb_exit_status(kb_arg_error(sc->name, "DIR is empty"));

	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode))
			return kb_exit_status(kb_arg_error(sc->name, "%s exists and is not a directory",
							   dir));
		if (!o.force)
			return kb_exit_status(kb_arg_error(sc->name, "%s exists (--force writes %s/Makefile, %s/%s.c and %s/README over what is there)",
							   dir, dir, dir, name, dir));
		exists = true;
	} else if (errno != ENOENT) {
		fprintf(stderr, "%s %s: %s: %s\n", prog, sc->name, dir, strerror(errno));
		return EXIT_FAIL;
	}

	/* stage next to DIR (same filesystem: rename() is atomic) */
	snprintf(stage, sizeof(stage), "%s", dir);	/* dirname()'s copy */
	snprintf(parent, sizeof(parent), "%s", exists ? dir : dirname(stage));
	if ((size_t)snprintf(stage, sizeof(stage), "%s/.kbench-new-%s.XXXXXX",
			     parent, name) >= sizeof(stage))
		return kb_exit_status(kb_arg_error(sc->name, "%s: path too long", dir));
	if (!mkdtemp(stage)) {
		fprintf(stderr, "%s %s: cannot create %s in %s: %s\n", prog,
			sc->name, dir, parent, strerror(errno));
		return EXIT_FAIL;
	}
	chmod(stage, 0755 & ~umask(umask(0)));

	for (i = 0; i < NEW_NFILES && !err; i++) {
		char *text = expand(new_files[i].tmpl, name);

		if (!text) {
			fprintf(stderr, "%s %s: out of memory\n", prog, sc->name);
			err = -ENOMEM;
			break;
		}
		file_name(&new_files[i], name, file, sizeof(file));
		err = write_file(sc->name, stage, file, text);
		free(text);
	}
	if (!err)
		err = commit(sc->name, stage, dir, name, exists);
	if (err) {
		unstage(stage, name);
		return EXIT_FAIL;
	}
	printf("%s: Makefile, %s.c, README written; next:\n"
	       "  cd %s && make && sudo make load && sudo make run\n",
	       dir, name, dir);
	return EXIT_OK;
}
