/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading and writing /sys and /proc, and the kernel's CPU lists ("0-3,8").
 *
 * Every path is absolute ("/sys/devices/system/cpu/online") and is looked
 * up under a root: "" normally, or the directory named by the environment
 * variable KBENCH_SYSFS_ROOT, which then stands in for / for both /sys and
 * /proc (the unit tests point it at trees of fixture files).
 */
#ifndef KBENCHCTL_SYSFS_H
#define KBENCHCTL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Forget the root read before (tests that change KBENCH_SYSFS_ROOT). */
void kb_sys_root_reset(void);
/*
 * Whether the root is moved: the files then describe another machine, so
 * what only this CPU can say (CPUID) must not be mixed in.
 */
bool kb_sys_root_moved(void);

/* @path under the root into @buf; -ENAMETOOLONG when it does not fit. */
int kb_sys_path(char *buf, size_t len, const char *path);

/*
 * The first line of @path, without its newline and trailing blanks.
 * 0, or -errno (-ENOENT: no such file, -EACCES: not readable by us,
 * -ENODATA: empty).
 */
int kb_sys_read(const char *path, char *buf, size_t len);
/* The same for the path printf(@fmt, ...) makes. */
int kb_sys_readf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A decimal integer file: 0, -errno, or -EINVAL when it holds no number. */
int kb_sys_read_long(const char *path, long *v);

/*
 * Write @value (a newline is added) to @path as one write(2), which is
 * what sysfs and procfs handlers expect.  0, or -errno of open or write;
 * *@refused (may be NULL) says which: true when the file could be opened
 * for writing and the kernel refused the value (its handler's error: an
 * interrupt that cannot move gives EIO on 6.1 and EPERM on 6.12), false
 * when the file could not be opened (EACCES: not root, EROFS, ENOENT).
 */
int kb_sys_write(const char *path, const char *value, bool *refused);

/* A set of CPU numbers up to KB_CPUS_MAX - 1 (the kernel's NR_CPUS 8192). */
#define KB_CPUS_MAX	8192
struct kb_cpuset {
	uint64_t bits[KB_CPUS_MAX / 64];
};

/*
 * Parse a CPU list ("0-3,8,10-11", "" = empty; blanks and a newline at the
 * end are allowed) into @set.  0, or -EINVAL for anything else.
 */
int kb_cpulist_parse(const char *s, struct kb_cpuset *set);
/* Read the CPU list in @path; 0 or -errno (as kb_sys_read, or -EINVAL). */
int kb_cpulist_read(const char *path, struct kb_cpuset *set);
/* Format @set as a CPU list ("" when empty); -ENOSPC when it does not fit. */
int kb_cpulist_format(const struct kb_cpuset *set, char *buf, size_t len);

/*
 * The kernel's hex CPU masks ("ff", "00000000,0000000f": 32-bit groups,
 * most significant first), as /proc/irq/default_smp_affinity shows them.
 * kb_cpumask_format() writes @set in the shape of @like (its number of
 * groups and the width of each), so that the kernel reads it back alike.
 */
int kb_cpumask_parse(const char *s, struct kb_cpuset *set);
int kb_cpumask_format(const struct kb_cpuset *set, const char *like,
		      char *buf, size_t len);

static inline bool kb_cpuset_has(const struct kb_cpuset *set, unsigned int cpu)
{
	return cpu < KB_CPUS_MAX && (set->bits[cpu / 64] >> (cpu % 64)) & 1;
}

static inline void kb_cpuset_add(struct kb_cpuset *set, unsigned int cpu)
{
	if (cpu < KB_CPUS_MAX)
		set->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

static inline void kb_cpuset_del(struct kb_cpuset *set, unsigned int cpu)
{
	if (cpu < KB_CPUS_MAX)
		set->bits[cpu / 64] &= ~(1ULL << (cpu % 64));
}

unsigned int kb_cpuset_count(const struct kb_cpuset *set);

#endif /* KBENCHCTL_SYSFS_H */
