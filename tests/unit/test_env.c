// SPDX-License-Identifier: GPL-2.0
/*
 * The environment report and kbenchctl tune on trees of sysfs/procfs
 * fixture files (fixtures/env/<machine>/{sys,proc}, KBENCH_SYSFS_ROOT):
 * CPU lists and masks, every item's value and verdict on four machines
 * (a laptop, a tuned server, a VM, and one with missing files and odd
 * values), the warning lines and the JSON; tune, show and reset on a copy
 * of a tree, restoring it byte for byte; and a tune refused for want of
 * permission half-way, which leaves nothing changed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/kbench.h>

#include "diff.h"
#include "diffprint.h"
#include "env.h"
#include "hyper.h"
#include "meta.h"
#include "output.h"
#include "resfile.h"
#include "result.h"
#include "sysfs.h"
#include "tap.h"
#include "tests.h"

static void test_cpulists(void)
{
	static const char *const bad[] = {
		"1-", "a", "3-1", "8192", ",1", "1,,2", "1,", "0-3 x", "-1",
	};
	struct kb_cpuset s;
	char buf[64];
	size_t i;

	ok(!kb_cpulist_parse("0-3,8,10-11\n", &s) && kb_cpuset_count(&s) == 7 &&
	   kb_cpuset_has(&s, 8) && !kb_cpuset_has(&s, 9) &&
	   !kb_cpulist_format(&s, buf, sizeof(buf)) && !strcmp(buf, "0-3,8,10-11"),
	   "cpulist: 0-3,8,10-11 parses (7 CPUs) and formats back");
	ok(!kb_cpulist_parse(" 5 ", &s) && kb_cpuset_count(&s) == 1 &&
	   kb_cpuset_has(&s, 5), "cpulist: blanks around a single CPU");
	ok(!kb_cpulist_parse("", &s) && !kb_cpuset_count(&s) &&
	   !kb_cpulist_format(&s, buf, sizeof(buf)) && !buf[0],
	   "cpulist: the empty list");
	ok(!kb_cpulist_parse("8191", &s) && kb_cpuset_has(&s, 8191),
	   "cpulist: CPU 8191, the kernel's NR_CPUS - 1");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(kb_cpulist_parse(bad[i], &s) == -EINVAL,
		   "cpulist: '%s' is refused", bad[i]);
	kb_cpulist_parse("0-63", &s);
	ok(kb_cpulist_format(&s, buf, 3) == -ENOSPC,
	   "cpulist: a buffer too short is -ENOSPC");

	ok(!kb_cpumask_parse("ff", &s) && kb_cpuset_count(&s) == 8,
	   "cpumask: ff is CPUs 0-7");
	kb_cpuset_del(&s, 2);
	ok(!kb_cpumask_format(&s, "ff", buf, sizeof(buf)) && !strcmp(buf, "fb"),
	   "cpumask: without CPU 2 in the shape of ff: fb");
	ok(!kb_cpumask_parse("00000001,00000004", &s) && kb_cpuset_has(&s, 32) &&
	   kb_cpuset_has(&s, 2) && kb_cpuset_count(&s) == 2,
	   "cpumask: 00000001,00000004 is CPUs 2 and 32");
	kb_cpuset_del(&s, 2);
	ok(!kb_cpumask_format(&s, "00000001,00000004", buf, sizeof(buf)) &&
	   !strcmp(buf, "00000001,00000000"),
	   "cpumask: groups keep their width: 00000001,00000000");
	ok(kb_cpumask_parse("fg", &s) == -EINVAL &&
	   kb_cpumask_parse("123456789", &s) == -EINVAL &&
	   kb_cpumask_parse("", &s) == -EINVAL && kb_cpumask_parse("f,", &s) == -EINVAL,
	   "cpumask: fg, a 9-digit group, '' and a trailing comma are refused");
}

static void use_root(const char *machine)
{
	char root[512];

	snprintf(root, sizeof(root), "%s/env/%s", fixtures_dir, machine);
	setenv("KBENCH_SYSFS_ROOT", root, 1);
	kb_sys_root_reset();
}

struct expect {
	enum kb_env_id id;
	const char *value;	/* NULL: unknown */
	bool problem;
};

