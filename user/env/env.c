// SPDX-License-Identifier: GPL-2.0
/*
 * The environment report (env.h): the module's facts, /sys and /proc.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/kbench.h>

#include "color.h"
#include "env.h"
#include "hyper.h"
#include "names.h"
#include "nl.h"
#include "output.h"
#include "sysfs.h"

/*
 * The items: JSON key, table label, whether a change of it changes what
 * the code costs (moves), and why each matters, in one line.
 */
static const struct {
	const char *key, *label;
	bool moves;
	const char *effect;
} env_items[KB_ENV_N] = {
	[KB_ENV_DEBUG] = { "debug_options", "debug options", true,
		"kernel code runs extra checks: routines cost more than in production" },
	[KB_ENV_SLUB] = { "slub_debug", "slub_debug", true,
		"slab allocations and frees are checked and poisoned: they cost more" },
	[KB_ENV_PREEMPT_RT] = { "preempt_rt", "PREEMPT_RT", true,
		"spinlock_t and most locks sleep (rt_mutex): lock routines differ from other kernels" },
	[KB_ENV_PREEMPTION] = { "preemption", "preemption", false,
		"decides where tasks are preempted; windows have preemption off in every model" },
	[KB_ENV_HZ] = { "hz", "HZ", false,
		"timer ticks per second; a tick due inside a window waits for its end" },
	[KB_ENV_NMI_WATCHDOG] = { "nmi_watchdog", "NMI watchdog", false,
		"its NMIs hit windows every few seconds: those samples are excluded (nmi)" },
	[KB_ENV_HYPERVISOR] = { "hypervisor", "hypervisor", true, NULL /* below */ },
	[KB_ENV_PSEUDO_NMI] = { "pseudo_nmi", "pseudo-NMIs", false,
		"interrupts are masked by priority: pseudo-NMIs (perf, the hard lockup detector) can run in windows; those samples are excluded (nmi)" },
	[KB_ENV_CPUFREQ] = { "cpufreq_driver", "cpufreq driver", true,
		"sets the clock speed; without one, firmware or the host does" },
	[KB_ENV_GOVERNOR] = { "governor", "governor", true,
		"the clock speed follows the load, the counter's rate does not: ticks per iteration drift" },
	[KB_ENV_BOOST] = { "boost", "boost", true,
		"turbo clocks depend on heat and power: figures drift within a run" },
	[KB_ENV_FREQUENCY] = { "frequency", "frequency", true,
		"the range the clock speed may move in" },
	[KB_ENV_SMT] = { "smt_sibling", "SMT sibling", true,
		"an online sibling thread shares the core: its work slows this one" },
	[KB_ENV_ISOLATED] = { "isolated", "isolated", false,
		"other tasks may run on the CPU between windows and cool its caches" },
	[KB_ENV_IRQS] = { "interrupts", "device interrupts", false,
		"they run on the CPU between windows and evict its caches" },
};

static const char *const hyper_effect_steal =
	"the host can stop this vCPU inside a window; such samples are flagged steal";
static const char *const hyper_effect_blind =
	"the host can stop this vCPU inside a window, and nothing tells kbench when";

static const struct kb_flag_name debug_names[] = {
	{ KBENCH_DEBUG_F_LOCKDEP, "lockdep" },
	{ KBENCH_DEBUG_F_PROVE_LOCKING, "prove_locking" },
	{ KBENCH_DEBUG_F_DEBUG_ATOMIC_SLEEP, "debug_atomic_sleep" },
	{ KBENCH_DEBUG_F_DEBUG_PREEMPT, "debug_preempt" },
	{ KBENCH_DEBUG_F_KASAN, "kasan" },
	{ KBENCH_DEBUG_F_KCSAN, "kcsan" },
	{ KBENCH_DEBUG_F_KMSAN, "kmsan" },
	{ KBENCH_DEBUG_F_UBSAN, "ubsan" },
	{ KBENCH_DEBUG_F_KCOV, "kcov" },
	{ KBENCH_DEBUG_F_DEBUG_PAGEALLOC, "debug_pagealloc" },
	{ KBENCH_DEBUG_F_DEBUG_OBJECTS, "debug_objects" },
	{ KBENCH_DEBUG_F_SLUB_DEBUG_ON, "slub_debug_on" },
	{ KBENCH_DEBUG_F_KMEMLEAK, "kmemleak" },
	{ KBENCH_DEBUG_F_DEBUG_SPINLOCK, "debug_spinlock" },
	{ KBENCH_DEBUG_F_LOCK_STAT, "lock_stat" },
	{ 0, NULL }
};

