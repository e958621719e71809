// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the dumps of a stored run.  SAMPLES_GET: its samples, series
 * by series, one attribute per sample or packed to the width the page
 * needs, with the divisors of N they were taken at.  RUN_GET: its
 * answer again.  Their privilege is decided in .start
 * (kbench_may_measure()).
 */
#include <net/genetlink.h>

#include "kbench_compat.h"
#include "kbench_internal.h"

struct kbench_samples_ctx {
	struct kbench_run *run;
	u32 series;		/* next series to send */
	u32 end;		/* series to stop at */
	u32 next;		/* its next sample */
	bool packed;		/* the request's PACKED */
	u8 width;		/* packed: the last page's net width */
	bool denied;		/* .start found no privilege */
};

static struct kbench_samples_ctx *kbench_samples_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct kbench_samples_ctx) > sizeof(cb->ctx));
	return (struct kbench_samples_ctx *)cb->ctx;
}

/*
 * The checks of a SAMPLES_GET request: privilege in .start
 * (kbench_nl_samples_start()), at the request, the rest here in the first
 * dumpit call, which reports it: 6.1 reports the extended ack of dumpit
 * (in NLMSG_DONE) but drops .start's.
 */
static int kbench_samples_begin(struct netlink_callback *cb,
				struct kbench_samples_ctx *ctx)
{
	struct nlattr **tb = kbench_dump_attrs(cb);

	if (!tb[KBENCH_A_SAMPLES_RUN_ID]) {
		NL_SET_ERR_ATTR_MISS(cb->extack, NULL, KBENCH_A_SAMPLES_RUN_ID);
		NL_SET_ERR_MSG(cb->extack, "missing run id");
		return -EINVAL;
	}
	ctx->run = kbench_store_get(nla_get_u32(tb[KBENCH_A_SAMPLES_RUN_ID]));
	if (!ctx->run) {
		NL_SET_ERR_MSG_ATTR(cb->extack, tb[KBENCH_A_SAMPLES_RUN_ID],
				    "no stored run with this id");
		return -ENOENT;
	}
	ctx->end = ctx->run->nr_series;
	ctx->packed = nla_get_flag(tb[KBENCH_A_SAMPLES_PACKED]);
	ctx->width = 1;
	if (tb[KBENCH_A_SAMPLES_ROUTINE]) {
		ctx->series = nla_get_u32(tb[KBENCH_A_SAMPLES_ROUTINE]);
		if (ctx->series >= ctx->run->nr_series) {
			kbench_run_put(ctx->run);
			ctx->run = NULL;
			NL_SET_ERR_MSG_ATTR(cb->extack,
					    tb[KBENCH_A_SAMPLES_ROUTINE],
					    "no routine with this index in the run");
			return -EINVAL;
		}
		ctx->end = ctx->series + 1;
	}
	return 0;
}

/*
 * Samples per message within NLMSG_GOODSIZE: the arrays (an s64 and a u32
 * per sample, an s64 more per event) after 128 bytes of the other
 * attributes and each event's name and array header.
 */
static u32 kbench_samples_per_msg(const struct kbench_run *run)
{
	return (NLMSG_GOODSIZE - NLMSG_HDRLEN - GENL_HDRLEN - 128 -
		run->nr_events * (NLA_HDRLEN +
				  nla_total_size(KBENCH_NAME_MAX + 1))) /
	       (sizeof(s64) + sizeof(u32) + run->nr_events * sizeof(s64));
}

/* The EVENT_NET arrays and EVENT_NAMEs of samples @first.. (@count). */
static int kbench_put_event_samples(struct sk_buff *skb,
				    const struct kbench_run *run,
				    const struct kbench_series *s, u32 first,
				    u32 count)
{
	u32 x;

	for (x = 0; x < run->nr_events; x++)
		if (nla_put_string(skb, KBENCH_A_SAMPLES_EVENT_NAME,
				   run->events[x].name) ||
		    nla_put(skb, KBENCH_A_SAMPLES_EVENT_NET,
			    count * sizeof(*s->eng.xnet[x]),
			    &s->eng.xnet[x][first]))
			return -EMSGSIZE;
	return 0;
}

