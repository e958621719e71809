#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Adaptive N keeps the irq-off bound through a change of the routine's
# cost, and the run goes on (busybox sh, as root, kbench.ko loaded):
# kbench_setup_test's `rise' costs 1000 times more for the last 100 ms of
# every 500 ms after its setup.  Under icount (exact): the run completes;
# at most one window over max_window_us per rise; N changed and came
# back (iterations_min below iterations); the median per iteration is
# exactly that of the same routine without rises (factor 1); the saved
# file says which samples took fewer iterations ("divisors"), and the
# samples dump gives every sample.  In plain TCG (a host's time) only that
# the run completes with a figure: how long a window takes there is not
# the routine's.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
lsmod | grep -q '^kbench_setup_test ' || insmod $kb_moddir/kbench_setup_test.ko
p=/sys/module/kbench_setup_test/parameters
if [ ! -w $p/rise_period_ms ]; then
	echo "1..1"
	skip "kbench_setup_test without the rise routine"
	exit 0
fi
echo 500 >$p/rise_period_ms
echo 100 >$p/rise_on_ms
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

max=$(kbenchctl --json info | json_num max_window_us)
[ "$max" -gt 1000 ] && max=1000

if ! kb_icount; then
	echo "1..1"
	out=$(kbenchctl run rise --arg 1000 --samples 5000 --max-window-us "$max" 2>&1)
	rc=$?
	echo "$out" | grep -q 'median' && [ $rc = 0 ]
	tap $? "plain TCG: a routine whose cost rises 1000-fold completes with a median (exit $rc)"
	[ $rc = 0 ] || echo "$out" | sed 's/^/# /' | tail -n 5
	exit $failed
fi

echo "1..7"
# 10000 rounds of ~40 us windows: about 0.8 s of the guest's time, so
# at least one rise (the first 400 ms after the setup)
kbenchctl --json run rise --arg 1000 --samples 10000 --max-window-us "$max" \
	--save "$tmp/rise.json" >"$tmp/rise.out" 2>"$tmp/rise.err"
rc=$?
tap $rc "rise x1000 for 100 ms of every 500 ms: the run completes (exit $rc$(head -c 200 "$tmp/rise.err"))"
iters=$(json_num iterations <"$tmp/rise.out")
imin=$(json_num iterations_min <"$tmp/rise.out")
changes=$(json_num n_changes <"$tmp/rise.out")
reduced=$(json_num samples_reduced <"$tmp/rise.out")
elapsed=$(json_num elapsed_ns <"$tmp/rise.out")
long=$(json_num window <"$tmp/rise.out")
med=$(tr -d '\n' <"$tmp/rise.out" | grep -o '"net_cycles_per_iter": {[^}]*}' | head -n 1 | json_num median)
echo "# N $iters, down to $imin, $changes changes, $reduced samples reduced, $long windows over ${max} us, elapsed $elapsed ns, median $med"
rises=$(( (elapsed + 100000000) / 500000000 + 1 ))
[ -n "$long" ] && [ "$long" -ge 1 ] && [ "$long" -le "$rises" ]
tap $? "at most one window over max_window_us per rise ($long, rises at most $rises)"
[ -n "$imin" ] && [ "$imin" -lt "$iters" ] && [ "$changes" -ge 2 ] && [ "$reduced" -ge 1 ]
tap $? "N adapted at once and came back: iterations $iters, iterations_min $imin, $changes changes, $reduced samples"
line=$(kbenchctl run rise --arg 1000 --samples 10000 --max-window-us "$max" 2>&1 |
	grep 'N adapted')
echo "# $line"
echo "$line" | grep -q -E "^  N adapted to keep windows within max_window_us: [0-9]+ changes, down to [0-9]+ iterations; [0-9]+ samples took fewer than $iters, each stored as the net of $iters\$"
tap $? "the report says N changed, how often and down to what"

kbenchctl --json run rise --arg 1 --samples 2000 --max-window-us "$max" >"$tmp/flat.out" 2>&1
flat=$(tr -d '\n' <"$tmp/flat.out" | grep -o '"net_cycles_per_iter": {[^}]*}' | head -n 1 | json_num median)
[ -n "$med" ] && [ "$med" = "$flat" ]
tap $? "the median per iteration is that of the same routine without rises ($med, $flat)"

grep -q '"divisors"' "$tmp/rise.json"
tap $? "the saved file lists where N changed (\"divisors\")"
kbenchctl diff "$tmp/rise.json" "$tmp/rise.json" >/dev/null 2>&1
rc=$?
tap $rc "the saved file loads again (diff with itself: exit $rc)"
exit $failed
