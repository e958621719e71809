// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl tune: prepare a CPU for measuring, and undo it.
 *
 *   tune --cpu N     the cpufreq governor of N's policy to performance,
 *                    boost (turbo) off, the NMI watchdog off, N's SMT
 *                    siblings offline, every interrupt that may run on N
 *                    steered to the other online CPUs (and the default
 *                    affinity of new ones)
 *   tune --show      those settings now, and what a reset would restore
 *   tune --reset     restore exactly what tune saved
 *
 * Before changing anything tune writes the value of every file it will
 * write - and the affinity of every interrupt, which the kernel itself
 * moves when a sibling goes offline - to a state file (--state, default
 * /run/kbench/tune.state: /run is emptied at boot, like the settings).
 * --reset writes back each saved value that differs now, CPUs online
 * first (an interrupt's saved affinity may name them), and removes the
 * file when everything is back.
 *
 * Each step says what it changed or why it could not.  A file that cannot
 * be opened for writing (not root, a read-only sysfs) stops the whole
 * invocation: what it had changed is restored at once and the state file
 * removed, so nothing is left half-applied.  A value the kernel refuses
 * (an interrupt that cannot move: managed or per-CPU; a CPU that cannot
 * go offline) is reported and skipped.  Nothing to change: nothing saved.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "color.h"
#include "env.h"
#include "cmd.h"
#include "opts.h"
#include "output.h"
#include "sysfs.h"

#define TUNE_STATE_DEFAULT	"/run/kbench/tune.state"
#define TUNE_STATE_MAGIC	"# kbenchctl tune state v1"
#define TUNE_VALUE_MAX		512

struct tune_opts {
	uint32_t cpu;
	bool has_cpu, show, reset, dry_run, verbose;
	const char *state;
};

const struct kb_opt kb_tune_table[] = {
	{ .name = "cpu", .kind = KB_OPT_U32, .metavar = "N",
	  .parse = kb_opt_parse_cpu,
	  KB_OPT_FIELD(struct tune_opts, cpu),
	  KB_OPT_GIVEN(struct tune_opts, has_cpu),
	  .help = "the CPU to prepare for measuring (with --show: to show)" },
	{ .name = "show", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct tune_opts, show),
	  .help = "the settings now and what --reset would restore" },
	{ .name = "reset", .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct tune_opts, reset),
	  .help = "restore what tune saved" },
	{ .name = "dry-run", .short_name = 'n', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct tune_opts, dry_run),
	  .help = "say what would change; change nothing" },
	{ .name = "state", .kind = KB_OPT_STRING, .metavar = "FILE",
	  KB_OPT_FIELD(struct tune_opts, state),
	  .help = "where the previous settings are kept",
	  .def = TUNE_STATE_DEFAULT },
	{ .name = "verbose", .short_name = 'v', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct tune_opts, verbose),
	  .help = "every write, not only one line per step" },
	{ NULL }
};

enum tune_step {
	STEP_GOVERNOR, STEP_BOOST, STEP_NMI, STEP_SMT, STEP_IRQ, STEP_IRQ_DEFAULT,
	STEP_N,
};

static const char *const step_names[STEP_N] = {
	[STEP_GOVERNOR] = "governor",
	[STEP_BOOST] = "boost",
	[STEP_NMI] = "nmi_watchdog",
	[STEP_SMT] = "smt_sibling",
	[STEP_IRQ] = "interrupt",
	[STEP_IRQ_DEFAULT] = "irq_default_affinity",
};

enum tune_result {
	R_PLANNED,	/* to be written */
	R_KEPT,		/* saved only: restored if it changes (interrupts) */
	R_CHANGED,
	R_FAILED,	/* the write was refused (not for permission) */
};

struct tune_entry {
	enum tune_step step;
	char path[128];
	char saved[TUNE_VALUE_MAX];
	char want[TUNE_VALUE_MAX];
	enum tune_result result;
	int err;
};

struct tune {
	int cpu;
	struct tune_entry *e;
	size_t n, cap;
	bool oom;		/* tune_add() failed */
	/* steps with nothing to write: why ("" = nothing to say) */
	char note[STEP_N][400];
};

