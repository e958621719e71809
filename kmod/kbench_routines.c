// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the registry of routines, built-in and from other modules.
 *
 * A measurement takes a reference on each routine it uses (users) and pins
 * the owner module; kbench_unregister_routine() unlinks the routine and
 * waits until no measurement uses it any more.
 */
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/wait.h>

#include "kbench_internal.h"

static LIST_HEAD(kbench_routines);
static DEFINE_MUTEX(kbench_routines_lock);
static DECLARE_WAIT_QUEUE_HEAD(kbench_routines_wq);
/* Bumped on every change so a dump can say it was interrupted. */
static unsigned int kbench_routines_gen = 1;

static bool kbench_name_valid(const char *name)
{
	size_t len;

	if (!name)
		return false;
	len = strnlen(name, KBENCH_NAME_MAX + 1);
	if (len == 0 || len > KBENCH_NAME_MAX)
		return false;
	for (; *name; name++)
		if (!islower(*name) && !isdigit(*name) && *name != '_')
			return false;
	return true;
}

/* Called with kbench_routines_lock held. */
static struct kbench_routine *kbench_routine_find(const char *name)
{
	struct kbench_routine *r;

	list_for_each_entry(r, &kbench_routines, node)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

/* A unit name: 1 to KBENCH_ARG_NAME_MAX printable characters. */
static bool kbench_arg_name_valid(const char *name)
{
	size_t len = strnlen(name, KBENCH_ARG_NAME_MAX + 1);

	if (len == 0 || len > KBENCH_ARG_NAME_MAX)
		return false;
	for (; *name; name++)
		if (!isprint(*name))
			return false;
	return true;
}

/*
 * The argument, setup and teardown of @r go together: an argument has a
 * unit, def within [min, max] and a setup (or setup_shared) to hand it to
 * run(); without a unit everything is 0; one kind of setup at most;
 * teardown only after a setup, teardown_shared only after setup_shared.
 */
static bool kbench_routine_hooks_valid(const struct kbench_routine *r)
{
	const struct kbench_arg *a = &r->arg;
	bool setup = r->setup || r->setup_ctx || r->setup_shared;

	if (r->setup && r->setup_ctx)
		return false;
	if (r->teardown && !r->setup && !r->setup_ctx)
		return false;
	if (r->teardown_shared && !r->setup_shared)
		return false;
	if (!a->name)
		return !a->min && !a->max && !a->def;
	return kbench_arg_name_valid(a->name) && a->min <= a->def &&
	       a->def <= a->max && setup;
}

/**
 * __kbench_register_routine() - make a routine available to kbench
 * @r: the routine; name, desc, run and data set by the caller
 * @owner: the module that owns @r (THIS_MODULE of the caller)
 *
 * Use the kbench_register_routine() wrapper.
 *
 * Return: 0, -EEXIST if the name is taken, -EINVAL for a bad name, a NULL
 * run() or an argument, setup and teardown that do not go together.
 */
int __kbench_register_routine(struct kbench_routine *r, struct module *owner)
{
	int err = 0;

	if (!r || !r->run || !kbench_name_valid(r->name) ||
	    !kbench_routine_hooks_valid(r))
		return -EINVAL;

	mutex_lock(&kbench_routines_lock);
	/*
	 * @r itself may be the one registered (registered twice): touch
	 * nothing of it before the name is known to be free - resetting its
	 * users under a run made a later unregister wait forever.
	 */
	if (kbench_routine_find(r->name)) {
		err = -EEXIST;
	} else {
		r->owner = owner;
		atomic_set(&r->users, 0);
		if (owner == THIS_MODULE)
			r->flags |= KBENCH_ROUTINE_F_BUILTIN;
		if (r->setup || r->setup_ctx)
			r->flags |= KBENCH_ROUTINE_F_SETUP;
		list_add_tail(&r->node, &kbench_routines);
		kbench_routines_gen++;
	}
	mutex_unlock(&kbench_routines_lock);
	return err;
}
EXPORT_SYMBOL_GPL(__kbench_register_routine);

/**
 * __kbench_register_routines() - register an array of routines, all or none
 * @r: the first of @n routines
 * @n: how many
 * @owner: the module that owns them (THIS_MODULE of the caller)
 *
 * Use the kbench_register_routines() wrapper or module_kbench_routines().
 *
 * Return: 0, or the first error of __kbench_register_routine(); the
 * routines registered before it are unregistered again.
 */
int __kbench_register_routines(struct kbench_routine *r, unsigned int n,
			       struct module *owner)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = __kbench_register_routine(&r[i], owner);
		if (err)
			goto out_unregister;
	}
	return 0;

