// SPDX-License-Identifier: GPL-2.0
/*
 * /sys and /proc under a root that tests can move (KBENCH_SYSFS_ROOT), and
 * the kernel's CPU lists.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfs.h"

static const char *sys_root;

/* The root (KBENCH_SYSFS_ROOT or ""), read at the first call. */
static const char *kb_sys_root(void)
{
	if (!sys_root) {
		sys_root = getenv("KBENCH_SYSFS_ROOT");
		if (!sys_root)
			sys_root = "";
	}
	return sys_root;
}

void kb_sys_root_reset(void)
{
	sys_root = NULL;
}

bool kb_sys_root_moved(void)
{
	return kb_sys_root()[0] != '\0';
}

int kb_sys_path(char *buf, size_t len, const char *path)
{
	int n = snprintf(buf, len, "%s%s", kb_sys_root(), path);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int kb_sys_read(const char *path, char *buf, size_t len)
{
	char full[4096];
	ssize_t n;
	size_t end;
	int fd, err;

	buf[0] = '\0';
	err = kb_sys_path(full, sizeof(full), path);
	if (err)
		return err;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* one read: sysfs and procfs files of one line give it whole */
	n = read(fd, buf, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	end = strcspn(buf, "\n");
	while (end && isspace((unsigned char)buf[end - 1]))
		end--;
	buf[end] = '\0';
	return end ? 0 : -ENODATA;
}

int kb_sys_readf(char *buf, size_t len, const char *fmt, ...)
{
	char path[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return kb_sys_read(path, buf, len);
}

int kb_sys_read_long(const char *path, long *v)
{
	char buf[64], *end;
	int err;

	err = kb_sys_read(path, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	*v = strtol(buf, &end, 10);
	return errno || end == buf || *end ? -EINVAL : 0;
}

int kb_sys_write(const char *path, const char *value, bool *refused)
{
	char full[4096], line[4096];
	ssize_t n;
	int fd, err, len;

	if (refused)
		*refused = false;
	err = kb_sys_path(full, sizeof(full), path);
	if (err)
		return err;
	len = snprintf(line, sizeof(line), "%s\n", value);
	if (len < 0 || (size_t)len >= sizeof(line))
		return -E2BIG;
	/* O_TRUNC as a shell's "echo v > file" (fixture files are regular) */
	fd = open(full, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, line, (size_t)len);
	err = n < 0 ? -errno : n != len ? -EIO : 0;
	if (close(fd) && !err)
		err = -errno;
	if (refused)
		*refused = err != 0;
	return err;
}

int kb_cpulist_parse(const char *s, struct kb_cpuset *set)
{
	unsigned long lo, hi, cpu;
	const char *p = s;
	char *end;

	memset(set, 0, sizeof(*set));
	while (isspace((unsigned char)*p))
		p++;
	while (*p) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
		}
		if (hi < lo || hi >= KB_CPUS_MAX)
			return -EINVAL;
		for (cpu = lo; cpu <= hi; cpu++)
			kb_cpuset_add(set, (unsigned int)cpu);
		p = end;
		if (*p == ',') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			continue;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p)
			return -EINVAL;
	}
	return 0;
}

int kb_cpulist_read(const char *path, struct kb_cpuset *set)
{
	char buf[4096];
	int err;

	err = kb_sys_read(path, buf, sizeof(buf));
	if (err == -ENODATA) {		/* an empty list: no CPU */
		memset(set, 0, sizeof(*set));
		return 0;
	}
	return err ? err : kb_cpulist_parse(buf, set);
}

int kb_cpulist_format(const struct kb_cpuset *set, char *buf, size_t len)
{
	unsigned int cpu, hi;
	size_t used = 0;
	int n;

	buf[0] = '\0';
	for (cpu = 0; cpu < KB_CPUS_MAX; cpu++) {
		if (!kb_cpuset_has(set, cpu))
			continue;
		for (hi = cpu; hi + 1 < KB_CPUS_MAX && kb_cpuset_has(set, hi + 1);)
			hi++;
		if (hi == cpu)
			n = snprintf(buf + used, len - used, "%s%u",
				     used ? "," : "", cpu);
		else
			n = snprintf(buf + used, len - used, "%s%u-%u",
				     used ? "," : "", cpu, hi);
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += (size_t)n;
		cpu = hi;
	}
	return 0;
}

/* The groups of a hex mask: 0, or -EINVAL (at most KB_CPUS_MAX / 32). */
static int mask_groups(const char *s, const char **start, size_t *width,
		       unsigned int *n)
{
	const char *p = s;

	*n = 0;
	while (*p) {
		size_t w = strspn(p, "0123456789abcdefABCDEF");

		if (!w || w > 8 || *n == KB_CPUS_MAX / 32)
			return -EINVAL;
		start[*n] = p;
		width[(*n)++] = w;
		p += w;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -EINVAL;
	}
	return *n ? 0 : -EINVAL;
}

int kb_cpumask_parse(const char *s, struct kb_cpuset *set)
{
	const char *start[KB_CPUS_MAX / 32];
	size_t width[KB_CPUS_MAX / 32];
	unsigned int n, g, b;
	char grp[9];

	memset(set, 0, sizeof(*set));
	if (mask_groups(s, start, width, &n))
		return -EINVAL;
	for (g = 0; g < n; g++) {
		unsigned long v;

		memcpy(grp, start[g], width[g]);
		grp[width[g]] = '\0';
		v = strtoul(grp, NULL, 16);
		for (b = 0; b < 32; b++)
			if (v >> b & 1)
				kb_cpuset_add(set, (n - 1 - g) * 32 + b);
	}
	return 0;
}

int kb_cpumask_format(const struct kb_cpuset *set, const char *like,
		      char *buf, size_t len)
{
	const char *start[KB_CPUS_MAX / 32];
	size_t width[KB_CPUS_MAX / 32], used = 0;
	unsigned int n, g, b;

	if (mask_groups(like, start, width, &n))
		return -EINVAL;
	for (g = 0; g < n; g++) {
		unsigned long v = 0;
		int k;

		for (b = 0; b < 32; b++)
			if (kb_cpuset_has(set, (n - 1 - g) * 32 + b))
				v |= 1UL << b;
		k = snprintf(buf + used, len - used, "%s%0*lx", g ? "," : "",
			     (int)width[g], v);
		if (k < 0 || (size_t)k >= len - used)
			return -ENOSPC;
		used += (size_t)k;
	}
	return 0;
}

unsigned int kb_cpuset_count(const struct kb_cpuset *set)
{
	unsigned int i, n = 0;

	for (i = 0; i < KB_CPUS_MAX / 64; i++)
		n += (unsigned int)__builtin_popcountll(set->bits[i]);
	return n;
}
