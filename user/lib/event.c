// SPDX-License-Identifier: GPL-2.0
/*
 * libkbench: hardware events - the userspace rows of the counter table
 * for further counters (include/kbench/engine.h, struct kbench_extra),
 * read next to the counter at the same four points of every window.
 *
 * An event is a perf counter of the calling thread (perf_event_open(2),
 * pid 0, any CPU: the thread is pinned while measuring), pinned, counting
 * user mode only (exclude_kernel, exclude_hv): the twin's own instructions,
 * not the kernel's interrupts in between.  Two rows, in order of
 * preference:
 *
 *   rdpmc   the counter read from userspace through perf's mmap page
 *           (its seqlock, index and offset, as tools/lib/perf does):
 *           x86_64 rdpmc, arm64 mrs pmevcntr<n>_el0 / pmccntr_el0.  Only
 *           where the kernel allows it for the event (cap_user_rdpmc):
 *           x86 by default (/sys/bus/event_source/devices/cpu/rdpmc 1),
 *           arm64 with /proc/sys/kernel/perf_user_access = 1 and the
 *           event's config1 bit 1 ("rdpmc" in its sysfs format), which
 *           libkbench always sets there.
 *   read    read(2) of the event's file descriptor: everywhere, slower
 *           (a system call at each of the four points; it cancels like
 *           any read, in every counter's net) but as exact.
 *
 * KBENCH_EVENT_READ=read (or KBENCH_EVENT_F_READ) takes the read row even
 * where rdpmc works.  A pinned event that finds no free counter is in
 * error (read(2) returns 0 bytes): kbench_events_open() fails with ENOSPC.
 * At both ends of every window each event must be counting - on the PMU
 * (rdpmc: a non-zero index) and never off it (read: time running = time
 * enabled) - or the window is flagged KBENCH_SAMPLE_F_EVENT.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <kbench/events.h>

#include "internal.h"
#include "kbench.h"

#define kb_barrier()	asm volatile("" ::: "memory")

/* read(2) with PERF_FORMAT_TOTAL_TIME_ENABLED | _RUNNING */
struct kb_event_value {
	uint64_t value, enabled, running;
};

static int kb_event_read_value(const struct kb_event *ev,
			       struct kb_event_value *v)
{
	return read(ev->fd, v, sizeof(*v)) == (ssize_t)sizeof(*v) ? 0 : -1;
}

static unsigned long long kb_read_sys(void *ctx)
{
	struct kb_event *ev = ctx;
	struct kb_event_value v;

	if (kb_event_read_value(ev, &v))
		return 0;
	return v.value;
}

static unsigned int kb_check_sys(void *ctx, unsigned int cpu)
{
	struct kb_event *ev = ctx;
	struct kb_event_value v;

	(void)cpu;
	if (kb_event_read_value(ev, &v) || v.running != v.enabled)
		return KBENCH_SAMPLE_F_EVENT;
	return 0;
}

#if defined(__x86_64__) || defined(__aarch64__)
#if defined(__x86_64__)
static __always_inline unsigned long long kb_read_pmc(unsigned int counter)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return ((unsigned long long)hi << 32) | lo;
}
#else
#define KB_MRS(reg) ({							\
	unsigned long long __v;						\
	asm volatile("mrs %0, " #reg : "=r" (__v));			\
	__v; })
#define KB_PMEVCNTR(n)	case n: return KB_MRS(pmevcntr##n##_el0)

/* Counter @counter as perf's mmap page numbers it: 31 is the cycle counter */
static unsigned long long kb_read_pmc(unsigned int counter)
{
	switch (counter) {
	KB_PMEVCNTR(0); KB_PMEVCNTR(1); KB_PMEVCNTR(2); KB_PMEVCNTR(3);
	KB_PMEVCNTR(4); KB_PMEVCNTR(5); KB_PMEVCNTR(6); KB_PMEVCNTR(7);
	KB_PMEVCNTR(8); KB_PMEVCNTR(9); KB_PMEVCNTR(10); KB_PMEVCNTR(11);
	KB_PMEVCNTR(12); KB_PMEVCNTR(13); KB_PMEVCNTR(14); KB_PMEVCNTR(15);
	KB_PMEVCNTR(16); KB_PMEVCNTR(17); KB_PMEVCNTR(18); KB_PMEVCNTR(19);
	KB_PMEVCNTR(20); KB_PMEVCNTR(21); KB_PMEVCNTR(22); KB_PMEVCNTR(23);
	KB_PMEVCNTR(24); KB_PMEVCNTR(25); KB_PMEVCNTR(26); KB_PMEVCNTR(27);
	KB_PMEVCNTR(28); KB_PMEVCNTR(29); KB_PMEVCNTR(30);
	case 31:
		return KB_MRS(pmccntr_el0);
	}
	return 0;
}
#endif

/*
 * The count through the mmap page: offset + the hardware counter
 * sign-extended from its width, retried while the kernel updated the page
 * (the thread was scheduled out and in meanwhile).
 */
