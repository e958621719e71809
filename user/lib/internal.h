/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkbench internals: what counter.c gives measure.c.
 */
#ifndef KBENCH_LIB_INTERNAL_H
#define KBENCH_LIB_INTERNAL_H

#include <kbench/engine.h>

#define KB_EXPORT __attribute__((visibility("default")))

/*
 * The counter for @name (NULL: $KBENCH_COUNTER, else the first usable row
 * of the preference list), probed; NULL with errno ENOENT (no such name)
 * or ENODEV (not usable here).
 */
const struct kbench_counter *kb_counter_pick(const char *name);

/* A hardware event of a run (event.c): one instance of an event row. */
struct kb_event {
	char name[32];
	unsigned int type;		/* perf_event_attr */
	unsigned long long config;
	int fd;				/* perf_event_open(2), -1: none */
	struct perf_event_mmap_page *page;	/* its mmap page, or NULL */
	size_t page_size;
	const struct kbench_counter *row;	/* rdpmc or read */
	unsigned long long enabled, running;	/* perf's times (ns) */
};

/*
 * Open the @nr events @names (kbench_event_parse() names, distinct) on the
 * calling thread, each pinned, user mode only, and choose its row.  0, or
 * -errno with *@failed the event at fault: -EINVAL (a bad or repeated
 * name), perf_event_open(2)'s errno, -ENOSPC (no free counter).  Release
 * with kb_events_release() either way.
 */
int kb_events_open(struct kb_event *evs, unsigned int nr,
		   const char *const *names, unsigned int flags, int *failed);
/*
 * After the run: perf's times over it into enabled/running, then release.
 * 0, or -EIO when an event was not counting for part of the run.
 */
int kb_events_close(struct kb_event *evs, unsigned int nr);
void kb_events_release(struct kb_event *evs, unsigned int nr);

#endif /* KBENCH_LIB_INTERNAL_H */