static const char *const preempt_names[] = {
	[KBENCH_PREEMPT_NONE] = "none",
	[KBENCH_PREEMPT_VOLUNTARY] = "voluntary",
	[KBENCH_PREEMPT_FULL] = "full",
	[KBENCH_PREEMPT_LAZY] = "lazy",
	[KBENCH_PREEMPT_LAZIEST] = "laziest",
};

static const char *const hypervisor_names[] = {
	[KBENCH_HYPERVISOR_NONE] = "none",
	[KBENCH_HYPERVISOR_KVM] = "kvm",
	[KBENCH_HYPERVISOR_XEN] = "xen",
	[KBENCH_HYPERVISOR_HYPERV] = "hyperv",
	[KBENCH_HYPERVISOR_VMWARE] = "vmware",
	[KBENCH_HYPERVISOR_OTHER] = "other",
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

const char *kb_env_key(enum kb_env_id id)
{
	return env_items[id].key;
}

const char *kb_env_label(enum kb_env_id id)
{
	return env_items[id].label;
}

bool kb_env_key_moves_figures(const char *key)
{
	size_t i;

	for (i = 0; i < KB_ENV_N; i++)
		if (!strcmp(key, env_items[i].key))
			return env_items[i].moves;
	return false;
}

void kb_kernel_env_parse(struct nlattr **tb, struct kb_kernel_env *k)
{
	struct nlattr *e[KBENCH_A_ENV_MAX + 1];

	memset(k, 0, sizeof(*k));
	k->detectors = kb_u32(tb[KBENCH_A_INFO_DETECTORS], 0);
	if (!tb[KBENCH_A_INFO_ENVIRONMENT] ||
	    nla_parse_nested(e, KBENCH_A_ENV_MAX, tb[KBENCH_A_INFO_ENVIRONMENT],
			     NULL) < 0)
		return;
	k->known = true;
	k->debug = kb_u32(e[KBENCH_A_ENV_DEBUG], 0);
	k->debug_active = kb_u32(e[KBENCH_A_ENV_DEBUG_ACTIVE], 0);
	k->flags = kb_u32(e[KBENCH_A_ENV_FLAGS], 0);
	k->preempt_model = kb_u32(e[KBENCH_A_ENV_PREEMPT_MODEL], 0);
	k->hz = kb_u32(e[KBENCH_A_ENV_HZ], 0);
	k->hypervisor = kb_u32(e[KBENCH_A_ENV_HYPERVISOR], 0);
	snprintf(k->vendor, sizeof(k->vendor), "%s",
		 kb_str(e[KBENCH_A_ENV_HYPERVISOR_VENDOR], ""));
}

static void __attribute__((format(printf, 3, 4)))
set(struct kb_env_item *it, bool problem, const char *fmt, ...)
{
	va_list ap;

	it->known = true;
	it->problem = problem;
	va_start(ap, fmt);
	vsnprintf(it->value, sizeof(it->value), fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 2, 3)))
set_fix(struct kb_env_item *it, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(it->fix, sizeof(it->fix), fmt, ap);
	va_end(ap);
}

/* ---- the kernel ---------------------------------------------------------- */

static void env_debug(struct kb_env_item *it, const struct kb_kernel_env *k)
{
	char on[256], off[256];

	if (!k)
		return;
	kb_flag_names(debug_names, k->debug_active, ", ", on, sizeof(on));
	kb_flag_names(debug_names, k->debug & ~k->debug_active &
		      ~KBENCH_DEBUG_F_SLUB_DEBUG_ON, ", ", off, sizeof(off));
	/* slub_debug_on has its own item (the module cannot see slub_debug) */
	if (!on[0] && !off[0])
		set(it, false, "none");
	else if (!on[0])
		set(it, false, "none in effect (compiled in, off: %s)", off);
	else if (!off[0])
		set(it, true, "%s", on);
	else
		set(it, true, "%s (compiled in, off: %s)", on, off);
	set_fix(it, "measure on a kernel built without them");
}