static struct tune_entry *tune_add(struct tune *t, enum tune_step step,
				   const char *path, const char *saved,
				   const char *want)
{
	struct tune_entry *e;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		struct tune_entry *ne = realloc(t->e, cap * sizeof(*ne));

		if (!ne) {
			t->oom = true;
			return NULL;
		}
		t->e = ne;
		t->cap = cap;
	}
	e = &t->e[t->n++];
	memset(e, 0, sizeof(*e));
	e->step = step;
	snprintf(e->path, sizeof(e->path), "%s", path);
	snprintf(e->saved, sizeof(e->saved), "%s", saved);
	snprintf(e->want, sizeof(e->want), "%s", want ? want : "");
	e->result = want ? R_PLANNED : R_KEPT;
	return e;
}

/*
 * A file we may not write (not root, a read-only sysfs) stops everything;
 * a value the kernel refuses once the file is open is that setting's
 * problem only (an interrupt that cannot move: EIO on 6.1, EPERM on 6.12).
 */
static bool fatal(int err, bool refused)
{
	return !refused && (err == -EACCES || err == -EPERM || err == -EROFS);
}

/* Equal values: the same CPU list in any spelling, else the same text. */
static bool same_value(const char *a, const char *b)
{
	struct kb_cpuset x, y;

	if (!strcmp(a, b))
		return true;
	return !kb_cpulist_parse(a, &x) && !kb_cpulist_parse(b, &y) &&
	       !memcmp(&x, &y, sizeof(x));
}

/* ---- the plan ------------------------------------------------------------ */

/* Why step @s has nothing to write (or what to know about its write). */
static void __attribute__((format(printf, 3, 4)))
note(struct tune *t, enum tune_step s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->note[s], sizeof(t->note[s]), fmt, ap);
	va_end(ap);
}

static void plan_governor(struct tune *t)
{
	char path[128], g[64], avail[256], rel[128];
	struct kb_cpuset policy;
	int err;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", t->cpu);
	err = kb_sys_read(path, g, sizeof(g));
	if (err == -ENOENT)
		note(t, STEP_GOVERNOR, "no cpufreq on CPU %d: nothing to set", t->cpu);
	else if (err)
		note(t, STEP_GOVERNOR, "cannot read %s: %s", path, strerror(-err));
	else if (!strcmp(g, "performance"))
		note(t, STEP_GOVERNOR, "performance already");
	else if (!kb_sys_readf(avail, sizeof(avail),
			       "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_available_governors",
			       t->cpu) &&
		 !strstr(avail, "performance"))
		note(t, STEP_GOVERNOR, "%s stays: the driver offers no performance governor (%s)",
		     g, avail);
	/* a note so far: nothing to write */
	if (t->note[STEP_GOVERNOR][0])
		return;
	/* the governor is the policy's: say so when it has other CPUs too */
	if (!kb_sys_readf(rel, sizeof(rel),
			  "/sys/devices/system/cpu/cpu%d/cpufreq/related_cpus", t->cpu) &&
	    !kb_cpulist_parse(rel, &policy) && kb_cpuset_count(&policy) > 1)
		note(t, STEP_GOVERNOR, "for the policy of CPUs %s", rel);
	tune_add(t, STEP_GOVERNOR, path, g, "performance");
}

static void plan_boost(struct tune *t)
{
	static const char *const no_turbo = "/sys/devices/system/cpu/intel_pstate/no_turbo";
	static const char *const global = "/sys/devices/system/cpu/cpufreq/boost";
	char path[128], v[32];

	/* intel_pstate: no_turbo = 1 */
	if (!kb_sys_read(no_turbo, v, sizeof(v))) {
		if (!strcmp(v, "1"))
			note(t, STEP_BOOST, "off already (intel_pstate no_turbo=1)");
		else
			tune_add(t, STEP_BOOST, no_turbo, v, "1");
		return;
	}
	/* the policy's own switch (6.11+), else the global one: 0 */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/boost",
		 t->cpu);
	if (kb_sys_read(path, v, sizeof(v))) {
		snprintf(path, sizeof(path), "%s", global);
		if (kb_sys_read(path, v, sizeof(v))) {
			note(t, STEP_BOOST, "no boost control in sysfs: nothing to set");
			return;
		}
	}
	if (!strcmp(v, "0"))
		note(t, STEP_BOOST, "off already");
	else
		tune_add(t, STEP_BOOST, path, v, "0");
}

