// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the "kbench" generic netlink family, at the bottom of the
 * module: everything that sends (the handlers, a RUN's thread, the dumps)
 * refers to it, and it refers to nothing else of the module.
 *
 * Its policies, op table and multicast groups are generated from
 * Documentation/netlink/specs/kbench.yaml into kbench_nl_gen.[ch] by the
 * kernel's ynl-gen-c (make gen).  ynl-gen-c writes struct genl_family
 * itself only for plain genetlink specs, and ours is genetlink-c (which
 * keeps the uapi names), so the family is written here.  The generated
 * op table points into the handlers and its multicast group table is
 * static, so kbench_netlink.c, the handlers' file, includes the generated
 * source and hands both tables over when it registers the family
 * (kbench_family_register()): the family does not depend on its users.
 *
 * Every op has its own policy (an op without a request refuses every
 * attribute), every integer is bounded there, and every rejection names
 * its attribute in the extended ack (kbench_extack_fmt() where the text is
 * formatted).  parallel_ops: a long RUN never holds genl_mutex.
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "kbench_compat.h"
#include "kbench_internal.h"

/*
 * A split op without a policy is not validated at all: 6.2+ parse no
 * attributes for it and ignore any it gets (only a policy dump shows it
 * a reject-all policy), while 6.1 gives a full op without one a reject-all
 * policy (genl_op_fill_in_reject_policy).  So that every kernel refuses
 * attributes to an op the spec gives no request, the ops registered are
 * the generated ones with this policy where they have none.
 */
static const struct nla_policy kbench_reject_all_policy[2] = {
	[0] = { .type = NLA_REJECT },
	[1] = { .type = NLA_REJECT },
};

static struct genl_split_ops kbench_ops[ARRAY_SIZE(kbench_nl_ops)] __ro_after_init;

/* The op table and multicast groups are given at registration. */
struct genl_family kbench_genl_family __ro_after_init = {
	.name = KBENCH_GENL_NAME,
	.version = KBENCH_GENL_VERSION,
	.netnsok = false,
	.parallel_ops = true,
	.module = THIS_MODULE,
#ifdef KBENCH_HAVE_GENL_SPLIT_OPS
	.split_ops = kbench_ops,
	.n_split_ops = ARRAY_SIZE(kbench_ops),
#else
	/* 6.1: a table of full ops (kbench_compat.h) */
	.ops = kbench_ops,
	.n_ops = ARRAY_SIZE(kbench_ops),
#endif
};

/**
 * kbench_family_register() - register the family with the generated tables
 * @ops: the generated op table (kbench_nl_ops), ARRAY_SIZE(kbench_nl_ops)
 *	entries
 * @mcgrps: the generated multicast groups
 * @n_mcgrps: how many
 *
 * Module init only (the family is read-only after it).
 * Return: 0, or genl_register_family()'s error.
 */
int kbench_family_register(const struct genl_split_ops *ops,
			   const struct genl_multicast_group *mcgrps,
			   unsigned int n_mcgrps)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kbench_ops); i++) {
		kbench_ops[i] = ops[i];
		if (kbench_ops[i].policy)
			continue;
		kbench_ops[i].policy = kbench_reject_all_policy;
		kbench_ops[i].maxattr = ARRAY_SIZE(kbench_reject_all_policy) - 1;
	}
	kbench_genl_family.mcgrps = mcgrps;
	kbench_genl_family.n_mcgrps = n_mcgrps;
	return genl_register_family(&kbench_genl_family);
}

