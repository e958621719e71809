// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: resolution and latency of the kernel's clocks (CLOCK_GET).
 *
 * Latency: up to LAT_READS reads in a tight loop inside one irq-off
 * window; the best of a few windows is reported, with the reads it made.
 * Resolution: the smallest and the mean non-zero step over many observed
 * changes, counted only inside irq-off windows (a step across a window
 * boundary would include the gap).  Every window keeps within
 * max_window_us: a clock that is slow to read (an HPET or acpi_pm
 * clocksource in a VM: microseconds a read) gets fewer reads a window
 * (kbench_clock_reads()), and a window that still comes out long halves
 * the reads of the next.  Clocks that advance only from the timer
 * interrupt (jiffies) cannot change with interrupts off; they are watched
 * with interrupts on instead.
 */
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>

#include "kbench_internal.h"

#define KBENCH_LAT_READS	256
#define KBENCH_LAT_WINDOWS	8
#define KBENCH_RES_CHANGES	1000
#define KBENCH_RES_READS	256	/* reads per irq-off window */
#define KBENCH_RES_WINDOWS	64
#define KBENCH_TICK_CHANGES	4
#define KBENCH_TICK_WAIT_MS	100

struct kbench_clock {
	const char *name;
	const char *unit;
	u64 (*read)(void);
	u64 hz;			/* 0: the counter's */
	bool tick_based;
};

struct kbench_clock_result {
	u64 res_min, res_sum, lat_span, lat_cycles;
	u32 res_changes, lat_reads;
};

static u64 kbench_clk_unordered(void)
{
	return kbench_ctr_read_unordered();
}

static u64 kbench_clk_ordered(void)
{
	return kbench_ctr_read();
}

static u64 kbench_clk_ktime(void)
{
	return ktime_get_ns();
}

static u64 kbench_clk_raw(void)
{
	return ktime_get_raw_ns();
}

static u64 kbench_clk_mono_fast(void)
{
	return ktime_get_mono_fast_ns();
}

static u64 kbench_clk_local(void)
{
	return local_clock();
}

static u64 kbench_clk_jiffies(void)
{
	return get_jiffies_64();
}

static const struct kbench_clock kbench_clocks[] = {
	{ KBENCH_CLOCK_UNORDERED, "cycles", kbench_clk_unordered, 0, false },
	{ KBENCH_CLOCK_ORDERED, "cycles", kbench_clk_ordered, 0, false },
	{ "ktime_get_ns", "ns", kbench_clk_ktime, NSEC_PER_SEC, false },
	{ "ktime_get_raw_ns", "ns", kbench_clk_raw, NSEC_PER_SEC, false },
	{ "ktime_get_mono_fast_ns", "ns", kbench_clk_mono_fast, NSEC_PER_SEC,
	  false },
	{ "local_clock", "ns", kbench_clk_local, NSEC_PER_SEC, false },
	{ "jiffies", "jiffies", kbench_clk_jiffies, HZ, true },
};

/* max_window_us in counter ticks */
static u64 kbench_clock_max_window(void)
{
	return kbench_ns_to_ticks((u64)kbench_max_window_us * NSEC_PER_USEC,
				  kbench_counter.hz);
}

/*
 * Reads of @c, at most @want, that one irq-off window can take within
 * half of max_window_us: the cost of a read from a window of three (the
 * counter's reads around them counted in: an overestimate), taken first.
 * At least one.
 */
static u32 kbench_clock_reads(const struct kbench_clock *c, u32 want)
{
	struct kbench_guard g = { };
	u64 span, cycles, per;

	kbench_irq_off(&g);
	kbench_method_latency(c->read, kbench_ctr_read, 1, &span, &cycles);
	kbench_irq_on(&g);
	per = max_t(u64, div_u64(cycles, 3), 1);
	return clamp_t(u64, div64_u64(kbench_clock_max_window() / 2, per), 1,
		       want);
}

static noinline void kbench_clock_latency(const struct kbench_clock *c,
					  struct kbench_clock_result *res)
{
	u32 reads = kbench_clock_reads(c, KBENCH_LAT_READS);
	struct kbench_guard g = { };
	u64 span, cycles;
	int w;