/*
 * Packed pages (the request's PACKED): each net value in the fewest bytes
 * that hold every value of the page, and the flags as a list of the
 * flagged samples only.  Short routines' samples take 1 or 2 bytes instead
 * of 12: the copy into the skb, the skb's zeroing (init_on_alloc) and the
 * copy to userspace shrink with them.
 *
 * @acc is the OR of the page's values, none negative: the width is where
 * its highest bit fits below a sign bit.
 */
static u8 kbench_width_of(u64 acc)
{
	if (acc < 0x80)
		return 1;
	if (acc < 0x8000)
		return 2;
	if (acc < 0x80000000ULL)
		return 4;
	return 8;
}

/*
 * The width of @n values some of which are negative: x ^ (x >> 63) is x
 * for x >= 0 and -x - 1 below, which fits in 7, 15 or 31 bits exactly when
 * x fits in 1, 2 or 4 bytes signed.
 */
static u8 kbench_width_signed(const s64 *v, u32 n)
{
	u64 acc = 0;
	u32 i;

	for (i = 0; i < n; i++)
		acc |= (u64)(v[i] ^ (v[i] >> 63));
	return kbench_width_of(acc);
}

/*
 * Four values a step: a load, an OR, a store each, and an OR of the flags
 * (no test per sample: the page's width and flags are decided after it).
 */
#define KBENCH_PACK(type)						\
	do {								\
		const s64 *p = v, *end4 = v + (n & ~3U), *end = v + n;	\
		const unsigned int *q = f;				\
		type *d = dst;						\
									\
		for (; p < end4; p += 4, q += 4, d += 4) {		\
			s64 a = p[0], b = p[1], c = p[2], e = p[3];	\
									\
			acc |= a | b | c | e;				\
			fo |= q[0] | q[1] | q[2] | q[3];		\
			d[0] = (type)a;					\
			d[1] = (type)b;					\
			d[2] = (type)c;					\
			d[3] = (type)e;					\
		}							\
		for (; p < end; p++, q++, d++) {			\
			acc |= *p;					\
			fo |= *q;					\
			*d = (type)*p;					\
		}							\
	} while (0)

/*
 * @n values of @v into @dst as @width-byte integers (truncated where they
 * do not fit).  Returns the OR of the values (negative ones set its top
 * bit); *@flags gets the OR of the flags @f.
 */
static u64 kbench_pack_net(void *dst, const s64 *v, const unsigned int *f,
			   u32 n, u8 width, unsigned int *flags)
{
	unsigned int fo = 0;
	u64 acc = 0;

	switch (width) {
	case 1:
		KBENCH_PACK(s8);
		break;
	case 2:
		KBENCH_PACK(s16);
		break;
	case 4:
		KBENCH_PACK(s32);
		break;
	default:
		KBENCH_PACK(s64);
	}
	*flags = fo;
	return acc;
}

/*
 * Bytes left in @skb for a packed page's arrays once their attribute
 * headers (NET_PACKED with its padding, NET_WIDTH, FLAG_LIST) and each
 * event's name and array header are counted.
 */
static u32 kbench_packed_room(const struct kbench_run *run,
			      const struct sk_buff *skb)
{
	int room = skb_tailroom(skb) - NLA_HDRLEN - NLA_ALIGNTO -
		   nla_total_size(sizeof(u8)) - NLA_HDRLEN -
		   (int)(run->nr_events * (NLA_HDRLEN +
					   nla_total_size(KBENCH_NAME_MAX + 1)));

	return room > 0 ? room : 0;
}

/*
 * How many of @n samples fit in @room bytes at @per bytes each and a flag
 * pair more for each flagged one (flags @f); *@nflag gets how many of
 * those are flagged.
 */
static u32 kbench_packed_fit(const unsigned int *f, u32 n, u32 per, u32 room,
			     u32 *nflag)
{
	u32 i, pair, used = 0;

	*nflag = 0;
	for (i = 0; i < n; i++) {
		pair = f[i] ? 2 * sizeof(u32) : 0;
		if (used + per + pair > room)
			break;
		used += per + pair;
		*nflag += !!pair;
	}
	return i;
}

