#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kbench cannot wedge the kernel it measures, in the VM (busybox sh, root,
# 2 vCPUs; the CPU checks SKIP under icount, which has 1):
#   1. another module registers (and unregisters) a generic netlink family
#      while a long RUN is in flight: neither waits for the run (under 10 s
#      of the host's time, where the run would last 60 s: genetlink's
#      cb_lock is not held across the run);
#   2. the run's CPU goes offline while its routine's setup and teardown
#      create and destroy a kmem_cache (cpus_read_lock()): the offline
#      completes, the run ends with "CPU went offline", every setup is torn
#      down (the debug kernel's lockdep watches the locks; run.sh checks
#      dmesg);
#   3. suspend to the freezer (/sys/power/pm_test=freezer, then
#      /sys/power/state) while a RUN is in flight: every task freezes, and
#      the run completes after the thaw (under icount too: pm_test then
#      waits no time).
# Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..4"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
genl_ko=$kb_moddir/kbench_genl_test.ko
setup_ko=$kb_moddir/kbench_setup_test.ko

# 1. genl registration during a long RUN (60 s at most: max_run_ms)
if [ "$ncpu" -lt 2 ]; then
	skip "genl registration during a run: needs 2 vCPUs (not under icount)"
	skip "genl unregistration during a run: needs 2 vCPUs (not under icount)"
elif [ ! -f $genl_ko ]; then
	tap 1 "genl registration during a run: $genl_ko missing"
	tap 1 "genl unregistration during a run: $genl_ko missing"
else
	kbenchctl run add_chain --cpu 1 --samples 1000000 --iterations 1000 \
		>/dev/null 2>&1 &
	pid=$!
	busy 1
	sleep 1
	t0=$(now_ms)
	insmod $genl_ko
	r1=$?
	t1=$(now_ms)
	rmmod kbench_genl_test
	r2=$?
	t2=$(now_ms)
	# still running: the registration did not wait for its end
	kill -0 $pid 2>/dev/null
	alive=$?
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	# its run ends on its own (kbenchctl's close does not wait for it):
	# test 2's run on cpu1 must not take the ending one's thread for its own
	k=0
	while [ $k -lt 100 ] && grep -qx 'kbench/1' /proc/[0-9]*/comm 2>/dev/null; do
		sleep 0.2
		k=$((k + 1))
	done
	echo "# insmod $((t1 - t0)) ms, rmmod $((t2 - t1)) ms while a 60 s RUN was in flight"
	# waiting for the run would take the rest of its 60 s; 10 s of a
	# loaded host's time tells the two apart (an idle one: ~100 ms)
	[ $r1 = 0 ] && [ $((t1 - t0)) -lt 10000 ] && [ $alive = 0 ]
	tap $? "genl_register_family() during a RUN: not waiting for it, under 10 s ($((t1 - t0)) ms)"
	[ $r2 = 0 ] && [ $((t2 - t1)) -lt 10000 ]
	tap $? "genl_unregister_family() during a RUN: not waiting for it, under 10 s ($((t2 - t1)) ms)"
fi

# 2. CPU offline mid-run, setup/teardown taking cpus_read_lock()
online=/sys/devices/system/cpu/cpu1/online
if [ "$ncpu" -lt 2 ] || [ ! -w $online ]; then
	skip "cpu1 offline mid-run: needs 2 vCPUs and a hotpluggable cpu1"
elif ! insmod $setup_ko 2>/dev/null &&
	! grep -q '^kbench_setup_test ' /proc/modules; then
	tap 1 "cpu1 offline mid-run: cannot load $setup_ko"
else
	params=/sys/module/kbench_setup_test/parameters
	# adaptive N: a fixed N's window is host time here, and a loaded
	# host stretched all three of a probe step's (refused, 70 ms)
	kbenchctl run cache_test --cpu 1 --samples 1000000 \
		>/dev/null 2>/tmp/hazard.err &
	pid=$!
	busy 1
	sleep 1
	t0=$(now_ms)
	# a deadlock would hang here: the VM's hung-task panic ends it
	echo 0 >$online
	r1=$?
	t1=$(now_ms)
	wait $pid
	r2=$?
	echo 1 >$online
	s=$(cat $params/cache_setups)
	t=$(cat $params/cache_teardowns)
	echo "# offline $((t1 - t0)) ms (exit $r1); kbenchctl exit $r2: $(head -c 200 /tmp/hazard.err); setups $s teardowns $t"
	[ $r1 = 0 ] && [ $r2 != 0 ] && [ "$s" = 1 ] && [ "$t" = 1 ] &&
		grep -q "CPU went offline" /tmp/hazard.err
	tap $? "cpu1 offline mid-run with kmem_cache setup/teardown: offline done in $((t1 - t0)) ms, run ended, torn down"
	kb_rmmod kbench_setup_test
fi

# 3. the freezer during a run: on every kernel that can suspend tasks,
# under icount too (the Debian 6.12 kernel runs the collection there
# only), where pm_test waits no time at all: its mdelay() would be 10^9
# counted instructions a second
delay=/sys/module/suspend/parameters/pm_test_delay
if [ ! -w /sys/power/pm_test ] || ! grep -q freeze /sys/power/state 2>/dev/null; then
	skip "freezer during a run: no /sys/power/pm_test or no freeze state (kernel without CONFIG_PM_DEBUG/CONFIG_SUSPEND)"
elif kb_icount && [ ! -w $delay ]; then
	skip "freezer during a run: under icount only with a pm_test_delay to set to 0 (none here)"
else
	cpu=$((ncpu - 1))
	# a run that outlasts the freeze: under icount a guest second costs
	# several of the host's, and the freeze waits no time there
	fs=50000
	kb_icount && fs=10000
	kbenchctl run add_chain --cpu $cpu --samples $fs \
		>/tmp/hazard.out 2>&1 &
	pid=$!
	busy $cpu
	# pm_test waits pm_test_delay seconds in mdelay() with the tasks
	# frozen: 1 s, below the test bed's RCU stall timeout (3 s); none
	# under icount
	old_delay=$(cat $delay 2>/dev/null)
	wait_s=1
	kb_icount && wait_s=0
	[ -w $delay ] && echo $wait_s >$delay
	echo freezer >/sys/power/pm_test
	t0=$(now_ms)
	echo freeze >/sys/power/state
	r1=$?
	t1=$(now_ms)
	echo none >/sys/power/pm_test
	[ -n "$old_delay" ] && echo "$old_delay" >$delay
	wait $pid
	r2=$?
	echo "# freeze exit $r1 after $((t1 - t0)) ms; kbenchctl exit $r2: $(head -c 200 /tmp/hazard.out)"
	[ $r1 = 0 ] && { [ $r2 = 0 ] || [ $r2 = 2 ]; }
	tap $? "suspend to the freezer during a RUN: tasks froze, the run completed after"
fi

exit $failed