	res->lat_cycles = U64_MAX;
	for (w = 0; w < KBENCH_LAT_WINDOWS; w++) {
		kbench_irq_off(&g);
		kbench_method_latency(c->read, kbench_ctr_read, reads, &span,
				      &cycles);
		kbench_irq_on(&g);
		/* the best window of the fewest reads made is reported */
		if (reads != res->lat_reads || cycles < res->lat_cycles) {
			res->lat_cycles = cycles;
			res->lat_span = span;
			res->lat_reads = reads;
		}
		if (cycles > kbench_clock_max_window() && reads > 1)
			reads /= 2;
		cond_resched();
	}
}

static noinline void kbench_clock_resolution(const struct kbench_clock *c,
					     struct kbench_clock_result *res)
{
	struct kbench_method_res step;
	struct kbench_guard g = { };
	unsigned long until;
	u64 prev, now, t0, t1;
	u32 reads;
	int w;

	res->res_min = U64_MAX;
	if (c->tick_based) {
		until = jiffies + msecs_to_jiffies(KBENCH_TICK_WAIT_MS);
		prev = c->read();
		while (res->res_changes < KBENCH_TICK_CHANGES &&
		       time_before(jiffies, until)) {
			now = c->read();
			if (now > prev) {
				res->res_min = min(res->res_min, now - prev);
				res->res_sum += now - prev;
				res->res_changes++;
				prev = now;
			}
			cond_resched();
		}
	} else {
		reads = kbench_clock_reads(c, KBENCH_RES_READS);
		for (w = 0; w < KBENCH_RES_WINDOWS &&
		     res->res_changes < KBENCH_RES_CHANGES; w++) {
			kbench_irq_off(&g);
			t0 = kbench_ctr_read();
			kbench_method_resolution(c->read,
						 KBENCH_RES_CHANGES -
						 res->res_changes,
						 reads, &step);
			t1 = kbench_ctr_read();
			kbench_irq_on(&g);
			if (t1 - t0 > kbench_clock_max_window() && reads > 1)
				reads /= 2;
			if (step.changes) {
				res->res_min = min(res->res_min, step.min);
				res->res_sum += step.sum;
				res->res_changes += step.changes;
			}
			cond_resched();
		}
	}
	if (!res->res_changes)
		res->res_min = 0;
}

static int kbench_clock_fill(struct sk_buff *skb, struct netlink_callback *cb,
			     const struct kbench_clock *c,
			     const struct kbench_clock_result *res)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &kbench_genl_family, NLM_F_MULTI,
			  KBENCH_CMD_CLOCK_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, KBENCH_A_CLOCK_NAME, c->name) ||
	    nla_put_string(skb, KBENCH_A_CLOCK_UNIT, c->unit) ||
	    nla_put_u64_64bit(skb, KBENCH_A_CLOCK_HZ,
			      c->hz ? c->hz : kbench_counter.hz,
			      KBENCH_A_CLOCK_PAD) ||
	    nla_put_u64_64bit(skb, KBENCH_A_CLOCK_RES_MIN, res->res_min,
			      KBENCH_A_CLOCK_PAD) ||
	    nla_put_u64_64bit(skb, KBENCH_A_CLOCK_RES_SUM, res->res_sum,
			      KBENCH_A_CLOCK_PAD) ||
	    nla_put_u32(skb, KBENCH_A_CLOCK_RES_CHANGES, res->res_changes) ||
	    nla_put_u32(skb, KBENCH_A_CLOCK_LAT_READS, res->lat_reads) ||
	    nla_put_u64_64bit(skb, KBENCH_A_CLOCK_LAT_SPAN, res->lat_span,
			      KBENCH_A_CLOCK_PAD) ||
	    nla_put_u64_64bit(skb, KBENCH_A_CLOCK_LAT_CYCLES, res->lat_cycles,
			      KBENCH_A_CLOCK_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* CLOCK_GET dump: one clock measured and sent per message. */
int kbench_clock_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	long *pos = &cb->args[0];
	struct kbench_clock_result res;
	const struct kbench_clock *c;
	int err;

	while (*pos < ARRAY_SIZE(kbench_clocks)) {
		c = &kbench_clocks[*pos];
		memset(&res, 0, sizeof(res));
		kbench_clock_latency(c, &res);
		kbench_clock_resolution(c, &res);
		err = kbench_clock_fill(skb, cb, c, &res);
		if (err)
			return skb->len ? skb->len : err;
		(*pos)++;
	}
	return skb->len;
}
