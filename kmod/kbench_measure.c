// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the measurement engine.
 *
 * A run executes in a kthread bound to the requested CPU.  Each sample is one
 * window with preemption and interrupts off (kbench_method_sample()); between
 * windows interrupts are on for at least (100 - duty_pct)% of the time, the
 * CPU is yielded (cond_resched(), which is also an RCU quiescent state) and
 * abort requests are honoured.  Nothing inside a window allocates, sleeps,
 * locks or prints.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>

#include "kbench_internal.h"
#include "kbench_method.h"

/* Three windows in a row over max_window_us abort the run. */
#define KBENCH_LONG_WINDOWS_ABORT	3
/* Probe windows per step; their minimum rejects noise. */
#define KBENCH_PROBE_REPEAT		3
#define KBENCH_PROGRESS_NS		(250 * NSEC_PER_MSEC)

static DEFINE_SPINLOCK(kbench_cpu_lock);
static DEFINE_PER_CPU(struct kbench_run *, kbench_cpu_run);
static DECLARE_WAIT_QUEUE_HEAD(kbench_cpu_wq);
static bool kbench_shutting_down;
static atomic_t kbench_next_id = ATOMIC_INIT(0);
static enum cpuhp_state kbench_hp_state;

struct kbench_window {
	s64 net;
	u64 start;
	u64 len;
	u32 flags;
};

static u64 kbench_ns_to_cycles(u64 ns)
{
	return mul_u64_u32_div(kbench_counter.hz, (u32)min_t(u64, ns, U32_MAX),
			       NSEC_PER_SEC);
}

/*
 * One sample of @r with @n iterations on this CPU.  Everything between
 * local_irq_save() and local_irq_restore() is the window: no allocation,
 * lock, sleep or printk in here.
 */
static void kbench_window(const struct kbench_routine *r, u32 n, u32 cpu,
			  u64 max_cycles, struct kbench_window *w)
{
	struct kbench_snap a, b;
	unsigned long irqflags;
	u64 t[4];
	u32 flags;

	preempt_disable();
	local_irq_save(irqflags);
	flags = raw_smp_processor_id() != cpu ? KBENCH_SAMPLE_F_CPU_CHANGED : 0;
	kbench_snap_take(&a);
	kbench_method_sample(kbench_ctr_read, r->run, n, r->data, t);
	kbench_snap_take(&b);
	if (raw_smp_processor_id() != cpu)
		flags |= KBENCH_SAMPLE_F_CPU_CHANGED;
	local_irq_restore(irqflags);
	preempt_enable();

	flags |= kbench_snap_flags(&a, &b);
	if (kbench_method_backwards(t))
		flags |= KBENCH_SAMPLE_F_BACKWARDS;
	w->net = kbench_method_net(t);
	w->start = t[0];
	w->len = t[3] - t[0];
	if (w->len > max_cycles)
		flags |= KBENCH_SAMPLE_F_WINDOW;
	w->flags = flags;
}

/*
 * Give the CPU back after a window of @len ticks ending at @end: interrupts
 * stay on until the window's share of time is at most duty_pct, and the
 * scheduler may run anything else that is waiting.
 */
static void kbench_gap(u64 end, u64 len)
{
	u64 gap = div_u64(len * (100 - kbench_duty_pct), kbench_duty_pct);
	u64 gap_ns = div64_u64(gap * NSEC_PER_SEC, kbench_counter.hz);

	if (gap_ns > 50 * NSEC_PER_USEC)
		usleep_range(gap_ns / NSEC_PER_USEC, gap_ns / NSEC_PER_USEC + 10);
	else
		while (kbench_ctr_read() - end < gap)
			cpu_relax();
	cond_resched();
}

/* Between windows: an abort request, or the run's time is up. */
static int kbench_check_abort(struct kbench_run *run)
{
	int err = atomic_read(&run->abort);

	if (!err && ktime_get_ns() >= run->deadline_ns)
		err = -ETIME;
	return err;
}