out_unregister:
	kbench_unregister_routines(r, i);
	return err;
}
EXPORT_SYMBOL_GPL(__kbench_register_routines);

/**
 * kbench_unregister_routines() - withdraw an array of routines
 * @r: the first of @n routines registered together
 * @n: how many
 *
 * Unregisters them in reverse order; returns when no measurement uses any
 * of them (see kbench_unregister_routine()).
 */
void kbench_unregister_routines(struct kbench_routine *r, unsigned int n)
{
	while (n--)
		kbench_unregister_routine(&r[n]);
}
EXPORT_SYMBOL_GPL(kbench_unregister_routines);

/**
 * kbench_unregister_routine() - withdraw a routine
 * @r: a routine registered with kbench_register_routine()
 *
 * Returns only when no measurement uses @r any more.  Measurements pin the
 * owner module, so a module's exit path never waits here for long.
 */
void kbench_unregister_routine(struct kbench_routine *r)
{
	mutex_lock(&kbench_routines_lock);
	list_del_init(&r->node);
	kbench_routines_gen++;
	mutex_unlock(&kbench_routines_lock);

	wait_event(kbench_routines_wq, atomic_read(&r->users) == 0);
}
EXPORT_SYMBOL_GPL(kbench_unregister_routine);

/* Look up @name and pin it for a measurement; NULL if unknown or leaving. */
struct kbench_routine *kbench_routine_get(const char *name)
{
	struct kbench_routine *r;

	mutex_lock(&kbench_routines_lock);
	r = kbench_routine_find(name);
	if (r) {
		/* Do not pin ourselves: rmmod kbench aborts runs instead. */
		if (r->owner != THIS_MODULE && !try_module_get(r->owner))
			r = NULL;
		else
			atomic_inc(&r->users);
	}
	mutex_unlock(&kbench_routines_lock);
	return r;
}

void kbench_routine_put(struct kbench_routine *r)
{
	struct module *owner = r->owner;

	if (atomic_dec_and_test(&r->users))
		wake_up_all(&kbench_routines_wq);
	if (owner != THIS_MODULE)
		module_put(owner);
}

static int kbench_routine_fill(struct sk_buff *skb,
			       struct netlink_callback *cb,
			       const struct kbench_routine *r)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &kbench_genl_family, NLM_F_MULTI,
			  KBENCH_CMD_ROUTINE_GET);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);

	if (nla_put_string(skb, KBENCH_A_ROUTINE_NAME, r->name) ||
	    nla_put_string(skb, KBENCH_A_ROUTINE_DESC, r->desc ? r->desc : "") ||
	    nla_put_string(skb, KBENCH_A_ROUTINE_MODULE,
			   r->owner ? module_name(r->owner) : "kernel") ||
	    nla_put_u32(skb, KBENCH_A_ROUTINE_BYTES_PER_ITER,
			r->bytes_per_iter) ||
	    nla_put_u32(skb, KBENCH_A_ROUTINE_FLAGS, r->flags))
		goto out_cancel;
	if (r->arg.name &&
	    (nla_put_string(skb, KBENCH_A_ROUTINE_ARG_NAME, r->arg.name) ||
	     nla_put_u64_64bit(skb, KBENCH_A_ROUTINE_ARG_MIN, r->arg.min,
			       KBENCH_A_ROUTINE_PAD) ||
	     nla_put_u64_64bit(skb, KBENCH_A_ROUTINE_ARG_MAX, r->arg.max,
			       KBENCH_A_ROUTINE_PAD) ||
	     nla_put_u64_64bit(skb, KBENCH_A_ROUTINE_ARG_DEF, r->arg.def,
			       KBENCH_A_ROUTINE_PAD)))
		goto out_cancel;
	genlmsg_end(skb, hdr);
	return 0;

out_cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* ROUTINE_GET dump; the cursor is the index of the next routine. */
int kbench_routine_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	long *pos = &cb->args[0];
	const struct kbench_routine *r;
	long i = 0;
	int err = 0;

	mutex_lock(&kbench_routines_lock);
	cb->seq = kbench_routines_gen;
	list_for_each_entry(r, &kbench_routines, node) {
		if (i++ < *pos)
			continue;
		err = kbench_routine_fill(skb, cb, r);
		if (err)
			break;
		(*pos)++;
	}
	mutex_unlock(&kbench_routines_lock);

	/* A full skb ends this round; the next one continues at *pos. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}
