// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_prims: the kernel's own primitives as kbench routines, so that
 * `kbenchctl baseline` can say what a spin_lock/unlock pair, an RCU
 * reader, a kmalloc+kfree or a jhash costs on this machine and this
 * kernel, with interrupts off.  kbench.ko stays lean: this companion is
 * loaded on demand (`modprobe kbench_prims`; kbenchctl baseline tries it).
 *
 * Every routine is named prim_* and its description says exactly what one
 * iteration does.  Each is legal with interrupts and preemption off on
 * the kernel it is built for: those that are not on PREEMPT_RT
 * (spinlock_t and rwlock_t sleep there; the slab and page allocators and
 * get_random_u*() take local locks that sleep) are not registered on
 * such a kernel, nor those whose code the kernel lacks (SRCU, CRC32 off):
 * kbenchctl names them as missing on this kernel.  The iterations are the
 * measurement: here, and only here, a window allocates and locks, which
 * is legal in atomic context for these calls on the other kernels.
 *
 * Which configuration changes a figure (lockdep, KASAN, preempt-rt) is
 * kept beside each row in kbenchctl's table (user/model/prims.c), and in
 * Documentation/kbench.rst, "Baselines of the kernel's primitives".
 */
#include <crypto/chacha.h>
#include <linux/atomic.h>
#include <linux/crc32.h>
#include <linux/gfp.h>
#include <linux/idr.h>
#include <linux/irqflags.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/kbench.h>
#include <linux/mm.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/string.h>
#include <linux/timex.h>
#include <linux/xarray.h>

#define KBENCH_PRIMS_SMALL	64
#define KBENCH_PRIMS_LARGE	4096	/* not PAGE_SIZE: the figure is named for it */

/* what the iterations work on, set up once at load */
static struct page *kbench_prims_src_page, *kbench_prims_dst_page;
static void *kbench_prims_src, *kbench_prims_dst;
static struct kmem_cache *kbench_prims_cache;
static DEFINE_XARRAY(kbench_prims_xa);
static DEFINE_IDR(kbench_prims_idr);
static siphash_key_t kbench_prims_sipkey;
/*
 * The locks, the atomic_t and the refcount_t are shared by every CPU:
 * `kbenchctl baseline --cpus` runs their routines on several CPUs at
 * once to contend them
 */
static DEFINE_RAW_SPINLOCK(kbench_prims_raw_lock);
#ifndef CONFIG_PREEMPT_RT
static DEFINE_SPINLOCK(kbench_prims_lock);
static DEFINE_RWLOCK(kbench_prims_rwlock);
#endif
/* 6.12 has no CONFIG_SRCU (SRCU always built): ask for either flavour */
#if IS_ENABLED(CONFIG_TREE_SRCU) || IS_ENABLED(CONFIG_TINY_SRCU)
#define KBENCH_PRIMS_HAVE_SRCU
DEFINE_STATIC_SRCU(kbench_prims_srcu);
#endif
static atomic_t kbench_prims_atomic;
static refcount_t kbench_prims_ref = REFCOUNT_INIT(1);
static DEFINE_PER_CPU(unsigned long, kbench_prims_pcpu);

/* results stay alive here, so that the compiler keeps the work */
static u64 kbench_prims_sink;

/*
 * One routine: @body is one iteration; barrier() after it keeps a call
 * on loop-invariant data (memcmp, a hash) from being hoisted out of the
 * loop.  @acc collects what the body returns.
 */
#define KBENCH_PRIM(name, body)						\
static noinline void kbench_prim_##name(unsigned int iterations,	\
					void *data)			\
{									\
	u64 acc = 0;							\
									\
	while (iterations--) {						\
		body;							\
		barrier();						\
	}								\
	WRITE_ONCE(kbench_prims_sink, acc);				\
}

/* locking */
#ifndef CONFIG_PREEMPT_RT
KBENCH_PRIM(spin_lock, spin_lock(&kbench_prims_lock); spin_unlock(&kbench_prims_lock))
KBENCH_PRIM(read_lock, read_lock(&kbench_prims_rwlock); read_unlock(&kbench_prims_rwlock))
#endif
KBENCH_PRIM(raw_spin_lock,
	    raw_spin_lock(&kbench_prims_raw_lock); raw_spin_unlock(&kbench_prims_raw_lock))