/*
 * NET_PACKED, NET_WIDTH and FLAG_LIST of as many samples from @first, at
 * most *@count, as the room left in @skb holds at the page's width: the
 * count goes back in *@count.  The width tried is the last page's; a page
 * whose values need another is packed again at it (with fewer samples if
 * it is wider), a page with flags cut where its flag list fits.  At most
 * three passes: a count only shrinks after the first, and a prefix of
 * the values never needs more bytes than the whole.  -EMSGSIZE without
 * room for one sample.
 */
static int kbench_put_packed(struct sk_buff *skb,
			     struct kbench_samples_ctx *ctx,
			     const struct kbench_run *run,
			     const struct kbench_series *s, u32 first,
			     u32 *count)
{
	const s64 *v = &s->eng.net[first];
	const unsigned int *f = &s->eng.flags[first];
	u32 ev = run->nr_events * sizeof(s64);
	u32 room = kbench_packed_room(run, skb);
	unsigned char *mark = skb_tail_pointer(skb);
	u32 i, n, packed, nflag, *pair;
	struct nlattr *a;
	unsigned int fo;
	u8 w = ctx->width, need;
	u64 acc;

	n = min(*count, room / (w + ev));
	for (;;) {
		if (!n)
			return -EMSGSIZE;
		a = nla_reserve(skb, KBENCH_A_SAMPLES_NET_PACKED, n * w);
		if (!a)
			return -EMSGSIZE;
		acc = kbench_pack_net(nla_data(a), v, f, n, w, &fo);
		need = acc >> 63 ? kbench_width_signed(v, n) :
				   kbench_width_of(acc);
		packed = n;
		/* this pass's count of flagged samples, or 0 */
		nflag = 0;
		if (need == w && fo) {
			n = kbench_packed_fit(f, n, w + ev, room, &nflag);
			/* fewer samples: their width may be less */
			if (n < packed)
				need = kbench_width_signed(v, n);
		}
		if (need == w && n == packed)
			break;
		nlmsg_trim(skb, mark);
		w = need;
		n = min(n, room / (w + ev));
	}
	ctx->width = w;
	*count = n;
	if (nla_put_u8(skb, KBENCH_A_SAMPLES_NET_WIDTH, w))
		return -EMSGSIZE;
	/*
	 * nflag belongs to the pass that ended the loop: reset by every
	 * pass, counted over exactly these n samples when any is flagged
	 * (need == w and fo), 0 otherwise
	 */
	if (!nflag)
		return 0;
	a = nla_reserve(skb, KBENCH_A_SAMPLES_FLAG_LIST,
			nflag * 2 * sizeof(u32));
	if (!a)
		return -EMSGSIZE;
	pair = nla_data(a);
	for (i = 0; i < n; i++) {
		if (f[i]) {
			*pair++ = i;
			*pair++ = f[i];
		}
	}
	return 0;
}

/*
 * The changes of N in series @x of @run (adaptive N after the probe), as
 * DIVISOR pairs: the first sample of the series that took N / d
 * iterations, and d, in sample order (engine.h, kbench_div_of()).  Put in
 * the series' first page only; 0 when N never changed.
 */
static int kbench_put_divisors(struct sk_buff *skb,
			       const struct kbench_run *run, u32 x)
{
	u32 pair[2 * KBENCH_DIV_LOG_MAX], nr = run->nr_series, n = 0, i, j;
	u32 taken = run->series[x].eng.taken;
	u64 at, g;

	for (i = 0; i < run->div_log_nr; i++) {
		at = run->div_log[i].at;
		j = div_u64(at, nr);
		g = (u64)j * nr + kbench_engine_pos(nr, j, x);
		if (g < at)
			j++;
		if (j >= taken)
			break;
		if (n && pair[2 * n - 2] == j)
			n--;
		pair[2 * n] = j;
		pair[2 * n + 1] = run->div_log[i].div;
		n++;
	}
	if (!n)
		return 0;
	return nla_put(skb, KBENCH_A_SAMPLES_DIVISOR, n * 2 * sizeof(u32),
		       pair);
}