static void plan_nmi(struct tune *t)
{
	static const char *const path = "/proc/sys/kernel/nmi_watchdog";
	char v[32];

	if (kb_sys_read(path, v, sizeof(v)))
		note(t, STEP_NMI, "no NMI watchdog in this kernel: nothing to set");
	else if (!strcmp(v, "0"))
		note(t, STEP_NMI, "off already");
	else
		tune_add(t, STEP_NMI, path, v, "0");
}

static void plan_smt(struct tune *t)
{
	struct kb_cpuset sib, online;
	char path[128], v[16];
	unsigned int cpu;
	bool any = false;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", t->cpu);
	if (kb_cpulist_read(path, &sib) ||
	    kb_cpulist_read("/sys/devices/system/cpu/online", &online)) {
		note(t, STEP_SMT, "no CPU topology in sysfs: nothing to set");
		return;
	}
	for (cpu = 0; cpu < KB_CPUS_MAX; cpu++) {
		if ((int)cpu == t->cpu || !kb_cpuset_has(&sib, cpu) ||
		    !kb_cpuset_has(&online, cpu))
			continue;
		any = true;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online",
			 cpu);
		if (kb_sys_read(path, v, sizeof(v)))
			note(t, STEP_SMT, "CPU %u cannot go offline (no %s)", cpu, path);
		else
			tune_add(t, STEP_SMT, path, v, "0");
	}
	if (!any)
		note(t, STEP_SMT, "no sibling online");
}

/*
 * Every interrupt's affinity is saved; those that include the CPU get
 * the same list without it, or every other online CPU when it was alone.
 */
static int irq_dir(const struct dirent *de)
{
	return isdigit((unsigned char)de->d_name[0]);
}

static int plan_irqs(struct tune *t)
{
	struct kb_cpuset online, s;
	char dir[4096], path[300], v[TUNE_VALUE_MAX], want[TUNE_VALUE_MAX];
	unsigned int cpu = (unsigned int)t->cpu, sib, k;
	struct dirent **irqs;
	int i, n, err = 0;

	if (kb_cpulist_read("/sys/devices/system/cpu/online", &online))
		memset(&online, 0, sizeof(online));
	kb_cpuset_del(&online, cpu);
	/* nor the siblings about to go offline (planned before) */
	for (i = 0; i < (int)t->n; i++)
		if (t->e[i].step == STEP_SMT &&
		    sscanf(t->e[i].path, "/sys/devices/system/cpu/cpu%u/online",
			   &sib) == 1)
			kb_cpuset_del(&online, sib);
	if (!kb_cpuset_count(&online)) {
		note(t, STEP_IRQ, "they stay: no other CPU %s online to take them",
		     t->n ? "stays" : "is");
		return 0;
	}
	if (kb_sys_path(dir, sizeof(dir), "/proc/irq"))
		return 0;
	/* in numeric order, so that the state file and the report are stable */
	n = scandir(dir, &irqs, irq_dir, versionsort);
	if (n < 0) {
		note(t, STEP_IRQ, "no /proc/irq: nothing to set");
		return 0;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list",
			 irqs[i]->d_name);
		if (err || kb_sys_read(path, v, sizeof(v)) ||
		    kb_cpulist_parse(v, &s))
			continue;
		if (!kb_cpuset_has(&s, cpu)) {
			if (!tune_add(t, STEP_IRQ, path, v, NULL))
				err = -ENOMEM;
			continue;
		}
		for (k = 0; k < KB_CPUS_MAX / 64; k++)
			s.bits[k] &= online.bits[k];
		if (!kb_cpuset_count(&s))
			s = online;
		kb_cpulist_format(&s, want, sizeof(want));
		if (!tune_add(t, STEP_IRQ, path, v, want))
			err = -ENOMEM;
	}
	for (i = 0; i < n; i++)
		free(irqs[i]);
	free(irqs);
	if (err)
		return err;

	/* interrupts requested later start from the default affinity */
	if (!kb_sys_read("/proc/irq/default_smp_affinity", v, sizeof(v)) &&
	    !kb_cpumask_parse(v, &s) && kb_cpuset_has(&s, cpu)) {
		kb_cpuset_del(&s, cpu);
		if (kb_cpuset_count(&s) &&
		    !kb_cpumask_format(&s, v, want, sizeof(want)) &&
		    !tune_add(t, STEP_IRQ_DEFAULT, "/proc/irq/default_smp_affinity",
			      v, want))
			return -ENOMEM;
	}
	return 0;
}

