// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the memory of runs: the budget, the completed runs kept for
 * SAMPLES_GET, and the release of a run, its group and its request copy
 * (whose charges the budget gets back).  Below the measuring and the
 * answering that charge it: it calls neither.
 *
 * The last runs_kept runs are kept; the oldest go first, but never one an
 * open dump holds (a reference): the store may keep more than runs_kept
 * while dumps are open, inside the memory budget, which counts every run
 * alive.
 *
 * One memory budget, store_bytes_max, covers every run alive: runs in
 * flight (RUN and kbench_measure()), stored runs, and evicted runs that
 * open dumps still hold.  A new run is charged before its buffers are
 * allocated, and so are the request copy a RUN keeps and the scratch
 * memory of its summaries; to make room the oldest stored runs are
 * evicted, but only when that makes enough room: when the runs in flight
 * and those pinned by dumps would still leave too little, the request is
 * refused (-E2BIG) and nothing is evicted.  A dump opened and never read
 * thus holds memory inside the budget, never beside it.
 */
#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/sock.h>

#include "kbench_internal.h"

static LIST_HEAD(kbench_store);
static DEFINE_SPINLOCK(kbench_store_lock);
static unsigned int kbench_store_count;
static u64 kbench_store_used;
static u64 kbench_mem_used;	/* every run alive: the budget's use */

/*
 * Take the oldest stored run that only the store holds out of the store
 * (under kbench_store_lock), or NULL.  A run an open dump holds (its
 * reference) is skipped: evicting it would give no memory back now and
 * make its id unknown to the next SAMPLES_GET.  A stored run's count only
 * rises under the lock (kbench_store_get() takes its references there):
 * one found alone stays alone.
 */
static struct kbench_run *kbench_store_evict_one(void)
{
	struct kbench_run *run;

	lockdep_assert_held(&kbench_store_lock);
	list_for_each_entry(run, &kbench_store, node)
		if (kref_read(&run->ref) == 1)
			goto found;
	return NULL;

found:
	list_del_init(&run->node);
	kbench_store_count--;
	kbench_store_used -= run->mem_bytes;
	return run;
}

/*
 * Keep @run (takes a reference) and evict what no longer fits, one run at
 * a time, oldest first, those dumps hold skipped: a run's node changes
 * only under the lock, where kbench_store_has() reads it, and is empty
 * once the run is evicted.
 */
void kbench_store_add(struct kbench_run *run)
{
	struct kbench_run *old;

	kref_get(&run->ref);
	spin_lock(&kbench_store_lock);
	list_add_tail(&run->node, &kbench_store);
	kbench_store_count++;
	kbench_store_used += run->mem_bytes;
	spin_unlock(&kbench_store_lock);

	for (;;) {
		old = NULL;
		spin_lock(&kbench_store_lock);
		if (kbench_store_count > kbench_runs_kept)
			old = kbench_store_evict_one();
		spin_unlock(&kbench_store_lock);
		if (!old)
			break;
		kbench_run_put(old);
	}
}

/*
 * Bytes that evicting every stored run would give back now: the runs only
 * the store holds (a dump's reference keeps an evicted run, and its
 * bytes, alive).  Under kbench_store_lock, where a stored run's count can
 * only fall: kbench_store_get() takes its references under the lock too.
 */
static u64 kbench_store_reclaimable(void)
{
	struct kbench_run *run;
	u64 bytes = 0;

	lockdep_assert_held(&kbench_store_lock);
	list_for_each_entry(run, &kbench_store, node)
		if (kref_read(&run->ref) == 1)
			bytes += run->mem_bytes;
	return bytes;
}

/**
 * kbench_mem_try_charge() - count @bytes more against store_bytes_max
 * @bytes: what a new run (kbench_run_bytes()), a request copy or scratch
 *	memory needs
 * @in_use: out, on -E2BIG: what the budget holds
 *
 * Decides before it destroys: when @bytes cannot fit even once every
 * stored run that only the store holds is gone, evicts nothing and
 * refuses; else evicts stored runs, oldest first, while the budget would
 * be exceeded, those that open dumps hold skipped (evicting them would
 * free nothing).  Knows nothing of runs that are ending: kbench_mem_charge()
 * (kbench_run.c, which knows the runs in flight) does.  Process
 * context: it may sleep (a run evicted is freed here).
 *
 * Return: 0, or -E2BIG when the runs in flight, those held by dumps and
 * what else is charged leave too little.
 */
int kbench_mem_try_charge(u64 bytes, u64 *in_use)
{
	struct kbench_run *old;

	for (;;) {
		spin_lock(&kbench_store_lock);
		if (kbench_mem_used + bytes <= kbench_store_bytes_max) {
			kbench_mem_used += bytes;
			spin_unlock(&kbench_store_lock);
			return 0;
		}
		*in_use = kbench_mem_used;
		old = NULL;
		if (kbench_mem_used - kbench_store_reclaimable() + bytes <=
		    kbench_store_bytes_max)
			old = kbench_store_evict_one();
		spin_unlock(&kbench_store_lock);
		if (!old)
			return -E2BIG;
		/* frees it unless a dump took it meanwhile */
		kbench_run_put(old);
	}
}

