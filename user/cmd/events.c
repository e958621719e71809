// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl events: the hardware events this machine's PMUs support, per
 * CPU type, read from what the kernel offers (/sys/bus/event_source/
 * devices/ and perf_event_open(2) itself); and the PMU check before a run
 * with --events.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <kbench/events.h>

#include "events.h"
#include "cmd.h"
#include "meta.h"
#include "opts.h"
#include "output.h"

#define KB_PMU_SYSFS	"/sys/bus/event_source/devices"

struct events_opts {
	bool verbose;
};

const struct kb_opt kb_events_table[] = {
	{ .name = "verbose", .short_name = 'v', .kind = KB_OPT_FLAG,
	  KB_OPT_FIELD(struct events_opts, verbose),
	  .help = "also every event the PMUs name in sysfs, with its raw code" },
	{ NULL }
};

static bool exists(const char *dir, const char *name)
{
	char path[1024];
	struct stat st;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		return false;
	return !stat(path, &st);
}

/* The first CPU of a sysfs CPU list ("0-3,8"), or -1. */
static int first_cpu(const char *list)
{
	char *end;
	long v = strtol(list, &end, 10);

	return end != list && v >= 0 ? (int)v : -1;
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct kb_pmu *)a)->name,
		      ((const struct kb_pmu *)b)->name);
}

/*
 * A core PMU is x86's and powerpc's "cpu", or one with a `cpus' file (a
 * CPU type's: hybrid x86, arm64 clusters); uncore PMUs have a `cpumask'
 * instead, software ones neither.  How many (at most @max) into @p.
 */
static int kb_pmus(struct kb_pmu *p, int max)
{
	DIR *d = opendir(KB_PMU_SYSFS);
	char dir[512], path[600], line[64];
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while (n < max && (e = readdir(d))) {
		struct kb_pmu *q = &p[n];
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len >= sizeof(q->name))
			continue;
		snprintf(dir, sizeof(dir), KB_PMU_SYSFS "/%.63s", e->d_name);
		if (strcmp(e->d_name, "cpu") && !exists(dir, "cpus"))
			continue;
		memset(q, 0, sizeof(*q));
		memcpy(q->name, e->d_name, len + 1);
		snprintf(path, sizeof(path), "%s/type", dir);
		kb_read_line(path, line, sizeof(line));
		q->type = (uint32_t)strtoul(line, NULL, 10);
		snprintf(path, sizeof(path), "%s/cpus", dir);
		kb_read_line(path, q->cpus, sizeof(q->cpus));
		if (!q->cpus[0])
			kb_read_line("/sys/devices/system/cpu/online", q->cpus,
				     sizeof(q->cpus));
		q->first_cpu = first_cpu(q->cpus);
		n++;
	}
	closedir(d);
	qsort(p, (size_t)n, sizeof(*p), cmp_pmu);
	return n;
}

/*
 * Why there is no hardware PMU, in one line: "no hardware PMU: virtual
 * machine (KVMKVMKVM) without PMU passthrough; software events only".
 */
static void kb_no_pmu_reason(char *buf, size_t len)
{
	char hv[64];

	kb_hypervisor(hv, sizeof(hv));
	if (hv[0])
		snprintf(buf, len, "no hardware PMU: virtual machine (%s) without PMU passthrough; software events only",
			 hv);
	else
		snprintf(buf, len, "no hardware PMU: the kernel registered none (no PMU driver for this CPU, or perf disabled; see dmesg); software events only");
}

int kb_pmu_check_events(const char *sub, const char *const *names,
			unsigned int n)
{
	struct kb_pmu p[KB_PMU_MAX];
	char why[256], list[256] = "";
	size_t len = 0;
	unsigned int i;

	if (!n || kb_pmus(p, KB_PMU_MAX))
		return 0;
	for (i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i ? "," : "", names[i]);
	kb_no_pmu_reason(why, sizeof(why));
	fprintf(stderr, "%s %s: --events %s: %s\n", prog, sub, list, why);
	return -EOPNOTSUPP;
}

/* Does @pmu's CPU take generic event @config (counting our user mode)? */
static int probe_generic(const struct kb_pmu *pmu, unsigned long long config)
{
	struct perf_event_attr attr;
	long fd;

	kbench_event_user_attr(&attr, config);
	attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, pmu->first_cpu, -1,
		     PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

/*
 * A sysfs event description ("event=0x08", "event=0xc0,umask=0x01") as
 * kbench's raw:0x code, when it is just an event code (and a unit mask):
 * 0, or -1 when it needs other terms.
 */
static int raw_code(const char *desc, unsigned long long *code)
{
	unsigned long long ev = 0, umask = 0, v;
	char buf[256], *tok, *save, *end;
	bool have_ev = false;

	snprintf(buf, sizeof(buf), "%s", desc);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			return -1;
		*eq = '\0';
		v = strtoull(eq + 1, &end, 0);
		if (end == eq + 1 || *end)
			return -1;
		if (!strcmp(tok, "event")) {
			ev = v;
			have_ev = true;
		} else if (!strcmp(tok, "umask")) {
			umask = v;
		} else {
			return -1;
		}
	}
	/* x86: the event select below its unit mask, one byte each */
	if (!have_ev || (umask && (ev > 0xff || umask > 0xff)))
		return -1;
	*code = ev | umask << 8;
	return *code <= KBENCH_EVENT_RAW_MAX ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The events the PMU names in sysfs, sorted; the line-wrapped table. */
static void print_named(const struct kb_pmu *pmu, bool verbose)
{
	char dir[256], path[512], desc[256], raw[40], *names[512];
	unsigned long long code;
	unsigned int n = 0, i, col = 0;
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), KB_PMU_SYSFS "/%.63s/events", pmu->name);
	d = opendir(dir);
	while (d && n < 512 && (e = readdir(d)))
		if (e->d_name[0] != '.' && !strchr(e->d_name, '.'))
			names[n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	out_open_array("events");
	if (!verbose)
		out_text("  and %u events named by the PMU%s\n", n,
			 n ? " (-v lists them with their raw codes)" : "");
	for (i = 0; i < n; i++) {
		if (!names[i])
			continue;
		snprintf(path, sizeof(path), "%s/%.200s", dir, names[i]);
		kb_read_line(path, desc, sizeof(desc));
		if (!raw_code(desc, &code))
			snprintf(raw, sizeof(raw), KBENCH_EVENT_RAW_PREFIX "%llx",
				 code);
		else
			raw[0] = '\0';
		out_open_object_inline(NULL);
		if (verbose) {
			size_t w = strlen(names[i]) + 1 + strlen(raw[0] ? raw : desc);

			if (!col || col + w + 2 > 78) {
				out_text("%s  ", col ? "\n" : "");
				col = 2;
			} else {
				out_text("  ");
				col += 2;
			}
			col += (unsigned int)w;
		}
		out_string("name", verbose ? "%s=" : NULL, names[i]);
		out_string("sysfs", raw[0] || !verbose ? NULL : "%s", desc);
		out_string("raw", raw[0] && verbose ? "%s" : NULL,
			   raw[0] ? raw : NULL);
		out_close_object();
		free(names[i]);
	}
	if (verbose && col)
		out_text("\n");
	out_close_array();
}