static int tune_plan(struct tune *t)
{
	int err;

	plan_governor(t);
	plan_boost(t);
	plan_nmi(t);
	/* before the interrupts: offlining moves the sibling's to others */
	plan_smt(t);
	err = plan_irqs(t);
	if (!err && t->oom)
		err = -ENOMEM;
	if (err)
		fprintf(stderr, "%s tune: %s; nothing changed\n", prog,
			strerror(-err));
	return err;
}

/* ---- the state file ------------------------------------------------------ */

static int state_write(const struct tune *t, const char *file)
{
	char tmp[PATH_MAX], dir[PATH_MAX], *slash;
	size_t i;
	FILE *f;
	int fd;

	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", file) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return -ENOMEM;
	}
	fprintf(f, "%s\n# restore with: kbenchctl tune --reset\ncpu\t%d\n",
		TUNE_STATE_MAGIC, t->cpu);
	for (i = 0; i < t->n; i++)
		fprintf(f, "%s\t%s\t%s\n", step_names[t->e[i].step],
			t->e[i].path, t->e[i].saved);
	if (fflush(f) || fsync(fileno(f)) || ferror(f)) {
		int err = -errno;

		fclose(f);
		unlink(tmp);
		return err ? err : -EIO;
	}
	if (fclose(f) || rename(tmp, file)) {
		int err = -errno;

		unlink(tmp);
		return err;
	}
	return 0;
}

static int step_of(const char *name)
{
	int i;

	for (i = 0; i < STEP_N; i++)
		if (!strcmp(step_names[i], name))
			return i;
	return -1;
}

/*
 * Read @file into @t (entries kept: their saved values).  0, -ENOENT when
 * there is none, -EINVAL (printed) when it is not a state file of ours.
 */
static int state_read(struct tune *t, const char *file)
{
	char line[1024], *step, *path, *value, *save;
	unsigned int lineno = 0;
	FILE *f = fopen(file, "re");
	int s, err = 0;

	if (!f)
		return -errno;
	t->cpu = -1;
	while (!err && fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (lineno == 1 && strcmp(line, TUNE_STATE_MAGIC))
			err = -EINVAL;
		if (err || line[0] == '#')
			continue;
		step = strtok_r(line, "\t", &save);
		path = strtok_r(NULL, "\t", &save);
		value = strtok_r(NULL, "\t", &save);
		if (step && path && !strcmp(step, "cpu") && !value) {
			t->cpu = atoi(path);
			continue;
		}
		s = step && path && value ? step_of(step) : -1;
		if (s < 0 || path[0] != '/')
			err = -EINVAL;
		else if (!tune_add(t, (enum tune_step)s, path, value, NULL))
			err = -ENOMEM;
	}
	fclose(f);
	if (err == -EINVAL)
		fprintf(stderr, "%s tune: %s, line %u: not a tune state file (remove it if it is stale)\n",
			prog, file, lineno);
	return err;
}

/* ---- applying and restoring ---------------------------------------------- */

static int tune_apply(struct tune *t, struct tune_entry **bad)
{
	bool refused;
	size_t i;
	int err;

	for (i = 0; i < t->n; i++) {
		struct tune_entry *e = &t->e[i];

		if (e->result != R_PLANNED)
			continue;
		err = kb_sys_write(e->path, e->want, &refused);
		if (fatal(err, refused)) {
			e->err = err;
			*bad = e;
			return err;
		}
		e->result = err ? R_FAILED : R_CHANGED;
		e->err = err;
	}
	return 0;
}

/*
 * Write back every saved value that differs now: CPUs online first (the
 * saved affinity of an interrupt may name them), then the rest, last
 * change first.  Returns how many could not be restored; prints each.
 */
