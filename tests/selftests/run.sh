#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the kbench selftests inside the VM (busybox sh, as root, kbench.ko
# loaded).  Prints every suite's TAP lines, then the fuzzer's, then a dmesg
# check; exits non-zero if anything failed.
#
#   run.sh [--quick]      --quick: a shorter fuzz (the selftests are the same)
#
# Env: KBENCH_FUZZ_COUNT overrides the fuzz message count.

dir=$(cd "$(dirname "$0")" && pwd)
quick=0
for arg in "$@"; do
	case "$arg" in
	--quick) quick=1 ;;
	-h|--help) sed -n '3,10p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument $arg" >&2; exit 2 ;;
	esac
done

if [ -n "$KBENCH_FUZZ_COUNT" ]; then
	fuzz_count=$KBENCH_FUZZ_COUNT
elif [ $quick = 1 ]; then
	fuzz_count=2000
else
	fuzz_count=10000
fi

failed=0
suites=""

run_suite() {
	name=$1
	shift
	echo "# ---- $name"
	t0=$(date +%s)
	"$@"
	rc=$?
	echo "# $name: $(( $(date +%s) - t0 )) s"
	# kselftest: 0 pass, 4 skip (KSFT_SKIP); anything else failed.
	if [ $rc -ne 0 ] && [ $rc -ne 4 ]; then
		echo "# $name: exit status $rc"
		failed=1
		suites="$suites $name"
	fi
}

for t in kbench_family_test kbench_input_test kbench_exact_test kbench_event_test \
	 kbench_samples_test kbench_concurrency_test kbench_engine_test \
	 kbench_arg_test kbench_progress_test kbench_lib_test; do
	if [ ! -x "$dir/$t" ]; then
		echo "not ok 1 $t # binary missing"
		failed=1
		suites="$suites $t"
		continue
	fi
	run_suite "$t" "$dir/$t"
done

for t in kbench_cli_test kbench_event_cli_test kbench_env_test kbench_window_test kbench_hazard_test; do
	if [ -x "$dir/$t.sh" ]; then
		run_suite "$t" "$dir/$t.sh"
	else
		echo "not ok 1 $t # script missing"
		failed=1
		suites="$suites $t"
	fi
done

if [ -x "$dir/kbench-fuzz" ]; then
	run_suite "kbench-fuzz" "$dir/kbench-fuzz" --count "$fuzz_count"
	run_suite "kbench-fuzz --unpriv" "$dir/kbench-fuzz" --count "$fuzz_count" --unpriv
else
	echo "not ok 1 kbench-fuzz # binary missing"
	failed=1
fi

# The kernel must not have complained about anything, during the suites or
# before them (module load included).
echo "# ---- dmesg"
echo "TAP version 13"
echo "1..1"
pattern='WARNING|BUG:|kernel BUG|Oops|lockup|rcu_sched self-detected stall|RCU stall|rcu: INFO|scheduling while atomic|sleeping function called from invalid context|Call Trace'
log=$(dmesg 2>&1)
# The kernel command line names some of these (softlockup_panic=1, ...).
bad=$(echo "$log" | grep -v -i 'command line' | grep -E "$pattern")
if ! dmesg >/dev/null 2>&1 || [ -z "$log" ]; then
	echo "not ok 1 dmesg_clean # cannot read dmesg"
	failed=1
	suites="$suites dmesg"
elif [ -n "$bad" ]; then
	echo "$bad" | sed 's/^/# /'
	echo "not ok 1 dmesg_clean"
	failed=1
	suites="$suites dmesg"
else
	echo "ok 1 dmesg_clean"
fi

# After the dmesg check: it makes the kernel print NMI backtraces on purpose.
if [ -x "$dir/kbench_compare_test.sh" ]; then
	echo "# ---- kbench_compare_test"
	t0=$(date +%s)
	if ! "$dir/kbench_compare_test.sh"; then
		failed=1
		suites="$suites kbench_compare_test"
	fi
	echo "# kbench_compare_test: $(( $(date +%s) - t0 )) s"
else
	echo "not ok 1 kbench_compare_test # script missing"
	failed=1
fi

if [ $failed -ne 0 ]; then
	echo "# FAILED:$suites"
	exit 1
fi
echo "# all kbench selftests passed"
exit 0