static void check_items(const char *machine, const struct kb_env *e,
			const struct expect *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct kb_env_item *it = &e->item[x[i].id];
		bool good = x[i].value ?
			    it->known && !strcmp(it->value, x[i].value) &&
			    it->problem == x[i].problem :
			    !it->known;

		if (!ok(good, "%s: %s is %s%s", machine, kb_env_key(x[i].id),
			x[i].value ? x[i].value : "unknown",
			x[i].problem ? " (a problem)" : ""))
			diag("got '%s', known %d, problem %d", it->value, it->known,
			     it->problem);
	}
}

#define CHECK(machine, e, x)	check_items(machine, e, x, sizeof(x) / sizeof(x[0]))

/* What a Debian 6.1 module says (voluntary, dynamic, HZ 250, bare metal). */
static const struct kb_kernel_env debian = {
	.known = true, .flags = KBENCH_ENV_F_PREEMPT_DYNAMIC,
	.preempt_model = KBENCH_PREEMPT_VOLUNTARY, .hz = 250,
	.hypervisor = KBENCH_HYPERVISOR_NONE,
	.detectors = KBENCH_SAMPLE_F_NMI,
};

static void test_laptop(void)
{
	static const struct expect x[] = {
		{ KB_ENV_DEBUG, "none", false },
		{ KB_ENV_SLUB, "off", false },
		{ KB_ENV_PREEMPT_RT, "no", false },
		{ KB_ENV_PREEMPTION, "voluntary (dynamic)", false },
		{ KB_ENV_HZ, "250", false },
		{ KB_ENV_NMI_WATCHDOG, "on", true },
		{ KB_ENV_HYPERVISOR, "none", false },
		{ KB_ENV_PSEUDO_NMI, "off", false },
		{ KB_ENV_CPUFREQ, "intel_pstate", false },
		{ KB_ENV_GOVERNOR, "powersave", true },
		{ KB_ENV_BOOST, "on (intel_pstate no_turbo=0)", true },
		{ KB_ENV_FREQUENCY, "400-4700 MHz (hardware 400-4700 MHz)", false },
		{ KB_ENV_SMT, "cpu 6 online", true },
		/* isolated is empty and nohz_full "(null)" (Debian, no nohz_full=) */
		{ KB_ENV_ISOLATED, "no", false },
		/* 17: asked away from CPU 2, effective there until it fires */
		{ KB_ENV_IRQS, "3 aimed at this CPU, 1 moving away at its next interrupt", true },
	};
	static const char warnings[] =
		"warning: NMI watchdog on: its NMIs hit windows every few seconds: those samples are excluded (nmi) (kbenchctl tune --cpu 2)\n"
		"warning: CPU 2 governor powersave: the clock speed follows the load, the counter's rate does not: ticks per iteration drift (kbenchctl tune --cpu 2)\n"
		"warning: CPU 2 boost on (intel_pstate no_turbo=0): turbo clocks depend on heat and power: figures drift within a run (kbenchctl tune --cpu 2)\n"
		"warning: CPU 2 SMT sibling cpu 6 online: an online sibling thread shares the core: its work slows this one (kbenchctl tune --cpu 2)\n"
		"warning: CPU 2 device interrupts 3 aimed at this CPU, 1 moving away at its next interrupt: they run on the CPU between windows and evict its caches (kbenchctl tune --cpu 2)\n";
	struct kb_env e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	use_root("laptop");
	kb_env_collect(&e, &debian, 2);
	CHECK("laptop", &e, x);
	ok(kb_env_problems(&e) == 5, "laptop: 5 problems");

	f = open_memstream(&buf, &len);
	out_init(f, false);
	kb_env_print(&e, KB_ENV_VIEW_WARNINGS);
	out_finish();
	fclose(f);
	if (!ok(!strcmp(buf, warnings), "laptop: one warning line per problem, exactly"))
		diag("got:\n%s", buf);
	free(buf);

	f = open_memstream(&buf, &len);
	out_init(f, false);
	kb_env_print(&e, KB_ENV_VIEW_ALL);
	out_finish();
	fclose(f);
	ok(strstr(buf, "environment of CPU 2: 5 things can distort measurements (marked !)\n") &&
	   strstr(buf, "! governor          powersave\n") &&
	   strstr(buf, "                    what to do: kbenchctl tune --cpu 2\n") &&
	   strstr(buf, "  HZ                250\n"),
	   "laptop: info's view marks the problems, says what to do, lists the rest");
	free(buf);
	out_init(stdout, false);
}

