// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl unit tests: one TAP stream for the statistics, the output
 * layer and the command line (including valgrind runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <linux/netlink.h>

#include "tap.h"
#include "tests.h"

int tap_n, tap_failed;

struct nlattr *unit_nlattr(void *buf, uint16_t type, const void *data,
			   size_t len)
{
	struct nlattr *a = buf;

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)buf + NLA_HDRLEN, data, len);
	return a;
}

int unit_cmd_out(const char *cmd, char **out)
{
	size_t len = 0, cap = 1 << 16, r;
	FILE *p = popen(cmd, "r");
	int st;

	*out = malloc(cap);
	while (p && (r = fread(*out + len, 1, cap - len - 1, p)) > 0) {
		len += r;
		if (cap - len < 4096)
			*out = realloc(*out, cap *= 2);
	}
	(*out)[len] = '\0';
	st = p ? pclose(p) : -1;
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}
const char *fixtures_dir = "fixtures";
const char *kbenchctl_bin = "../../user/kbenchctl";

int main(int argc, char *argv[])
{
	if (argc > 1)
		fixtures_dir = argv[1];
	if (argc > 2)
		kbenchctl_bin = argv[2];
	/* KBENCH_UNIT_ONLY=loader: the loader tests alone (run under valgrind) */
	if (getenv("KBENCH_UNIT_ONLY") && !strcmp(getenv("KBENCH_UNIT_ONLY"), "loader")) {
		test_results_loader();
		return tap_done();
	}
	/* KBENCH_UNIT_ONLY=runs: the replicated-run tests alone */
	if (getenv("KBENCH_UNIT_ONLY") && !strcmp(getenv("KBENCH_UNIT_ONLY"), "runs")) {
		test_runs();
		return tap_done();
	}
	/* KBENCH_UNIT_ONLY=core: the --unit core tests alone */
	if (getenv("KBENCH_UNIT_ONLY") && !strcmp(getenv("KBENCH_UNIT_ONLY"), "core")) {
		test_core();
		test_asm();
		return tap_done();
	}
	/* KBENCH_UNIT_ONLY=blockboot: the within-run interval tests alone */
	if (getenv("KBENCH_UNIT_ONLY") && !strcmp(getenv("KBENCH_UNIT_ONLY"), "blockboot")) {
		test_blockboot();
		return tap_done();
	}
	/* KBENCH_UNIT_ONLY=export: the export and history tests alone */
	if (getenv("KBENCH_UNIT_ONLY") && !strcmp(getenv("KBENCH_UNIT_ONLY"), "export")) {
		test_export();
		return tap_done();
	}
	/* KBENCH_UNIT_ONLY=interrupt: long runs stopped by a signal alone */
	if (getenv("KBENCH_UNIT_ONLY") && !strcmp(getenv("KBENCH_UNIT_ONLY"), "interrupt")) {
		test_interrupt();
		return tap_done();
	}
	test_stats();
	test_output();
	test_opts();
	test_report();
	test_resfile();
	test_diff_all();
	test_env();
	test_steal();
	test_schema();
	test_seqtest();
	test_blockboot();
	test_runs();
	test_core();
	test_asm();
	test_cli();
	test_interrupt();
	test_export();
	test_engine();
	test_cpus();
	test_sweep();
	return tap_done();
}