/* How --user reads events here: rdpmc where the kernel allows it. */
static void print_user_access(void)
{
	char v[32] = "";

	bool on = false;
	const char *how = "read(2)";

#if defined(__aarch64__)
	kb_read_line("/proc/sys/kernel/perf_user_access", v, sizeof(v));
	on = !strcmp(v, "1");
	how = on ? "mrs pmevcntr (perf_user_access is 1)" :
		   "read(2) (echo 1 > /proc/sys/kernel/perf_user_access for mrs)";
#elif defined(__x86_64__)
	kb_read_line(KB_PMU_SYSFS "/cpu/rdpmc", v, sizeof(v));
	on = v[0] && strcmp(v, "0");
	how = on ? "rdpmc" :
		   "read(2) (echo 1 > " KB_PMU_SYSFS "/cpu/rdpmc for rdpmc)";
#endif
	out_bool("user_rdpmc", NULL, on);
	out_text("--user reads events with %s\n", how);
	kb_read_line("/proc/sys/kernel/perf_event_paranoid", v, sizeof(v));
	out_string("perf_event_paranoid", "perf_event_paranoid %s", v);
	out_text(" (counting --user events needs 2 or below, or CAP_PERFMON)\n");
}

static void print_pmu(const struct kb_pmu *pmu, bool verbose)
{
	const struct kbench_event_def *d;
	unsigned int i, k = 0;
	int err = 0;

	out_open_object(NULL);
	out_string("name", "%s", pmu->name);
	out_uint("type", " (type %llu", pmu->type);
	out_string("cpus", ", cpus %s)\n", pmu->cpus);
	out_open_array("generic");
	out_text("  generic:");
	for (i = 0; i < KBENCH_EVENT_GENERIC && (d = kbench_event_def(i)); i++) {
		err = probe_generic(pmu, d->config);
		if (err == -EACCES || err == -EPERM)
			break;
		if (err)
			continue;
		out_string(NULL, k++ ? ", %s" : " %s", d->name);
	}
	out_close_array();
	if (err == -EACCES || err == -EPERM)
		out_text(" (not probed: perf_event_open() not allowed here, see perf_event_paranoid)");
	out_text("%s\n", k || err ? "" : " none");
	print_named(pmu, verbose);
	out_close_object();
}

void kb_pmu_print_info(void)
{
	struct kb_pmu p[KB_PMU_MAX];
	int n = kb_pmus(p, KB_PMU_MAX), i;
	char why[256];

	out_open_array("pmus");
	out_text("pmu:              ");
	for (i = 0; i < n; i++) {
		out_open_object_inline(NULL);
		out_string("name", i ? "; %s" : "%s", p[i].name);
		out_string("cpus", " (cpus %s)", p[i].cpus);
		out_close_object();
	}
	out_close_array();
	if (n) {
		out_null("no_pmu");
		out_text("; 'kbenchctl events' lists their events\n");
	} else {
		kb_no_pmu_reason(why, sizeof(why));
		out_string("no_pmu", "%s\n", why);
	}
}

int events_main(const struct subcommand *sc, int argc, char *argv[])
{
	struct events_opts o = { 0 };
	struct kb_pmu p[KB_PMU_MAX];
	char why[256];
	int err, n, i;

	err = kb_opts_parse_noargs(sc, argc, argv, &o);
	if (err)
		return kb_exit_status(err);
	n = kb_pmus(p, KB_PMU_MAX);
	out_open_object(NULL);
	out_open_array("pmus");
	for (i = 0; i < n; i++) {
		out_text(i ? "\n" : "");
		print_pmu(&p[i], o.verbose);
	}
	out_close_array();
	if (!n) {
		kb_no_pmu_reason(why, sizeof(why));
		out_string("no_pmu", "%s\n", why);
	} else {
		out_null("no_pmu");
		out_text("\n");
		print_user_access();
		out_uint("events_max", "at most %llu events per run; ",
			 KBENCH_EVENTS_MAX);
		out_text("fewer when the PMU has fewer free counters\n");
	}
	out_close_object();
	out_finish();
	return EXIT_OK;
}