/*
 * Find N: double it from 1 and take the minimum of a few windows per step.
 * Fixed N: stop at N; reject the request (-ERANGE) as soon as the window
 * predicted for the next step would exceed max_window_us, so no window of
 * the run is ever longer than the limit.  Adaptive N: stop when the slowest
 * routine's net time reaches the target, or the next step would not fit.
 */
static int kbench_probe(struct kbench_run *run, u64 max_cycles)
{
	u64 target = kbench_ns_to_cycles(run->target_ns);
	u32 limit = run->adaptive ? KBENCH_ITERATIONS_LIMIT : run->iterations;
	u32 n = 1, next, i, k;
	struct kbench_window w;
	int err;

	for (;;) {
		s64 slowest = 0;
		bool fits = true;

		for (i = 0; i < run->nr_series; i++) {
			s64 best_net = S64_MAX;
			u64 best_len = U64_MAX;

			for (k = 0; k < KBENCH_PROBE_REPEAT; k++) {
				kbench_window(run->series[i].routine, n,
					      run->cpu, max_cycles, &w);
				kbench_gap(w.start + w.len, w.len);
				best_net = min(best_net, w.net);
				best_len = min(best_len, w.len);
			}
			err = kbench_check_abort(run);
			if (err)
				return err;
			slowest = max(slowest, best_net);
			if (best_net < 0)
				best_net = 0;
			next = n >= limit ? n : min_t(u64, (u64)n * 2, limit);
			/* fixed part of the window plus the loop scaled */
			if (best_len - best_net +
			    div_u64((u64)best_net * next, n) > max_cycles)
				fits = false;
		}
		if (run->adaptive) {
			if (slowest >= (s64)target || n >= limit || !fits)
				break;
		} else {
			if (n >= limit)
				break;
			if (!fits) {
				run->window_probe = true;
				return -ERANGE;
			}
		}
		n = next;
	}
	run->iterations = n;
	return 0;
}

static int kbench_cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

static s64 kbench_milli_per_iter(s64 net, u32 n)
{
	s64 x = net * 1000;

	/* round half away from zero */
	return x >= 0 ? div_s64(x + n / 2, n) : -div_s64(-x + n / 2, n);
}

static int kbench_summarize(struct kbench_series *s, u32 n)
{
	u32 i, v = 0, bit;
	s64 *sorted;

	sorted = kvmalloc_array(max_t(u32, s->taken, 1), sizeof(*sorted),
				GFP_KERNEL);
	if (!sorted)
		return -ENOMEM;
	s->sum = 0;
	for (i = 0; i < s->taken; i++) {
		u32 f = s->flags[i];

		if (!f) {
			sorted[v++] = s->net[i];
			s->sum += s->net[i];
			continue;
		}
		for (bit = 0; bit < ARRAY_SIZE(s->excl); bit++)
			if (f & (1U << bit))
				s->excl[bit]++;
	}
	s->valid = v;
	if (v < s->taken)
		s->result_flags |= KBENCH_RESULT_F_EXCLUDED;
	if (v) {
		sort(sorted, v, sizeof(*sorted), kbench_cmp_s64, NULL);
		s->min = sorted[0];
		s->median = sorted[(v - 1) / 2];
		s->max = sorted[v - 1];
		s->per_iter_min_milli = kbench_milli_per_iter(s->min, n);
		s->per_iter_median_milli = kbench_milli_per_iter(s->median, n);
	}
	kvfree(sorted);
	return 0;
}

static void kbench_correct(struct kbench_series *s,
			   const struct kbench_series *ovh)
{
	s->corr_min_milli = s->per_iter_min_milli - ovh->per_iter_min_milli;
	s->corr_median_milli = s->per_iter_median_milli -
			       ovh->per_iter_median_milli;
	if (s->corr_min_milli < 0 || s->corr_median_milli < 0)
		s->result_flags |= KBENCH_RESULT_F_CLAMPED;
	s->corr_min_milli = max_t(s64, s->corr_min_milli, 0);
	s->corr_median_milli = max_t(s64, s->corr_median_milli, 0);
}