static void test_server(void)
{
	static const struct expect x[] = {
		{ KB_ENV_DEBUG, "none in effect (compiled in, off: lockdep, prove_locking)", false },
		{ KB_ENV_SLUB, "off", false },
		{ KB_ENV_PREEMPT_RT, "yes", false },
		{ KB_ENV_PREEMPTION, "lazy (dynamic)", false },
		{ KB_ENV_HZ, "1000", false },
		{ KB_ENV_NMI_WATCHDOG, "off", false },
		{ KB_ENV_HYPERVISOR, "kvm (KVMKVMKVM)", true },
		{ KB_ENV_PSEUDO_NMI, "off", false },
		{ KB_ENV_CPUFREQ, "acpi-cpufreq", false },
		{ KB_ENV_GOVERNOR, "performance", false },
		{ KB_ENV_BOOST, "off", false },
		{ KB_ENV_FREQUENCY, "2200-2200 MHz (hardware 1500-3700.5 MHz)", false },
		{ KB_ENV_SMT, "none online", false },
		{ KB_ENV_ISOLATED, "yes (isolcpus, nohz_full)", false },
		{ KB_ENV_IRQS, "none aimed at this CPU", false },
	};
	/* an RT kernel whose lockdep turned itself off after a report */
	struct kb_kernel_env k = {
		.known = true,
		.debug = KBENCH_DEBUG_F_LOCKDEP | KBENCH_DEBUG_F_PROVE_LOCKING,
		.flags = KBENCH_ENV_F_PREEMPT_RT | KBENCH_ENV_F_PREEMPT_DYNAMIC,
		.preempt_model = KBENCH_PREEMPT_LAZY, .hz = 1000,
		.hypervisor = KBENCH_HYPERVISOR_KVM, .vendor = "KVMKVMKVM",
	};
	struct kb_env e;

	use_root("server");
	kb_env_collect(&e, &k, 3);
	CHECK("server", &e, x);
	ok(kb_env_problems(&e) == 1, "server: the hypervisor is the one problem");
	k.detectors |= KBENCH_SAMPLE_F_STEAL;
	kb_env_collect(&e, &k, 3);
	ok(strstr(e.item[KB_ENV_HYPERVISOR].effect, "flagged steal") != NULL,
	   "server: with KVM steal time the hypervisor's effect says steal is flagged");
}

static void test_vm(void)
{
	static const struct expect x[] = {
		/* no module: the kernel's facts are unknown ... */
		{ KB_ENV_DEBUG, NULL, false },
		{ KB_ENV_PREEMPT_RT, NULL, false },
		/* ... but DMI names the machine a virtual one (qemu) */
		{ KB_ENV_HYPERVISOR, "other (QEMU)", true },
		{ KB_ENV_PSEUDO_NMI, NULL, false },
		/* ... but /proc/cmdline tells slub_debug */
		{ KB_ENV_SLUB, "on (slub_debug=FZ)", true },
		{ KB_ENV_NMI_WATCHDOG, "off", false },
		{ KB_ENV_CPUFREQ, "none", false },
		{ KB_ENV_GOVERNOR, "none", false },
		{ KB_ENV_BOOST, "none", false },
		{ KB_ENV_FREQUENCY, "unknown (no cpufreq)", false },
		{ KB_ENV_SMT, "none online", false },
		{ KB_ENV_ISOLATED, "no", false },
		{ KB_ENV_IRQS, "none aimed at this CPU", false },
	};
	struct kb_env e;

	use_root("vm");
	kb_env_collect(&e, NULL, 1);
	CHECK("vm", &e, x);

	/* qemu TCG as the module reports it: the hypervisor bit, no driver */
	{
		struct kb_kernel_env k = debian;

		k.hypervisor = KBENCH_HYPERVISOR_OTHER;
		snprintf(k.vendor, sizeof(k.vendor), "TCGTCGTCGTCG");
		kb_env_collect(&e, &k, 1);
		ok(e.item[KB_ENV_HYPERVISOR].problem &&
		   !strcmp(e.item[KB_ENV_HYPERVISOR].value, "other (TCGTCGTCGTCG)") &&
		   strstr(e.item[KB_ENV_HYPERVISOR].effect, "nothing tells kbench"),
		   "vm: TCG is hypervisor other (TCGTCGTCGTCG), undetectable steal");
	}
}

