// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: a run's lifecycle around its measurement (kbench_measure.c).
 *
 * A run is allocated and charged to the memory budget, claims its CPU (a
 * concurrent group all of its CPUs, all or nothing) under
 * kbench_cpu_lock, and executes in a kthread bound to that CPU, listed
 * in kbench_inflight from before the claim until the thread has exited.
 * A run ends on its own, or is asked to end within one window
 * (kbench_run_abort()): by its requester's socket released
 * (kbench_abort_requester(), from the release notifier, which only
 * aborts), its CPU gone offline, a group's error, or module exit
 * (kbench_abort_all()), which waits for every thread.  The thread sets
 * the run's error and calls run->complete: a RUN's answers its requester
 * (kbench_nl_run_complete(), kbench_answer()); kbench_measure() (below)
 * waits for it instead.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/freezer.h>
#include <linux/kthread.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/sock.h>

#include "kbench_internal.h"

static DEFINE_SPINLOCK(kbench_cpu_lock);
static DEFINE_PER_CPU(struct kbench_run *, kbench_cpu_run);
static bool kbench_shutting_down;
static atomic_t kbench_next_id = ATOMIC_INIT(0);
static enum cpuhp_state kbench_hp_state;

/*
 * A run's thread, from before its CPU is claimed until it has exited:
 * kept in kbench_inflight, which owns it, so that the release of the
 * requester's socket finds every run of every group to abort, a RUN
 * finds a run that is ending, and module exit waits until each thread is
 * past the last instruction of module text it runs.  It is added to the
 * list under kbench_cpu_lock in the same section that checks
 * kbench_shutting_down and claims the CPU, before the thread exists:
 * kbench_abort_all() cannot miss it.  Small: the run
 * itself (its samples) is the thread's until it ends, then its
 * requester's, the store's or nobody's.
 */
struct kbench_thread {
	struct list_head node;		/* in kbench_inflight */
	refcount_t ref;			/* the list's, and each waiter's */
	/* the thread's last act, or its creator's when it failed */
	struct completion done;
	/*
	 * The thread's reference, NULL (under kbench_cpu_lock) once it let
	 * go: read under the lock, the run is alive.
	 */
	struct kbench_run *run;
	u32 run_id;			/* its id, for as long as the thread lives */
	/*
	 * The requester whose socket's release ends the run: the socket
	 * itself (held), not only its port, which netlink_release() frees
	 * before the release notifier runs: another socket may bind it and
	 * send a RUN in between.
	 */
	struct sock *sk;
	const struct net *net;
	u32 portid;
	/* its measurement over (under kbench_cpu_lock): answering, ending */
	bool finished;
};

/*
 * The threads of runs in flight, and of runs that ended since the last
 * reap: at most one run per CPU is in flight (kbench_cpu_run).
 */
static LIST_HEAD(kbench_inflight);

static void kbench_thread_put(struct kbench_thread *t)
{
	if (!refcount_dec_and_test(&t->ref))
		return;
	if (t->sk)
		sock_put(t->sk);
	kfree(t);
}

/* A thread entry for @run; @lead holds the request (a group's run[0]). */
static struct kbench_thread *kbench_thread_alloc(struct kbench_run *run,
						 struct kbench_run *lead)
{
	struct kbench_thread *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return NULL;
	refcount_set(&t->ref, 1);
	init_completion(&t->done);
	t->run = run;
	t->run_id = run->id;
	if (lead->requester) {
		t->sk = lead->requester;
		sock_hold(t->sk);
		t->net = sock_net(t->sk);
		t->portid = lead->portid;
	}
	return t;
}

/* Claimed under kbench_cpu_lock: in the list, with the thread's reference */
static void kbench_thread_own(struct kbench_thread *t)
{
	lockdep_assert_held(&kbench_cpu_lock);
	kref_get(&t->run->ref);
	list_add_tail(&t->node, &kbench_inflight);
}

/*
 * A thread that will never run (its creation failed, or it was stopped
 * before it ran): its CPU free, the thread's reference dropped, done
 * for whoever waits; the list still owns the entry.
 */