static int kbench_measure(struct kbench_run *run)
{
	u64 max_cycles = kbench_ns_to_cycles((u64)kbench_max_window_us *
					     NSEC_PER_USEC);
	u64 t_start = ktime_get_ns(), now, next_progress;
	u32 total = run->samples * run->nr_series;
	u32 r, k, i, done = 0, long_windows = 0;
	u64 first = 0, last = 0;
	struct kbench_window w;
	int err;

	run->deadline_ns = t_start + (u64)kbench_max_run_ms * NSEC_PER_MSEC;
	next_progress = t_start + KBENCH_PROGRESS_NS;

	err = kbench_probe(run, max_cycles);
	if (err)
		return err;

	for (r = 0; r < run->warmup; r++) {
		for (i = 0; i < run->nr_series; i++) {
			kbench_window(run->series[i].routine, run->iterations,
				      run->cpu, max_cycles, &w);
			kbench_gap(w.start + w.len, w.len);
		}
		err = kbench_check_abort(run);
		if (err)
			return err;
	}

	for (r = 0; r < run->samples; r++) {
		for (k = 0; k < run->nr_series; k++) {
			/* rotate the order each round: A B E, B E A, ... */
			struct kbench_series *s =
				&run->series[(r + k) % run->nr_series];

			kbench_window(s->routine, run->iterations, run->cpu,
				      max_cycles, &w);
			s->net[r] = w.net;
			s->flags[r] = w.flags;
			s->taken++;
			if (!done++)
				first = w.start;
			last = w.start + w.len;
			run->window_cycles += w.len;
			if (s != &run->series[run->nr_routines] && w.net > 0)
				run->routine_cycles += w.net;
			long_windows = w.flags & KBENCH_SAMPLE_F_WINDOW ?
				       long_windows + 1 : 0;
			kbench_gap(last, w.len);
		}
		if (long_windows >= KBENCH_LONG_WINDOWS_ABORT)
			return -ERANGE;
		err = kbench_check_abort(run);
		if (err == -ETIME) {
			/* a partial result: every series has r + 1 samples */
			run->status = KBENCH_RUN_TIMEOUT;
			break;
		}
		if (err)
			return err;
		now = ktime_get_ns();
		if (r + 1 < run->samples && now >= next_progress) {
			kbench_progress_notify(run, done, total, now - t_start);
			next_progress = now + KBENCH_PROGRESS_NS;
		}
	}
	run->span_cycles = last - first;
	run->elapsed_ns = ktime_get_ns() - t_start;
	return 0;
}

static int kbench_finish(struct kbench_run *run)
{
	struct kbench_series *ovh = &run->series[run->nr_routines];
	u32 i;
	int err;

	for (i = 0; i < run->nr_series; i++) {
		err = kbench_summarize(&run->series[i], run->iterations);
		if (err)
			return err;
	}
	for (i = 0; i < run->nr_routines; i++)
		kbench_correct(&run->series[i], ovh);
	return 0;
}

static int kbench_run_thread(void *arg)
{
	struct kbench_run *run = arg;
	int err;

	err = kbench_measure(run);
	if (!err)
		err = kbench_finish(run);
	run->err = err;

	spin_lock(&kbench_cpu_lock);
	per_cpu(kbench_cpu_run, run->cpu) = NULL;
	spin_unlock(&kbench_cpu_lock);
	wake_up_all(&kbench_cpu_wq);

	/* Never return into module text that rmmod may free after done. */
	kthread_complete_and_exit(&run->done, 0);
}

/**
 * kbench_run_execute() - measure a prepared run on its CPU
 * @run: from kbench_run_alloc(), with routines and parameters set
 *
 * Sleeps until the run ends.  A fatal signal aborts the run within one
 * window.  Return: 0 or -errno (-ENODEV: CPU offline, -EBUSY: a run already
 * uses the CPU, -ERANGE: a window would exceed max_window_us, -EINTR).
 */