/* "slub_debug", "slub_debug=...", or 6.8's "slab_debug" on the command line */
static bool cmdline_slub(char *arg, size_t len)
{
	char line[4096], *tok, *save;

	if (kb_sys_read("/proc/cmdline", line, sizeof(line)))
		return false;
	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (strncmp(tok, "slub_debug", 10) && strncmp(tok, "slab_debug", 10))
			continue;
		if (tok[10] && tok[10] != '=')
			continue;
		snprintf(arg, len, "%s", tok);
	}
	return arg[0];
}

/*
 * The caches SLUB debugs: /sys/kernel/slab/<cache>/{sanity_checks,
 * red_zone,poison,store_user,trace} (mode 0400: root only).  Aliases of
 * merged caches are symlinks: each real cache is counted once.  -EACCES
 * when not readable, -ENOENT without the directory.
 */
static int slab_debugged(unsigned int *ncaches)
{
	static const char *const files[] = {
		"sanity_checks", "red_zone", "poison", "store_user", "trace" };
	char dir[4096], path[4400], v[16];
	struct dirent *de;
	unsigned int i;
	int err = 0;
	DIR *d;

	*ncaches = 0;
	if (kb_sys_path(dir, sizeof(dir), "/sys/kernel/slab"))
		return -ENAMETOOLONG;
	d = opendir(dir);
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || de->d_type == DT_LNK)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_type == DT_UNKNOWN && (lstat(path, &st) || S_ISLNK(st.st_mode)))
			continue;
		for (i = 0; i < ARRAY_LEN(files); i++) {
			snprintf(path, sizeof(path), "/sys/kernel/slab/%s/%s",
				 de->d_name, files[i]);
			err = kb_sys_read(path, v, sizeof(v));
			if (err == -ENOENT || err == -ENODATA) {
				err = 0;
				continue;
			}
			if (err)
				break;
			if (!strcmp(v, "1")) {
				(*ncaches)++;
				break;
			}
		}
	}
	closedir(d);
	return err;
}

static void env_slub(struct kb_env_item *it, const struct kb_kernel_env *k)
{
	unsigned int n;
	char arg[256] = "";
	int err;

	set_fix(it, "boot with slub_debug=-");
	err = slab_debugged(&n);
	if (!err) {
		if (n)
			set(it, true, "on (%u caches)", n);
		else
			set(it, false, "off");
		return;
	}
	/* not root: what the command line and the kernel's config say */
	if (cmdline_slub(arg, sizeof(arg))) {
		if (!strcmp(arg + 10, "=-"))
			set(it, false, "off (%s)", arg);
		else
			set(it, true, "on (%s)", arg);
	} else if (k && (k->debug & KBENCH_DEBUG_F_SLUB_DEBUG_ON)) {
		set(it, true, "on (CONFIG_SLUB_DEBUG_ON)");
	} else if (k) {
		set(it, false, "off");
	}
}

static void env_preempt(struct kb_env *e, const struct kb_kernel_env *k)
{
	struct kb_env_item *it = &e->item[KB_ENV_PREEMPTION];
	const char *model;

	if (!k)
		return;
	set(&e->item[KB_ENV_PREEMPT_RT], false, "%s",
	    k->flags & KBENCH_ENV_F_PREEMPT_RT ? "yes" : "no");
	model = k->preempt_model < ARRAY_LEN(preempt_names) ?
		preempt_names[k->preempt_model] : "unknown";
	set(it, false, "%s%s", model,
	    k->flags & KBENCH_ENV_F_PREEMPT_DYNAMIC ? " (dynamic)" : "");
	set(&e->item[KB_ENV_HZ], false, "%u", k->hz);
}

/* /proc/sys/kernel/nmi_watchdog: 1 only where a hard lockup detector runs */
static void env_nmi(struct kb_env_item *it, int cpu)
{
	long v;
	int err = kb_sys_read_long("/proc/sys/kernel/nmi_watchdog", &v);

	set_fix(it, cpu >= 0 ? "kbenchctl tune --cpu %d" : "sysctl kernel.nmi_watchdog=0",
		cpu);
	if (err == -ENOENT)
		set(it, false, "none (no hard lockup detector)");
	else if (!err)
		set(it, v != 0, "%s", v ? "on" : "off");
}