/*
 * Whether a packed page has room for one sample at the most a sample can
 * take (8 bytes of net, a flag pair, 8 bytes per event) after 128 bytes
 * of the other attributes: its count is then kbench_put_packed()'s.
 */
static bool kbench_packed_fits_one(const struct kbench_run *run,
				   const struct sk_buff *skb)
{
	return kbench_packed_room(run, skb) >=
	       NLMSG_HDRLEN + GENL_HDRLEN + 128 + 2 * sizeof(s64) +
	       run->nr_events * sizeof(s64);
}

int kbench_nl_samples_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct kbench_samples_ctx *ctx = kbench_samples_ctx(cb);
	const struct kbench_series *s;
	struct nlattr *net, *flags;
	struct kbench_run *run;
	u32 count;
	void *hdr;
	int err;

	if (ctx->denied) {
		NL_SET_ERR_MSG(cb->extack,
			       "measuring needs CAP_PERFMON or CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (!ctx->run) {
		err = kbench_samples_begin(cb, ctx);
		if (err)
			return err;
	}
	run = ctx->run;

	/* seq changes if the run is evicted during the dump */
	cb->seq = kbench_store_has(run) ? 1 : 2;
	while (ctx->series < ctx->end) {
		s = &run->series[ctx->series];
		if (ctx->next >= s->eng.taken) {
			ctx->series++;
			ctx->next = 0;
			continue;
		}
		count = s->eng.taken - ctx->next;
		if (!ctx->packed)
			count = min(count, kbench_samples_per_msg(run));
		if (!count || (ctx->packed && !kbench_packed_fits_one(run, skb)))
			break;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &kbench_genl_family,
				  NLM_F_MULTI, KBENCH_CMD_SAMPLES_GET);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (nla_put_u32(skb, KBENCH_A_SAMPLES_RUN_ID, run->id) ||
		    nla_put_u32(skb, KBENCH_A_SAMPLES_ROUTINE, ctx->series) ||
		    nla_put_string(skb, KBENCH_A_SAMPLES_NAME, s->name) ||
		    nla_put_u32(skb, KBENCH_A_SAMPLES_FIRST, ctx->next) ||
		    nla_put_u32(skb, KBENCH_A_SAMPLES_ITERATIONS,
				run->iterations))
			goto out_cancel;
		/* at most 512 bytes: a full page leaves the room of 128 samples */
		if (!ctx->next && run->div_log_nr) {
			if (kbench_put_divisors(skb, run, ctx->series))
				goto out_cancel;
			if (!ctx->packed)
				count = min_t(u32, count,
					      kbench_samples_per_msg(run) -
					      min_t(u32, kbench_samples_per_msg(run) - 1,
						    128));
		}
		if (ctx->packed) {
			if (kbench_put_packed(skb, ctx, run, s, ctx->next,
					      &count))
				goto out_cancel;
		} else {
			net = nla_reserve(skb, KBENCH_A_SAMPLES_NET,
					  count * sizeof(*s->eng.net));
			flags = nla_reserve(skb, KBENCH_A_SAMPLES_FLAGS,
					    count * sizeof(*s->eng.flags));
			if (!net || !flags)
				goto out_cancel;
			memcpy(nla_data(net), &s->eng.net[ctx->next],
			       count * sizeof(*s->eng.net));
			memcpy(nla_data(flags), &s->eng.flags[ctx->next],
			       count * sizeof(*s->eng.flags));
		}
		if (kbench_put_event_samples(skb, run, s, ctx->next, count))
			goto out_cancel;
		genlmsg_end(skb, hdr);
		ctx->next += count;
	}
	return skb->len;

out_cancel:
	genlmsg_cancel(skb, hdr);
	return skb->len;
}

/*
 * Privilege of a dump is decided in .start, on the request's skb, by the
 * requester; the refusal is reported by the first dumpit, whose extack
 * every kernel sends (6.1 drops .start's message, not its errno).
 */
int kbench_nl_samples_start(struct netlink_callback *cb)
{
	kbench_samples_ctx(cb)->denied = !kbench_may_measure(cb->skb, NULL);
	return 0;
}

