// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace counterparts of the kernel's primitives (the u_* twins of
 * kbenchctl baseline --user, prims.c pairs each with its kernel row):
 * timed by libkbench like every twin, with interrupts and scheduling on.
 * Each body keeps its result alive (an empty asm that takes it, or a
 * memory clobber), so that the compiler cannot drop or hoist the call.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/random.h>
#include <sys/syscall.h>

#include <kbench/bodies.h>

#include "uprims.h"

#define UPRIM_SMALL	64
#define UPRIM_LARGE	4096

/* keep @v, and make the compiler assume memory changed */
#define UPRIM_KEEP(v)	__asm__ __volatile__("" : : "r"(v) : "memory")

static unsigned char uprim_src[UPRIM_LARGE] __attribute__((aligned(64)));
static unsigned char uprim_dst[UPRIM_LARGE] __attribute__((aligned(64)));
/*
 * The locks and the atomic are one for every thread: baseline --cpus
 * --user runs their twins on several CPUs at once to contend them
 */
static pthread_mutex_t uprim_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t uprim_rwlock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t uprim_spin;
static pthread_once_t uprim_spin_once = PTHREAD_ONCE_INIT;
static unsigned int uprim_atomic;
static unsigned int uprim_futex_word;

static void uprim_getpid(unsigned int n, void *data)
{
	(void)data;
	/* the system call itself: glibc no longer caches getpid() */
	while (n--)
		UPRIM_KEEP(syscall(SYS_getpid));
}

static void uprim_clock(unsigned int n, clockid_t id)
{
	struct timespec ts;

	while (n--) {
		clock_gettime(id, &ts);
		UPRIM_KEEP(ts.tv_nsec);
	}
}

static void uprim_clock_gettime(unsigned int n, void *data)
{
	(void)data;
	uprim_clock(n, CLOCK_MONOTONIC);
}

static void uprim_clock_gettime_coarse(unsigned int n, void *data)
{
	(void)data;
	uprim_clock(n, CLOCK_MONOTONIC_COARSE);
}

static void uprim_mutex_pair(unsigned int n, void *data)
{
	(void)data;
	while (n--) {
		pthread_mutex_lock(&uprim_mutex);
		pthread_mutex_unlock(&uprim_mutex);
	}
}

static void uprim_spin_init(void)
{
	pthread_spin_init(&uprim_spin, PTHREAD_PROCESS_PRIVATE);
}

static void uprim_spinlock(unsigned int n, void *data)
{
	(void)data;
	pthread_once(&uprim_spin_once, uprim_spin_init);
	while (n--) {
		pthread_spin_lock(&uprim_spin);
		pthread_spin_unlock(&uprim_spin);
	}
}

static void uprim_rwlock_read(unsigned int n, void *data)
{
	(void)data;
	while (n--) {
		pthread_rwlock_rdlock(&uprim_rwlock);
		pthread_rwlock_unlock(&uprim_rwlock);
	}
}