static void test_odd(void)
{
	static const struct expect x[] = {
		/* readable slab: 2 debugged caches, the alias counted once; the
		 * command line's slub_debug=- is not what the caches say */
		{ KB_ENV_SLUB, "on (2 caches)", true },
		{ KB_ENV_NMI_WATCHDOG, NULL, false },		/* "abc" */
		{ KB_ENV_CPUFREQ, "acpi-cpufreq", false },	/* trailing blanks */
		{ KB_ENV_GOVERNOR, NULL, false },		/* no file */
		{ KB_ENV_FREQUENCY, NULL, false },		/* max "garbage" */
		{ KB_ENV_BOOST, "on", true },			/* the policy's, not the global */
		{ KB_ENV_SMT, NULL, false },			/* "1-" */
		{ KB_ENV_ISOLATED, "yes (isolcpus, cpuset partition)", false },
		/* 5: effective empty; 6: no files; 7: requested only; 8: effective
		 * out of range, requested 0; 10: effective "1\r", requested 2-3 */
		{ KB_ENV_IRQS, "1 aimed at this CPU, 1 moving away at its next interrupt", true },
	};
	struct kb_env e;

	use_root("odd");
	kb_env_collect(&e, &debian, 1);
	CHECK("odd", &e, x);

	use_root("no-such-machine");
	kb_env_collect(&e, NULL, 0);
	ok(!strcmp(e.item[KB_ENV_CPUFREQ].value, "none") &&
	   !e.item[KB_ENV_SMT].known && !e.item[KB_ENV_IRQS].known &&
	   !e.item[KB_ENV_SLUB].known && kb_env_problems(&e) == 0 &&
	   !strcmp(e.item[KB_ENV_NMI_WATCHDOG].value, "none (no hard lockup detector)"),
	   "an empty tree: no cpufreq, no NMI watchdog, SMT, interrupts and slub unknown, no problem");
}

/*
 * arm64 booted with irqchip.gicv3_pseudo_nmi=1: the module's pseudo-nmi
 * flag, from INFO or from the RUN reply alone, is a problem whose warning
 * names the boot parameter.
 */