void kbench_mem_uncharge(u64 bytes)
{
	spin_lock(&kbench_store_lock);
	kbench_mem_used -= bytes;
	spin_unlock(&kbench_store_lock);
}

/*
 * The runs whose answer is owed to a requester (kbench_run->owed_node),
 * with the room it needs (->owed) and whether it is being sent
 * (->sending), under kbench_owed_lock: the room accounting of
 * kbench_reply.c, kept here beside the memory's so that letting go of a
 * run needs nothing above this file.  One entry per run in flight or
 * waiting to answer: few.
 */
DEFINE_SPINLOCK(kbench_owed_lock);
LIST_HEAD(kbench_owed);

/**
 * kbench_owed_drop() - @run's answer has gone, or never will
 * @run: a run whose request is let go (kbench_run_drop_request())
 */
void kbench_owed_drop(struct kbench_run *run)
{
	if (!run->owed)
		return;
	spin_lock(&kbench_owed_lock);
	list_del(&run->owed_node);
	run->owed = 0;
	run->sending = false;
	spin_unlock(&kbench_owed_lock);
}

/* Module exit has begun: nothing may wait for a requester any more. */
static bool kbench_exit_begun;

/* Said by kbench_abort_all(), read by whoever would wait for a requester. */
void kbench_set_exiting(void)
{
	WRITE_ONCE(kbench_exit_begun, true);
}

bool kbench_exiting(void)
{
	return READ_ONCE(kbench_exit_begun);
}

/* Let go of the RUN request and its socket (any context that may sleep). */
void kbench_run_drop_request(struct kbench_run *run)
{
	kbench_owed_drop(run);
	if (run->requester)
		sock_put(run->requester);
	run->requester = NULL;
	kfree_skb(run->req_skb);
	run->req_skb = NULL;
	run->req_nlh = NULL;
	kbench_mem_uncharge(run->req_bytes);
	run->req_bytes = 0;
}

static void kbench_run_release(struct kref *ref)
{
	struct kbench_run *run = container_of(ref, struct kbench_run, ref);
	u32 i, x;

	/* the RUN handler released them; an error path may not have */
	kbench_events_release(run);
	kbench_run_drop_request(run);
	for (i = 0; i < run->nr_series; i++) {
		kvfree(run->series[i].eng.net);
		kvfree(run->series[i].eng.flags);
		kvfree(run->series[i].eng.start);
		for (x = 0; x < run->nr_events; x++)
			kvfree(run->series[i].eng.xnet[x]);
	}
	if (run->charged)
		kbench_mem_uncharge(run->mem_bytes + run->scratch_bytes);
	kbench_group_put(run->group);
	kfree(run);
}

void kbench_run_put(struct kbench_run *run)
{
	if (run)
		kref_put(&run->ref, kbench_run_release);
}

static void kbench_group_release(struct kref *ref)
{
	struct kbench_group *g = container_of(ref, struct kbench_group, ref);
	u32 i;

	/* a group that never started still holds its runs */
	for (i = 0; i < g->nr; i++)
		kbench_run_put(g->run[i]);
	kbench_mem_uncharge(g->scratch_bytes);
	kvfree(g->rv.slot);
	kfree(g);
}

void kbench_group_put(struct kbench_group *g)
{
	if (g)
		kref_put(&g->ref, kbench_group_release);
}

/* A reference to stored run @id, or NULL. */
struct kbench_run *kbench_store_get(u32 id)
{
	struct kbench_run *run, *found = NULL;

	spin_lock(&kbench_store_lock);
	list_for_each_entry(run, &kbench_store, node) {
		if (run->id == id) {
			kref_get(&run->ref);
			found = run;
			break;
		}
	}
	spin_unlock(&kbench_store_lock);
	return found;
}

/* Whether @run is still stored (not evicted). */
bool kbench_store_has(struct kbench_run *run)
{
	bool stored;

	spin_lock(&kbench_store_lock);
	stored = !list_empty(&run->node);
	spin_unlock(&kbench_store_lock);
	return stored;
}

u64 kbench_store_bytes(void)
{
	u64 used;

	spin_lock(&kbench_store_lock);
	used = kbench_store_used;
	spin_unlock(&kbench_store_lock);
	return used;
}

void kbench_store_exit(void)
{
	struct kbench_run *run;

	/* no dump is open: each holds the module */
	for (;;) {
		spin_lock(&kbench_store_lock);
		run = list_first_entry_or_null(&kbench_store, struct kbench_run,
					       node);
		if (run) {
			list_del_init(&run->node);
			kbench_store_count--;
			kbench_store_used -= run->mem_bytes;
		}
		spin_unlock(&kbench_store_lock);
		if (!run)
			break;
		kbench_run_put(run);
	}
}
