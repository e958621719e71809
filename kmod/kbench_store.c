// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: completed runs kept for SAMPLES_GET.
 *
 * The last runs_kept runs are kept, within store_bytes_max; the oldest go
 * first.  A dump holds a reference, so an evicted run stays readable until
 * its dump ends (the dump is then marked NLM_F_DUMP_INTR).
 */
#include <linux/list.h>
#include <linux/spinlock.h>

#include "kbench_internal.h"

static LIST_HEAD(kbench_store);
static DEFINE_SPINLOCK(kbench_store_lock);
static unsigned int kbench_store_count;
static u64 kbench_store_used;

static struct kbench_run *kbench_store_evict_one(void)
{
	struct kbench_run *run;

	run = list_first_entry_or_null(&kbench_store, struct kbench_run, node);
	if (!run)
		return NULL;
	list_del_init(&run->node);
	kbench_store_count--;
	kbench_store_used -= run->mem_bytes;
	return run;
}

/*
 * Keep @run (takes a reference) and evict what no longer fits, one run at
 * a time: a run's node changes only under the lock, where
 * kbench_store_has() reads it, and is empty once the run is evicted.
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
		if (kbench_store_count > kbench_runs_kept ||
		    (kbench_store_used > kbench_store_bytes_max &&
		     kbench_store_count > 1))
			old = kbench_store_evict_one();
		spin_unlock(&kbench_store_lock);
		if (!old)
			break;
		kbench_run_put(old);
	}
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

	for (;;) {
		spin_lock(&kbench_store_lock);
		run = kbench_store_evict_one();
		spin_unlock(&kbench_store_lock);
		if (!run)
			break;
		kbench_run_put(run);
	}
}
