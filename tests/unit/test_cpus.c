// SPDX-License-Identifier: GPL-2.0
/*
 * libkbench's concurrent run, kbench_measure_cpus(), on this machine's
 * CPUs: bad lists refused, a failing thread stops the others (no hang),
 * and two CPUs each give their samples with the start skew.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>

#include <kbench.h>

#include "tap.h"
#include "tests.h"

static void spin(unsigned int n, void *data)
{
	volatile unsigned int *p = data;
	unsigned int i;

	for (i = 0; i < n; i++)
		(void)*p;
}

void test_cpus(void)
{
	static unsigned int word;
	struct kbench_cpus_request cr = { 0 };
	struct kbench_cpus_result res;
	struct kbench_request req;
	int32_t cpus[2];
	cpu_set_t set;
	unsigned int c, bad, over;
	int rc;

	kbench_request_init(&req);
	req.routine[0].run = spin;
	req.routine[0].data = &word;
	req.samples = 200;
	cr.cpus = cpus;
	cr.nr_cpus = 2;
	cpus[0] = cpus[1] = 0;
	errno = 0;
	rc = kbench_measure_cpus(&req, &cr, &res);
	ok(rc == -1 && errno == EINVAL, "cpus: a repeated CPU is EINVAL (%d)", errno);
	cpus[1] = 1000;		/* < CPU_SETSIZE, no such CPU: the pin fails */
	errno = 0;
	rc = kbench_measure_cpus(&req, &cr, &res);
	ok(rc == -1 && errno == EINVAL && !res.cpu,
	   "cpus: a CPU that cannot be pinned fails the run, the other thread stopped, not hung (%s)",
	   strerror(errno));
	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2) {
		diag("skip: fewer than 2 CPUs to run on");
		return;
	}
	for (c = 0, rc = 0; c < CPU_SETSIZE && rc < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[rc++] = (int32_t)c;
	cr.spin_limit = 0;
	rc = kbench_measure_cpus(&req, &cr, &res);
	ok(!rc && res.nr_cpus == 2 && res.cpu[0].routine[0].samples == 200 &&
	   res.cpu[1].routine[0].samples == 200 &&
	   res.cpu[0].iterations == res.cpu[1].iterations &&
	   res.cpu[0].cpu == (uint32_t)cpus[0] &&
	   res.cpu[1].cpu == (uint32_t)cpus[1] &&
	   res.skew_samples == 2 * 200 && res.skew_max >= res.skew_median &&
	   res.skew_bound > 0,
	   "cpus: 2 CPUs x 200 samples, one N (%u), skew per sample (median %llu, max %llu ticks, bound %llu, %u flagged)",
	   rc ? 0 : res.cpu[0].iterations,
	   (unsigned long long)res.skew_median,
	   (unsigned long long)res.skew_max,
	   (unsigned long long)res.skew_bound, res.skew_flagged);
	for (c = 0, bad = 0, over = 0; !rc && c < 200; c++) {
		unsigned int f0 = res.cpu[0].routine[0].sample_flags[c],
			     f1 = res.cpu[1].routine[0].sample_flags[c];

		if (res.skew[c] <= res.skew_bound)
			continue;
		over++;
		bad += !(f0 & f1 & KBENCH_SAMPLE_F_SKEW);
	}
	ok(!rc && !bad && over <= res.skew_flagged,
	   "cpus: each sample over the skew bound is flagged skew on both CPUs (%u over, %u not)",
	   over, bad);
	kbench_cpus_result_free(&res);
}
