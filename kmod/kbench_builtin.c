// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the built-in routines.
 *
 * Instructions per iteration (what -icount shift=0 reports exactly):
 *   empty      2   the loop alone (dec; jnz): the overhead routine
 *   add_chain  6   4 dependent adds + loop
 *   mul_chain  6   4 dependent imuls + loop
 *   load_l1    6   4 dependent loads through a 512-byte ring + loop
 *   ktime_get  -   one ktime_get_ns() per iteration (clocksource dependent)
 *   rdtsc      -   one ordered counter read per iteration (compiler loop)
 *   core_cal   add_n's body at KBENCH_CORE_LO_ADDS adds: the short chain of
 *              the core-cycle calibration (kbenchctl --unit core)
 * and those that take an argument:
 *   add_n      arg + 2 (arm64: arg + 3)  arg dependent adds + loop
 *   memcpy     -   one memcpy() of arg bytes (the kernel's memcpy)
 *   memset     -   one memset() of arg bytes
 *   chase      3   one dependent load through a random cycle of arg bytes
 *                  of cache lines + loop (lmbench's lat_mem_rd)
 * empty, add_chain, mul_chain, load_l1 and add_n share their bodies with
 * kbenchctl's userspace twins (include/kbench/bodies.h).
 *
 * memcpy, memset and chase allocate their buffers in setup, all runs
 * together within the setup_bytes_max parameter.
 *
 * Contention, for concurrent runs (the RUN's cpus; on one CPU they are
 * the uncontended cost): shared data set up once per run
 * (setup_shared), per-CPU data by each CPU's setup:
 *   atomic_shared   atomic_long_inc() of one counter every CPU increments
 *   atomic_percpu   this_cpu_inc() of a per-CPU counter (alloc_percpu())
 *   spin_shared     raw_spin_lock() + raw_spin_unlock() of one lock
 *   spin_percpu     the same of a lock of each CPU's own
 *   rcu_read        rcu_read_lock() + rcu_read_unlock() (refscale's
 *                   basic reader op)
 *   pingpong        a store to the CPU's own u16 of one shared cache line:
 *                   the line bounces between the CPUs, no CPU ever waits
 *                   for another
 * The locks are raw spinlocks: windows have interrupts off, and a
 * spinlock_t sleeps on PREEMPT_RT.  Each shared line or lock is a page of
 * its own (no false sharing with anything else).
 */
#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#ifdef CONFIG_X86_64
#include <linux/cpufeature.h>
#include <asm/nospec-branch.h>
/* add_n's indirect jump targets its own block (include/kbench/bodies.h) */
#define KBENCH_BODY_INDIRECT_OK	ANNOTATE_RETPOLINE_SAFE
#endif
#include <kbench/bodies.h>

#include "kbench_internal.h"

static void *kbench_l1_ring[KBENCH_L1_RING_WORDS] ____cacheline_aligned;

#ifdef CONFIG_ARM64
#define KBENCH_ADD_N_DESC "arg dependent adds: arg + 3 instructions per iteration"
#else
#define KBENCH_ADD_N_DESC "arg dependent adds: arg + 2 instructions per iteration"
#endif

static void kbench_run_empty(unsigned int n, void *data)
{
	kbench_body_empty(n);
}

static void kbench_run_add_chain(unsigned int n, void *data)
{
	kbench_body_add_chain(n);
}

static void kbench_run_mul_chain(unsigned int n, void *data)
{
	kbench_body_mul_chain(n);
}

static void kbench_run_load_l1(unsigned int n, void *data)
{
	kbench_body_load_l1(n, data);
}

static void kbench_run_ktime_get(unsigned int n, void *data)
{
	while (n--)
		(void)ktime_get_ns();
}

static void kbench_run_rdtsc(unsigned int n, void *data)
{
	while (n--)
		(void)kbench_ctr_read();
}

/* ---- add_n: arg dependent adds ----------------------------------------- */

static void kbench_run_add_n(unsigned int n, void *data)
{
	kbench_body_add_n(n, (unsigned long)data);
}

#ifdef CONFIG_X86_64
static bool kbench_add_n_endbr;
module_param_named(add_n_endbr, kbench_add_n_endbr, bool, 0444);
MODULE_PARM_DESC(add_n_endbr,
		 "add_n with an ENDBR64 before every add: 2 x arg + 2 instructions (set where kernel IBT is enforced)");

static void kbench_run_add_n_endbr(unsigned int n, void *data)
{
	kbench_body_add_n_endbr(n, (unsigned long)data);
}
#endif

/* The argument is all add_n needs: it travels as run()'s data. */
static int kbench_add_n_setup(u64 arg, void **data)
{
	*data = (void *)(unsigned long)arg;
	return 0;
}

/* ---- memory for the setups of memcpy, memset and chase ------------------ */

static atomic_long_t kbench_setup_used = ATOMIC_LONG_INIT(0);

u64 kbench_builtin_setup_bytes(void)
{
	return atomic_long_read(&kbench_setup_used);
}

/*
 * @size bytes for a built-in routine's run, or an ERR_PTR with the reason
 * in @s->msg: -E2BIG above setup_bytes_max (all runs together), -ENOMEM
 * above half the memory available or when the allocation fails; it never
 * waits for the OOM killer or warns.
 */
static void *kbench_setup_alloc(struct kbench_setup *s, size_t size)
{
	unsigned long avail = (unsigned long)si_mem_available() << PAGE_SHIFT;
	long used = atomic_long_add_return(size, &kbench_setup_used);
	void *p;

	if ((unsigned long)used > kbench_setup_bytes_max) {
		scnprintf(s->msg, sizeof(s->msg),
			  "%zu bytes: above setup_bytes_max %lu (%ld in use)",
			  size, kbench_setup_bytes_max, used - (long)size);
		p = ERR_PTR(-E2BIG);
	} else if (size > avail / 2) {
		scnprintf(s->msg, sizeof(s->msg),
			  "%zu bytes: more than half the %lu MiB available",
			  size, avail >> 20);
		p = ERR_PTR(-ENOMEM);
	} else {
		p = kvmalloc(size, GFP_KERNEL | __GFP_RETRY_MAYFAIL |
			     __GFP_NOWARN);
		if (p)
			return p;
		scnprintf(s->msg, sizeof(s->msg), "cannot allocate %zu bytes",
			  size);
		p = ERR_PTR(-ENOMEM);
	}
	atomic_long_sub(size, &kbench_setup_used);
	return p;
}

static void kbench_setup_free(void *p, size_t size)
{
	kvfree(p);
	atomic_long_sub(size, &kbench_setup_used);
}

/* ---- memcpy and memset: arg bytes per iteration -------------------------- */

/* One allocation: this header, then the buffers, each line-aligned. */
struct kbench_mem {
	size_t size;			/* of the allocation */
	size_t len;			/* the argument */
	void *dst, *src;
};

static int kbench_mem_setup(struct kbench_setup *s, unsigned int nbufs)
{
	size_t len = s->arg, stride = ALIGN(len, L1_CACHE_BYTES);
	size_t size = L1_CACHE_BYTES + nbufs * stride;
	struct kbench_mem *m;

	m = kbench_setup_alloc(s, size);
	if (IS_ERR(m))
		return PTR_ERR(m);
	m->size = size;
	m->len = len;
	m->dst = (char *)m + L1_CACHE_BYTES;
	m->src = nbufs > 1 ? (char *)m->dst + stride : NULL;
	memset(m->dst, 0, len);
	if (m->src)
		memset(m->src, 0x5a, len);
	s->data = m;
	s->bytes_per_iter = len;
	return 0;
}

static int kbench_memcpy_setup(struct kbench_setup *s)
{
	return kbench_mem_setup(s, 2);
}

static int kbench_memset_setup(struct kbench_setup *s)
{
	return kbench_mem_setup(s, 1);
}

static void kbench_mem_teardown(void *data)
{
	struct kbench_mem *m = data;

	kbench_setup_free(m, m->size);
}

/* The empty asm: each copy's result is used, none can be merged or dropped. */
static void kbench_run_memcpy(unsigned int n, void *data)
{
	struct kbench_mem *m = data;

	while (n--) {
		memcpy(m->dst, m->src, m->len);
		asm volatile("" : : "r" (m->dst) : "memory");
	}
}

static void kbench_run_memset(unsigned int n, void *data)
{
	struct kbench_mem *m = data;

	while (n--) {
		memset(m->dst, n, m->len);
		asm volatile("" : : "r" (m->dst) : "memory");
	}
}

/* ---- chase: dependent loads through arg bytes of cache lines ------------- */

#define KBENCH_CHASE_SEED	0x6b62656e6368ULL	/* the same cycle every run */

/* A run's chase: the lines (counted in setup_bytes_max) and the position. */
struct kbench_chase {
	size_t size;			/* of the lines */
	void *lines;
	void *cur;			/* where the last call stopped */
};

/*
 * A random cyclic permutation of the lines (Sattolo's algorithm: one cycle
 * through all of them), so that neither the prefetchers nor the TLB see a
 * pattern, with the first word of each line pointing to the next.  The
 * indices are shuffled in place in those words, then turned into pointers.
 */
static void kbench_chase_link(char *lines, size_t n)
{
	struct rnd_state rnd;
	unsigned long *w, t;
	size_t i, j;

	prandom_seed_state(&rnd, KBENCH_CHASE_SEED);
	for (i = 0; i < n; i++)
		*(unsigned long *)(lines + i * L1_CACHE_BYTES) = i;
	for (i = n - 1; i > 0; i--) {
		j = (size_t)(((u64)prandom_u32_state(&rnd) * i) >> 32);
		w = (unsigned long *)(lines + i * L1_CACHE_BYTES);
		t = *w;
		*w = *(unsigned long *)(lines + j * L1_CACHE_BYTES);
		*(unsigned long *)(lines + j * L1_CACHE_BYTES) = t;
		if (!(i & 0xffff))
			cond_resched();
	}
	for (i = 0; i < n; i++) {
		w = (unsigned long *)(lines + i * L1_CACHE_BYTES);
		*w = (unsigned long)(lines + *w * L1_CACHE_BYTES);
	}
}

static int kbench_chase_setup(struct kbench_setup *s)
{
	size_t n = s->arg / L1_CACHE_BYTES;
	struct kbench_chase *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->size = n * L1_CACHE_BYTES;
	c->lines = kbench_setup_alloc(s, c->size);
	if (IS_ERR(c->lines)) {
		int err = PTR_ERR(c->lines);

		kfree(c);
		return err;
	}
	kbench_chase_link(c->lines, n);
	c->cur = c->lines;
	s->data = c;
	return 0;
}

static void kbench_chase_teardown(void *data)
{
	struct kbench_chase *c = data;

	kbench_setup_free(c->lines, c->size);
	kfree(c);
}

/* Each call goes on where the last one stopped: the lines stay cold. */
static void kbench_run_chase(unsigned int n, void *data)
{
	struct kbench_chase *c = data;

	c->cur = kbench_body_chase(n, c->cur);
}

/* A zeroed page for shared data or a CPU's own lock: nothing else on it. */
static int kbench_page_setup(struct kbench_setup *s)
{
	s->data = (void *)get_zeroed_page(GFP_KERNEL);
	return s->data ? 0 : -ENOMEM;
}

static void kbench_page_teardown(void *data)
{
	free_page((unsigned long)data);
}

static void kbench_run_atomic_shared(unsigned int n, void *data)
{
	atomic_long_t *v = data;

	while (n--)
		atomic_long_inc(v);
}

static int kbench_percpu_setup(struct kbench_setup *s)
{
	long __percpu *v = alloc_percpu(long);

	if (!v)
		return -ENOMEM;
	s->data = (void __force *)v;
	return 0;
}

static void kbench_percpu_teardown(void *data)
{
	free_percpu((long __percpu __force *)data);
}

static void kbench_run_atomic_percpu(unsigned int n, void *data)
{
	long __percpu *v = (long __percpu __force *)data;

	while (n--)
		this_cpu_inc(*v);
}

static int kbench_lock_setup(struct kbench_setup *s)
{
	int err = kbench_page_setup(s);

	if (!err)
		raw_spin_lock_init((raw_spinlock_t *)s->data);
	return err;
}

static void kbench_run_spin(unsigned int n, void *data)
{
	raw_spinlock_t *lock = data;

	while (n--) {
		raw_spin_lock(lock);
		raw_spin_unlock(lock);
	}
}

static void kbench_run_rcu_read(unsigned int n, void *data)
{
	while (n--) {
		rcu_read_lock();
		rcu_read_unlock();
	}
}

/* Each CPU its own u16 of the shared line: 32 of them in 64 bytes. */
static int kbench_pingpong_setup(struct kbench_setup *s)
{
	u16 *line = s->shared;

	if (!line)
		return -EINVAL;
	s->data = line + s->index % (L1_CACHE_BYTES / sizeof(*line));
	return 0;
}

static void kbench_run_pingpong(unsigned int n, void *data)
{
	u16 *word = data;

	while (n--)
		WRITE_ONCE(*word, (u16)n);
}

struct kbench_routine kbench_builtin_empty = {
	.name = "empty",
	.desc = "the loop alone: 2 instructions per iteration (overhead)",
	.run = kbench_run_empty,
	.flags = KBENCH_ROUTINE_F_USER_TWIN,
};

static struct kbench_routine kbench_builtins[] = {
	{
		.name = "add_chain",
		.desc = "4 dependent register adds: 6 instructions per iteration",
		.run = kbench_run_add_chain,
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
	},
	{
		.name = "mul_chain",
		.desc = "4 dependent multiplies: 6 instructions per iteration",
		.run = kbench_run_mul_chain,
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
	},
	{
		.name = "load_l1",
		.desc = "4 dependent loads in an L1-resident ring: 6 instructions per iteration",
		.run = kbench_run_load_l1,
		.data = kbench_l1_ring,
		.bytes_per_iter = 4 * sizeof(void *),
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
	},
	{
		.name = "ktime_get",
		.desc = "one ktime_get_ns() per iteration",
		.run = kbench_run_ktime_get,
	},
	{
		.name = "rdtsc",
		.desc = "one ordered counter read per iteration",
		.run = kbench_run_rdtsc,
	},
	{
		.name = "core_cal",
		.desc = KBENCH_STR(KBENCH_CORE_LO_ADDS)
			" dependent adds in add_n's loop (core-cycle calibration)",
		.run = kbench_run_add_n,
		.data = (void *)KBENCH_CORE_LO_ADDS,
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
	},
	{
		.name = "add_n",
		.desc = KBENCH_ADD_N_DESC,
		.run = kbench_run_add_n,
		.arg = { .name = "adds", .min = 1, .max = KBENCH_ADD_N_MAX,
			 .def = KBENCH_CORE_HI_ADDS },
		.setup = kbench_add_n_setup,
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
	},
	{
		.name = "memcpy",
		.desc = "memcpy() of arg bytes",
		.run = kbench_run_memcpy,
		.arg = { .name = "bytes", .min = 1, .max = SZ_1M, .def = 4096 },
		.setup_ctx = kbench_memcpy_setup,
		.teardown = kbench_mem_teardown,
	},
	{
		.name = "memset",
		.desc = "memset() of arg bytes",
		.run = kbench_run_memset,
		.arg = { .name = "bytes", .min = 1, .max = SZ_1M, .def = 4096 },
		.setup_ctx = kbench_memset_setup,
		.teardown = kbench_mem_teardown,
	},
	{
		.name = "chase",
		.desc = "dependent loads, a random cycle through arg bytes of cache lines",
		.run = kbench_run_chase,
		.arg = { .name = "bytes", .min = SZ_4K, .max = SZ_256M,
			 .def = SZ_1M },
		.setup_ctx = kbench_chase_setup,
		.teardown = kbench_chase_teardown,
	},
	{
		.name = "atomic_shared",
		.desc = "atomic_long_inc() of one counter all CPUs of the run share",
		.run = kbench_run_atomic_shared,
		/* the twin's body: one locked increment of one shared long */
		.flags = KBENCH_ROUTINE_F_USER_TWIN,
		.setup_shared = kbench_page_setup,
		.teardown_shared = kbench_page_teardown,
	},
	{
		.name = "atomic_percpu",
		.desc = "this_cpu_inc() of a per-CPU counter",
		.run = kbench_run_atomic_percpu,
		.setup_shared = kbench_percpu_setup,
		.teardown_shared = kbench_percpu_teardown,
	},
	{
		.name = "spin_shared",
		.desc = "raw_spin_lock() + unlock of one lock all CPUs of the run share",
		.run = kbench_run_spin,
		.setup_shared = kbench_lock_setup,
		.teardown_shared = kbench_page_teardown,
	},
	{
		.name = "spin_percpu",
		.desc = "raw_spin_lock() + unlock of a lock of the CPU's own",
		.run = kbench_run_spin,
		.setup_ctx = kbench_lock_setup,
		.teardown = kbench_page_teardown,
	},
	{
		.name = "rcu_read",
		.desc = "rcu_read_lock() + rcu_read_unlock() (refscale's reader)",
		.run = kbench_run_rcu_read,
	},
	{
		.name = "pingpong",
		.desc = "a store to the CPU's own word of one shared cache line",
		.run = kbench_run_pingpong,
		.setup_shared = kbench_page_setup,
		.teardown_shared = kbench_page_teardown,
		.setup_ctx = kbench_pingpong_setup,
	},
};

/*
 * Where the kernel enforces IBT, an indirect jump must land on an ENDBR64
 * (else a control-protection fault): add_n then runs the block with one
 * before every add, whatever add_n_endbr says.
 */
static void kbench_add_n_select(struct kbench_routine *r)
{
#ifdef CONFIG_X86_64
	if (cpu_feature_enabled(X86_FEATURE_IBT))
		kbench_add_n_endbr = true;
	if (kbench_add_n_endbr) {
		r->run = kbench_run_add_n_endbr;
		if (r->arg.name)
			r->desc = "arg adds, each after an ENDBR64: 2 x arg + 2 instructions";
		r->flags &= ~KBENCH_ROUTINE_F_USER_TWIN;
	}
#endif
}

int kbench_builtin_init(void)
{
	unsigned int i;
	int err;

	BUILD_BUG_ON(sizeof(struct kbench_mem) > L1_CACHE_BYTES);
	kbench_body_load_l1_ring_init(kbench_l1_ring);
	for (i = 0; i < ARRAY_SIZE(kbench_builtins); i++)
		if (kbench_builtins[i].run == kbench_run_add_n)
			kbench_add_n_select(&kbench_builtins[i]);

	err = kbench_register_routine(&kbench_builtin_empty);
	if (err)
		return err;
	err = kbench_register_routines(kbench_builtins,
				       ARRAY_SIZE(kbench_builtins));
	if (err)
		kbench_unregister_routine(&kbench_builtin_empty);
	return err;
}

void kbench_builtin_exit(void)
{
	kbench_unregister_routines(kbench_builtins, ARRAY_SIZE(kbench_builtins));
	kbench_unregister_routine(&kbench_builtin_empty);
	/* every run has ended and torn down: nothing may be left */
	WARN(kbench_builtin_setup_bytes(),
	     "kbench: %llu bytes of setup memory never freed\n",
	     kbench_builtin_setup_bytes());
}