static void kbench_thread_abandon(struct kbench_thread *t)
{
	struct kbench_run *run;

	spin_lock(&kbench_cpu_lock);
	run = t->run;
	t->run = NULL;
	per_cpu(kbench_cpu_run, run->cpu) = NULL;
	spin_unlock(&kbench_cpu_lock);
	kbench_run_put(run);
	complete_all(&t->done);
}

static int kbench_run_thread(void *arg)
{
	struct kbench_thread *t = arg;
	struct kbench_run *run = t->run;
	int err;

	/* the freezer stops the thread between windows (kbench_gap()) */
	set_freezable();
	if (run->group && run->group_index)
		kbench_fault_delay(KBENCH_FAULT_GROUP_LATE, run);
	err = kbench_run_setup(run);
	if (!err) {
		kbench_steal_start(run->cpu);
		err = kbench_run_measure(run);
		kbench_steal_stop(run->cpu);
	}
	/*
	 * The other CPUs stop now, not after this one's teardown; but a CPU
	 * that stopped for another (-ECANCELED: kbench_engine_sync_fit())
	 * leaves the group's error, and its explanation, to that other.
	 */
	if (run->group && err && err != -ECANCELED)
		kbench_group_abort(run->group, run->group_index, err);
	kbench_run_teardown(run);
	/* a group's last thread summarizes, after the skew */
	if (!run->group && !err)
		err = kbench_finish(run);
	run->err = err;
	if (run->group && run->group_index)
		kbench_fault_delay(KBENCH_FAULT_GROUP_END, run);

	/*
	 * Free before the reply: the requester may start the next run.
	 * Whoever must find the thread until it exits (socket release,
	 * module exit) does so through kbench_inflight, not the slot.
	 */
	spin_lock(&kbench_cpu_lock);
	per_cpu(kbench_cpu_run, run->cpu) = NULL;
	t->finished = true;
	spin_unlock(&kbench_cpu_lock);
	if (run->group) {
		kbench_group_done(run->group);
	} else {
		if (run->complete)
			run->complete(run);
		complete_all(&run->finished);
	}
	spin_lock(&kbench_cpu_lock);
	t->run = NULL;
	spin_unlock(&kbench_cpu_lock);
	kbench_run_put(run);

	/*
	 * Never return into module text that rmmod may free: module exit
	 * waits for done of every thread in kbench_inflight, and
	 * kthread_complete_and_exit() completes it in the kernel's own
	 * text, from where the thread exits without coming back here.
	 */
	kthread_complete_and_exit(&t->done, 0);
}

/*
 * Wait, in @state, until @t's thread has exited.  The thread's last act
 * is a complete() (kthread_complete_and_exit()), which one wait consumes:
 * every waiter leaves it completed for good, for the others, for
 * completion_done() and for kbench_reap().
 */
static void kbench_thread_wait(struct kbench_thread *t, unsigned int state)
{
	wait_for_completion_state(&t->done, state);
	complete_all(&t->done);
}

/* Forget the threads that have exited and that nobody waits for. */
static void kbench_reap(void)
{
	struct kbench_thread *t, *tmp;
	LIST_HEAD(done);

	spin_lock(&kbench_cpu_lock);
	list_for_each_entry_safe(t, tmp, &kbench_inflight, node)
		if (completion_done(&t->done))
			list_move(&t->node, &done);
	spin_unlock(&kbench_cpu_lock);
	list_for_each_entry_safe(t, tmp, &done, node)
		kbench_thread_put(t);
}

/*
 * @run's CPU has a run: -EBUSY, or -EAGAIN when that run was asked to
 * end and is ending (a routine's setup or teardown may take a while; its
 * requester's close does not wait for it): run->ending names it and
 * run->ending_err says why, for the requester to retry.  Under
 * kbench_cpu_lock, which keeps the CPU's run alive.
 */
static int kbench_cpu_busy(struct kbench_run *run)
{
	struct kbench_run *there = per_cpu(kbench_cpu_run, run->cpu);
	int why = kbench_run_aborted(there);

	lockdep_assert_held(&kbench_cpu_lock);
	if (!why)
		return -EBUSY;
	run->ending = there->id;
	run->ending_err = why;
	return -EAGAIN;
}