static void env_hypervisor(struct kb_env_item *it, const struct kb_kernel_env *k)
{
	struct kb_kernel_env user = { 0 };
	const char *name;

	it->effect = k && (k->detectors & KBENCH_SAMPLE_F_STEAL) ?
		     hyper_effect_steal : hyper_effect_blind;
	set_fix(it, "measure on bare metal, or on an idle host with pinned vCPUs");
	if (!k) {
		/* no module (--user): the same judgement from userspace */
		user.hypervisor = kb_hypervisor_detect(user.vendor,
						       sizeof(user.vendor));
		k = &user;
	}
	name = k->hypervisor < ARRAY_LEN(hypervisor_names) ?
	       hypervisor_names[k->hypervisor] : "other";
	if (k->vendor[0])
		set(it, k->hypervisor != KBENCH_HYPERVISOR_NONE, "%s (%s)",
		    name, k->vendor);
	else
		set(it, k->hypervisor != KBENCH_HYPERVISOR_NONE, "%s", name);
}

/*
 * arm64's pseudo-NMIs (the module's pseudo-nmi flag): local_irq_save()
 * leaves them unmasked, so they run inside windows.
 */
static void env_pseudo_nmi(struct kb_env_item *it, const struct kb_kernel_env *k)
{
	if (!k)
		return;
	set_fix(it, "boot without irqchip.gicv3_pseudo_nmi=1");
	if (k->flags & KBENCH_ENV_F_PSEUDO_NMI)
		set(it, true, "on (irqchip.gicv3_pseudo_nmi=1)");
	else
		set(it, false, "off");
}

/* ---- the measured CPU ---------------------------------------------------- */

static void mhz(char *buf, size_t len, long khz)
{
	if (khz % 1000)
		snprintf(buf, len, "%.1f", (double)khz / 1000);
	else
		snprintf(buf, len, "%ld", khz / 1000);
}

static int cpufreq_long(int cpu, const char *file, long *v)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/%s",
		 cpu, file);
	return kb_sys_read_long(path, v);
}