static unsigned int tune_restore(struct tune *t, bool dry_run,
				 unsigned int *restored)
{
	char now[TUNE_VALUE_MAX], before[TUNE_VALUE_MAX];
	unsigned int failed = 0, pass;
	size_t k;
	int err;

	*restored = 0;
	for (pass = 0; pass < 2; pass++) {
		for (k = t->n; k-- > 0;) {
			struct tune_entry *e = &t->e[k];

			if ((e->step == STEP_SMT) != (pass == 0))
				continue;
			err = kb_sys_read(e->path, now, sizeof(now));
			if (err == -ENOENT)
				continue;	/* the interrupt or CPU is gone */
			if (!err && same_value(now, e->saved))
				continue;
			(*restored)++;
			snprintf(before, sizeof(before), "%s", err ? "?" : now);
			if (!dry_run) {
				err = kb_sys_write(e->path, e->saved, NULL);
				if (!err && !kb_sys_read(e->path, now, sizeof(now)) &&
				    !same_value(now, e->saved))
					err = -EIO;
			}
			out_open_object(NULL);
			out_string("path", "  %s", e->path);
			out_string("from", ": %s", before);
			out_string("to", " -> %s", e->saved);
			out_string("result", NULL, err ? "failed" :
				   dry_run ? "would restore" : "restored");
			if (err) {
				failed++;
				out_text(": %s", kb_color(out_file(), KB_BAD));
				out_string("reason", "%s", strerror(-err));
				out_text("%s", kb_color_end(out_file()));
			} else {
				out_null("reason");
			}
			out_text("%s\n", dry_run ? " (dry run)" : "");
			out_close_object();
		}
	}
	return failed;
}

/* ---- output -------------------------------------------------------------- */

static const char *result_name(const struct tune_entry *e, bool dry_run)
{
	switch (e->result) {
	case R_PLANNED:
		return dry_run ? "would change" : "planned";
	case R_CHANGED:
		return "changed";
	case R_FAILED:
		return "refused";
	case R_KEPT:
		break;
	}
	return "kept";
}

/* One write: "  PATH: FROM -> TO (result[: reason])"; JSON a "changes" row. */
static void print_entry(const struct tune_entry *e, bool dry_run, bool text)
{
	out_open_object(NULL);
	out_string("step", NULL, step_names[e->step]);
	out_string("path", text ? "    %s" : NULL, e->path);
	out_string("from", text ? ": %s" : NULL, e->saved);
	out_string("to", text ? " -> %s" : NULL, e->want);
	out_string("result", text ? " (%s" : NULL, result_name(e, dry_run));
	if (e->err)
		out_string("reason", text ? ": %s" : NULL, strerror(-e->err));
	else
		out_null("reason");
	if (text)
		out_text(")\n");
	out_close_object();
}

/* One step in a line: what changed, what was refused and why, or a note. */
static void report_step(const struct tune *t, enum tune_step s, bool dry_run)
{
	static const char *const labels[STEP_N] = {
		"governor", "boost", "NMI watchdog", "SMT sibling", "interrupts",
		"new interrupts",
	};
	char cpus[128] = "", why[256] = "";
	const struct tune_entry *one = NULL;
	unsigned int done = 0, refused = 0, c;
	size_t i, n;
	FILE *f = out_file();

	for (i = 0; i < t->n; i++) {
		const struct tune_entry *e = &t->e[i];

		if (e->step != s || e->result == R_KEPT)
			continue;
		one = e;
		if (e->result == R_FAILED) {
			n = strlen(why);
			if (refused++ < 3)
				snprintf(why + n, sizeof(why) - n, "%s%s: %s",
					 n ? "; " : "", e->path, strerror(-e->err));
			continue;
		}
		done++;
		n = strlen(cpus);
		if (sscanf(e->path, "/sys/devices/system/cpu/cpu%u/online", &c) == 1)
			snprintf(cpus + n, sizeof(cpus) - n, "%s%u", n ? "," : "", c);
	}
	out_text("  %-14s ", labels[s]);
	if (!one)
		out_text("%s", t->note[s][0] ? t->note[s] : "nothing to do");
	else if (s == STEP_IRQ)
		out_text("%u %s away from CPU %d", done,
			 dry_run ? "would move" : "moved", t->cpu);
	else if (s == STEP_SMT && done)
		out_text("CPU %s %s offline", cpus, dry_run ? "would go" : "went");
	else if (done && s == STEP_BOOST)
		out_text("on -> off (%s %s -> %s)%s", strrchr(one->path, '/') + 1,
			 one->saved, one->want, dry_run ? " (would change)" : "");
	else if (done && s == STEP_NMI)
		out_text("on -> off%s", dry_run ? " (would change)" : "");
	else if (done)
		out_text("%s -> %s%s", one->saved, one->want,
			 dry_run ? " (would change)" : "");
	if (refused)
		out_text("%s%s%u refused: %s%s%s", kb_color(f, KB_WARN),
			 done ? "; " : "", refused, why, refused > 3 ? "; ..." : "",
			 kb_color_end(f));
	if (one && t->note[s][0])
		out_text(" (%s)", t->note[s]);
	out_text("\n");
}

