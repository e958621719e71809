// SPDX-License-Identifier: GPL-2.0
/*
 * The metadata of a saved result: what a later comparison must know to be
 * honest (versions, machine, counter, module parameters) and a first cheap
 * environment report.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <linux/kbench.h>
#include <kbench/method.h>
#include "env.h"
#include "base.h"
#include "meta.h"
#include "nl.h"
#include "resfile.h"
#include "sysfs.h"

void kb_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Value of the first "key<spaces>: value" line of /proc/cpuinfo. */
static bool cpuinfo(const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	char line[512];
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = line + klen;

		if (strncmp(line, key, klen) || (*p != ' ' && *p != '\t' && *p != ':'))
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		p += 1 + strspn(p + 1, " \t");
		p[strcspn(p, "\n")] = '\0';
		snprintf(buf, len, "%s", p);
		found = true;
	}
	fclose(f);
	return found;
}

static void cpu_model(char *buf, size_t len)
{
	char impl[32], part[32];

	buf[0] = '\0';
	if (cpuinfo("model name", buf, len) || cpuinfo("cpu", buf, len))
		return;
	/* arm64: no model name; the implementer and part identify the core */
	if (cpuinfo("CPU implementer", impl, sizeof(impl)) &&
	    cpuinfo("CPU part", part, sizeof(part)))
		snprintf(buf, len, "implementer %s part %s", impl, part);
}

void kb_hypervisor(char *buf, size_t len)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	/* CPUID.1:ECX[31] is set by hypervisors; 0x40000000 names them */
	if (__get_cpuid(1, &a, &b, &c, &d) && (c & (1U << 31))) {
		char v[13];

		__cpuid(0x40000000, a, b, c, d);
		memcpy(v, &b, 4);
		memcpy(v + 4, &c, 4);
		memcpy(v + 8, &d, 4);
		v[12] = '\0';
		snprintf(buf, len, "%s", v[0] ? v : "unknown");
		return;
	}
#endif
	kb_read_line("/sys/hypervisor/type", buf, len);
	if (!buf[0])
		kb_read_line("/proc/device-tree/hypervisor/compatible", buf, len);
}

static void env_add(struct kb_meta *m, const char *key, const char *value)
{
	struct kb_meta_env *e;

	if (!value[0] || m->nenv >= KB_META_ENV_MAX)
		return;
	e = &m->env[m->nenv++];
	snprintf(e->key, sizeof(e->key), "%s", key);
	snprintf(e->value, sizeof(e->value), "%s", value);
}

static void env_file(struct kb_meta *m, const char *key, const char *path)
{
	char buf[1024];

	kb_read_line(path, buf, sizeof(buf));
	env_add(m, key, buf);
}

/* What can be read cheaply now; the environment report adds to it. */
static void environment(struct kb_meta *m, int cpu)
{
	char path[128], buf[32];

	env_file(m, "cmdline", "/proc/cmdline");
	snprintf(buf, sizeof(buf), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	env_add(m, "cpus_online", buf);
	if (cpu >= 0) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 cpu);
		env_file(m, "scaling_governor", path);
	}
	env_file(m, "smt_active", "/sys/devices/system/cpu/smt/active");
	env_file(m, "cpufreq_boost", "/sys/devices/system/cpu/cpufreq/boost");
	env_file(m, "intel_pstate_no_turbo",
		 "/sys/devices/system/cpu/intel_pstate/no_turbo");
}

void kb_meta_add_env(struct kb_meta *m, const struct kb_env *e)
{
	char buf[256];
	size_t used = 0;
	unsigned int i;

	if (e->cpu < 0)
		return;
	snprintf(buf, sizeof(buf), "%d", e->cpu);
	env_add(m, "cpu", buf);
	buf[0] = '\0';
	for (i = 0; i < KB_ENV_N; i++) {
		if (!e->item[i].known)
			continue;
		env_add(m, kb_env_key(i), e->item[i].value);
		/* 14 short keys fit; a truncated list stays a truncated list */
		if (e->item[i].problem && used < sizeof(buf))
			used += (size_t)snprintf(buf + used, sizeof(buf) - used,
						 "%s%s", used ? "," : "",
						 kb_env_key(i));
	}
	/* env_add() keeps no empty value: none is "" */
	env_add(m, "problems", used ? buf : "none");
}