/*
 * Claim @run's CPU and own its thread entry @t, unless kbench is being
 * unloaded or the CPU is busy: one section under kbench_cpu_lock.
 */
static int kbench_run_claim(struct kbench_run *run, struct kbench_thread *t)
{
	int err = 0;

	spin_lock(&kbench_cpu_lock);
	if (kbench_shutting_down) {
		err = -ESHUTDOWN;
	} else if (per_cpu(kbench_cpu_run, run->cpu)) {
		err = kbench_cpu_busy(run);
	} else {
		per_cpu(kbench_cpu_run, run->cpu) = run;
		kbench_thread_own(t);
	}
	spin_unlock(&kbench_cpu_lock);
	return err;
}

/**
 * kbench_run_start() - start a prepared run on its CPU
 * @run: from kbench_run_alloc(), with routines and parameters set
 *
 * Returns once the run's thread exists: the run goes on without the
 * caller, ends with run->err set, calls run->complete (if any) and
 * completes run->finished.  The caller's reference stays the caller's.
 *
 * Return: 0 or -errno (-ENODEV: CPU offline, -EBUSY: a run already uses
 * the CPU, -EAGAIN: a run that is ending does (run->ending), -ESHUTDOWN:
 * kbench is being unloaded, -EINTR: the caller has a fatal signal
 * pending, -ENOMEM).
 */
int kbench_run_start(struct kbench_run *run)
{
	struct kbench_thread *t;
	struct task_struct *task;
	int err;

	kbench_reap();
	t = kbench_thread_alloc(run, run);
	if (!t)
		return -ENOMEM;
	cpus_read_lock();
	err = cpu_online(run->cpu) ? kbench_run_claim(run, t) : -ENODEV;
	if (err)
		goto out_free_thread;
	kbench_fault_delay(KBENCH_FAULT_START, run);

	task = kthread_create_on_cpu(kbench_run_thread, t, run->cpu,
				     "kbench/%u");
	if (IS_ERR(task)) {
		/* the list owns t now: kbench_reap() frees it */
		kbench_thread_abandon(t);
		cpus_read_unlock();
		return PTR_ERR(task);
	}
	wake_up_process(task);
	cpus_read_unlock();
	return 0;

out_free_thread:
	cpus_read_unlock();
	kbench_thread_put(t);
	return err;
}

/**
 * kbench_group_start() - start every run of a concurrent group at once
 * @g: from kbench_group_alloc(), its runs prepared
 * @bad: out, on -ENODEV, -EBUSY or -EAGAIN: the index of the CPU at fault
 *
 * All or nothing: every CPU is checked and claimed, and every thread
 * created, before any thread runs; on failure nothing has started and
 * the caller still owns the group.  On success the group's threads own
 * it: the last one calls g->complete and drops the group's reference.
 *
 * Return: 0 or -errno (-ENODEV: a CPU offline, -EBUSY: a run already uses
 * a CPU, -EAGAIN: a run that is ending does (its run's ending),
 * -ESHUTDOWN: kbench is being unloaded, -EINTR: the caller has a fatal
 * signal pending, -ENOMEM).
 */