/* RCU and SRCU readers */
KBENCH_PRIM(rcu_read_lock, rcu_read_lock(); rcu_read_unlock())
KBENCH_PRIM(rcu_read_lock_sched, rcu_read_lock_sched(); rcu_read_unlock_sched())
#ifdef KBENCH_PRIMS_HAVE_SRCU
static __always_inline int kbench_prims_srcu_reader(void)
{
	int idx = srcu_read_lock(&kbench_prims_srcu);

	srcu_read_unlock(&kbench_prims_srcu, idx);
	return idx;
}

KBENCH_PRIM(srcu_read_lock, acc += kbench_prims_srcu_reader())
#endif

/* atomics and refcounts */
KBENCH_PRIM(atomic_inc, atomic_inc(&kbench_prims_atomic))
KBENCH_PRIM(atomic_add_return, acc += atomic_add_return(3, &kbench_prims_atomic))
KBENCH_PRIM(atomic_cmpxchg,
	    acc = atomic_read(&kbench_prims_atomic);
	    acc = atomic_cmpxchg(&kbench_prims_atomic, (int)acc, (int)acc + 1))
KBENCH_PRIM(refcount_inc_dec,
	    refcount_inc(&kbench_prims_ref); refcount_dec(&kbench_prims_ref))

/* per-CPU operations */
KBENCH_PRIM(this_cpu_inc, this_cpu_inc(kbench_prims_pcpu))
KBENCH_PRIM(this_cpu_add_return, acc += this_cpu_add_return(kbench_prims_pcpu, 3))

/* interrupt and preemption toggles (interrupts and preemption are off already) */
static __always_inline unsigned long kbench_prims_irq_save_restore(void)
{
	unsigned long flags;

	local_irq_save(flags);
	local_irq_restore(flags);
	return flags;
}

KBENCH_PRIM(local_irq_save, acc += kbench_prims_irq_save_restore())
KBENCH_PRIM(preempt_disable, preempt_disable(); preempt_enable())

/* barriers: each orders nothing here, the barrier itself is what is timed */
KBENCH_PRIM(smp_mb, smp_mb())
/* timed alone: the read barrier, with nothing to order */
KBENCH_PRIM(smp_rmb, smp_rmb())
/* timed alone: the write barrier, with nothing to order */
KBENCH_PRIM(smp_wmb, smp_wmb())

/* time */
KBENCH_PRIM(ktime_get, acc += ktime_to_ns(ktime_get()))
KBENCH_PRIM(ktime_get_ns, acc += ktime_get_ns())
KBENCH_PRIM(ktime_get_mono_fast_ns, acc += ktime_get_mono_fast_ns())
KBENCH_PRIM(local_clock, acc += local_clock())
KBENCH_PRIM(jiffies, acc += READ_ONCE(jiffies))
KBENCH_PRIM(get_cycles, acc += get_cycles())

/*
 * random numbers: get_random_u*() hand out a per-CPU batch of one and a
 * half ChaCha20 blocks (random.c) and refill it when it is used up, so a
 * call's cost depends on where the batch stood, which carries over from
 * whatever ran before.  One iteration takes a whole batch: every
 * iteration then holds exactly one refill wherever the batch began, and
 * two runs give the same figure (kbenchctl divides by the calls).
 */
#define KBENCH_PRIMS_RANDOM_BYTES	(CHACHA_BLOCK_SIZE * 3 / 2)
#define KBENCH_PRIMS_RANDOM_U32		(KBENCH_PRIMS_RANDOM_BYTES / sizeof(u32))
#define KBENCH_PRIMS_RANDOM_U64		(KBENCH_PRIMS_RANDOM_BYTES / sizeof(u64))
/* the descriptions and kbenchctl's table (user/model/prims.c) say these */
static_assert(KBENCH_PRIMS_RANDOM_U32 == 24);
static_assert(KBENCH_PRIMS_RANDOM_U64 == 12);
#ifndef CONFIG_PREEMPT_RT
static __always_inline u64 kbench_prims_random_u32_batch(void)
{
	unsigned int i;
	u64 acc = 0;

	for (i = 0; i < KBENCH_PRIMS_RANDOM_U32; i++)
		acc += get_random_u32();
	return acc;
}