static void test_pseudo_nmi(void)
{
	static const char warning[] =
		"warning: pseudo-NMIs on (irqchip.gicv3_pseudo_nmi=1): interrupts are masked by priority: pseudo-NMIs (perf, the hard lockup detector) can run in windows; those samples are excluded (nmi) (boot without irqchip.gicv3_pseudo_nmi=1)\n";
	struct kb_kernel_env k = debian;
	const struct kb_env_item *it;
	struct kb_run *r;
	struct kb_env e;
	char *buf = NULL;
	size_t len = 0;
	unsigned int n;
	FILE *f;

	use_root("server");
	kb_env_collect(&e, &k, 3);
	n = kb_env_problems(&e);
	k.flags |= KBENCH_ENV_F_PSEUDO_NMI;
	kb_env_collect(&e, &k, 3);
	it = &e.item[KB_ENV_PSEUDO_NMI];
	ok(it->known && it->problem &&
	   !strcmp(it->value, "on (irqchip.gicv3_pseudo_nmi=1)") &&
	   kb_env_problems(&e) == n + 1,
	   "pseudo-nmi: on (irqchip.gicv3_pseudo_nmi=1), a problem");
	f = open_memstream(&buf, &len);
	out_init(f, false);
	kb_env_print(&e, KB_ENV_VIEW_WARNINGS);
	out_finish();
	fclose(f);
	if (!ok(buf && strstr(buf, warning), "pseudo-nmi: its warning line names the boot parameter"))
		diag("got:\n%s", buf);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	out_init(f, true);
	kb_env_print(&e, KB_ENV_VIEW_WARNINGS);
	out_finish();
	fclose(f);
	ok(buf && strstr(buf, "\"pseudo_nmi\"") &&
	   strstr(buf, "\"on (irqchip.gicv3_pseudo_nmi=1)\""),
	   "pseudo-nmi: --json has pseudo_nmi among the problems, with its value");
	free(buf);
	out_init(stdout, false);

	/* the RUN reply's env flags say it when INFO's did not */
	r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	r->kenv = debian;
	r->cpu = 3;
	r->env_flags = KBENCH_ENV_F_PSEUDO_NMI;
	kb_run_env(r);
	ok(r->env.item[KB_ENV_PSEUDO_NMI].problem,
	   "pseudo-nmi: the RUN reply's env-flags alone make it a problem of the run");
	r->env_flags = 0;
	r->kenv = debian;
	kb_run_env(r);
	ok(r->env.item[KB_ENV_PSEUDO_NMI].known &&
	   !r->env.item[KB_ENV_PSEUDO_NMI].problem,
	   "pseudo-nmi: off without the flag");
	free(r);
}

/* The hypervisor seen from userspace, from each source alone and in order. */
static void test_hypervisor_classify(void)
{
	static const struct {
		const char *cpuid, *sys, *dv, *dp;
		uint32_t type;
		const char *vendor;
	} c[] = {
		{ "KVMKVMKVM", "", "", "", KBENCH_HYPERVISOR_KVM, "KVMKVMKVM" },
		{ "Microsoft Hv", "", "Microsoft Corporation", "Virtual Machine",
		  KBENCH_HYPERVISOR_HYPERV, "Microsoft Hv" },
		{ "VMwareVMware", "", "", "", KBENCH_HYPERVISOR_VMWARE, "VMwareVMware" },
		{ "XenVMMXenVMM", "xen", "", "", KBENCH_HYPERVISOR_XEN, "XenVMMXenVMM" },
		{ "TCGTCGTCGTCG", "", "QEMU", "Standard PC (Q35 + ICH9, 2009)",
		  KBENCH_HYPERVISOR_OTHER, "TCGTCGTCGTCG" },
		{ "", "xen", "", "", KBENCH_HYPERVISOR_XEN, "xen" },
		{ "", "", "QEMU", "KVM Virtual Machine", KBENCH_HYPERVISOR_KVM,
		  "KVM Virtual Machine" },
		{ "", "", "Microsoft Corporation", "Virtual Machine",
		  KBENCH_HYPERVISOR_HYPERV, "Virtual Machine" },
		{ "", "", "VMware, Inc.", "VMware7,1", KBENCH_HYPERVISOR_VMWARE,
		  "VMware7,1" },
		{ "", "", "QEMU", "Standard PC (i440FX + PIIX, 1996)",
		  KBENCH_HYPERVISOR_OTHER, "QEMU" },
		{ "", "", "Dell Inc.", "PowerEdge R650", KBENCH_HYPERVISOR_NONE, "" },
		{ "", "", "", "", KBENCH_HYPERVISOR_NONE, "" },
	};
	char v[48];
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint32_t t = kb_hypervisor_classify(c[i].cpuid, c[i].sys, c[i].dv,
						    c[i].dp, v, sizeof(v));

		if (!ok(t == c[i].type && !strcmp(v, c[i].vendor),
			"hypervisor from userspace: cpuid '%s', /sys/hypervisor '%s', DMI '%s' / '%s': type %u (%s)",
			c[i].cpuid, c[i].sys, c[i].dv, c[i].dp, c[i].type,
			c[i].vendor))
			diag("got type %u vendor '%s'", t, v);
	}
}

/* ---- the environment in saved results, and diff's warnings ---------------- */