int kbench_group_start(struct kbench_group *g, u32 *bad)
{
	struct kbench_thread *t[KBENCH_CPUS_MAX] = { };
	struct task_struct *task[KBENCH_CPUS_MAX];
	u32 i, made = 0;
	int err = 0;

	kbench_reap();
	for (i = 0; i < g->nr; i++) {
		t[i] = kbench_thread_alloc(g->run[i], g->run[0]);
		if (!t[i]) {
			err = -ENOMEM;
			goto out_free_threads;
		}
	}
	cpus_read_lock();
	for (i = 0; i < g->nr; i++) {
		if (!cpu_online(g->run[i]->cpu)) {
			*bad = i;
			err = -ENODEV;
			goto out_unlock_cpus;
		}
	}
	spin_lock(&kbench_cpu_lock);
	if (kbench_shutting_down)
		err = -ESHUTDOWN;
	for (i = 0; i < g->nr && !err; i++) {
		if (per_cpu(kbench_cpu_run, g->run[i]->cpu)) {
			*bad = i;
			err = kbench_cpu_busy(g->run[i]);
		}
	}
	for (i = 0; i < g->nr && !err; i++) {
		per_cpu(kbench_cpu_run, g->run[i]->cpu) = g->run[i];
		kbench_thread_own(t[i]);
	}
	spin_unlock(&kbench_cpu_lock);
	if (err)
		goto out_unlock_cpus;
	kbench_fault_delay(KBENCH_FAULT_START, g->run[0]);

	for (made = 0; made < g->nr; made++) {
		task[made] = kthread_create_on_cpu(kbench_run_thread, t[made],
						   g->run[made]->cpu,
						   "kbench/%u");
		if (IS_ERR(task[made])) {
			err = PTR_ERR(task[made]);
			goto out_stop;
		}
	}
	atomic_set(&g->remaining, g->nr);
	g->deadline_ns = ktime_get_ns() + (u64)kbench_max_run_ms * NSEC_PER_MSEC;
	for (i = 0; i < g->nr; i++)
		wake_up_process(task[i]);
	cpus_read_unlock();
	return 0;

out_stop:
	/* never woken: kthread_stop() ends them before kbench_run_thread() */
	for (i = 0; i < made; i++)
		kthread_stop(task[i]);
	/* the list owns the entries: kbench_reap() frees them */
	for (i = 0; i < g->nr; i++)
		kbench_thread_abandon(t[i]);
	cpus_read_unlock();
	return err;

out_unlock_cpus:
	cpus_read_unlock();
out_free_threads:
	for (i = 0; i < g->nr; i++)
		if (t[i])
			kbench_thread_put(t[i]);
	return err;
}

/**
 * kbench_run_execute() - measure a prepared run on its CPU and wait for it
 * @run: from kbench_run_alloc(), with routines and parameters set
 *
 * Sleeps until the run ends, in a wait the freezer passes (the run's
 * thread freezes between windows too).  A fatal signal aborts the run
 * within one window.
 *
 * Return: 0 or -errno (-ENODEV: CPU offline, -EBUSY: a run already uses
 * the CPU, -ERANGE: a window would exceed max_window_us, -EINTR).
 */
int kbench_run_execute(struct kbench_run *run)
{
	int err;

	err = kbench_run_start(run);
	/* kbench_measure()'s callers know a busy CPU as -EBUSY */
	if (err == -EAGAIN)
		err = -EBUSY;
	if (err)
		return err;
	if (wait_for_completion_state(&run->finished,
				      TASK_KILLABLE | TASK_FREEZABLE)) {
		atomic_cmpxchg(&run->abort, 0, -EINTR);
		wait_for_completion(&run->finished);
	}
	return run->err;
}

/*
 * Runs on @cpu as it goes offline, under cpus_write_lock(): its run, if
 * any, is asked to end (-ENODEV) and not waited for.  Its thread may be
 * in a routine's setup or teardown, which may take cpus_read_lock():
 * waiting here would deadlock.  The thread is not a per-CPU kthread for
 * the scheduler, so once the CPU is inactive it moves to another online
 * CPU, where it ends the round it is in (the engine flags those windows:
 * the CPU changed) and tears the routines down.
 */
static int kbench_cpu_offline(unsigned int cpu)
{
	struct kbench_run *run;

	spin_lock(&kbench_cpu_lock);
	run = per_cpu(kbench_cpu_run, cpu);
	if (run)
		kbench_run_abort(run, -ENODEV);
	spin_unlock(&kbench_cpu_lock);
	return 0;
}

/*
 * Whether @t's run was requested from port @portid of @net: by that
 * socket, or by one that had the port before it.
 */
static bool kbench_thread_of(const struct kbench_thread *t,
			     const struct net *net, u32 portid)
{
	return t->sk && t->portid == portid && net_eq(t->net, net);
}

