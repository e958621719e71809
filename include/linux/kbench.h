/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: in-kernel API for modules that register routines to be timed.
 *
 * A routine executes its body exactly @iterations times.  kbench calls it
 * with interrupts and preemption disabled, so run() must not sleep, take
 * sleeping locks, allocate or print.  Fixed costs (the call, loop set-up)
 * cancel out: kbench times run(2) and run(N + 2) and keeps the difference.
 *
 * See Documentation/kbench.rst and kmod/examples/kbench_example.c.
 */
#ifndef _LINUX_KBENCH_H
#define _LINUX_KBENCH_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/types.h>

struct kbench_routine {
	const char *name;		/* unique, [a-z0-9_]{1,31} */
	const char *desc;		/* one line */
	void (*run)(unsigned int iterations, void *data);
	void *data;			/* passed to run() */
	u32 bytes_per_iter;		/* throughput: bytes per iteration, 0 = ops */

	/* private to kbench after this point */
	struct module *owner;
	struct list_head node;
	atomic_t users;			/* measurements using this routine */
	u32 flags;			/* enum kbench_routine_flags */
};

int __kbench_register_routine(struct kbench_routine *r, struct module *owner);
void kbench_unregister_routine(struct kbench_routine *r);

/**
 * kbench_register_routine() - make a routine available to kbench
 * @r: the routine; must stay valid until kbench_unregister_routine()
 *
 * Return: 0, -EEXIST if the name is taken, -EINVAL for a bad name or a NULL
 * run().  The calling module is pinned while a measurement uses @r.
 */
#define kbench_register_routine(r) __kbench_register_routine((r), THIS_MODULE)

#endif /* _LINUX_KBENCH_H */
