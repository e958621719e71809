#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the kbench selftests inside the VM (busybox sh, as root): every test
# of the collection in kbench-tests.list (written by the Makefile from its
# TEST_GEN_PROGS and TEST_PROGS, the order run_kselftest.sh uses), each
# test's TAP lines as they come (not nested, so scripts/check.sh counts
# every subtest); exits non-zero if anything failed.
#
#   run.sh [--quick] [--skip T,T...]
#     --quick  a shorter fuzz (the selftests are the same)
#     --skip   leave out these tests of the list (a "# SKIP" line each), e.g.
#              those another run of the same code already ran
#
# Env: KBENCH_FUZZ_COUNT overrides the fuzz message count.

dir=$(cd "$(dirname "$0")" && pwd)
skip=,
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) [ -n "$KBENCH_FUZZ_COUNT" ] || KBENCH_FUZZ_COUNT=2000 ;;
	--skip) [ $# -ge 2 ] || { echo "run.sh: --skip wants a list of tests" >&2; exit 2; }
		skip="$skip$2,"; shift ;;
	-h|--help) sed -n '3,15p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
export KBENCH_FUZZ_COUNT

failed=0
suites=""

if [ ! -r "$dir/kbench-tests.list" ]; then
	echo "not ok 1 kbench-tests.list # missing"
	exit 1
fi
for t in $(cat "$dir/kbench-tests.list"); do
	echo "# ---- $t"
	case "$skip" in *",$t,"*)
		echo "ok 1 $t # SKIP left out (run.sh --skip)"
		continue ;;
	esac
	if [ ! -x "$dir/$t" ]; then
		echo "not ok 1 $t # missing"
		failed=1
		suites="$suites $t"
		continue
	fi
	t0=$(date +%s)
	# its stderr down the same pipe: beside it on the console, the
	# shell's "Terminated" for a job a test killed split a TAP line
	{ "$dir/$t" 2>&1; echo $? >/tmp/kb-run.rc; } | tee /tmp/kb-run.out
	rc=$(cat /tmp/kb-run.rc)
	echo "# $t: $(( $(date +%s) - t0 )) s"
	# the figures it printed as KTAP diagnostics (kbench_nl.c), exact
	# under icount on x86_64 (1 tick = 1 instruction, TSC)
	if [ "$t" = kbench_exact_test ] && grep -q kbench_icount=1 /proc/cmdline &&
	   [ "$(uname -m)" = x86_64 ]; then
		if grep -qx '# kbench.add_chain.median_cycles_per_iter: 6.000' /tmp/kb-run.out; then
			echo "ok 1 $t figures: '# kbench.add_chain.median_cycles_per_iter: 6.000' in its output (icount)"
		else
			echo "not ok 1 $t figures: no exact '# kbench.add_chain.median_cycles_per_iter: 6.000' diagnostic"
			grep '^# kbench\.' /tmp/kb-run.out | head -n 20
			failed=1
			suites="$suites $t-figures"
		fi
	fi
	# kselftest: 0 pass, 4 skip (KSFT_SKIP); anything else failed.
	if [ $rc -ne 0 ] && [ $rc -ne 4 ]; then
		echo "# $t: exit status $rc"
		failed=1
		suites="$suites $t"
	fi
done

if [ $failed -ne 0 ]; then
	echo "# FAILED:$suites"
	exit 1
fi
echo "# all kbench selftests passed"
exit 0
