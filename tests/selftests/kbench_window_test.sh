#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The irq-off bound and the routine registry, in the VM (busybox sh, as
# root, kbench.ko loaded): a routine far over max_window_us at N = 1
# (kbench_setup_test's `slow`, mdelay() an iteration) is refused, adaptive
# and with a fixed --iterations, in under 2 s, exit status 1, with a
# message naming the routine, its window and max_window_us, and no
# figure printed; a fixed N predicted over the limit names the attribute;
# registering a registered routine again while a run uses it gives
# -EEXIST and a later rmmod still completes; a run's own bound
# (--max-window-us) only tightens the module's, refuses by it and is
# echoed as used; CLOCK_GET's windows shrink to a bound of 2 us (and,
# under icount, keep within it).  None of it depends on how
# long a window of a fast routine takes: plain TCG and icount alike.
# Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

p=/sys/module/kbench_setup_test/parameters
now_cs() { tr -d . </proc/uptime | cut -d' ' -f1; }

echo "TAP version 13"
echo "1..14"

# The default limit, 1 ms: a routine of 3 ms an iteration is 15 ms a
# window at N = 1, which plain TCG on a loaded host stretches to a few
# 100 ms at most - under a larger limit (the debug test bed loads 20 ms)
# its windows would be long enough to stall RCU (rcu_cpu_stall_timeout=3).
# Built in, kbench keeps the limit of the kernel command line.
ko=$kb_moddir/kbench.ko
max_window_us=$(kbenchctl --json info | json_num max_window_us)
if [ "$max_window_us" != 1000 ] && ! kb_builtin; then
	lsmod | grep -q '^kbench_setup_test ' && rmmod kbench_setup_test
	rmmod kbench && insmod $ko max_window_us=1000
	max_window_us=$(kbenchctl --json info | json_num max_window_us)
fi
lsmod | grep -q '^kbench_setup_test ' || insmod $kb_moddir/kbench_setup_test.ko
ms=3

# Under icount the guest's time is its instructions: refused in under 2 s.
# In plain TCG it is the host's, and a loaded host stretches everything:
# under 20 s there, which still tells a refusal from a run that goes on
# (a run of `slow' that were not refused would last max_run_ms, 60 s).
limit_cs=2000
kb_icount && limit_cs=200

# refused CMD...: exit 1 within the limit, the message, no median or figure
refused() {
	want=$1
	shift
	t0=$(now_cs)
	out=$("$@" 2>&1)
	rc=$?
	cs=$(( $(now_cs) - t0 ))
	echo "# $*: exit $rc after $((cs / 100)).$((cs / 10 % 10))$((cs % 10)) s: $out" | head -n 3
	case "$out" in
	$want) match=0 ;;
	*) match=1 ;;
	esac
	echo "$out" | grep -q -i -E 'median|cycles/iter|samples:' && match=1
	[ "$rc" = 1 ] && [ $match = 0 ] && [ $cs -lt $limit_cs ]
	tap $? "$*: refused in under $((limit_cs / 100)) s ($cs cs), exit 1, '$want', no figure"
}

refused "kbenchctl: routine 'slow' takes * us a window at N=1, over max_window_us=$max_window_us" \
	kbenchctl run slow --arg $ms
refused "kbenchctl: --iterations 1: routine 'slow' takes * us a window at N=1, over max_window_us=$max_window_us" \
	kbenchctl run slow --arg $ms --iterations 1
refused "kbenchctl: --iterations 100: routine 'slow' takes * us a window at N=1, over max_window_us=$max_window_us" \
	kbenchctl run slow --arg $ms --iterations 100
# a fast routine with a fixed N predicted over the limit (2^24 adds: 8 ms
# at 2 GHz, more in emulation): the prediction, before any long window
refused "kbenchctl: --iterations 16777216: routine '*' would take * us a window, over max_window_us=$max_window_us" \
	kbenchctl run add_chain --iterations 16777216
# compare with the slow one second: named, not the first
refused "kbenchctl: routine 'slow' takes * us a window at N=1, over max_window_us=$max_window_us" \
	kbenchctl compare add_chain slow

# a run's own bound: below the module's it decides and is echoed, above
# it kbenchctl refuses it (the module too, kbench_input_test)
refused "kbenchctl: routine 'slow' takes * us a window at N=1, over max_window_us=200" \
	kbenchctl run slow --arg 1 --max-window-us 200