/* A saved result of one 7-cycle routine measured in environment @e. */
static int saved(const struct kb_env *e, struct kb_resfile *rf)
{
	struct kb_saved_run s;
	struct kb_meta m;
	struct kb_run r;
	char err[256], *buf = NULL;
	size_t len = 0, i;
	FILE *f;
	int rc;

	memset(&m, 0, sizeof(m));
	snprintf(m.kbenchctl_version, sizeof(m.kbenchctl_version), "0.1");
	snprintf(m.arch, sizeof(m.arch), "x86_64");
	kb_meta_add_env(&m, e);
	memset(&r, 0, sizeof(r));
	r.iterations = 1000;
	r.samples = 50;
	r.cpu = (uint32_t)e->cpu;
	r.counter_hz = 1000000000;
	snprintf(r.counter, sizeof(r.counter), "tsc");
	r.nres = 1;
	snprintf(r.res[0].routine, sizeof(r.res[0].routine), "add_chain");
	for (i = 0; i < 50; i++)
		kb_result_push(&r.res[0], 7000, 0);
	kb_result_summarize(&r.res[0], 1000);
	kb_saved_run_init(&s, &r, NULL);
	f = open_memstream(&buf, &len);
	kb_resfile_write(f, &m, &s, 1);
	fclose(f);
	rc = kb_resfile_parse(buf, len, "t.json", rf, err, sizeof(err));
	if (rc)
		diag("%s", err);
	free(buf);
	kb_run_free(&r);
	return rc;
}

static const char *meta_env(const struct kb_meta *m, const char *key)
{
	unsigned int i;

	for (i = 0; i < m->nenv; i++)
		if (!strcmp(m->env[i].key, key))
			return m->env[i].value;
	return "(absent)";
}

static void test_saved(void)
{
	struct kb_resfile a, b;
	struct kb_diff_opts o;
	struct kb_env e;
	char *t = NULL;
	size_t len = 0;
	int regressed;
	FILE *f;

	use_root("laptop");
	kb_env_collect(&e, &debian, 2);
	if (saved(&e, &a)) {
		ok(0, "saved: a result with the environment loads");
		return;
	}
	ok(!strcmp(meta_env(&a.meta, "governor"), "powersave") &&
	   !strcmp(meta_env(&a.meta, "cpu"), "2") &&
	   !strcmp(meta_env(&a.meta, "problems"),
		   "nmi_watchdog,governor,boost,smt_sibling,interrupts") &&
	   !strcmp(meta_env(&a.meta, "hz"), "250"),
	   "saved: the environment's items, CPU and problems round-trip");
	/* the same machine after kbenchctl tune (its server twin's values) */
	use_root("server");
	kb_env_collect(&e, &debian, 3);
	saved(&e, &b);
	kb_diff_opts_init(&o);
	o.full = true;		/* -v: the notes too */
	f = open_memstream(&t, &len);
	out_init(f, false);
	kb_diff_print(NULL, "old.json", &a, "new.json", &b, &o, &regressed);
	out_finish();
	fclose(f);
	out_init(stdout, false);
	if (!ok(strstr(t, "warning: environment governor differs: powersave, performance (it changes what the code costs)") &&
		strstr(t, "warning: environment smt_sibling differs: cpu 6 online, none online") &&
		strstr(t, "note: environment interrupts differs (see the files)") &&
		!strstr(t, "warning: environment interrupts"),
		"diff: a changed governor or sibling is a warning, interrupts a note"))
		diag("%s", t);
	free(t);
	kb_resfile_free(&a);
	kb_resfile_free(&b);
}

/* ---- kbenchctl tune on a copy of a tree ----------------------------------- */

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static char tmp[64];

/* a file of the copy holds exactly @v (one line) */
static bool holds(const char *path, const char *v)
{
	char full[512], line[256] = "";
	FILE *f;

	snprintf(full, sizeof(full), "%s/fx%s", tmp, path);
	f = fopen(full, "r");
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return !strcmp(line, v);
}

