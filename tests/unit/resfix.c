// SPDX-License-Identifier: GPL-2.0
/*
 * Result files for the result tests (test_b64.c, test_resfile.c,
 * test_diff.c): synthetic runs, metadata, writing to memory, parsing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/kbench.h>
#include <linux/perf_event.h>

#include <kbench/summary.h>

#include "b64.h"
#include "diff.h"
#include "diffprint.h"
#include "base.h"
#include "output.h"
#include "resfile.h"
#include "runopts.h"
#include "stats.h"
#include "tap.h"
#include "tests.h"
#include "resfix.h"

void make_run_header(struct kb_run *r, uint32_t samples, uint32_t iters,
		     uint64_t counter_hz)
{
	memset(r, 0, sizeof(*r));
	r->iterations = iters;
	r->samples = samples;
	r->cpu = 1;
	r->warmup = 10;
	r->target_ns = 20000;
	snprintf(r->counter, sizeof(r->counter), "tsc");
	r->counter_hz = counter_hz;
	r->counter_constant = true;
	snprintf(r->kernel, sizeof(r->kernel), "6.1.0-test");
	snprintf(r->date, sizeof(r->date), "2026-11-23T00:00:00Z");
}

/* A run of @nres routines, each @n samples of @per_iter * @iters net. */
void make_run(struct kb_run *r, unsigned int nres, const char *const *names,
	      const int64_t *per_iter, size_t n, uint32_t iters, uint64_t seed)
{
	struct kb_rng rng;
	unsigned int k;
	size_t i;

	make_run_header(r, (uint32_t)n, iters, 1000000000);
	kb_rng_seed(&rng, seed);
	r->nres = nres;
	for (k = 0; k < nres; k++) {
		struct kb_result *res = &r->res[k];

		snprintf(res->routine, sizeof(res->routine), "%s", names[k]);
		res->index = k;
		for (i = 0; i < n; i++) {
			/* exact value, or with a little noise when seeded odd */
			int64_t v = per_iter[k] * iters;

			if (seed & 1)
				v += (int64_t)kb_rng_below(&rng, 7) - 3;
			kb_result_push(res, v, i % 97 == 5 ? KBENCH_SAMPLE_F_NMI : 0);
		}
		kb_result_summarize(res, iters);
	}
}

/*
 * Events instructions (@insns per iteration, exact) and cycles (the
 * counter's net) on every result of @r, summarized as the kernel does.
 */
void add_events(struct kb_run *r, const int64_t *insns)
{
	struct kbench_summary sum;
	kbench_s64 *scratch;
	unsigned int k, x;
	size_t i;

	r->nevents = 2;
	snprintf(r->events[0].name, sizeof(r->events[0].name), "instructions");
	r->events[0].type = PERF_TYPE_HARDWARE;
	r->events[0].config = PERF_COUNT_HW_INSTRUCTIONS;
	snprintf(r->events[0].pmu, sizeof(r->events[0].pmu), "armv8_pmuv3_0");
	snprintf(r->events[1].name, sizeof(r->events[1].name), "cycles");
	r->events[1].type = PERF_TYPE_HARDWARE;
	r->events[1].config = PERF_COUNT_HW_CPU_CYCLES;
	snprintf(r->events[1].read, sizeof(r->events[1].read), "rdpmc");
	r->events[1].enabled_ns = r->events[1].running_ns = 123456789;
	for (k = 0; k <= r->nres; k++) {
		struct kb_result *res = k < r->nres ? &r->res[k] : &r->overhead;

		if (k == r->nres && !r->has_overhead)
			break;
		scratch = malloc((res->n ? res->n : 1) * sizeof(*scratch));
		for (i = 0; i < res->n; i++) {
			kb_result_push_event(res, 0, insns[k] * r->iterations);
			kb_result_push_event(res, 1, res->net[i]);
		}
		for (x = 0; x < 2; x++) {
			kbench_summarize(&sum, res->ev[x].net, res->sflags,
					 (unsigned int)res->n, r->iterations,
					 scratch);
			res->ev[x].net_min = sum.min;
			res->ev[x].net_median = sum.median;
			res->ev[x].net_max = sum.max;
			res->ev[x].net_sum = sum.sum;
			res->ev[x].per_iter_min_milli = sum.per_iter_min_milli;
			res->ev[x].per_iter_median_milli = sum.per_iter_median_milli;
		}
		free(scratch);
	}
	kb_run_correct_events(r);
}

void make_meta(struct kb_meta *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->kbenchctl_version, sizeof(m->kbenchctl_version), "0.1");
	snprintf(m->kbench_version, sizeof(m->kbench_version), "1.0.0");
	m->method_version = 1;
	snprintf(m->kernel, sizeof(m->kernel), "6.1.0-test");
	snprintf(m->arch, sizeof(m->arch), "x86_64");
	snprintf(m->cpu_model, sizeof(m->cpu_model), "Test CPU \"quoted\" \\ \t");
	snprintf(m->date, sizeof(m->date), "2026-11-23T00:00:00Z");
	m->nparams = 1;
	snprintf(m->param[0].name, sizeof(m->param[0].name), "duty_pct");
	m->param[0].value = 50;
	m->nenv = 1;
	snprintf(m->env[0].key, sizeof(m->env[0].key), "cmdline");
	snprintf(m->env[0].value, sizeof(m->env[0].value), "quiet kbench_icount=1");
}

/* The whole file in memory. */
char *write_mem(const struct kb_meta *m, const struct kb_saved_run *s,
		size_t n, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	kb_resfile_write(f, m, s, n);
	fclose(f);
	return buf;
}

void buf_to_file(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fwrite(buf, 1, len, f);
		fclose(f);
	}
}

int parse(const char *buf, size_t len, struct kb_resfile *rf, char *err,
	  size_t errlen)
{
	return kb_resfile_parse(buf, len, "t.json", rf, err, errlen);
}

int unit_diff_text(struct kb_resfile *a, struct kb_resfile *b,
		     const struct kb_diff_opts *o, bool json, char **text)
{
	size_t len;
	FILE *f = open_memstream(text, &len);
	int regressed;
	int rc;

	out_init(f, json);
	rc = kb_diff_print(NULL, "old.json", a, "new.json", b, o, &regressed);
	rc = kb_diff_exit_status(rc, regressed);
	out_finish();
	fclose(f);
	out_init(stdout, false);
	return rc;
}
