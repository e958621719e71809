// SPDX-License-Identifier: GPL-2.0
/*
 * The baseline suite's rows (prims.h): one line per primitive, written
 * once here.  What one iteration of each routine does is its own
 * description (kbench_prims.ko's, the twins' in uprims.c): kbenchctl
 * shows those, so they are not repeated here.
 */
#include <fnmatch.h>
#include <string.h>

#include "prims.h"

#define K(n)	KB_PRIMS_PREFIX #n

/* why a row is missing under PREEMPT_RT, and how to get it */
#define RT_SLEEPS(what)							\
	what " sleeps under PREEMPT_RT: not callable with interrupts off " \
	"(measure on a kernel without CONFIG_PREEMPT_RT)"

const struct kb_prim kb_prims[] = {
	/* locking, uncontended */
	{ "locking", "spin_lock", K(spin_lock), "u_mutex",
	  "lockdep (lock_acquire/release each call), DEBUG_SPINLOCK; PREEMPT_RT: an rt_mutex",
	  RT_SLEEPS("spinlock_t") },
	{ "locking", "raw_spin_lock", K(raw_spin_lock), "u_spinlock",
	  "lockdep, DEBUG_SPINLOCK; PREEMPT_RT: unchanged (raw locks spin)", NULL },
	{ "locking", "read_lock", K(read_lock), "u_rwlock_read",
	  "lockdep, DEBUG_SPINLOCK; PREEMPT_RT: an rwbase_rt lock",
	  RT_SLEEPS("rwlock_t") },
	/* RCU and SRCU readers */
	{ "rcu", "rcu_read_lock", K(rcu_read_lock), NULL,
	  "PREEMPT_RCU (preemptible and PREEMPT_RT kernels): a counter in the task, else preempt_disable(); lockdep (rcu_lock_map)",
	  NULL },
	{ "rcu", "rcu_read_lock_sched", K(rcu_read_lock_sched), NULL,
	  "preempt_disable()/enable(); lockdep (rcu_sched_lock_map)", NULL },
	{ "rcu", "srcu_read_lock", K(srcu_read_lock), NULL,
	  "TREE_SRCU vs TINY_SRCU; lockdep (the srcu_struct's dep_map)",
	  "SRCU is not built into this kernel (CONFIG_TREE_SRCU or CONFIG_TINY_SRCU off: a kernel with CONFIG_SRCU=y)" },
	/* atomics and refcounts */
	{ "atomics", "atomic_inc", K(atomic_inc), "u_atomic_inc",
	  "KASAN and KCSAN instrument every atomic", NULL },
	{ "atomics", "atomic_add_return", K(atomic_add_return), "u_atomic_add_return",
	  "KASAN and KCSAN instrument every atomic", NULL },
	{ "atomics", "atomic_cmpxchg", K(atomic_cmpxchg), "u_cmpxchg",
	  "KASAN and KCSAN instrument every atomic", NULL },
	{ "atomics", "refcount_inc_dec", K(refcount_inc_dec), NULL,
	  "saturation checks (always since 5.5); KASAN", NULL },
	/* per-CPU operations */
	{ "percpu", "this_cpu_inc", K(this_cpu_inc), NULL,
	  "x86: one %gs-prefixed add; other architectures: interrupts or preemption toggled around it",
	  NULL },
	{ "percpu", "this_cpu_add_return", K(this_cpu_add_return), NULL,
	  "x86: one %gs-prefixed xadd; other architectures: toggles around it", NULL },
	/* interrupt and preemption toggles */
	{ "toggles", "local_irq_save", K(local_irq_save), NULL,
	  "PARAVIRT (patched to native), TRACE_IRQFLAGS (lockdep's hardirq tracing)",
	  NULL },
	{ "toggles", "preempt_disable", K(preempt_disable), NULL,
	  "PREEMPT_COUNT (nothing without it), DEBUG_PREEMPT, PREEMPT_TRACER", NULL },
	/* barriers */
	{ "barriers", "smp_mb", K(smp_mb), "u_fence",
	  "x86: a locked add on the stack; arm64: dmb ish; !SMP: a compiler barrier", NULL },
	{ "barriers", "smp_rmb", K(smp_rmb), NULL,
	  "x86: a compiler barrier (no instruction); arm64: dmb ishld", NULL },
	{ "barriers", "smp_wmb", K(smp_wmb), NULL,
	  "x86: a compiler barrier (no instruction); arm64: dmb ishst", NULL },
	/* time */
	{ "time", "ktime_get", K(ktime_get), "u_clock_gettime",
	  "the clocksource (tsc, kvm-clock, hpet), the seqcount; DEBUG_TIMEKEEPING", NULL },
	{ "time", "ktime_get_ns", K(ktime_get_ns), NULL,
	  "the clocksource, the seqcount; DEBUG_TIMEKEEPING", NULL },
	{ "time", "ktime_get_mono_fast_ns", K(ktime_get_mono_fast_ns), NULL,
	  "the clocksource; a latch instead of the seqcount", NULL },
	{ "time", "local_clock", K(local_clock), NULL,
	  "sched_clock: a stable TSC reads it directly, else sched_clock_cpu()'s corrections; PARAVIRT (kvm's sched_clock)",
	  NULL },
	{ "time", "jiffies", K(jiffies), "u_clock_gettime_coarse",
	  "none: one load", NULL },
	{ "time", "get_cycles", K(get_cycles), "u_counter_read",
	  "the architecture: rdtsc (x86), cntvct (arm64), mftb (powerpc)", NULL },
	/* random numbers */
	/*
	 * kbench_prims takes one whole per-CPU batch per iteration (24 u32,
	 * 12 u64: one and a half ChaCha20 blocks), so that every iteration
	 * holds one refill and two runs agree; the row is per call
	 * (kb_prim_kernel_calls())
	 */
	{ "random", "get_random_u32", K(get_random_u32), "u_getrandom_u32",
	  "ChaCha20 refills the per-CPU batch every 24 (u32) calls, the figure includes its share; PREEMPT_RT: a local lock",
	  RT_SLEEPS("get_random_u32()'s local lock") },
	{ "random", "get_random_u64", K(get_random_u64), "u_getrandom_u64",
	  "ChaCha20 refills the per-CPU batch every 12 (u64) calls, the figure includes its share; PREEMPT_RT: a local lock",
	  RT_SLEEPS("get_random_u64()'s local lock") },
	/* allocation */
	{ "alloc", "kmalloc_64", K(kmalloc_64), "u_malloc_64",
	  "init_on_alloc/init_on_free (Debian: init_on_alloc=1 zeroes each object), KASAN (redzones, quarantine), slub_debug",
	  RT_SLEEPS("the slab allocator's per-CPU lock") },
	{ "alloc", "kmem_cache_alloc", K(kmem_cache_alloc), NULL,
	  "init_on_alloc/init_on_free, KASAN, slub_debug",
	  RT_SLEEPS("the slab allocator's per-CPU lock") },
	{ "alloc", "alloc_page", K(alloc_page), NULL,
	  "init_on_alloc (zeroes the page each call), the per-CPU page lists, KASAN, page_owner, DEBUG_PAGEALLOC",
	  RT_SLEEPS("the page allocator's zone lock") },
	/* hashing and CRC of 64 bytes */
	{ "hash", "jhash_64", K(jhash_64), "u_jhash_64",
	  "none (an inline function): the compiler only", NULL },
	{ "hash", "crc32c_64", K(crc32c_64), NULL,
	  "the CRC32 implementation (CRC32_SLICEBY8 and the others); KASAN",
	  "CONFIG_CRC32 is off on this kernel (a kernel with CONFIG_CRC32=y)" },
	{ "hash", "siphash_64", K(siphash_64), NULL,
	  "none but the compiler; the aligned path with HAVE_EFFICIENT_UNALIGNED_ACCESS", NULL },
	/* copies and compares */
	{ "copy", "memcpy_64", K(memcpy_64), "u_memcpy_64",
	  "x86: the CPU's features pick rep movsb or moves (FSRM, ERMS alternatives); KASAN checks both ranges",
	  NULL },
	{ "copy", "memcpy_4096", K(memcpy_4096), "u_memcpy_4096",
	  "x86: FSRM/ERMS alternatives; KASAN", NULL },
	{ "copy", "memcmp_64", K(memcmp_64), "u_memcmp_64",
	  "lib/string.c's byte loop on x86_64; KASAN", NULL },
	{ "copy", "memcmp_4096", K(memcmp_4096), "u_memcmp_4096",
	  "lib/string.c's byte loop on x86_64; KASAN", NULL },
	{ "copy", "copy_page", K(copy_page), NULL,
	  "x86: rep movsq or unrolled moves by the CPU's features; KMSAN", NULL },
	/* lookups */
	{ "lookup", "xa_load", K(xa_load), NULL,
	  "an RCU reader inside (PREEMPT_RCU); PROVE_RCU", NULL },
	{ "lookup", "idr_find", K(idr_find), NULL,
	  "the radix tree of xa_load; PROVE_RCU's checks", NULL },
	/* system calls: the kernel row is the body, the userspace row the whole call */
	{ "syscall", "getpid", K(task_tgid_vnr), "u_getpid",
	  "userspace: the entry and exit (PTI, return thunks and other mitigations, audit, seccomp)",
	  NULL },
	{ "syscall", "futex_wake", NULL, "u_futex_wake",
	  "userspace only: the futex hash lookup behind the system call", NULL },
};

