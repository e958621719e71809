#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the VM, plain TCG: foo and foobar of kbench_example have identical
# bodies; measured in separate runs and compared with
#   kbenchctl diff a.json b.json --match foo=foobar
# the verdict must be "no change" in at least 19 of 20 trials with the
# default threshold.
#
# Plain TCG's counter is host time: when the host is busy (other VMs on a
# shared machine) whole runs get slower, by 10-60 % (seen), and no method
# can tell that from a slower routine.  Worse, a routine's emulated code
# can run in a slow mode for a run or two while the same code elsewhere
# does not (measured on an AMD EPYC host, 2026-11: identical bodies 3.4 %
# or 50-65 % apart in about 1 trial in 10, the interleaved empty loop
# of the same run 0-9 %).  So each trial measures foo, foobar three times
# each, alternating (the sandwich of bench/gbench/compare.sh, extended):
# when any two consecutive runs of foo or of foobar differ (diff
# --fail-on changed says anything but "no change") the host or the
# emulator changed during the trial and the trial is repeated; the
# comparison is foo's middle run against foobar's.  Only trials with a
# quiet host count; when 3 x trials attempts do not give them the test is
# skipped, not failed.  A trial that finds a change is confirmed by the
# next one with a verdict (below).
# TAP on stdout.
trials=${1:-20}
need=$((trials - trials / 20))
insmod /lib/kbench/kbench_example.ko || { echo "not ok 1 - insmod kbench_example"; exit 1; }
same=0
done_trials=0
attempts=0
line() { grep '^foo' "$1" | tr -s ' '; }
quiet() { # old new: the same routine twice, "no change"?
	kbenchctl diff "$1" "$2" --fail-on changed --trust-single >/tmp/c 2>&1 && return 0
	echo "# host drift: $(line /tmp/c)"
	return 1
}
# trial: 0 "no change", 1 a change, 2 no verdict (a run failed, or the
# host drifted inside the sandwich)
trial() {
	attempts=$((attempts + 1))
	if ! { kbenchctl run foo --save /tmp/a1.json &&
	       kbenchctl run foobar --save /tmp/b1.json &&
	       kbenchctl run foo --save /tmp/a2.json &&
	       kbenchctl run foobar --save /tmp/b2.json &&
	       kbenchctl run foo --save /tmp/a3.json &&
	       kbenchctl run foobar --save /tmp/b3.json; } >/dev/null 2>&1; then
		echo "# attempt $attempts: a run failed"
		return 2
	fi
	if ! quiet /tmp/a1.json /tmp/a2.json || ! quiet /tmp/a2.json /tmp/a3.json ||
	   ! quiet /tmp/b1.json /tmp/b2.json || ! quiet /tmp/b2.json /tmp/b3.json; then
		return 2
	fi
	kbenchctl diff /tmp/a2.json /tmp/b2.json --match foo=foobar \
		--fail-on changed --trust-single >/tmp/d 2>&1 && return 0
	return 1
}
# A change must be confirmed by the next trial with a verdict, as a user
# re-runs a surprising diff: the emulator's slow mode of one routine's
# code lasts a run or a few (above), a real difference every trial.
while [ $done_trials -lt "$trials" ] && [ $attempts -lt $((3 * trials)) ]; do
	trial
	rc=$?
	[ $rc = 2 ] && continue
	if [ $rc = 1 ]; then
		echo "# changed, to be confirmed: $(line /tmp/d)"
		rc=2
		while [ $rc = 2 ] && [ $attempts -lt $((3 * trials)) ]; do
			trial
			rc=$?
		done
	fi
	[ $rc = 0 ] && same=$((same + 1))
	done_trials=$((done_trials + 1))
	echo "# trial $done_trials: exit $rc: $(line /tmp/d)"
done
echo "# $done_trials trials with a quiet host in $attempts attempts"
if [ $done_trials -lt "$trials" ]; then
	echo "ok 1 - foo vs foobar in separate runs # SKIP the host drifted too often ($done_trials of $trials trials usable)"
	echo "1..1"
	exit 0
fi
if [ $same -ge $need ]; then
	echo "ok 1 - foo vs foobar in separate runs: no change in $same of $trials trials (want $need)"
	echo "1..1"
	exit 0
fi
echo "not ok 1 - foo vs foobar in separate runs: no change in $same of $trials trials (want $need)"
echo "1..1"
exit 1