static void test_tune(void)
{
	const char *kb = kbenchctl_bin;
	char orig[512], vg[600];

	snprintf(tmp, sizeof(tmp), "/tmp/kbench-tune-XXXXXX");
	if (!mkdtemp(tmp)) {
		ok(0, "tune: a scratch directory");
		return;
	}
	snprintf(orig, sizeof(orig), "%s/env/laptop", fixtures_dir);
	sh("cp -a %s %s/fx && chmod 755 %s", orig, tmp, tmp);
	snprintf(vg, sizeof(vg),
		 "valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=99 %s",
		 kbenchctl_bin);

	/* tune, show and reset under valgrind where there is one */
	if (!sh("command -v valgrind >/dev/null"))
		kb = vg;
	else
		skip("no valgrind", "valgrind kbenchctl tune");
#define KB(args)	"KBENCH_SYSFS_ROOT=%s/fx %s " args " --state %s/state >%s/out 2>&1"
	ok(sh(KB("tune --cpu 2 --dry-run"), tmp, kb, tmp, tmp) == 0 &&
	   sh("diff -r %s %s/fx >/dev/null", orig, tmp) == 0 &&
	   sh("test ! -e %s/state", tmp) == 0 &&
	   sh("grep -q '5 would move away from CPU 2' %s/out", tmp) == 0,
	   "tune --dry-run: says what it would do, changes nothing, saves nothing");

	ok(sh(KB("tune --cpu 2"), tmp, kb, tmp, tmp) == 0 &&
	   holds("/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor", "performance") &&
	   holds("/sys/devices/system/cpu/intel_pstate/no_turbo", "1") &&
	   holds("/proc/sys/kernel/nmi_watchdog", "0") &&
	   holds("/sys/devices/system/cpu/cpu6/online", "0") &&
	   holds("/proc/irq/1/smp_affinity_list", "0-1,3-5,7") &&
	   holds("/proc/irq/16/smp_affinity_list", "0-1,3-5,7") &&
	   holds("/proc/irq/121/smp_affinity_list", "3") &&
	   holds("/proc/irq/120/smp_affinity_list", "0-1") &&
	   holds("/proc/irq/default_smp_affinity", "fb"),
	   "tune --cpu 2: performance, turbo off, watchdog off, sibling 6 offline, interrupts on the other online CPUs (not 2, not 6), the default affinity without CPU 2");
	if (!ok(sh("grep -qx '  governor       powersave -> performance' %s/out && "
		   "grep -qx '  boost          on -> off (no_turbo 0 -> 1)' %s/out && "
		   "grep -qx '  SMT sibling    CPU 6 went offline' %s/out && "
		   "grep -qx '  interrupts     5 moved away from CPU 2' %s/out",
		   tmp, tmp, tmp, tmp) == 0, "tune: one line per step"))
		sh("sed 's/^/# /' %s/out", tmp);
	ok(sh(KB("tune --cpu 2"), tmp, kb, tmp, tmp) == 1 &&
	   sh("grep -q 'holds settings saved before' %s/out", tmp) == 0,
	   "tune twice: refused while a state is saved (exit 1)");
	ok(sh(KB("tune --show"), tmp, kb, tmp, tmp) == 0 &&
	   sh("grep -qx '  /proc/irq/16/smp_affinity_list: 2, now 0-1,3-5,7' %s/out", tmp) == 0 &&
	   sh("grep -q '/proc/irq/120/' %s/out", tmp) != 0,
	   "tune --show: the saved values that differ now");
	ok(sh("KBENCH_SYSFS_ROOT=%s/fx %s --json tune --show --state %s/state | "
	      "python3 -c 'import json,sys; d=json.load(sys.stdin); "
	      "assert d[\"cpu\"] == 2 and len(d[\"saved\"]) == 13 and "
	      "sum(s[\"differs\"] for s in d[\"saved\"]) == 10'", tmp, kb, tmp) == 0,
	   "tune --show --json: 13 saved values, 10 differ");
	ok(sh(KB("tune --reset"), tmp, kb, tmp, tmp) == 0 &&
	   sh("diff -r %s %s/fx >/dev/null", orig, tmp) == 0 &&
	   sh("test ! -e %s/state", tmp) == 0,
	   "tune --reset: the tree is byte for byte as before; the state file is gone");
	if (kb == vg)
		ok(sh("grep -q '==' %s/out", tmp) != 0, "valgrind: tune, show and reset clean");
	ok(sh(KB("tune --reset"), tmp, kb, tmp, tmp) == 0 &&
	   sh("grep -q 'nothing to restore' %s/out", tmp) == 0,
	   "tune --reset again: nothing to restore (exit 0)");

	/*
	 * A write refused for permission half-way (the NMI watchdog's file is
	 * root's, the two before it are anyone's): the first two changes are
	 * undone, the state file removed, exit 1.  As root, run as nobody.
	 */
	sh("chmod -R a+rX %s && chmod a+w %s/fx/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor "
	   "%s/fx/sys/devices/system/cpu/intel_pstate/no_turbo && chmod 1777 %s",
	   tmp, tmp, tmp, tmp);
	if (geteuid() == 0 && sh("command -v setpriv >/dev/null") != 0) {
		skip("no setpriv", "tune without permission rolls back");
	} else {
		int rc = sh("KBENCH_SYSFS_ROOT=%s/fx %s %s tune --cpu 2 --state %s/state >%s/out 2>&1",
			    tmp, geteuid() ? "" : "setpriv --reuid=65534 --regid=65534 --clear-groups",
			    kb, tmp, tmp);

		sh("chmod go-w %s/fx/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor "
		   "%s/fx/sys/devices/system/cpu/intel_pstate/no_turbo", tmp, tmp);
		if (!ok(rc == 1 && sh("diff -r %s %s/fx >/dev/null", orig, tmp) == 0 &&
			sh("test ! -e %s/state", tmp) == 0 &&
			sh("grep -q '^kbenchctl tune: /proc/sys/kernel/nmi_watchdog: Permission denied (tune needs root); nothing changed (2 settings restored)$' %s/out",
			   tmp) == 0,
			"tune without permission half-way: exit 1, the 2 changes undone, no state file"))
			sh("sed 's/^/# /' %s/out", tmp);
	}
	ok(sh("KBENCH_SYSFS_ROOT=%s/fx %s tune --cpu 2 --state /nonexistent/dir/state >%s/out 2>&1",
	      tmp, kb, tmp) == 1 &&
	   sh("grep -q 'cannot save the settings to /nonexistent/dir/state: No such file or directory; nothing changed' %s/out",
	      tmp) == 0 &&
	   sh("diff -r %s %s/fx >/dev/null", orig, tmp) == 0,
	   "tune: a state file that cannot be written stops it before any change");
	/* a machine tuned already: nothing to write, nothing saved */
	ok(sh("KBENCH_SYSFS_ROOT=%s/env/server %s tune --cpu 3 --state %s/state >%s/out 2>&1",
	      fixtures_dir, kb, tmp, tmp) == 0 &&
	   sh("test ! -e %s/state", tmp) == 0 &&
	   sh("grep -q '^tune CPU 3 (nothing to change, nothing saved):$' %s/out && "
	      "grep -q '^  governor       performance already$' %s/out",
	      tmp, tmp) == 0,
	   "tune --cpu 3 on a tuned server: nothing to change, no state file, exit 0");
	ok(sh("%s tune >%s/out 2>&1", kb, tmp) == 2 &&
	   sh("%s tune --show --reset >/dev/null 2>&1", kb) == 2 &&
	   sh("%s tune --reset --cpu 1 >/dev/null 2>&1", kb) == 2,
	   "tune: no CPU, --show with --reset, --reset with --cpu: usage errors (2)");
#undef KB
	sh("rm -rf %s", tmp);
	unsetenv("KBENCH_SYSFS_ROOT");
	kb_sys_root_reset();
}

void test_env(void)
{
	test_cpulists();
	test_laptop();
	test_server();
	test_vm();
	test_odd();
	test_hypervisor_classify();
	test_pseudo_nmi();
	test_saved();
	test_tune();
	unsetenv("KBENCH_SYSFS_ROOT");
	kb_sys_root_reset();
}