/*
 * The socket of @portid was released (its process closed it or died):
 * every run it requested, every CPU's run of a group, is asked to end
 * (-ECONNRESET) and sends it nothing more (kbench_answer() cannot reach a
 * released socket).  Nothing waits for the runs: the socket's release
 * only aborts, as nl80211's does for a peer measurement (pmsr.c), and
 * nothing waits at close for ethtool's cable test either.  Each thread
 * ends on its own, within one window and its teardown (a routine's
 * setup cannot be interrupted: a thread in one ends when it returns);
 * until then its CPU refuses a new RUN with -EAGAIN, naming the run
 * (kbench_cpu_busy()), and module exit waits for it
 * (kbench_abort_all()).  The threads are found through kbench_inflight,
 * which holds them until they exit, not through the CPU slots, which
 * they free before the end.  A run is matched by its requester's
 * socket, not by the port alone: netlink_release() removes the port
 * before sock_orphan() and the notifier, so another socket (autobind
 * tries the process id first) may own @portid and have sent a RUN of its
 * own by now.  The released socket is the one of that port that is dead
 * (SOCK_DEAD, set by sock_orphan()); a live one is another's.
 *
 * Called by the NETLINK_URELEASE notifier, inside the read side of
 * netlink's notifier chain: it waits for nothing.
 */
void kbench_abort_requester(const struct net *net, u32 portid)
{
	struct kbench_thread *t;
	bool mine = false;

	/* the test bed widens the window in which the port can be reused */
	spin_lock(&kbench_cpu_lock);
	list_for_each_entry(t, &kbench_inflight, node)
		mine |= kbench_thread_of(t, net, portid);
	spin_unlock(&kbench_cpu_lock);
	if (mine)
		kbench_fault_delay(KBENCH_FAULT_RELEASE, NULL);

	spin_lock(&kbench_cpu_lock);
	list_for_each_entry(t, &kbench_inflight, node) {
		if (!t->run || !kbench_thread_of(t, net, portid) ||
		    !sock_flag(t->sk, SOCK_DEAD))
			continue;
		WRITE_ONCE(t->run->requester_gone, true);
		kbench_run_abort(t->run, -ECONNRESET);
	}
	spin_unlock(&kbench_cpu_lock);
}

/*
 * A thread whose run was asked to end (its requester's socket released,
 * its CPU gone offline, a group's error) and still holds its memory and
 * CPU: within one window, its teardown and its answer; or a thread whose
 * measurement is over (t->finished): sending its answer, which may wait
 * for room in the requester's queue, or past it and not yet let go of the
 * run (t->run NULL).  Its requester may already send the next RUN, and
 * until the thread's reference is dropped the run's memory is neither
 * free nor evictable.
 * With a reference, or NULL.  *@id: its run's.
 */
static struct kbench_thread *kbench_find_ending(u32 *id)
{
	struct kbench_thread *t, *found = NULL;

	spin_lock(&kbench_cpu_lock);
	list_for_each_entry(t, &kbench_inflight, node) {
		if (completion_done(&t->done) ||
		    (t->run && !t->finished && !kbench_run_aborted(t->run)))
			continue;
		refcount_inc(&t->ref);
		*id = t->run_id;
		found = t;
		break;
	}
	spin_unlock(&kbench_cpu_lock);
	return found;
}

/**
 * kbench_wait_dying() - wait for a run that is ending to give its memory back
 *
 * kbench_measure() only: a caller that the budget would refuse waits for
 * a run that is ending (kbench_find_ending()) rather than fail.  Never
 * from a netlink handler, which holds genetlink's cb_lock: a RUN is
 * refused instead, with the ending run named (kbench_mem_charge()).  Only
 * threads of runs already aborted are waited for, each once.  Process
 * context, no lock held.
 *
 * Return: true when it waited for one (charge again), false when there
 * is none or a fatal signal ended the wait.
 */
bool kbench_wait_dying(void)
{
	struct kbench_thread *found;
	u32 id;
	int err;

	found = kbench_find_ending(&id);
	if (!found)
		return false;
	err = wait_for_completion_killable(&found->done);
	/* the thread's complete() is consumed by one wait: leave it done */
	if (!err)
		complete_all(&found->done);
	kbench_thread_put(found);
	return !err;
}