static void uprim_futex_wake(unsigned int n, void *data)
{
	(void)data;
	while (n--)
		UPRIM_KEEP(syscall(SYS_futex, &uprim_futex_word,
				   FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
}

static void uprim_malloc_64(unsigned int n, void *data)
{
	(void)data;
	while (n--) {
		void *p = malloc(UPRIM_SMALL);

		UPRIM_KEEP(p);
		free(p);
	}
}

static void uprim_getrandom(unsigned int n, size_t bytes)
{
	uint64_t v;

	while (n--) {
		UPRIM_KEEP(getrandom(&v, bytes, 0));
		UPRIM_KEEP(v);
	}
}

static void uprim_getrandom_u32(unsigned int n, void *data)
{
	(void)data;
	uprim_getrandom(n, sizeof(uint32_t));
}

static void uprim_getrandom_u64(unsigned int n, void *data)
{
	(void)data;
	uprim_getrandom(n, sizeof(uint64_t));
}

static void uprim_atomic_inc(unsigned int n, void *data)
{
	(void)data;
	while (n--)
		__atomic_fetch_add(&uprim_atomic, 1, __ATOMIC_SEQ_CST);
}

static void uprim_atomic_add_return(unsigned int n, void *data)
{
	(void)data;
	while (n--)
		UPRIM_KEEP(__atomic_add_fetch(&uprim_atomic, 3, __ATOMIC_SEQ_CST));
}

static void uprim_cmpxchg(unsigned int n, void *data)
{
	(void)data;
	while (n--) {
		unsigned int old = __atomic_load_n(&uprim_atomic, __ATOMIC_RELAXED);

		UPRIM_KEEP(__atomic_compare_exchange_n(&uprim_atomic, &old, old + 1,
						       false, __ATOMIC_SEQ_CST,
						       __ATOMIC_SEQ_CST));
	}
}

static void uprim_fence(unsigned int n, void *data)
{
	(void)data;
	while (n--)
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline uint64_t uprim_counter(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#elif defined(__powerpc64__)
	return __builtin_ppc_get_timebase();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_nsec;
#endif
}

static void uprim_counter_read(unsigned int n, void *data)
{
	(void)data;
	while (n--)
		UPRIM_KEEP(uprim_counter());
}

static void uprim_memcpy_64(unsigned int n, void *data)
{
	(void)data;
	while (n--) {
		memcpy(uprim_dst, uprim_src, UPRIM_SMALL);
		UPRIM_KEEP(uprim_dst);
	}
}

static void uprim_memcpy_4096(unsigned int n, void *data)
{
	(void)data;
	while (n--) {
		memcpy(uprim_dst, uprim_src, UPRIM_LARGE);
		UPRIM_KEEP(uprim_dst);
	}
}

static void uprim_memcmp_64(unsigned int n, void *data)
{
	(void)data;
	while (n--)
		UPRIM_KEEP(memcmp(uprim_dst, uprim_src, UPRIM_SMALL));
}

static void uprim_memcmp_4096(unsigned int n, void *data)
{
	(void)data;
	while (n--)
		UPRIM_KEEP(memcmp(uprim_dst, uprim_src, UPRIM_LARGE));
}

static void uprim_jhash_64(unsigned int n, void *data)
{
	unsigned int h = 0;

	(void)data;
	while (n--) {
		h = kbench_jhash64(uprim_src, h);
		UPRIM_KEEP(h);
	}
}

const struct kb_twin kb_uprims[] = {
	{ .name = "u_getpid", .desc = "syscall(SYS_getpid): a system call that does almost nothing",
	  .run = uprim_getpid },
	{ .name = "u_clock_gettime", .desc = "clock_gettime(CLOCK_MONOTONIC) through the vDSO",
	  .run = uprim_clock_gettime },
	{ .name = "u_clock_gettime_coarse",
	  .desc = "clock_gettime(CLOCK_MONOTONIC_COARSE) through the vDSO",
	  .run = uprim_clock_gettime_coarse },
	{ .name = "u_mutex", .desc = "pthread_mutex_lock() + unlock(), uncontended",
	  .run = uprim_mutex_pair },
	{ .name = "u_spinlock", .desc = "pthread_spin_lock() + unlock(), uncontended",
	  .run = uprim_spinlock },
	{ .name = "u_rwlock_read", .desc = "pthread_rwlock_rdlock() + unlock(), uncontended",
	  .run = uprim_rwlock_read },
	{ .name = "u_futex_wake", .desc = "futex(FUTEX_WAKE_PRIVATE) with no waiter",
	  .run = uprim_futex_wake },
	{ .name = "u_malloc_64", .desc = "malloc(64) + free() (glibc's tcache)",
	  .run = uprim_malloc_64 },
	{ .name = "u_getrandom_u32", .desc = "getrandom() of 4 bytes (a system call)",
	  .run = uprim_getrandom_u32 },
	{ .name = "u_getrandom_u64", .desc = "getrandom() of 8 bytes (a system call)",
	  .run = uprim_getrandom_u64 },
	{ .name = "u_atomic_inc", .desc = "__atomic_fetch_add(1), sequentially consistent",
	  .run = uprim_atomic_inc },
	{ .name = "u_atomic_add_return", .desc = "__atomic_add_fetch(3), its result kept",
	  .run = uprim_atomic_add_return },
	{ .name = "u_cmpxchg", .desc = "a load + a succeeding __atomic_compare_exchange_n() to the value + 1",
	  .run = uprim_cmpxchg },
	{ .name = "u_fence", .desc = "__atomic_thread_fence(__ATOMIC_SEQ_CST)",
	  .run = uprim_fence },
	{ .name = "u_counter_read", .desc = "one read of the CPU's counter (rdtsc, cntvct, mftb)",
	  .run = uprim_counter_read },
	{ .name = "u_memcpy_64", .desc = "memcpy() of 64 bytes, L1-resident", .run = uprim_memcpy_64 },
	{ .name = "u_memcpy_4096", .desc = "memcpy() of 4096 bytes, L1-resident",
	  .run = uprim_memcpy_4096 },
	{ .name = "u_memcmp_64", .desc = "memcmp() of 64 equal bytes", .run = uprim_memcmp_64 },
	{ .name = "u_memcmp_4096", .desc = "memcmp() of 4096 equal bytes", .run = uprim_memcmp_4096 },
	{ .name = "u_jhash_64", .desc = "jhash of 64 bytes (the kernel's jhash, kbench's copy)",
	  .run = uprim_jhash_64 },
	{ .name = NULL }
};
