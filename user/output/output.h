/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl output layer, after iproute2's print_*(PRINT_ANY, ...): every
 * value goes through one call that emits either its table form (fmt) or its
 * JSON form (key), so the two can never diverge.  A NULL key means "table
 * only", a NULL fmt "JSON only".  Inside a JSON array the key is ignored.
 */
#ifndef KBENCHCTL_OUTPUT_H
#define KBENCHCTL_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

void out_init(FILE *f, bool json);
bool out_json(void);
FILE *out_file(void);

void out_open_object(const char *key);
/* The same, written on one line (records in long arrays). */
void out_open_object_inline(const char *key);
void out_close_object(void);
void out_open_array(const char *key);
void out_close_array(void);
/* Close everything still open and end the JSON document with a newline. */
void out_finish(void);

void out_uint(const char *key, const char *fmt, uint64_t v);
void out_int(const char *key, const char *fmt, int64_t v);
/* Non-finite values are JSON null and "-" in tables. */
void out_double(const char *key, const char *fmt, double v);
void out_string(const char *key, const char *fmt, const char *s);
void out_bool(const char *key, const char *fmt, bool v);
void out_null(const char *key);
/* Table-only text. */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* JSON only: "key": ["name", ...], the names of the bits of @v (names.h). */
struct kb_flag_name;
void kb_flags_json(const char *key, const struct kb_flag_name *t, uint32_t v);

/*
 * Decimal digits of @v at @dst, no NUL; returns their number (at most 20).
 * Inline, two digits per step, written in place: a digit at a time makes
 * `samples --csv` 1.3x slower, past 2x 1.0's (README, bench/csv).
 */
extern const char kb_digit_pairs[201];

static inline size_t kb_put_u64(char *dst, uint64_t v)
{
	static const uint64_t pow10[] = {
		10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL };
	size_t n = 1;
	char *p;

	while (n < 20 && v >= pow10[n - 1])
		n++;
	p = dst + n;
	while (v >= 100) {
		unsigned int r = (unsigned int)(v % 100);

		v /= 100;
		p -= 2;
		p[0] = kb_digit_pairs[2 * r];
		p[1] = kb_digit_pairs[2 * r + 1];
	}
	if (v >= 10) {
		p[-2] = kb_digit_pairs[2 * v];
		p[-1] = kb_digit_pairs[2 * v + 1];
	} else {
		p[-1] = (char)('0' + v);
	}
	return n;
}

static inline size_t kb_put_s64(char *dst, int64_t v)
{
	if (v >= 0)
		return kb_put_u64(dst, (uint64_t)v);
	*dst = '-';
	return 1 + kb_put_u64(dst + 1, 0 - (uint64_t)v);
}

/* JSON string escaping into @f (with the quotes). */
void json_write_string(FILE *f, const char *s);
/* Shortest decimal that reads back as @v (or null when not finite). */
void json_write_double(FILE *f, double v);

/*
 * @v as --arg takes it: with @bytes 4K, 256M or 1G where it is a multiple
 * of the unit, else (and always without @bytes) digits.
 */
void kb_sweep_format(uint64_t v, bool bytes, char *buf, size_t len);

#endif /* KBENCHCTL_OUTPUT_H */
