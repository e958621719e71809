/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of a run, of a routine's result and of an event's summary,
 * each written once: here the run's and the result's own, and in
 * <kbench/schema.h> the integer summary that the kernel, libkbench and
 * the twins share.  The JSON key (run --json, saved results) of a field
 * is its member's name.  The tables below describe them for the code that
 * walks fields generically: the netlink parser (nl/fields.c), the run
 * header printer (output/runprint.c), the saver and the loader
 * (results/).  Adding a number to the RUN reply: one X() line in
 * KB_RUN_FIELDS declares the member of struct kb_run, parses it, prints it
 * (text and JSON) and gives the saver and loader its key.
 */
#ifndef KBENCHCTL_SCHEMA_H
#define KBENCHCTL_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

/*
 * struct kb_run's members from RUN's reply, in the order the run header
 * prints them: X(member, type, attribute, text format or NULL).  The
 * members are declared from this list (KB_MEMBER); a string is char[32].
 */
#define KB_RUN_FIELDS(X)						\
	X(run_id, U32, KBENCH_A_RUN_ID, NULL)				\
	X(cpu, U32, KBENCH_A_RUN_CPU, "cpu %llu, ")			\
	X(samples, U32, KBENCH_A_RUN_SAMPLES, "%llu samples")		\
	X(iterations, U32, KBENCH_A_RUN_ITERATIONS, " x %llu iterations") \
	X(adaptive, BOOL32, KBENCH_A_RUN_ADAPTIVE, NULL)		\
	X(target_ns, U32, KBENCH_A_RUN_TARGET_NS, NULL)			\
	X(warmup, U32, KBENCH_A_RUN_WARMUP, ", warmup %llu\n")		\
	X(counter, STR, KBENCH_A_RUN_COUNTER, "  counter %s")		\
	X(counter_hz, U64, KBENCH_A_RUN_COUNTER_HZ, " @ %llu Hz")	\
	X(elapsed_ns, U64, KBENCH_A_RUN_ELAPSED_NS, ", elapsed %llu ns") \
	X(span_cycles, U64, KBENCH_A_RUN_SPAN_CYCLES, ", span %llu ticks") \
	X(routine_cycles, U64, KBENCH_A_RUN_ROUTINE_CYCLES,		\
	  " (in the routines %llu")					\
	X(window_cycles, U64, KBENCH_A_RUN_WINDOW_CYCLES,		\
	  ", in the windows %llu)")					\
	X(mem_bytes, U64, KBENCH_A_RUN_MEM_BYTES, ", memory %llu bytes")	\
	X(max_window_us, U32, KBENCH_A_RUN_MAX_WINDOW_US, NULL)		\
	X(iterations_min, U32, KBENCH_A_RUN_ITERATIONS_MIN, NULL)	\
	X(n_changes, U32, KBENCH_A_RUN_N_CHANGES, NULL)			\
	X(samples_reduced, U32, KBENCH_A_RUN_SAMPLES_REDUCED, NULL)	\
	X(env_flags, U32, KBENCH_A_RUN_ENV_FLAGS, NULL)

/*
 * struct kb_run_req's plain u32 fields, X(member, RUN attribute): each
 * declared as `bool has_<member>; uint32_t <member>;` (KB_REQ_MEMBER),
 * set by the option of the same attribute (cli/runopts.c) and sent when
 * given (nl/runreq.c).
 */
#define KB_REQ_FIELDS(X)						\
	X(cpu, KBENCH_A_RUN_CPU)					\
	X(samples, KBENCH_A_RUN_SAMPLES)				\
	X(iterations, KBENCH_A_RUN_ITERATIONS)				\
	X(target_ns, KBENCH_A_RUN_TARGET_NS)				\
	X(warmup, KBENCH_A_RUN_WARMUP)					\
	X(max_window_us, KBENCH_A_RUN_MAX_WINDOW_US)			\
	X(skew_ns, KBENCH_A_RUN_SKEW_NS)
#define KB_REQ_MEMBER(m, attr)	bool has_##m; uint32_t m;