/* One line per step; -v and JSON also every write ("changes"). */
static void tune_report(const struct tune *t, bool dry_run, bool verbose)
{
	unsigned int s;
	size_t i;

	for (s = 0; s < STEP_N; s++)
		report_step(t, (enum tune_step)s, dry_run);
	out_open_object("notes");
	for (s = 0; s < STEP_N; s++)
		out_string(step_names[s], NULL, t->note[s][0] ? t->note[s] : NULL);
	out_close_object();
	if (verbose)
		out_text("  every write:\n");
	out_open_array("changes");
	for (i = 0; i < t->n; i++)
		if (t->e[i].result != R_KEPT)
			print_entry(&t->e[i], dry_run, verbose);
	out_close_array();
}

/* irqbalance moves interrupts back: say so when it runs. */
static bool irqbalance_running(void)
{
	char dir[4096], path[300], comm[32];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (kb_sys_path(dir, sizeof(dir), "/proc"))
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		found = !kb_sys_read(path, comm, sizeof(comm)) &&
			!strcmp(comm, "irqbalance");
	}
	closedir(d);
	return found;
}

/* ---- the three forms ----------------------------------------------------- */

static int tune_cpu(const struct tune_opts *o, const char *state)
{
	struct tune t = { .cpu = (int)o->cpu };
	struct tune_entry *bad = NULL;
	unsigned int restored;
	bool saving, irqbalance;
	struct stat st;
	size_t i;
	int err;

	if (!o->dry_run && !stat(state, &st)) {
		fprintf(stderr, "%s tune: %s holds settings saved before (kbenchctl tune --reset restores them first)\n",
			prog, state);
		return -EEXIST;
	}
	err = tune_plan(&t);
	if (err)
		goto out_free;
	for (i = 0; i < t.n && t.e[i].result != R_PLANNED; i++)
		;
	/* nothing to write: nothing to save either (and no root needed) */
	saving = !o->dry_run && i < t.n;
	if (saving) {
		err = state_write(&t, state);
		if (err) {
			fprintf(stderr, "%s tune: cannot save the settings to %s: %s%s; nothing changed\n",
				prog, state, strerror(-err),
				fatal(err, false) ? " (tune needs root)" : "");
			goto out_free;
		}
		err = tune_apply(&t, &bad);
		if (err) {
			/* undo this invocation's changes, on stderr */
			fprintf(stderr, "%s tune: %s: %s: undoing this invocation's changes:\n",
				prog, bad->path, strerror(-err));
			out_init(stderr, false);
			tune_restore(&t, false, &restored);
			out_init(stdout, opt_json);
			unlink(state);
			fprintf(stderr, "%s tune: %s: %s%s; nothing changed (%u setting%s restored)\n",
				prog, bad->path, strerror(-err),
				err == -EROFS ? " (read-only)" : " (tune needs root)",
				restored, restored == 1 ? "" : "s");
			goto out_free;
		}
	}
	out_open_object(NULL);
	out_int("cpu", "tune CPU %lld", t.cpu);
	out_bool("dry_run", NULL, o->dry_run);
	out_string("state_file", saving ? " (previous settings in %s)" : NULL,
		   saving ? state : NULL);
	out_text("%s:\n", o->dry_run ? " (dry run: nothing changes)" :
			  saving ? "" : " (nothing to change, nothing saved)");
	tune_report(&t, o->dry_run, o->verbose);
	irqbalance = irqbalance_running();
	out_bool("irqbalance", NULL, irqbalance);
	if (irqbalance)
		out_text("%snote: irqbalance runs and may move interrupts back to CPU %d (stop it, or set IRQBALANCE_BANNED_CPULIST=%d)%s\n",
			 kb_color(out_file(), KB_WARN), t.cpu, t.cpu,
			 kb_color_end(out_file()));
	out_close_object();
	out_finish();
out_free:
	free(t.e);
	return err;
}