static void env_cpufreq(struct kb_env *e, int cpu)
{
	struct kb_env_item *drv = &e->item[KB_ENV_CPUFREQ];
	struct kb_env_item *gov = &e->item[KB_ENV_GOVERNOR];
	struct kb_env_item *fr = &e->item[KB_ENV_FREQUENCY];
	char d[64], g[64], a[24], b[24], c[24], x[24];
	long smin, smax, hmin, hmax;
	bool fixed = false;
	int err;

	err = kb_sys_readf(d, sizeof(d),
			   "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", cpu);
	if (err == -ENOENT) {
		set(drv, false, "none");
		set(gov, false, "none");
		set(fr, false, "unknown (no cpufreq)");
		return;
	}
	if (err)
		return;
	set(drv, false, "%s", d);

	if (!cpufreq_long(cpu, "scaling_min_freq", &smin) &&
	    !cpufreq_long(cpu, "scaling_max_freq", &smax)) {
		fixed = smin == smax;
		mhz(a, sizeof(a), smin);
		mhz(b, sizeof(b), smax);
		if (!cpufreq_long(cpu, "cpuinfo_min_freq", &hmin) &&
		    !cpufreq_long(cpu, "cpuinfo_max_freq", &hmax)) {
			mhz(c, sizeof(c), hmin);
			mhz(x, sizeof(x), hmax);
			set(fr, false, "%s-%s MHz (hardware %s-%s MHz)", a, b, c, x);
		} else {
			set(fr, false, "%s-%s MHz", a, b);
		}
	}

	err = kb_sys_readf(g, sizeof(g),
			   "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	set_fix(gov, "kbenchctl tune --cpu %d", cpu);
	if (!err)
		/* a governor cannot move a clock that min = max pins */
		set(gov, strcmp(g, "performance") && !fixed, "%s%s", g,
		    fixed && strcmp(g, "performance") ? " (min = max: fixed)" : "");
}

/*
 * Boost: intel_pstate's global no_turbo, else the policy's boost (amd-pstate,
 * acpi-cpufreq since 6.11), else the global cpufreq/boost.
 */
static void env_boost(struct kb_env_item *it, int cpu)
{
	char path[128];
	long v;

	set_fix(it, "kbenchctl tune --cpu %d", cpu);
	if (!kb_sys_read_long("/sys/devices/system/cpu/intel_pstate/no_turbo", &v)) {
		set(it, v == 0, "%s (intel_pstate no_turbo=%ld)", v ? "off" : "on", v);
		return;
	}
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/boost", cpu);
	if (!kb_sys_read_long(path, &v) ||
	    !kb_sys_read_long("/sys/devices/system/cpu/cpufreq/boost", &v)) {
		set(it, v != 0, "%s", v ? "on" : "off");
		return;
	}
	set(it, false, "no control (none in sysfs)");
}

static void env_smt(struct kb_env_item *it, int cpu)
{
	struct kb_cpuset sib, online;
	char list[256], path[128];

	set_fix(it, "kbenchctl tune --cpu %d", cpu);
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	if (kb_cpulist_read(path, &sib))
		return;
	/* offline CPUs leave their siblings' lists: those left are online */
	if (!kb_cpulist_read("/sys/devices/system/cpu/online", &online)) {
		unsigned int i;

		for (i = 0; i < KB_CPUS_MAX / 64; i++)
			sib.bits[i] &= online.bits[i];
	}
	kb_cpuset_del(&sib, (unsigned int)cpu);
	if (!kb_cpuset_count(&sib)) {
		set(it, false, "none online");
		return;
	}
	kb_cpulist_format(&sib, list, sizeof(list));
	set(it, true, "cpu %s online", list);
}

static void env_isolated(struct kb_env_item *it, int cpu)
{
	static const struct {
		const char *path, *name;
	} how[] = {
		{ "/sys/devices/system/cpu/isolated", "isolcpus" },
		{ "/sys/devices/system/cpu/nohz_full", "nohz_full" },
		{ "/sys/fs/cgroup/cpuset.cpus.isolated", "cpuset partition" },
	};
	struct kb_cpuset s;
	char v[96] = "";
	size_t i, used = 0;

	set_fix(it, "boot with isolcpus=%d nohz_full=%d, or use a cpuset partition",
		cpu, cpu);
	for (i = 0; i < ARRAY_LEN(how); i++)
		if (!kb_cpulist_read(how[i].path, &s) &&
		    kb_cpuset_has(&s, (unsigned int)cpu))
			used += (size_t)snprintf(v + used, sizeof(v) - used, "%s%s",
						 used ? ", " : "", how[i].name);
	if (used)
		set(it, false, "yes (%s)", v);
	else
		set(it, false, "no");
}

/*
 * Interrupts aimed at @cpu: /proc/irq/<n>/, their effective affinity (where
 * the kernel reports one: x86) or else their requested one.  On x86 a new
 * affinity of an I/O APIC interrupt takes effect at its next interrupt:
 * until then its effective affinity is still @cpu, but it is on its way.
 */
static void env_irqs(struct kb_env_item *it, int cpu)
{
	char dir[4096], path[320];
	struct kb_cpuset eff, req;
	unsigned int aimed = 0, moving = 0;
	struct dirent *de;
	bool has_req;
	DIR *d;

	set_fix(it, "kbenchctl tune --cpu %d", cpu);
	if (kb_sys_path(dir, sizeof(dir), "/proc/irq"))
		return;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list",
			 de->d_name);
		has_req = !kb_cpulist_read(path, &req);
		snprintf(path, sizeof(path), "/proc/irq/%s/effective_affinity_list",
			 de->d_name);
		if (kb_cpulist_read(path, &eff)) {
			if (!has_req)
				continue;
			eff = req;
		}
		if (!kb_cpuset_has(&eff, (unsigned int)cpu))
			continue;
		if (has_req && !kb_cpuset_has(&req, (unsigned int)cpu))
			moving++;
		else
			aimed++;
	}
	closedir(d);
	if (moving)
		set(it, aimed > 0, "%u aimed at this CPU, %u moving away at %s next interrupt",
		    aimed, moving, moving == 1 ? "its" : "their");
	else if (aimed)
		set(it, true, "%u aimed at this CPU", aimed);
	else
		set(it, false, "none aimed at this CPU");
}