/* A list's member declared in its structure: KB_RUN_FIELDS(KB_MEMBER). */
#define KB_MEMBER(m, t, ...)	KB_DECL_##t(m)
#define KB_DECL_U32(m)		uint32_t m;
#define KB_DECL_BOOL32(m)	uint32_t m;
#define KB_DECL_U64(m)		uint64_t m;
#define KB_DECL_S64(m)		int64_t m;
#define KB_DECL_STR(m)		char m[32];

/* A table row for @member of @type (schema.c's tables, a command's own). */
#define KB_FIELD(type, member, t, attr)					\
	{ #member, KB_FT_##t, offsetof(type, member),			\
	  sizeof(((type *)0)->member), attr, NULL, 0, NULL, 0 }

struct kb_flag_name;

/* How a field is stored and written. */
enum kb_field_type {
	KB_FT_U32,	/* uint32_t; a JSON number */
	KB_FT_U64,	/* uint64_t */
	KB_FT_S64,	/* int64_t */
	KB_FT_BOOL32,	/* uint32_t 0 or 1; JSON true or false */
	KB_FT_STR,	/* char[size], NUL-terminated; a JSON string */
	KB_FT_BOOL,	/* bool; JSON true or false */
	KB_FT_FLAGS,	/* uint32_t bits; a JSON array of their names */
};

/* kb_field.null: where a saved file's null stands for the field */
#define KB_NULL_READ	1	/* null loads as "" (a string) or not there */
#define KB_NULL_WRITE	2	/* "" or not there is saved as null */

struct kb_field {
	const char *key;	/* JSON key: the member's name */
	enum kb_field_type type;
	size_t offset, size;	/* of the member */
	int attr;		/* netlink attribute; 0: none */
	const char *fmt;	/* text format of the run header, or NULL */
	/* offset of the bool that says the field is there; 0: always */
	size_t has;
	const struct kb_flag_name *names;	/* KB_FT_FLAGS */
	unsigned int null;	/* KB_NULL_*: saved files only */
};

/*
 * The tables, each ending with a NULL key:
 *   kb_run_fields       struct kb_run, the run's object
 *   kb_result_fields    struct kb_result, the routine's object
 *   kb_summary_fields   struct kb_result, its "summary" object
 *   kb_excl_fields      struct kb_result, the summary's excluded counts
 *                       ("excluded_by_reason"), excl[] by kb_excl_key[]
 *   kb_ev_fields        struct kb_ev_result, an event's "summary" (the
 *                       corrected figures have no attribute: computed)
 */
extern const struct kb_field kb_run_fields[];
extern const struct kb_field kb_result_fields[];
extern const struct kb_field kb_summary_fields[];
extern const struct kb_field kb_excl_fields[];
extern const struct kb_field kb_ev_fields[];

/* The field of @table with @key, or NULL. */
const struct kb_field *kb_field_find(const struct kb_field *table,
				     const char *key);
/* Whether @f is there in @obj (its presence bool, if it has one). */
int kb_field_present(const struct kb_field *f, const void *obj);
/* Mark @f there in @obj (its presence bool, if it has one). */
void kb_field_set_present(const struct kb_field *f, void *obj);
/*
 * A number field of @obj as a signed or unsigned 64-bit value (U32, U64,
 * BOOL32 unsigned; S64 signed).
 */
uint64_t kb_field_u64(const struct kb_field *f, const void *obj);
int64_t kb_field_s64(const struct kb_field *f, const void *obj);
/*
 * Store @v in the number field @f of @obj: 0, or -ERANGE when it does not
 * fit (a U32 above UINT32_MAX, a BOOL32 other than 0 or 1; @neg: @v is a
 * negative value's two's complement, valid for S64 only).
 */
int kb_field_set(const struct kb_field *f, void *obj, uint64_t v, int neg);
/* The string field @f of @obj, or its buffer to fill (f->size bytes). */
char *kb_field_str(const struct kb_field *f, void *obj);

#endif /* KBENCHCTL_SCHEMA_H */