static int tune_reset(const struct tune_opts *o, const char *state)
{
	struct tune t = { .cpu = -1 };
	unsigned int failed, restored;
	int err;

	err = state_read(&t, state);
	if (err == -ENOENT) {
		out_open_object(NULL);
		out_string("state_file", "nothing to restore: no %s\n", state);
		out_uint("restored", NULL, 0);
		out_close_object();
		out_finish();
		free(t.e);
		return 0;
	}
	if (err) {
		if (err != -EINVAL)
			fprintf(stderr, "%s tune: %s: %s\n", prog, state,
				strerror(-err));
		free(t.e);
		return err;
	}
	out_open_object(NULL);
	out_int("cpu", "restore CPU %lld's settings", t.cpu);
	out_string("state_file", " from %s", state);
	out_text("%s:\n", o->dry_run ? " (dry run: nothing changes)" : "");
	out_open_array("restores");
	failed = tune_restore(&t, o->dry_run, &restored);
	out_close_array();
	if (!restored)
		out_text("  everything is as saved\n");
	out_uint("restored", NULL, restored - failed);
	out_uint("failed", NULL, failed);
	out_close_object();
	out_finish();
	free(t.e);
	if (failed) {
		fprintf(stderr, "%s tune: %u setting%s could not be restored; %s is kept (try again, or restore them by hand)\n",
			prog, failed, failed == 1 ? "" : "s", state);
		return -EIO;
	}
	if (!o->dry_run && unlink(state)) {
		fprintf(stderr, "%s tune: cannot remove %s: %s\n", prog, state,
			strerror(errno));
		return -errno;
	}
	return 0;
}

static int tune_show(const struct tune_opts *o, const char *state)
{
	/* the environment items tune changes */
	static const enum kb_env_id shown[] = {
		KB_ENV_NMI_WATCHDOG, KB_ENV_GOVERNOR, KB_ENV_BOOST, KB_ENV_SMT,
		KB_ENV_IRQS,
	};
	struct tune t = { .cpu = -1 };
	char now[TUNE_VALUE_MAX];
	struct kb_env e;
	size_t i;
	int err, cpu;

	err = state_read(&t, state);
	if (err && err != -ENOENT && err != -EACCES) {
		free(t.e);
		return err;
	}
	cpu = o->has_cpu ? (int)o->cpu : t.cpu >= 0 ? t.cpu : sched_getcpu();
	kb_env_collect(&e, NULL, cpu);
	out_open_object(NULL);
	out_int("cpu", "CPU %lld:\n", cpu);
	out_open_object("settings");
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		out_text("  %-17s ", kb_env_label(shown[i]));
		out_string(kb_env_key(shown[i]), "%s\n",
			   e.item[shown[i]].known ? e.item[shown[i]].value : NULL);
	}
	out_close_object();
	out_string("state_file", "saved in %s", state);
	if (err == -EACCES)
		out_text(": not readable here (root only)\n");
	else if (err)
		out_text(": nothing (tune has not run, or --reset restored it)\n");
	else
		out_text(" for CPU %d (kbenchctl tune --reset restores them):\n",
			 t.cpu);
	out_open_array("saved");
	for (i = 0; i < t.n; i++) {
		const struct tune_entry *s = &t.e[i];
		bool changed;

		if (kb_sys_read(s->path, now, sizeof(now)))
			snprintf(now, sizeof(now), "gone");
		changed = !same_value(now, s->saved);
		if (!changed && !o->verbose && !out_json())
			continue;
		out_open_object(NULL);
		out_string("path", "  %s", s->path);
		out_string("saved", ": %s", s->saved);
		out_string("now", ", now %s", now);
		out_bool("differs", NULL, changed);
		out_text("\n");
		out_close_object();
	}
	out_close_array();
	out_close_object();
	out_finish();
	free(t.e);
	return 0;
}

int tune_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct tune_opts o = { 0 };
	const char *state;
	int err;

	err = kb_opts_parse_noargs(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	if (o.show + o.reset > 1)
		return kb_exit_status(kb_arg_error(sc->name, "--show and --reset exclude each other"));
	if (o.reset && o.has_cpu)
		return kb_exit_status(kb_arg_error(sc->name, "--reset restores the CPU saved in the state file: no --cpu"));
	if (o.show && o.dry_run)
		return kb_exit_status(kb_arg_error(sc->name, "--dry-run goes with --cpu or --reset, not --show"));
	if (!o.show && !o.reset && !o.has_cpu)
		return kb_exit_status(kb_arg_error(sc->name, "which CPU? (tune --cpu N, or --show, or --reset)"));
	state = o.state ? o.state : TUNE_STATE_DEFAULT;
	if (o.show)
		err = tune_show(&o, state);
	else if (o.reset)
		err = tune_reset(&o, state);
	else
		err = tune_cpu(&o, state);
	/* a refusal here is a failure, not a usage error */
	return err ? EXIT_FAIL : EXIT_OK;
}
