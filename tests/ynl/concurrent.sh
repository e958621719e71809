#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/ynl/concurrent.sh - concurrent RUNs (the request's cpus) in a VM of
# 2 vCPUs, plain TCG, driven by the kernel's ynl CLI with only our spec
# (tests/ynl/concurrent_test.py): per-CPU results, run ids and samples,
# the start skew, fixed and agreed N, bad requests' extack; with --faults
# a killed requester, rmmod and a CPU going offline during a run.  On the
# debug kernel (--kernel debug) the faults run under tests/vm/debug-check.sh,
# which asks KASAN, lockdep and kmemleak afterwards.  Prints TAP.
#
# Usage: tests/ynl/concurrent.sh [--faults] [tests/vm/run options]
#   the last race test makes 30 rmmods on every kernel (on the debug
#   kernel KBENCH_CONC_DEBUG_RMMOD_ROUNDS=N makes N: a KASAN load is slow)
# Exit status: that of tests/vm/run (0 all passed, 1 a test failed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
case "${1:-}" in -h|--help) sed -n '3,15p' "$0"; exit 0 ;; esac
faults=
if [ "${1:-}" = --faults ]; then
	faults=--faults
	shift
fi
debug=0
for a in "$@"; do [ "$a" = debug ] && debug=1; done

ynl=$("$top/scripts/ynl-tools.sh")/tools/net/ynl
# the faults' races (races_test.py) wait out injected delays: more time
args=(--with-python --smp 2 ${faults:+--timeout 900} "$@" --add "$ynl"
      --add "$top/Documentation/netlink/specs/kbench.yaml"
      --add "$here/concurrent_test.py" --add "$here/races_test.py"
      --add "$here/ynl_ntf.py" --add "$here/ynl_common.py")
test=(python3 /extra/concurrent_test.py /extra/ynl/cli.py /extra/kbench.yaml
      $faults)
if [ $debug = 1 ]; then
	# the races' 30 rmmods (each a KASAN insmod): fewer, for a quick look,
	# with KBENCH_CONC_DEBUG_RMMOD_ROUNDS
	[ -n "$faults" ] &&
		test+=(--rmmod-rounds=${KBENCH_CONC_DEBUG_RMMOD_ROUNDS:-30})
	exec "$top/tests/vm/run" "${args[@]}" --no-load \
		--add "$top/tests/vm/debug-check.sh" -- /extra/debug-check.sh \
		"${test[*]}"
fi
exec "$top/tests/vm/run" "${args[@]}" --module-args max_window_us=20000 \
	-- "${test[@]}"
