// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_example: how a module registers its own routines with kbench.
 *
 * `foo` and `foobar` have identical bodies: timing them against each other
 * is the classic null experiment (Foo vs Foo).  A sound method must call
 * them equal; a difference shows an artefact such as code alignment.
 *
 * `hash` takes an argument, the number of bytes it hashes: its setup
 * allocates and fills a buffer of that size before each run, and its
 * teardown frees it after the run, whatever ended it.
 *
 *   insmod kbench_example.ko
 *   kbenchctl compare foo foobar
 *   kbenchctl run hash --arg 64..4096:x2
 *
 * A routine's run() executes its body exactly @iterations times with
 * interrupts off: it must not sleep, allocate, lock or print.  Keep results
 * alive (here: a volatile sink) so the compiler cannot drop the work.
 * setup() and teardown() run in process context: they may sleep and
 * allocate.
 */
#include <linux/jhash.h>
#include <linux/kbench.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#define KBENCH_EXAMPLE_BYTES	64

static u8 kbench_example_buf[KBENCH_EXAMPLE_BYTES] __aligned(64);
static u32 kbench_example_sink;

static noinline void kbench_example_foo(unsigned int iterations, void *data)
{
	u32 h = 0;

	while (iterations--)
		h = jhash(data, KBENCH_EXAMPLE_BYTES, h);
	WRITE_ONCE(kbench_example_sink, h);
}

static noinline void kbench_example_foobar(unsigned int iterations, void *data)
{
	u32 h = 0;

	while (iterations--)
		h = jhash(data, KBENCH_EXAMPLE_BYTES, h);
	WRITE_ONCE(kbench_example_sink, h);
}

/* What hash's setup prepares for one run. */
struct kbench_example_hash {
	u32 words;		/* the argument, in 32-bit words */
	u32 buf[];
};

/*
 * Before each run of `hash`, on the run's CPU: a buffer of s->arg bytes
 * (kbench has checked the range, 4 .. 64 KiB) of random content.
 * Throughput is per byte hashed: bytes_per_iter is the argument.
 */
static int kbench_example_hash_setup(struct kbench_setup *s)
{
	struct kbench_example_hash *h;

	if (s->arg % sizeof(u32)) {
		/* kbench returns this with the routine's name */
		scnprintf(s->msg, sizeof(s->msg),
			  "%llu bytes: not a multiple of 4 (jhash2 hashes words)",
			  s->arg);
		return -EINVAL;
	}
	h = kvmalloc(struct_size(h, buf, s->arg / sizeof(u32)), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->words = s->arg / sizeof(u32);
	get_random_bytes(h->buf, s->arg);
	s->data = h;
	s->bytes_per_iter = s->arg;
	return 0;
}

/* After each run whose setup succeeded: completed, failed or aborted. */
static void kbench_example_hash_teardown(void *data)
{
	kvfree(data);
}

static noinline void kbench_example_hash(unsigned int iterations, void *data)
{
	struct kbench_example_hash *h = data;
	u32 v = 0;

	while (iterations--)
		v = jhash2(h->buf, h->words, v);
	WRITE_ONCE(kbench_example_sink, v);
}

static struct kbench_routine kbench_example_routines[] = {
	{
		.name = "foo",
		.desc = "jhash of 64 bytes (identical to foobar)",
		.run = kbench_example_foo,
		.data = kbench_example_buf,
		.bytes_per_iter = KBENCH_EXAMPLE_BYTES,
	},
	{
		.name = "foobar",
		.desc = "jhash of 64 bytes (identical to foo)",
		.run = kbench_example_foobar,
		.data = kbench_example_buf,
		.bytes_per_iter = KBENCH_EXAMPLE_BYTES,
	},
	{
		.name = "hash",
		.desc = "jhash2 of arg bytes (a multiple of 4)",
		.run = kbench_example_hash,
		.arg = { .name = "bytes", .min = 4, .max = SZ_64K, .def = 64 },
		.setup_ctx = kbench_example_hash_setup,
		.teardown = kbench_example_hash_teardown,
	},
};

/* init registers all three (or none), exit unregisters them */
module_kbench_routines(kbench_example_routines);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench example: routines foo, foobar and hash");