static __always_inline u64 kbench_prims_random_u64_batch(void)
{
	unsigned int i;
	u64 acc = 0;

	for (i = 0; i < KBENCH_PRIMS_RANDOM_U64; i++)
		acc += get_random_u64();
	return acc;
}

KBENCH_PRIM(get_random_u32, acc += kbench_prims_random_u32_batch())
KBENCH_PRIM(get_random_u64, acc += kbench_prims_random_u64_batch())
#endif

/* allocation */
#ifndef CONFIG_PREEMPT_RT
static __always_inline unsigned long kbench_prims_kmalloc_kfree(void)
{
	void *p = kmalloc(KBENCH_PRIMS_SMALL, GFP_ATOMIC | __GFP_NOWARN);

	kfree(p);
	return (unsigned long)p;
}

static __always_inline unsigned long kbench_prims_cache_alloc_free(void)
{
	void *p = kmem_cache_alloc(kbench_prims_cache, GFP_ATOMIC | __GFP_NOWARN);

	if (p)
		kmem_cache_free(kbench_prims_cache, p);
	return (unsigned long)p;
}

static __always_inline unsigned long kbench_prims_page_alloc_free(void)
{
	struct page *pg = alloc_page(GFP_ATOMIC | __GFP_NOWARN);

	if (pg)
		__free_page(pg);
	return (unsigned long)pg;
}

KBENCH_PRIM(kmalloc_64, acc += kbench_prims_kmalloc_kfree())
KBENCH_PRIM(kmem_cache_alloc, acc += kbench_prims_cache_alloc_free())
KBENCH_PRIM(alloc_page, acc += kbench_prims_page_alloc_free())
#endif

/* hashing and CRC of 64 bytes */
KBENCH_PRIM(jhash_64, acc = jhash(kbench_prims_src, KBENCH_PRIMS_SMALL, (u32)acc))
#if IS_ENABLED(CONFIG_CRC32)
KBENCH_PRIM(crc32c_64, acc = __crc32c_le((u32)acc, kbench_prims_src, KBENCH_PRIMS_SMALL))
#endif
KBENCH_PRIM(siphash_64,
	    acc += siphash(kbench_prims_src, KBENCH_PRIMS_SMALL, &kbench_prims_sipkey))

/* copies and compares */
KBENCH_PRIM(memcpy_64, memcpy(kbench_prims_dst, kbench_prims_src, KBENCH_PRIMS_SMALL))
KBENCH_PRIM(memcpy_4096, memcpy(kbench_prims_dst, kbench_prims_src, KBENCH_PRIMS_LARGE))
KBENCH_PRIM(memcmp_64,
	    acc += memcmp(kbench_prims_dst, kbench_prims_src, KBENCH_PRIMS_SMALL))
KBENCH_PRIM(memcmp_4096,
	    acc += memcmp(kbench_prims_dst, kbench_prims_src, KBENCH_PRIMS_LARGE))
KBENCH_PRIM(copy_page, copy_page(kbench_prims_dst, kbench_prims_src))

/* lookups */
KBENCH_PRIM(xa_load, acc += (unsigned long)xa_load(&kbench_prims_xa, 1))
KBENCH_PRIM(idr_find, acc += (unsigned long)idr_find(&kbench_prims_idr, 1))

/* the tasks' side of a system call: what getpid() does in the kernel */
KBENCH_PRIM(task_tgid_vnr, acc += task_tgid_vnr(current))