static unsigned long long kb_read_rdpmc(void *ctx)
{
	struct kb_event *ev = ctx;
	volatile struct perf_event_mmap_page *pc = ev->page;
	unsigned long long count;
	unsigned int seq, idx;
	long long pmc;
	int width;

	do {
		seq = pc->lock;
		kb_barrier();
		idx = pc->index;
		count = (unsigned long long)pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			width = pc->pmc_width;
			pmc = (long long)kb_read_pmc(idx - 1);
			pmc = (long long)((unsigned long long)pmc << (64 - width)) >>
			      (64 - width);
			count += (unsigned long long)pmc;
		}
		kb_barrier();
	} while (pc->lock != seq);
	return count;
}

static unsigned int kb_check_rdpmc(void *ctx, unsigned int cpu)
{
	struct kb_event *ev = ctx;
	volatile struct perf_event_mmap_page *pc = ev->page;

	(void)cpu;
	return pc->cap_user_rdpmc && pc->index ? 0 : KBENCH_SAMPLE_F_EVENT;
}
#endif

/* The event rows, in order of preference. */
static const struct kbench_counter kb_event_rows[] = {
#if defined(__x86_64__) || defined(__aarch64__)
	{ .name = "rdpmc", .desc = "perf mmap page, user-mode counter read",
	  .read_ctx = kb_read_rdpmc, .check_ctx = kb_check_rdpmc },
#endif
	{ .name = "read", .desc = "read(2) of the perf event",
	  .read_ctx = kb_read_sys, .check_ctx = kb_check_sys },
};

#define KB_NR_EVENT_ROWS	(sizeof(kb_event_rows) / sizeof(kb_event_rows[0]))

static long kb_perf_event_open(struct perf_event_attr *attr)
{
	return syscall(SYS_perf_event_open, attr, 0, -1, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* Open @ev (type, config set) and choose its row. */
static int kb_event_open1(struct kb_event *ev, int force_read)
{
	struct perf_event_attr attr;
	struct kb_event_value v;
	long pagesize = sysconf(_SC_PAGESIZE);
	unsigned int i;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = ev->type;
	attr.config = ev->config;
	attr.pinned = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
#if defined(__aarch64__)
	attr.config1 = 0x2;	/* rdpmc: user access if perf_user_access */
#endif
	fd = kb_perf_event_open(&attr);
	if (fd < 0)
		return -errno;
	ev->fd = (int)fd;
	/* a pinned event without a counter is in error: EOF */
	if (read(ev->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return -ENOSPC;
	ev->page = mmap(NULL, (size_t)pagesize, PROT_READ, MAP_SHARED, ev->fd,
			0);
	if (ev->page == MAP_FAILED)
		ev->page = NULL;
	ev->page_size = (size_t)pagesize;
	for (i = 0; i < KB_NR_EVENT_ROWS; i++) {
		ev->row = &kb_event_rows[i];
		if (!strcmp(ev->row->name, "read"))
			break;
		if (force_read || !ev->page)
			continue;
		if (ev->page->cap_user_rdpmc && ev->page->index)
			break;
	}
	ev->enabled = v.enabled;
	ev->running = v.running;
	return 0;
}

int kb_events_open(struct kb_event *evs, unsigned int nr,
		   const char *const *names, unsigned int flags, int *failed)
{
	const char *env = getenv("KBENCH_EVENT_READ");
	int force_read = (flags & KBENCH_EVENT_F_READ) ||
			 (env && !strcmp(env, "read"));
	unsigned int i, k;
	int err;

	for (i = 0; i < nr; i++) {
		evs[i].fd = -1;
		evs[i].page = NULL;
	}
	for (i = 0; i < nr; i++) {
		*failed = (int)i;
		if (!names[i] || kbench_event_parse(names[i], &evs[i].type,
						    &evs[i].config))
			return -EINVAL;
		for (k = 0; k < i; k++)
			if (evs[k].type == evs[i].type &&
			    evs[k].config == evs[i].config)
				return -EINVAL;
		snprintf(evs[i].name, sizeof(evs[i].name), "%s", names[i]);
	}
	for (i = 0; i < nr; i++) {
		*failed = (int)i;
		err = kb_event_open1(&evs[i], force_read);
		if (err)
			return err;
	}
	*failed = -1;
	return 0;
}

int kb_events_close(struct kb_event *evs, unsigned int nr)
{
	struct kb_event_value v;
	unsigned int i;
	int err = 0;

	for (i = 0; i < nr; i++) {
		if (evs[i].fd < 0)
			continue;
		if (!kb_event_read_value(&evs[i], &v)) {
			evs[i].enabled = v.enabled - evs[i].enabled;
			evs[i].running = v.running - evs[i].running;
			if (evs[i].enabled != evs[i].running)
				err = -EIO;
		} else {
			err = -EIO;
		}
	}
	kb_events_release(evs, nr);
	return err;
}

void kb_events_release(struct kb_event *evs, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (evs[i].page)
			munmap((void *)evs[i].page, evs[i].page_size);
		if (evs[i].fd >= 0)
			close(evs[i].fd);
		evs[i].page = NULL;
		evs[i].fd = -1;
	}
}
