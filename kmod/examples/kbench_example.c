// SPDX-License-Identifier: GPL-2.0
/*
 * kbench_example: how a module registers its own routines with kbench.
 *
 * `foo` and `foobar` have identical bodies: timing them against each other
 * is the classic null experiment (Foo vs Foo).  A sound method must call
 * them equal; a difference shows an artefact such as code alignment.
 *
 *   insmod kbench_example.ko
 *   kbenchctl compare foo foobar
 *
 * A routine's run() executes its body exactly @iterations times with
 * interrupts off: it must not sleep, allocate, lock or print.  Keep results
 * alive (here: a volatile sink) so the compiler cannot drop the work.
 */
#include <linux/jhash.h>
#include <linux/kbench.h>
#include <linux/module.h>

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
};

static int __init kbench_example_init(void)
{
	int i, err;

	for (i = 0; i < KBENCH_EXAMPLE_BYTES; i++)
		kbench_example_buf[i] = i;

	for (i = 0; i < ARRAY_SIZE(kbench_example_routines); i++) {
		err = kbench_register_routine(&kbench_example_routines[i]);
		if (err)
			goto out_unregister;
	}
	return 0;

out_unregister:
	while (--i >= 0)
		kbench_unregister_routine(&kbench_example_routines[i]);
	return err;
}

static void __exit kbench_example_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(kbench_example_routines) - 1; i >= 0; i--)
		kbench_unregister_routine(&kbench_example_routines[i]);
}

module_init(kbench_example_init);
module_exit(kbench_example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kbench example: routines foo and foobar");
