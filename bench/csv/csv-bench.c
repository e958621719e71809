// SPDX-License-Identifier: GPL-2.0
/*
 * The samples CSV natively: N rows (default 1,000,000) of one routine
 * through kb_csv_rows(), the writer of `samples --csv` and `run --csv`,
 * in pages of 4096 samples as SAMPLES_GET delivers them.  The values are
 * those of a short routine (1-3 digits, xorshift), one sample in 1000
 * flagged.  Prints the best of ROUNDS (default 5) in ms on stderr; the
 * CSV goes to stdout.  Usage: csv-bench [N [ROUNDS]] >/dev/null
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "csv.h"

#define PAGE	4096

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 1000000, i;
	int rounds = argc > 2 ? atoi(argv[2]) : 5, k;
	int64_t *net = malloc(n * sizeof(*net));
	uint32_t *fl = malloc(n * sizeof(*fl));
	struct kb_csv *c = malloc(sizeof(*c));
	uint64_t x = 88172645463325252ULL;
	double best = 1e30;

	if (!net || !fl || !c)
		return 1;
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		net[i] = 20 + (int64_t)(x % 400);
		fl[i] = i % 1000 == 999 ? 1u << (x % 8) : 0;
	}
	for (k = 0; k < rounds; k++) {
		double t0 = now_ms(), t;

		kb_csv_init(c, stdout);
		for (i = 0; i < n; i += PAGE)
			kb_csv_rows(c, "add_chain", i, net + i, fl + i,
				    n - i < PAGE ? n - i : PAGE);
		kb_csv_flush(c);
		fflush(stdout);
		t = now_ms() - t0;
		if (t < best)
			best = t;
	}
	fprintf(stderr, "csv-bench: %zu rows: best of %d %.1f ms\n", n, rounds,
		best);
	free(net);
	free(fl);
	free(c);
	return 0;
}