const size_t kb_prims_n = sizeof(kb_prims) / sizeof(kb_prims[0]);

static bool glob_one(const char *pat, const struct kb_prim *p)
{
	return !fnmatch(pat, p->name, 0) || !fnmatch(pat, p->category, 0) ||
	       (p->kernel && !fnmatch(pat, p->kernel, 0)) ||
	       (p->user && !fnmatch(pat, p->user, 0));
}

bool kb_prim_match(const struct kb_prim *p, const char *pattern)
{
	char pat[128];
	const char *s, *e;
	size_t len;

	if (!pattern || !*pattern)
		return true;
	for (s = pattern; *s; s = *e ? e + 1 : e) {
		e = strchr(s, ',');
		if (!e)
			e = s + strlen(s);
		len = (size_t)(e - s);
		if (!len || len >= sizeof(pat))
			continue;
		memcpy(pat, s, len);
		pat[len] = '\0';
		if (glob_one(pat, p))
			return true;
	}
	return false;
}

size_t kb_prim_categories(const char **out, size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < kb_prims_n; i++) {
		for (j = 0; j < n; j++)
			if (!strcmp(out[j], kb_prims[i].category))
				break;
		if (j == n && n < max)
			out[n++] = kb_prims[i].category;
	}
	return n;
}

unsigned int kb_prim_kernel_calls(const struct kb_prim *p)
{
	/* kbench_prims.c's KBENCH_PRIMS_RANDOM_U32 and _U64 */
	if (!strcmp(p->name, "get_random_u32"))
		return 24;
	if (!strcmp(p->name, "get_random_u64"))
		return 12;
	return 1;
}

bool kb_prim_contended(const struct kb_prim *p)
{
	return !strcmp(p->category, "locking") || !strcmp(p->category, "atomics");
}