/**
 * kbench_mem_charge() - charge @bytes to the budget, or name a run that ends
 * @bytes: what a new run or scratch memory needs
 * @in_use: out, on -E2BIG or -EAGAIN: what the budget holds
 * @ending: NULL: wait for runs that are ending (kbench_measure());
 *	else out, on -EAGAIN: the id of a run that is ending
 *
 * kbench_mem_try_charge(); when it refuses and a run is ending, whose
 * memory comes back when its thread exits: with @ending (a netlink
 * handler, under genetlink's cb_lock, where nothing may wait) -EAGAIN and
 * that run's id, for the requester to retry; without, waits for it
 * (kbench_wait_dying()) and tries again.  Process context, no lock held.
 *
 * Return: 0, -EAGAIN (@ending only), or -E2BIG when nothing that is
 * ending would make room.
 */
int kbench_mem_charge(u64 bytes, u64 *in_use, u32 *ending)
{
	struct kbench_thread *t;
	int err;

	for (;;) {
		err = kbench_mem_try_charge(bytes, in_use);
		if (err != -E2BIG)
			return err;
		if (!ending) {
			if (!kbench_wait_dying())
				return err;
			continue;
		}
		t = kbench_find_ending(ending);
		if (!t)
			return err;
		kbench_thread_put(t);
		return -EAGAIN;
	}
}

/*
 * Module exit: refuse new runs, end the running ones within one window
 * and wait until each thread has exited (its answer sent), those whose
 * start is still creating them included: they were put on the list in
 * the section that checked kbench_shutting_down.
 */
void kbench_abort_all(int err)
{
	struct kbench_thread *t, *tmp;
	LIST_HEAD(all);

	kbench_set_exiting();
	spin_lock(&kbench_cpu_lock);
	WRITE_ONCE(kbench_shutting_down, true);
	list_for_each_entry(t, &kbench_inflight, node)
		if (t->run)
			kbench_run_abort(t->run, err);
	list_splice_init(&kbench_inflight, &all);
	spin_unlock(&kbench_cpu_lock);
	list_for_each_entry_safe(t, tmp, &all, node) {
		kbench_thread_wait(t, TASK_UNINTERRUPTIBLE);
		list_del(&t->node);
		kbench_thread_put(t);
	}
}

/*
 * A run of @nr_routines routines, @nr_events events and @samples samples,
 * charged to the memory budget (kbench_mem_charge(), @ending as there).
 * ERR_PTR(-E2BIG) over the budget (*@in_use: what the budget holds),
 * ERR_PTR(-EAGAIN) when a run that is ending (*@ending) holds what it
 * needs, ERR_PTR(-ENOMEM).
 */
struct kbench_run *kbench_run_alloc_err(u32 nr_routines, u32 nr_events,
					u32 samples, u64 *in_use, u32 *ending)
{
	u64 bytes = kbench_run_charge(nr_routines, nr_events, samples);
	struct kbench_run *run;
	u32 i, x;
	int err;

	err = kbench_mem_charge(bytes, in_use, ending);
	if (err)
		return ERR_PTR(err);
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run) {
		kbench_mem_uncharge(bytes);
		return ERR_PTR(-ENOMEM);
	}
	run->charged = true;
	kref_init(&run->ref);
	INIT_LIST_HEAD(&run->node);
	init_completion(&run->finished);
	atomic_set(&run->abort, 0);
	run->nr_routines = nr_routines;
	run->nr_series = nr_routines + 1;
	run->nr_events = nr_events;
	run->samples = samples;
	run->mem_bytes = kbench_run_bytes(nr_routines, nr_events, samples);
	run->scratch_bytes = bytes - run->mem_bytes;
	do {
		run->id = atomic_inc_return(&kbench_next_id);
	} while (!run->id);

	for (i = 0; i < run->nr_series; i++) {
		struct kbench_series *s = &run->series[i];

		s->eng.net = kvmalloc_array(samples, sizeof(*s->eng.net),
					    GFP_KERNEL);
		s->eng.flags = kvcalloc(samples, sizeof(*s->eng.flags),
					GFP_KERNEL);
		if (!s->eng.net || !s->eng.flags)
			goto out_free;
		for (x = 0; x < nr_events; x++) {
			s->eng.xnet[x] = kvmalloc_array(samples,
							sizeof(*s->eng.xnet[x]),
							GFP_KERNEL);
			if (!s->eng.xnet[x])
				goto out_free;
		}
	}
	return run;