#ifndef KBENCH_HAVE_EXTACK_FMT
/*
 * 6.1 keeps a pointer to the extack message and copies the text only when
 * it builds the ack, after the handler returned, in the same task (or,
 * for a RUN's thread, in the same function).  So each task that formats a
 * message gets a buffer of its own, kept here: the task is the only one
 * that writes it and the only one whose ack reads it, and it never builds
 * two acks at once, so its next message may overwrite its last.  Nothing
 * shared between requests: parallel_ops requests cannot overwrite each
 * other's text before it is copied.  A buffer is freed once its task is
 * exiting (PF_EXITING: it sends no more requests), at the next message of
 * any task, and every one when the family is unregistered, after which
 * no ack of the family is built.  No task_work, no module reference: no
 * code of kbench runs after the request in the task's return path.
 */
struct kbench_extack_buf {
	struct list_head node;
	struct task_struct *task;	/* get_task_struct()ed owner */
	char text[KBENCH_EXTACK_MSG_LEN];
};

static LIST_HEAD(kbench_extack_bufs);
static DEFINE_SPINLOCK(kbench_extack_lock);

static void kbench_extack_free(struct list_head *bufs)
{
	struct kbench_extack_buf *b, *tmp;

	list_for_each_entry_safe(b, tmp, bufs, node) {
		list_del(&b->node);
		put_task_struct(b->task);
		kfree(b);
	}
}

static const char *kbench_extack_store(const char *buf)
{
	struct kbench_extack_buf *b, *tmp, *mine = NULL;
	LIST_HEAD(gone);

	spin_lock(&kbench_extack_lock);
	list_for_each_entry_safe(b, tmp, &kbench_extack_bufs, node) {
		if (b->task == current)
			mine = b;
		else if (READ_ONCE(b->task->flags) & PF_EXITING)
			list_move(&b->node, &gone);
	}
	spin_unlock(&kbench_extack_lock);
	kbench_extack_free(&gone);
	if (!mine) {
		mine = kmalloc(sizeof(*mine), GFP_KERNEL);
		if (!mine)
			return NULL;
		get_task_struct(current);
		mine->task = current;
		spin_lock(&kbench_extack_lock);
		list_add(&mine->node, &kbench_extack_bufs);
		spin_unlock(&kbench_extack_lock);
	}
	/* only this task writes it, and only its ack reads it */
	strscpy(mine->text, buf, sizeof(mine->text));
	return mine->text;
}
#endif

/* Waits for every op in flight (genetlink's cb_lock). */
void kbench_family_unregister(void)
{
	genl_unregister_family(&kbench_genl_family);
#ifndef KBENCH_HAVE_EXTACK_FMT
	/* no ack of the family is built any more */
	kbench_extack_free(&kbench_extack_bufs);
#endif
}

/**
 * kbench_extack_fmt() - a formatted extack message, on every kernel
 * @extack: the request's extended ack (may be NULL)
 * @attr: the attribute to blame, or NULL
 * @fmt: printf format; the text is cut at KBENCH_EXTACK_MSG_LEN - 1
 */
void kbench_extack_fmt(struct netlink_ext_ack *extack,
		       const struct nlattr *attr, const char *fmt, ...)
{
	char buf[KBENCH_EXTACK_MSG_LEN];
	va_list ap;

	if (!extack)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
#ifdef KBENCH_HAVE_EXTACK_FMT
	NL_SET_ERR_MSG_FMT(extack, "%s", buf);
#else
	extack->_msg = kbench_extack_store(buf) ?:
		       "kbench: no memory for the error message";
#endif
	if (attr)
		NL_SET_BAD_ATTR(extack, attr);
}

/*
 * Privilege is the socket's: netlink_capable() asks both the opener of the
 * socket that sent @skb and the sender now (a socket opened without the
 * capability and handed to a privileged writer is refused: the lesson of
 * CVE-2014-0181).
 */
bool kbench_may_measure(const struct sk_buff *skb,
			struct netlink_ext_ack *extack)
{
	if (netlink_capable(skb, CAP_PERFMON) ||
	    netlink_capable(skb, CAP_SYS_ADMIN))
		return true;
	NL_SET_ERR_MSG(extack,
		       "measuring needs CAP_PERFMON or CAP_SYS_ADMIN");
	return false;
}
