#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kbenchctl run --cpus against the module, in the VM (busybox sh, as root,
# kbench.ko loaded, 2 online CPUs; skipped on one, as under --icount):
# add_chain on CPUs 0-1 reports a row per CPU and the start skew; a
# concurrent run of the contention routines answers a row per CPU, each
# CPU's run its own run id whose samples `kbenchctl samples` reads, with
# the skew reported; --cpus 1..2 is a sweep over the CPU counts; the
# aggregate has a per-op cost and a throughput.  Plain TCG starts the
# vCPUs' windows milliseconds apart: the skew bound is loosened to 20 ms
# (--skew-ns) and no figure is asserted.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..6"
online=$(cat /sys/devices/system/cpu/online)
if [ "$online" != 0-1 ]; then
	for _ in 1 2 3 4 5 6; do
		skip "needs CPUs 0-1 online (online: $online; --icount has one)"
	done
	exit 0
fi

out=$(kbenchctl run add_chain --cpus 0-1 --samples 50 --skew-ns 20000000 2>&1)
rc=$?
echo "$out" | sed 's/^/# /' | head -n 6
echo "$out" | grep -q '^ *0  *add_chain ' && echo "$out" | grep -q '^ *1  *add_chain ' &&
	echo "$out" | grep -q 'start skew: median [0-9]* ticks'
tap $? "run add_chain --cpus 0-1: a row per CPU and the start skew (exit $rc)"
out=$(kbenchctl --json run atomic_shared atomic_percpu --cpus 0,1 \
	--samples 30 --iterations 100 --skew-ns 20000000 2>&1)
rc=$?
echo "$out" | tr -d '\n' | grep -q '"per_cpu": \[ *{ *"cpu": 0,.*"cpu": 1,'
tap $? "run --cpus 0,1 --json: a row per CPU in order (exit $rc)"
rows=$(echo "$out" | grep -c '"samples": 30,')
[ "$rc" = 0 ] && [ "$rows" -ge 4 ]
tap $? "each CPU's atomic_shared and atomic_percpu: 30 samples ($rows rows)"
id=$(echo "$out" | tr -d '\n' | sed 's/.*"cpu": 1, *"run_id": \([0-9]*\).*/\1/')
got=$(kbenchctl samples "$id" 2>/dev/null | grep -c '^ *[0-9]')
[ -n "$id" ] && [ "$got" -ge 30 ]
tap $? "kbenchctl samples $id (CPU 1's run): $got sample rows"
echo "$out" | tr -d '\n' | grep -q '"skew": {[^}]*"median_ticks": [0-9]*,[^}]*"bound_ticks": [1-9]' &&
	echo "$out" | tr -d '\n' | grep -q '"per_op_ns_median"'
tap $? "the start skew (median, bound) and the aggregate per-op cost reported"
out=$(kbenchctl run atomic_shared --cpus 1..2 --samples 20 --iterations 100 \
	--skew-ns 20000000 2>&1)
rc=$?
echo "$out" | grep -q '^ *1  *[0-9]' && echo "$out" | grep -q '^ *2  *[0-9]'
tap $? "run --cpus 1..2: a sweep over 1 and 2 CPUs, a row each (exit $rc)"
echo "$out" | sed 's/^/# /' | head -n 6
exit $failed