out_free:
	kbench_run_put(run);
	return ERR_PTR(-ENOMEM);
}

/* kbench_run_alloc_err() for kbench_measure(): NULL on any failure */
struct kbench_run *kbench_run_alloc(u32 nr_routines, u32 nr_events,
				    u32 samples)
{
	struct kbench_run *run;
	u64 in_use;

	run = kbench_run_alloc_err(nr_routines, nr_events, samples, &in_use,
				   NULL);
	return IS_ERR(run) ? NULL : run;
}

/**
 * kbench_run_alloc_starts() - keep each sample's start (a concurrent run)
 * @run: from kbench_run_alloc_err()
 * @in_use: out, on -E2BIG: what the budget holds
 * @ending: as kbench_mem_charge()'s
 *
 * Charges a u64 per sample of each series to the memory budget, in the
 * run's mem_bytes.
 *
 * Return: 0, -E2BIG over store_bytes_max, -EAGAIN (a run that is ending,
 * *@ending, holds what it needs), or -ENOMEM.
 */
int kbench_run_alloc_starts(struct kbench_run *run, u64 *in_use, u32 *ending)
{
	u64 bytes = (u64)run->nr_series * run->samples * sizeof(u64);
	u32 i;
	int err;

	err = kbench_mem_charge(bytes, in_use, ending);
	if (err)
		return err;
	run->mem_bytes += bytes;
	for (i = 0; i < run->nr_series; i++) {
		run->series[i].eng.start =
			kvmalloc_array(run->samples,
				       sizeof(*run->series[i].eng.start),
				       GFP_KERNEL);
		if (!run->series[i].eng.start)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Fill @res from the routine's series @s of @run: everything but the
 * counter and the timing, which the caller adds.
 */
static void kbench_result_fill(struct kbench_result *res,
			       const struct kbench_run *run,
			       const struct kbench_series *s)
{
	const struct kbench_summary *sum = &s->sum;
	u32 bit;

	res->samples = sum->samples;
	res->valid = sum->valid;
	res->excluded = sum->samples - sum->valid;
	BUILD_BUG_ON(KBENCH_RESULT_REASONS != KBENCH_SUMMARY_REASONS);
	for (bit = 0; bit < KBENCH_RESULT_REASONS; bit++)
		res->excluded_by[bit] = sum->excluded[bit];
	res->net_min = sum->min;
	res->net_median = sum->median;
	res->net_max = sum->max;
	res->net_sum = sum->sum;
	res->per_iter_min_milli = sum->per_iter_min_milli;
	res->per_iter_median_milli = sum->per_iter_median_milli;
	res->corr_min_milli = sum->corr_min_milli;
	res->corr_median_milli = sum->corr_median_milli;
	res->flags = sum->flags;
	res->iterations = run->iterations;
	res->cpu = run->cpu;
	res->status = run->status;
	res->elapsed_ns = run->elapsed_ns;
}

/*
 * Is the caller in a context that must not sleep?  A debugging check, as
 * might_sleep()'s, not a choice of behaviour: each test is reliable where
 * it can see something at all.  irqs_disabled() everywhere; a non-zero
 * preempt_count() (in_atomic()) is interrupt or softirq context
 * everywhere, and preempt_disable() or a held spinlock only with
 * CONFIG_PREEMPT_COUNT (Debian's 6.1 and 6.12 have it through
 * PREEMPT_DYNAMIC, 6.12-rt and the debug kernel through PREEMPT);
 * rcu_preempt_depth() sees rcu_read_lock() under PREEMPT_RCU, and with it
 * a spinlock_t on PREEMPT_RT, whose spin_lock() leaves preemption on but
 * enters an RCU read-side section.  preemptible() is not used: it is
 * always 0 without CONFIG_PREEMPT_COUNT (and without CONFIG_PREEMPTION).
 */
static bool kbench_caller_atomic(void)
{
	return irqs_disabled() || preempt_count() || rcu_preempt_depth();
}

/* -EBUSY or -ESHUTDOWN if @cpu cannot take a run now, before allocating. */
static int kbench_cpu_slot_check(unsigned int cpu)
{
	int err = 0;

	spin_lock(&kbench_cpu_lock);
	if (kbench_shutting_down)
		err = -ESHUTDOWN;
	else if (per_cpu(kbench_cpu_run, cpu))
		err = -EBUSY;
	spin_unlock(&kbench_cpu_lock);
	return err;
}

/**
 * __kbench_measure() - kbench_measure() with the size of the caller's result
 * @run: the routine
 * @iterations: N per sample, 0: adaptive
 * @data: passed to @run
 * @samples: samples to take
 * @res: the result
 * @res_size: sizeof(*@res) where the caller was compiled: a newer kbench.ko
 *	fills only what the caller knows, an older one zeroes what it does not
 *	know
 *
 * See kbench_measure() in include/linux/kbench.h.
 *
 * Context: process context; not from atomic context (-EINVAL and one
 * WARN_ON_ONCE), not with cpus_read_lock() held (taken here).
 *
 * Return: 0, or -errno.
 */
int __kbench_measure(void (*run)(unsigned int iterations, void *data),
		     unsigned int iterations, void *data, unsigned int samples,
		     struct kbench_result *res, size_t res_size)
{
	struct kbench_routine routine = {
		.name = "kbench_measure",
		.run = run,
		.data = data,
	};
	struct kbench_result out = { };
	struct kbench_run *r;
	unsigned int cpu;
	int err;

	/* before might_sleep(), which would only complain and go on */
	if (WARN_ON_ONCE(kbench_caller_atomic()))
		return -EINVAL;
	might_sleep();
	if (!run || !res || res_size < KBENCH_RESULT_SIZE_V1 ||
	    iterations > KBENCH_ITERATIONS_LIMIT || !samples ||
	    samples > kbench_max_samples)
		return -EINVAL;
	if (kbench_run_charge(1, 0, samples) > kbench_store_bytes_max)
		return -E2BIG;
	cpu = raw_smp_processor_id();
	err = kbench_cpu_slot_check(cpu);
	if (err)
		return err;
	r = kbench_run_alloc(1, 0, samples);
	if (!r)
		return -ENOMEM;
	r->cpu = cpu;
	r->adaptive = !iterations;
	r->iterations = iterations;
	r->target_ns = min(KBENCH_TARGET_NS_DEFAULT,
			   kbench_max_window_us * 1000);
	r->u32[KBENCH_A_RUN_WARMUP] = KBENCH_WARMUP_DEFAULT;
	/* neither can go away: the caller's module holds kbench.ko */
	r->series[0].routine = &routine;
	r->series[1].routine = &kbench_builtin_empty;
	strscpy(r->series[0].name, routine.name, sizeof(r->series[0].name));
	strscpy(r->series[1].name, kbench_builtin_empty.name,
		sizeof(r->series[1].name));

	err = kbench_run_execute(r);
	if (!err) {
		kbench_result_fill(&out, r, &r->series[0]);
		out.counter = kbench_counter.name;
		out.counter_hz = kbench_counter.hz;
		if (r->no_valid)
			err = -ENODATA;		/* no figure from nothing */
		else if (r->status == KBENCH_RUN_TIMEOUT)
			err = -ETIME;
		memset(res, 0, res_size);
		memcpy(res, &out, min(res_size, sizeof(out)));
	}
	r->series[0].routine = NULL;
	r->series[1].routine = NULL;
	kbench_run_put(r);
	return err;
}
EXPORT_SYMBOL_GPL(__kbench_measure);

int kbench_measure_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "kbench:online",
					NULL, kbench_cpu_offline);
	if (ret < 0)
		return ret;
	kbench_hp_state = ret;
	return 0;
}

void kbench_measure_exit(void)
{
	cpuhp_remove_state_nocalls(kbench_hp_state);
}
