/* SPDX-License-Identifier: GPL-2.0 */
/* Result files for the result tests (resfix.c). */
#ifndef KBENCH_UNIT_RESFIX_H
#define KBENCH_UNIT_RESFIX_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "resfile.h"

/* An empty kernel run (no routines) of @samples x @iters on CPU 1, counter
 * "tsc" at @counter_hz, kernel 6.1.0-test, dated 2026-11-23. */
void make_run_header(struct kb_run *r, uint32_t samples, uint32_t iters,
		     uint64_t counter_hz);
/* A run of @nres routines, each @n samples of @per_iter * @iters net. */
void make_run(struct kb_run *r, unsigned int nres, const char *const *names,
	      const int64_t *per_iter, size_t n, uint32_t iters, uint64_t seed);
/* Events "instructions" and "cycles" on every routine of @r. */
void add_events(struct kb_run *r, const int64_t *insns);
/* Metadata with every field set, quotes and escapes included. */
void make_meta(struct kb_meta *m);
/* @n runs written as a result file into memory (free it); @len its size. */
char *write_mem(const struct kb_meta *m, const struct kb_saved_run *s,
		size_t n, size_t *len);
void buf_to_file(const char *path, const char *buf, size_t len);
/* kb_resfile_parse() of @buf named "t.json". */
int parse(const char *buf, size_t len, struct kb_resfile *rf, char *err,
	  size_t errlen);

/* diff of two in-memory files: the report (@json: JSON) and its exit status */
struct kb_diff_opts;
int unit_diff_text(struct kb_resfile *a, struct kb_resfile *b,
		   const struct kb_diff_opts *o, bool json, char **text);

#endif