int kbench_nl_samples_done(struct netlink_callback *cb)
{
	struct kbench_samples_ctx *ctx = kbench_samples_ctx(cb);

	kbench_run_put(ctx->run);
	ctx->run = NULL;
	return 0;
}

/*
 * RUN_GET: a stored run's answer again, by id (the answer a RUN sent, or
 * could not send: kbench_answer() then names the id).  A run on one CPU
 * is its RUN reply; a run of a group gives the group's answer: a message
 * per CPU whose run is still stored, then the group's figures, which the
 * group keeps while any of its runs is alive (run->group).  Each message
 * is at most KBENCH_MSG_MAX; several go in one dump skb.
 */
struct kbench_run_get_ctx {
	struct kbench_run *run;	/* the run asked for, held */
	u32 part;		/* its answer's next message */
	bool denied;		/* .start found no privilege */
};

static struct kbench_run_get_ctx *
kbench_run_get_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct kbench_run_get_ctx) > sizeof(cb->ctx));
	return (struct kbench_run_get_ctx *)cb->ctx;
}

/* Message @i of @run's answer into @skb: 0 (also for an evicted CPU's) */
static int kbench_run_get_part(struct sk_buff *skb,
			       struct netlink_callback *cb,
			       const struct kbench_run *run, u32 i)
{
	const struct kbench_group *g = run->group;
	struct kbench_run *r = NULL;
	void *hdr;
	int err;

	if (g && i < g->nr) {
		r = kbench_store_get(g->id[i]);
		if (!r)
			return 0;
	}
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &kbench_genl_family, NLM_F_MULTI, KBENCH_CMD_RUN_GET);
	if (!hdr) {
		err = -EMSGSIZE;
		goto out_put;
	}
	if (!g)
		err = kbench_run_fill(skb, run);
	else if (r)
		err = kbench_cpu_msg_fill(skb, g, r, i);
	else
		err = kbench_group_msg_fill(skb, g, run);
	if (err)
		genlmsg_cancel(skb, hdr);
	else
		genlmsg_end(skb, hdr);
out_put:
	kbench_run_put(r);
	return err;
}

int kbench_nl_run_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct kbench_run_get_ctx *ctx = kbench_run_get_ctx(cb);
	struct nlattr **tb = kbench_dump_attrs(cb);
	u32 n;
	int err;

	if (ctx->denied) {
		NL_SET_ERR_MSG(cb->extack,
			       "measuring needs CAP_PERFMON or CAP_SYS_ADMIN");
		return -EPERM;
	}
	if (!ctx->run) {
		if (!tb[KBENCH_A_RUN_ID]) {
			NL_SET_ERR_ATTR_MISS(cb->extack, NULL, KBENCH_A_RUN_ID);
			NL_SET_ERR_MSG(cb->extack, "missing run id");
			return -EINVAL;
		}
		ctx->run = kbench_store_get(nla_get_u32(tb[KBENCH_A_RUN_ID]));
		if (!ctx->run) {
			NL_SET_ERR_MSG_ATTR(cb->extack, tb[KBENCH_A_RUN_ID],
					    "no stored run with this id");
			return -ENOENT;
		}
	}
	n = ctx->run->group ? ctx->run->group->nr + 1 : 1;
	for (; ctx->part < n; ctx->part++) {
		err = kbench_run_get_part(skb, cb, ctx->run, ctx->part);
		if (!err)
			continue;
		if (skb->len)
			break;
		/* a message of KBENCH_MSG_MAX fits a reader of 16 KiB */
		NL_SET_ERR_MSG(cb->extack,
			       "the reader's buffer is too small for the run: 16 KiB holds it");
		return err;
	}
	return skb->len;
}

/* As kbench_nl_samples_start() */
int kbench_nl_run_get_start(struct netlink_callback *cb)
{
	kbench_run_get_ctx(cb)->denied = !kbench_may_measure(cb->skb, NULL);
	return 0;
}

int kbench_nl_run_get_done(struct netlink_callback *cb)
{
	struct kbench_run_get_ctx *ctx = kbench_run_get_ctx(cb);

	kbench_run_put(ctx->run);
	ctx->run = NULL;
	return 0;
}
