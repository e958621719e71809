// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: a series' summary and what it is of (the routine, its index,
 * flags, ...) in a RESULT or an EVENT_SUMMARY nest, expanded from the one
 * list of the summary's fields,
 * include/kbench/schema.h, that userspace expands too (its parser, saved
 * files, twins, libkbench).  A new figure is a line there: the module
 * puts it from here, kbenchctl reads it by the same line.
 */
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <net/netlink.h>

#include "kbench_internal.h"

#define KBENCH_ID_SIZE_STR	sizeof(const char *)
#define KBENCH_ID_SIZE_U32	sizeof(u32)
#define KBENCH_ID_SIZE_U64	sizeof(u64)

/*
 * Checked as the module builds (each row is 0 or does not compile): each
 * reason's flag is its bit of the excluded-by-reason counts, and each
 * figure and identity member has the width of its attribute's type.
 */
static const struct {
	int zero;
} kbench_schema_checks[] __maybe_unused = {
#define KBENCH_EXCL(bit, id, key, flag, attr)				\
	{ BUILD_BUG_ON_ZERO((flag) != 1U << (bit)) },
#include <kbench/schema.h>
#define KBENCH_EXCL(bit, id, key, flag, attr)				\
	{ BUILD_BUG_ON_ZERO((bit) >= KBENCH_SUMMARY_REASONS) },
#include <kbench/schema.h>
#define KBENCH_COUNT(name, m, attr)					\
	{ BUILD_BUG_ON_ZERO(sizeof_field(struct kbench_summary, m) !=	\
			    sizeof(u32)) },
#define KBENCH_SERIES(name, m, attr, ev_attr)				\
	{ BUILD_BUG_ON_ZERO(sizeof_field(struct kbench_summary, m) !=	\
			    sizeof(s64)) },
#define KBENCH_CORR(name, m, attr)					\
	{ BUILD_BUG_ON_ZERO(sizeof_field(struct kbench_summary, m) !=	\
			    sizeof(s64)) },
#define KBENCH_ID(m, type, attr)					\
	{ BUILD_BUG_ON_ZERO(sizeof_field(struct kbench_result_id, m) !=	\
			    KBENCH_ID_SIZE_##type) },
#define KBENCH_ID_OPT(m, type, attr, has)				\
	{ BUILD_BUG_ON_ZERO(sizeof_field(struct kbench_result_id, m) !=	\
			    KBENCH_ID_SIZE_##type) },
#define KBENCH_ID_FLAGS(m, attr)					\
	{ BUILD_BUG_ON_ZERO(sizeof_field(struct kbench_result_id, m) !=	\
			    sizeof(u32)) },
#define KBENCH_EV_ID(m, type, attr)					\
	{ BUILD_BUG_ON_ZERO(sizeof_field(struct kbench_event_id, m) !=	\
			    KBENCH_ID_SIZE_##type) },
#include <kbench/schema.h>
};

/* One attribute of a summary nest: a member of struct kbench_summary. */
struct kbench_summary_attr {
	u16 attr;
	u16 offset;
	bool s64;		/* else u32 */
};

#define KBENCH_ATTR_U32(a, m) \
	{ a, offsetof(struct kbench_summary, m), false },
#define KBENCH_ATTR_S64(a, m) \
	{ a, offsetof(struct kbench_summary, m), true },

/* A RESULT nest's figures: the counts, the exclusions, the series' */
static const struct kbench_summary_attr kbench_result_attrs[] = {
#define KBENCH_COUNT(name, m, attr)	KBENCH_ATTR_U32(attr, m)
#include <kbench/schema.h>
#define KBENCH_EXCL(bit, id, key, flag, attr) \
	KBENCH_ATTR_U32(attr, excluded[bit])
#include <kbench/schema.h>
#define KBENCH_SERIES(name, m, attr, ev_attr)	KBENCH_ATTR_S64(attr, m)
#define KBENCH_CORR(name, m, attr)	KBENCH_ATTR_S64(attr, m)
#include <kbench/schema.h>
};

/* An EVENT_SUMMARY nest's figures: the series' (no correction) */
static const struct kbench_summary_attr kbench_event_attrs[] = {
#define KBENCH_SERIES(name, m, attr, ev_attr)	KBENCH_ATTR_S64(ev_attr, m)
#include <kbench/schema.h>
};

static int kbench_put_attrs(struct sk_buff *msg,
			    const struct kbench_summary *sum,
			    const struct kbench_summary_attr *t, size_t n,
			    int pad)
{
	const void *p;
	int err;

	for (; n--; t++) {
		p = (const u8 *)sum + t->offset;
		if (t->s64)
			err = nla_put_s64(msg, t->attr, *(const s64 *)p, pad);
		else
			err = nla_put_u32(msg, t->attr, *(const u32 *)p);
		if (err)
			return err;
	}
	return 0;
}

/**
 * kbench_put_summary() - @sum's figures into a RESULT nest
 * @msg: the message, a RESULT (or OVERHEAD) nest open
 * @sum: the series' summary
 *
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int kbench_put_summary(struct sk_buff *msg, const struct kbench_summary *sum)
{
	return kbench_put_attrs(msg, sum, kbench_result_attrs,
				ARRAY_SIZE(kbench_result_attrs),
				KBENCH_A_RESULT_PAD);
}

/**
 * kbench_put_event_figures() - @sum's figures into an EVENT_SUMMARY nest
 * @msg: the message, an EVENT_SUMMARY nest open
 * @sum: an event's summary over a series' samples
 *
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int kbench_put_event_figures(struct sk_buff *msg,
			     const struct kbench_summary *sum)
{
	return kbench_put_attrs(msg, sum, kbench_event_attrs,
				ARRAY_SIZE(kbench_event_attrs),
				KBENCH_A_EVENT_SUMMARY_PAD);
}

/* One attribute of struct kbench_result_id or kbench_event_id. */
struct kbench_id_attr {
	u16 attr;
	u16 offset;
	u16 has;		/* the presence bool's offset, or NONE */
	u8 type;
};

#define KBENCH_ID_HAS_NONE	U16_MAX

enum { KBENCH_ID_T_STR, KBENCH_ID_T_U32, KBENCH_ID_T_U64 };

#define KBENCH_ID_ROW(st, a, type, m, has) \
	{ a, offsetof(st, m), has, KBENCH_ID_T_##type },

static const struct kbench_id_attr kbench_result_ids[] = {
#define KBENCH_ID(m, type, a) \
	KBENCH_ID_ROW(struct kbench_result_id, a, type, m, KBENCH_ID_HAS_NONE)
#define KBENCH_ID_OPT(m, type, a, has) \
	KBENCH_ID_ROW(struct kbench_result_id, a, type, m, \
		      offsetof(struct kbench_result_id, has))
#define KBENCH_ID_FLAGS(m, a) \
	KBENCH_ID_ROW(struct kbench_result_id, a, U32, m, KBENCH_ID_HAS_NONE)
#include <kbench/schema.h>
};

static const struct kbench_id_attr kbench_event_ids[] = {
#define KBENCH_EV_ID(m, type, a) \
	KBENCH_ID_ROW(struct kbench_event_id, a, type, m, KBENCH_ID_HAS_NONE)
#include <kbench/schema.h>
};

static int kbench_put_ids(struct sk_buff *msg, const void *id,
			  const struct kbench_id_attr *t, size_t n, int pad)
{
	const u8 *p;
	int err;

	for (; n--; t++) {
		p = (const u8 *)id + t->offset;
		if (t->has != KBENCH_ID_HAS_NONE &&
		    !*(const bool *)((const u8 *)id + t->has))
			continue;
		if (t->type == KBENCH_ID_T_STR)
			err = nla_put_string(msg, t->attr,
					     *(const char * const *)p);
		else if (t->type == KBENCH_ID_T_U32)
			err = nla_put_u32(msg, t->attr, *(const u32 *)p);
		else
			err = nla_put_u64_64bit(msg, t->attr, *(const u64 *)p,
						pad);
		if (err)
			return err;
	}
	return 0;
}

/**
 * kbench_put_result_id() - what a RESULT nest's series is, into the nest
 * @msg: the message, a RESULT (or OVERHEAD) nest open
 * @id: the series' routine, index, flags, bytes per iteration, argument
 *
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int kbench_put_result_id(struct sk_buff *msg,
			 const struct kbench_result_id *id)
{
	return kbench_put_ids(msg, id, kbench_result_ids,
			      ARRAY_SIZE(kbench_result_ids),
			      KBENCH_A_RESULT_PAD);
}

/**
 * kbench_put_event_id() - which event an EVENT_SUMMARY nest is of
 * @msg: the message, an EVENT_SUMMARY nest open
 * @id: the event's index in the run and its name
 *
 * Return: 0, or -EMSGSIZE when @msg is full.
 */
int kbench_put_event_id(struct sk_buff *msg, const struct kbench_event_id *id)
{
	return kbench_put_ids(msg, id, kbench_event_ids,
			      ARRAY_SIZE(kbench_event_ids),
			      KBENCH_A_EVENT_SUMMARY_PAD);
}