#define KBENCH_PRIM_ROUTINE(n, d) { .name = "prim_" #n, .desc = d, .run = kbench_prim_##n }
#define KBENCH_PRIM_BYTES(n, d, b) \
	{ .name = "prim_" #n, .desc = d, .run = kbench_prim_##n, .bytes_per_iter = b }

static struct kbench_routine kbench_prims[] = {
#ifndef CONFIG_PREEMPT_RT
	KBENCH_PRIM_ROUTINE(spin_lock, "spin_lock() + spin_unlock() of an uncontended spinlock_t"),
	KBENCH_PRIM_ROUTINE(read_lock, "read_lock() + read_unlock() of an uncontended rwlock_t"),
#endif
	KBENCH_PRIM_ROUTINE(raw_spin_lock,
			    "raw_spin_lock() + raw_spin_unlock() of an uncontended raw_spinlock_t"),
	KBENCH_PRIM_ROUTINE(rcu_read_lock, "rcu_read_lock() + rcu_read_unlock()"),
	KBENCH_PRIM_ROUTINE(rcu_read_lock_sched,
			    "rcu_read_lock_sched() + rcu_read_unlock_sched()"),
#ifdef KBENCH_PRIMS_HAVE_SRCU
	KBENCH_PRIM_ROUTINE(srcu_read_lock,
			    "srcu_read_lock() + srcu_read_unlock() of a static srcu_struct"),
#endif
	KBENCH_PRIM_ROUTINE(atomic_inc, "atomic_inc() of an atomic_t"),
	KBENCH_PRIM_ROUTINE(atomic_add_return, "atomic_add_return(3) on an atomic_t"),
	KBENCH_PRIM_ROUTINE(atomic_cmpxchg,
			    "atomic_read() + a succeeding atomic_cmpxchg() to the value + 1"),
	KBENCH_PRIM_ROUTINE(refcount_inc_dec,
			    "refcount_inc() + refcount_dec() of a refcount_t at 1"),
	KBENCH_PRIM_ROUTINE(this_cpu_inc, "this_cpu_inc() of a per-CPU unsigned long"),
	KBENCH_PRIM_ROUTINE(this_cpu_add_return,
			    "this_cpu_add_return(3) on a per-CPU unsigned long"),
	KBENCH_PRIM_ROUTINE(local_irq_save,
			    "local_irq_save() + local_irq_restore() (interrupts stay off)"),
	KBENCH_PRIM_ROUTINE(preempt_disable,
			    "preempt_disable() + preempt_enable() (the count stays above 0)"),
	KBENCH_PRIM_ROUTINE(smp_mb, "smp_mb(): a full memory barrier"),
	KBENCH_PRIM_ROUTINE(smp_rmb, "smp_rmb(): a read barrier (a compiler barrier on x86)"),
	KBENCH_PRIM_ROUTINE(smp_wmb, "smp_wmb(): a write barrier (a compiler barrier on x86)"),
	KBENCH_PRIM_ROUTINE(ktime_get, "ktime_get(): the monotonic clock, as ktime_t"),
	KBENCH_PRIM_ROUTINE(ktime_get_ns, "ktime_get_ns(): the monotonic clock in ns"),
	KBENCH_PRIM_ROUTINE(ktime_get_mono_fast_ns,
			    "ktime_get_mono_fast_ns(): the NMI-safe monotonic clock"),
	KBENCH_PRIM_ROUTINE(local_clock, "local_clock(): the scheduler's CPU-local clock"),
	KBENCH_PRIM_ROUTINE(jiffies, "READ_ONCE(jiffies)"),
	KBENCH_PRIM_ROUTINE(get_cycles,
			    "get_cycles(): the CPU's counter (TSC, CNTVCT, timebase)"),
#ifndef CONFIG_PREEMPT_RT
	KBENCH_PRIM_ROUTINE(get_random_u32,
			    "24 get_random_u32() calls: one per-CPU batch, its refill included"),
	KBENCH_PRIM_ROUTINE(get_random_u64,
			    "12 get_random_u64() calls: one per-CPU batch, its refill included"),
	KBENCH_PRIM_ROUTINE(kmalloc_64, "kmalloc(64, GFP_ATOMIC) + kfree()"),
	KBENCH_PRIM_ROUTINE(kmem_cache_alloc,
			    "kmem_cache_alloc(GFP_ATOMIC) + kmem_cache_free() of a 64-byte cache"),
	KBENCH_PRIM_ROUTINE(alloc_page, "alloc_page(GFP_ATOMIC) + __free_page()"),
#endif
	KBENCH_PRIM_BYTES(jhash_64, "jhash() of 64 bytes", KBENCH_PRIMS_SMALL),
#if IS_ENABLED(CONFIG_CRC32)
	KBENCH_PRIM_BYTES(crc32c_64, "__crc32c_le() of 64 bytes", KBENCH_PRIMS_SMALL),
#endif
	KBENCH_PRIM_BYTES(siphash_64, "siphash() of 64 bytes", KBENCH_PRIMS_SMALL),
	KBENCH_PRIM_BYTES(memcpy_64, "memcpy() of 64 bytes, L1-resident", KBENCH_PRIMS_SMALL),
	KBENCH_PRIM_BYTES(memcpy_4096, "memcpy() of 4096 bytes, L1-resident",
			  KBENCH_PRIMS_LARGE),
	KBENCH_PRIM_BYTES(memcmp_64, "memcmp() of 64 equal bytes", KBENCH_PRIMS_SMALL),
	KBENCH_PRIM_BYTES(memcmp_4096, "memcmp() of 4096 equal bytes", KBENCH_PRIMS_LARGE),
	KBENCH_PRIM_BYTES(copy_page, "copy_page() of one page", PAGE_SIZE),
	KBENCH_PRIM_ROUTINE(xa_load, "xa_load() of index 1 of an xarray holding 1 entry"),
	KBENCH_PRIM_ROUTINE(idr_find, "idr_find() of id 1 of an IDR holding 1 entry"),
	KBENCH_PRIM_ROUTINE(task_tgid_vnr, "task_tgid_vnr(current): getpid()'s body"),
};

static void kbench_prims_free(void)
{
	idr_destroy(&kbench_prims_idr);
	xa_destroy(&kbench_prims_xa);
	kmem_cache_destroy(kbench_prims_cache);
	if (kbench_prims_dst_page)
		__free_page(kbench_prims_dst_page);
	if (kbench_prims_src_page)
		__free_page(kbench_prims_src_page);
}

static int __init kbench_prims_init(void)
{
	int err = -ENOMEM;

	/* copy_page() wants pages; the memcpy and memcmp rows use them too */
	kbench_prims_src_page = alloc_page(GFP_KERNEL);
	kbench_prims_dst_page = alloc_page(GFP_KERNEL);
	kbench_prims_cache = kmem_cache_create("kbench_prims_64", KBENCH_PRIMS_SMALL,
					       0, 0, NULL);
	if (!kbench_prims_src_page || !kbench_prims_dst_page || !kbench_prims_cache)
		goto out_free;
	kbench_prims_src = page_address(kbench_prims_src_page);
	kbench_prims_dst = page_address(kbench_prims_dst_page);
	/* fixed content: the figures do not depend on a load's random bytes */
	memset(kbench_prims_src, 0x5a, PAGE_SIZE);
	memset(kbench_prims_dst, 0x5a, PAGE_SIZE);
	kbench_prims_sipkey.key[0] = 0x0706050403020100ULL;
	kbench_prims_sipkey.key[1] = 0x0f0e0d0c0b0a0908ULL;

	err = xa_err(xa_store(&kbench_prims_xa, 1, kbench_prims_src, GFP_KERNEL));
	if (err)
		goto out_free;
	err = idr_alloc(&kbench_prims_idr, kbench_prims_src, 1, 2, GFP_KERNEL);
	if (err < 0)
		goto out_free;
	err = kbench_register_routines(kbench_prims, ARRAY_SIZE(kbench_prims));
	if (err)
		goto out_free;
	return 0;

out_free:
	kbench_prims_free();
	return err;
}
module_init(kbench_prims_init);

static void __exit kbench_prims_exit(void)
{
	kbench_unregister_routines(kbench_prims, ARRAY_SIZE(kbench_prims));
	kbench_prims_free();
}
module_exit(kbench_prims_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench: the kernel's own primitives as routines (kbenchctl baseline)");
