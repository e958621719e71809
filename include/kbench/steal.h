/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbench: the steal detector's logic, written once (the kernel runs it in
 * its windows, the unit tests natively).
 *
 * A virtual CPU can be stopped by its host in the middle of a window:
 * interrupts off in the guest do not stop the host from running another
 * task on the physical CPU.  The window's counter keeps running (the TSC
 * and CNTVCT are the host's), so the sample is too long, and nothing in
 * the guest notices - unless the host keeps a paravirtual steal-time
 * record for the vCPU, which it updates each time the vCPU runs again:
 *
 *   x86 KVM (MSR_KVM_STEAL_TIME): struct kvm_steal_time { u64 steal;
 *     u32 version; ... }.  The host makes version odd, adds the time the
 *     vCPU waited to steal, makes version even again - on every entry
 *     after the vCPU thread was descheduled or went back to userspace.
 *   arm64 (SMCCC PV_TIME_ST): struct pvclock_vcpu_stolen_time { ...
 *     __le64 stolen_time; }, one 64-bit value written whole; no version.
 *
 * The host writes the record of a vCPU only while that vCPU does not run,
 * so a window reads its own record consistently; the version protocol
 * (read version, steal, version again: equal and even) is kept anyway and
 * bounded, since nothing inside a window may wait.  A window is flagged
 * `steal' when the record changed between its start and its end, or could
 * not be read consistently.
 *
 * A world supplies load(rec, field): the field's value (host byte order),
 * with the read barrier its memory model needs after it.
 */
#ifndef _KBENCH_STEAL_H
#define _KBENCH_STEAL_H

#include "world.h"

/* Consistent reads tried per snapshot before the window is flagged. */
#define KBENCH_STEAL_TRIES	3

enum kbench_steal_field {
	KBENCH_STEAL_VERSION,	/* 0 where the record has none (arm64) */
	KBENCH_STEAL_TIME,
};

typedef unsigned long long (*kbench_steal_load_t)(const void *rec,
						  enum kbench_steal_field f);

/* The record as a window saw it. */
struct kbench_steal_snap {
	const void *rec;		/* NULL: no record on this CPU */
	unsigned long long steal;
	unsigned long long version;
	int ok;				/* read consistently */
};

/*
 * Read @rec into @s: version, steal, version again, until the two versions
 * are equal and even, at most KBENCH_STEAL_TRIES times.  @s->ok says
 * whether that happened.
 */
static __always_inline void kbench_steal_read(kbench_steal_load_t load,
					      const void *rec,
					      struct kbench_steal_snap *s)
{
	unsigned long long v;
	unsigned int i;

	s->rec = rec;
	s->ok = 0;
	for (i = 0; i < KBENCH_STEAL_TRIES; i++) {
		s->version = load(rec, KBENCH_STEAL_VERSION);
		s->steal = load(rec, KBENCH_STEAL_TIME);
		v = load(rec, KBENCH_STEAL_VERSION);
		if (!(v & 1) && v == s->version) {
			s->ok = 1;
			return;
		}
	}
}

/* The flag for a window that began with @a and ended with @b. */
static inline unsigned int kbench_steal_flags(const struct kbench_steal_snap *a,
					      const struct kbench_steal_snap *b)
{
	if (!a->rec)
		return 0;
	if (!a->ok || !b->ok || a->steal != b->steal || a->version != b->version)
		return KBENCH_SAMPLE_F_STEAL;
	return 0;
}

/*
 * A window's two ends, as a world's snapshot hooks call them: @rec is this
 * CPU's record, or NULL where there is none (then nothing is flagged).
 */
static __always_inline void kbench_steal_begin(kbench_steal_load_t load,
					       const void *rec,
					       struct kbench_steal_snap *s)
{
	/* all of @s defined, with or without a record: the end reads it */
	s->rec = rec;
	s->steal = 0;
	s->version = 0;
	s->ok = 0;
	if (rec)
		kbench_steal_read(load, rec, s);
}

static __always_inline unsigned int
kbench_steal_end(kbench_steal_load_t load, const struct kbench_steal_snap *a)
{
	struct kbench_steal_snap b;

	if (!a->rec)
		return 0;
	kbench_steal_read(load, a->rec, &b);
	return kbench_steal_flags(a, &b);
}

#endif /* _KBENCH_STEAL_H */