int kbench_run_execute(struct kbench_run *run)
{
	struct task_struct *task;
	int err = 0;

	cpus_read_lock();
	if (!cpu_online(run->cpu)) {
		err = -ENODEV;
		goto out_unlock_cpus;
	}
	spin_lock(&kbench_cpu_lock);
	if (kbench_shutting_down)
		err = -ESHUTDOWN;
	else if (per_cpu(kbench_cpu_run, run->cpu))
		err = -EBUSY;
	else
		per_cpu(kbench_cpu_run, run->cpu) = run;
	spin_unlock(&kbench_cpu_lock);
	if (err)
		goto out_unlock_cpus;

	task = kthread_create_on_cpu(kbench_run_thread, run, run->cpu,
				     "kbench/%u");
	if (IS_ERR(task)) {
		err = PTR_ERR(task);
		goto out_clear_slot;
	}
	wake_up_process(task);
	cpus_read_unlock();

	if (wait_for_completion_killable(&run->done)) {
		atomic_cmpxchg(&run->abort, 0, -EINTR);
		wait_for_completion(&run->done);
	}
	return run->err;

out_clear_slot:
	spin_lock(&kbench_cpu_lock);
	per_cpu(kbench_cpu_run, run->cpu) = NULL;
	spin_unlock(&kbench_cpu_lock);
out_unlock_cpus:
	cpus_read_unlock();
	return err;
}

/* Abort the run on @cpu, if any, with @err and wait until it has ended. */
static void kbench_abort_cpu(unsigned int cpu, int err)
{
	struct kbench_run *run;

	spin_lock(&kbench_cpu_lock);
	run = per_cpu(kbench_cpu_run, cpu);
	if (run)
		atomic_cmpxchg(&run->abort, 0, err);
	spin_unlock(&kbench_cpu_lock);
	wait_event(kbench_cpu_wq, !READ_ONCE(per_cpu(kbench_cpu_run, cpu)));
}

/* Runs on @cpu as it goes offline: its run ends with -ENODEV. */
static int kbench_cpu_offline(unsigned int cpu)
{
	kbench_abort_cpu(cpu, -ENODEV);
	return 0;
}

/* Module exit: refuse new runs, end the running ones within one window. */
void kbench_abort_all(int err)
{
	unsigned int cpu;

	spin_lock(&kbench_cpu_lock);
	kbench_shutting_down = true;
	spin_unlock(&kbench_cpu_lock);
	for_each_possible_cpu(cpu)
		kbench_abort_cpu(cpu, err);
}

static void kbench_run_release(struct kref *ref)
{
	struct kbench_run *run = container_of(ref, struct kbench_run, ref);
	u32 i;

	for (i = 0; i < run->nr_series; i++) {
		kvfree(run->series[i].net);
		kvfree(run->series[i].flags);
	}
	kfree(run);
}

void kbench_run_put(struct kbench_run *run)
{
	if (run)
		kref_put(&run->ref, kbench_run_release);
}

/* Bytes a run of @nr_routines routines and @samples samples keeps. */
u64 kbench_run_bytes(u32 nr_routines, u32 samples)
{
	return sizeof(struct kbench_run) +
	       (u64)(nr_routines + 1) * samples * (sizeof(s64) + sizeof(u32));
}

struct kbench_run *kbench_run_alloc(u32 nr_routines, u32 samples)
{
	struct kbench_run *run;
	u32 i;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return NULL;
	kref_init(&run->ref);
	INIT_LIST_HEAD(&run->node);
	init_completion(&run->done);
	atomic_set(&run->abort, 0);
	run->nr_routines = nr_routines;
	run->nr_series = nr_routines + 1;
	run->samples = samples;
	run->mem_bytes = kbench_run_bytes(nr_routines, samples);
	do {
		run->id = atomic_inc_return(&kbench_next_id);
	} while (!run->id);

	for (i = 0; i < run->nr_series; i++) {
		struct kbench_series *s = &run->series[i];

		s->net = kvmalloc_array(samples, sizeof(*s->net), GFP_KERNEL);
		s->flags = kvcalloc(samples, sizeof(*s->flags), GFP_KERNEL);
		if (!s->net || !s->flags)
			goto out_free;
	}
	return run;

out_free:
	kbench_run_put(run);
	return NULL;
}

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