static void param(struct kb_meta *m, const char *name, struct nlattr *a,
		  bool u64)
{
	struct kb_meta_param *p;

	if (!a || m->nparams >= KB_META_PARAMS_MAX)
		return;
	p = &m->param[m->nparams++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->value = u64 ? nla_get_u64(a) : nla_get_u32(a);
}

static int info_cb(struct nlattr **tb, struct nlmsghdr *nlh, void *arg)
{
	struct kb_meta *m = arg;

	(void)nlh;
	snprintf(m->kbench_version, sizeof(m->kbench_version), "%s",
		 kb_str(tb[KBENCH_A_INFO_VERSION], ""));
	if (tb[KBENCH_A_INFO_ARCH])
		snprintf(m->arch, sizeof(m->arch), "%s",
			 nla_get_string(tb[KBENCH_A_INFO_ARCH]));
	if (tb[KBENCH_A_INFO_KERNEL])
		snprintf(m->kernel, sizeof(m->kernel), "%s",
			 nla_get_string(tb[KBENCH_A_INFO_KERNEL]));
	m->counter_flags = kb_u32(tb[KBENCH_A_INFO_COUNTER_FLAGS], 0);
	m->detectors = kb_u32(tb[KBENCH_A_INFO_DETECTORS], 0);
	param(m, "max_samples", tb[KBENCH_A_INFO_MAX_SAMPLES], false);
	param(m, "max_iterations", tb[KBENCH_A_INFO_MAX_ITERATIONS], false);
	param(m, "max_window_us", tb[KBENCH_A_INFO_MAX_WINDOW_US], false);
	param(m, "max_run_ms", tb[KBENCH_A_INFO_MAX_RUN_MS], false);
	param(m, "duty_pct", tb[KBENCH_A_INFO_DUTY_PCT], false);
	param(m, "runs_kept", tb[KBENCH_A_INFO_RUNS_KEPT], false);
	param(m, "store_bytes_max", tb[KBENCH_A_INFO_STORE_BYTES_MAX], true);
	return 0;
}

/* run --commit: resolved once, before measuring, for every file saved */
static char commit_hash[72], commit_time[40];

/*
 * git's first line of output for @argv (no shell) into @buf: 0, or -1
 * when git is missing or fails (its stderr discarded).
 */
static int git_line(char *const argv[], char *buf, size_t len)
{
	int fd[2], st, got = 0;
	FILE *f;
	pid_t pid;

	buf[0] = '\0';
	if (pipe2(fd, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		dup2(fd[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	if (f) {
		got = fgets(buf, (int)len, f) != NULL;
		while (fgetc(f) != EOF)
			;
		fclose(f);
	} else {
		close(fd[0]);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) || !got)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static bool full_hash(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return !s[n] && (n == 40 || n == 64);
}

int kb_meta_set_commit(const char *rev, char *why, size_t len)
{
	char spec[300], hash[72], when[40];
	char *rp[] = { "git", "rev-parse", "--verify", "--quiet",
		       "--end-of-options", spec, NULL };
	char *show[] = { "git", "show", "-s", "--format=%ct", hash, NULL };
	time_t t;

	if (!rev[0] || strlen(rev) > 256 || rev[0] == '-') {
		snprintf(why, len, "'%s': not a git revision", rev);
		return -EINVAL;
	}
	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	if (git_line(rp, hash, sizeof(hash)) || !full_hash(hash)) {
		if (!full_hash(rev)) {
			snprintf(why, len, "'%s': not a commit of a git repository here (git rev-parse); run kbenchctl in the repository, or give the full hash (40 or 64 hex digits)",
				 rev);
			return -EINVAL;
		}
		/* no git, or not a repository: the full hash as given */
		snprintf(commit_hash, sizeof(commit_hash), "%s", rev);
		commit_time[0] = '\0';
		return 0;
	}
	snprintf(commit_hash, sizeof(commit_hash), "%s", hash);
	commit_time[0] = '\0';
	if (!git_line(show, when, sizeof(when))) {
		t = (time_t)strtoll(when, NULL, 10);
		if (t > 0)
			kb_iso_utc(t, commit_time, sizeof(commit_time));
	}
	return 0;
}

void kb_meta_collect(struct kb_meta *m, bool kernel, int cpu, int argc,
		     char *const *argv)
{
	struct utsname u;
	time_t now = time(NULL);

	memset(m, 0, sizeof(*m));
	snprintf(m->kbenchctl_version, sizeof(m->kbenchctl_version), "%s",
		 KBENCHCTL_VERSION);
	m->method_version = KBENCH_METHOD_VERSION;
	if (!uname(&u)) {
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
		snprintf(m->arch, sizeof(m->arch), "%s", u.machine);
	}
	if (kernel) {
		struct kb_nl nl;

		/* the module just measured: the same answers as the run's */
		if (!kb_nl_open(&nl)) {
			nl.quiet = true;
			kb_nl_request(&nl, kb_nl_msg(&nl, KBENCH_CMD_INFO, false),
				      KBENCH_A_INFO_MAX, info_cb, m);
			kb_nl_close(&nl);
		}
	} else {
		/* --user: libkbench measured, built from this kbench */
		snprintf(m->kbench_version, sizeof(m->kbench_version), "%s",
			 KBENCH_VERSION);
	}
	cpu_model(m->cpu_model, sizeof(m->cpu_model));
	kb_hypervisor(m->hypervisor, sizeof(m->hypervisor));
	if (gethostname(m->hostname, sizeof(m->hostname)))
		m->hostname[0] = '\0';
	m->hostname[sizeof(m->hostname) - 1] = '\0';
	kb_iso_utc(now, m->date, sizeof(m->date));
	snprintf(m->commit, sizeof(m->commit), "%s", commit_hash);
	snprintf(m->commit_time, sizeof(m->commit_time), "%s", commit_time);
	environment(m, cpu);
	m->argc = argc;
	m->argv = argv;
}