got=$(kbenchctl --json run empty --samples 20 --max-window-us 300 | json_num max_window_us)
[ "$got" = 300 ]
tap $? "run empty --max-window-us 300: the reply's max_window_us is 300 ($got)"
got=$(kbenchctl --json run empty --samples 20 | json_num max_window_us)
[ "$got" = "$max_window_us" ]
tap $? "run empty: the reply's max_window_us is the module's $max_window_us ($got)"
out=$(kbenchctl run empty --max-window-us $((max_window_us + 1)) 2>&1)
rc=$?
[ $rc = 2 ] && [ "$out" = "kbenchctl run: --max-window-us $((max_window_us + 1)): at most $max_window_us (module parameter max_window_us)" ]
tap $? "--max-window-us above the module's: exit 2 ($rc), '$out'"

# the same routine registered again while a run uses it
echo 1500 >$p/sleep_ms
# 200 samples, and the run must succeed: on a loaded plain-TCG ppc64le
# host a stall once ended the probe at N = 2, where every net was
# negative, and all 200 samples were flagged (engine.h,
# kbench_probe_net()); on failure the run's error is printed
kbenchctl run setup_test --samples 200 >/dev/null 2>/tmp/rereg.err &
pid=$!
k=0
while [ $k -lt 100 ] && ! grep -qx 'kbench/[0-9]*' /proc/[0-9]*/comm 2>/dev/null; do
	sleep 0.1
	k=$((k + 1))
done
echo 1 >$p/reregister
err=$(cat $p/reregister_err)
wait $pid
rc=$?
echo 0 >$p/sleep_ms
[ "$rc" = 0 ] || sed 's/^/# /' /tmp/rereg.err
[ "$err" = -17 ] && [ "$rc" = 0 ]
tap $? "reregister during a run: -EEXIST ($err), the run completes (exit $rc)"
# hung_task_panic=1, hung_task_timeout_secs=10: a hang fails the VM too
t0=$(now_cs)
timeout 30 rmmod kbench_setup_test
rc=$?
[ "$rc" = 0 ] && ! lsmod | grep -q '^kbench_setup_test '
tap $? "rmmod kbench_setup_test after a second registration completes (exit $rc, $(( $(now_cs) - t0 )) cs)"
insmod $kb_moddir/kbench_setup_test.ko
tap $? "insmod kbench_setup_test.ko again"
[ "$(kbenchctl --json list | grep -c '"setup_test"')" = 1 ]
tap $? "setup_test listed once"

# CLOCK_GET's irq-off windows keep within max_window_us: at 2 us every
# clock gets fewer reads a window than the 256 it reads at the default
# (the reads come from the cost of a read, so this holds on any host);
# under icount, where a window's length is its instructions, every
# clock's best latency window is also within the bound (a slow clock,
# ktime_get_ns at ~100 instructions a read, took 256 reads, ~25 us)
if kb_builtin; then
	skip "clocks within max_window_us=2: kbench is built in (its limit cannot change)"
else
	lsmod | grep -q '^kbench_setup_test ' && rmmod kbench_setup_test
	rmmod kbench && insmod $ko max_window_us=2
	hz=$(kbenchctl --json info | json_num counter_hz)
	out=$(kbenchctl --json clocks 2>&1)
	reads=$(echo "$out" | tr -d '\n' | grep -o '"latency_reads": [0-9]*' | sed 's/.*: //')
	spans=$(echo "$out" | tr -d '\n' | grep -o '"latency_span_cycles": [0-9]*' | sed 's/.*: //')
	bound=$((hz * 2 / 1000000))
	r=0
	[ -n "$reads" ] || r=1
	for k in $reads; do [ "$k" -ge 1 ] && [ "$k" -lt 256 ] || r=1; done
	if kb_icount; then
		for k in $spans; do [ "$k" -le "$bound" ] || r=1; done
	fi
	echo "# reads a window:" $reads "; windows (ticks, bound $bound):" $spans
	tap_out $r "clocks at max_window_us=2: fewer than 256 reads a window$(kb_icount && echo ', every latency window within the bound')"
	rmmod kbench && insmod $ko max_window_us=$max_window_us
	insmod $kb_moddir/kbench_setup_test.ko
fi

exit $failed