void kb_env_collect(struct kb_env *e, const struct kb_kernel_env *k, int cpu)
{
	unsigned int i;

	memset(e, 0, sizeof(*e));
	e->cpu = cpu;
	for (i = 0; i < KB_ENV_N; i++)
		e->item[i].effect = env_items[i].effect;
	if (k && !k->known)
		k = NULL;
	env_debug(&e->item[KB_ENV_DEBUG], k);
	env_slub(&e->item[KB_ENV_SLUB], k);
	env_preempt(e, k);
	env_nmi(&e->item[KB_ENV_NMI_WATCHDOG], cpu);
	env_hypervisor(&e->item[KB_ENV_HYPERVISOR], k);
	env_pseudo_nmi(&e->item[KB_ENV_PSEUDO_NMI], k);
	if (cpu < 0)
		return;
	env_cpufreq(e, cpu);
	if (strcmp(e->item[KB_ENV_CPUFREQ].value, "none"))
		env_boost(&e->item[KB_ENV_BOOST], cpu);
	else
		set(&e->item[KB_ENV_BOOST], false, "none");
	env_smt(&e->item[KB_ENV_SMT], cpu);
	env_isolated(&e->item[KB_ENV_ISOLATED], cpu);
	env_irqs(&e->item[KB_ENV_IRQS], cpu);
}

unsigned int kb_env_problems(const struct kb_env *e)
{
	unsigned int i, n = 0;

	for (i = 0; i < KB_ENV_N; i++)
		n += e->item[i].known && e->item[i].problem;
	return n;
}

/* ---- output -------------------------------------------------------------- */

static bool shown(const struct kb_env *e, unsigned int i)
{
	return e->cpu >= 0 || i < KB_ENV_FIRST_CPU;
}

static void print_item(const struct kb_env *e, unsigned int i,
		       enum kb_env_view view)
{
	const struct kb_env_item *it = &e->item[i];
	bool warn = it->known && it->problem;
	FILE *f = out_file();
	char label[64];

	out_open_object(env_items[i].key);
	if (view == KB_ENV_VIEW_WARNINGS) {
		if (warn) {
			if (i >= KB_ENV_FIRST_CPU)
				snprintf(label, sizeof(label), "CPU %d %s", e->cpu,
					 env_items[i].label);
			else
				snprintf(label, sizeof(label), "%s", env_items[i].label);
			out_text("%swarning: %s ", kb_color(f, KB_WARN), label);
		}
		out_string("value", warn ? "%s" : NULL, it->known ? it->value : NULL);
		out_bool("problem", NULL, warn);
		out_string("effect", warn ? ": %s" : NULL, it->effect);
		out_string("fix", warn && it->fix[0] ? " (%s)" : NULL,
			   it->fix[0] ? it->fix : NULL);
		if (warn)
			out_text("%s\n", kb_color_end(f));
		out_close_object();
		return;
	}
	out_text("%s%c %-17s ", warn ? kb_color(f, KB_WARN) : "", warn ? '!' : ' ',
		 env_items[i].label);
	if (it->known) {
		out_string("value", "%s", it->value);
	} else {
		out_text("unknown");
		out_null("value");
	}
	out_text("%s\n", warn ? kb_color_end(f) : "");
	out_bool("problem", NULL, warn);
	out_string("effect", warn || view == KB_ENV_VIEW_VERBOSE ?
		   "                    %s\n" : NULL, it->effect);
	out_string("fix", warn && it->fix[0] ? "                    what to do: %s\n" : NULL,
		   it->fix[0] ? it->fix : NULL);
	out_close_object();
}

void kb_env_print(const struct kb_env *e, enum kb_env_view view)
{
	unsigned int i, n = kb_env_problems(e);

	out_open_object("environment");
	if (view != KB_ENV_VIEW_WARNINGS) {
		if (e->cpu >= 0)
			out_int("cpu", "environment of CPU %lld", e->cpu);
		else
			out_text("environment");
		out_text(": %u thing%s can distort measurements%s\n", n,
			 n == 1 ? "" : "s", n ? " (marked !)" : "");
	} else if (e->cpu >= 0) {
		out_int("cpu", NULL, e->cpu);
	}
	if (e->cpu < 0)
		out_null("cpu");
	out_open_array("problems");
	for (i = 0; i < KB_ENV_N; i++)
		if (shown(e, i) && e->item[i].known && e->item[i].problem)
			out_string(NULL, NULL, env_items[i].key);
	out_close_array();
	for (i = 0; i < KB_ENV_N; i++)
		if (shown(e, i))
			print_item(e, i, view);
	out_close_object();
}
