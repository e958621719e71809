#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Aborts timed in the guest's own time, under icount (one vCPU: a guest
# nanosecond is an instruction there, whatever the host does).  A run of
# add_chain at N = 100000 (600 us windows) for a million samples, which
# would take minutes of guest time to its end, is
#   1. ended by SIGTERM to kbenchctl: it exits 143 within 200 ms of guest
#      time (the window in flight, the teardown, the partial report);
#   2. ended by rmmod kbench: rmmod returns 0 within 200 ms of guest time
#      and kbenchctl exits with an error, not waiting; kbench is loaded
#      again after;
#   3. a run of setup_test whose setup is held (kbench_setup_test's hold,
#      a setup nothing can interrupt): kbenchctl SIGKILLed is reaped
#      within 200 ms of guest time while the setup is still held (the
#      socket's release only aborts; nobody waits for the run); once the
#      hold is let go the setup is torn down and a run succeeds.
# 200 ms is 300 windows: an abort that waited for the run, or for seconds
# of it, fails.  A SIGKILL'd requester is reaped so in
# kbench_concurrency_test's killed_run_ticks.  A CPU going offline needs
# 2 vCPUs, so plain TCG, where kbench_concurrency_test (cpu_offline_mid_run)
# and kbench_hazard_test assert only the order of events.  Without icount
# (plain TCG, real hardware) the tests skip: the host's time bounds
# nothing.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..3"
bound_ms=200
err=/tmp/kbench_abort_test.err

# start_run: the long run in the background ($pid), in flight after 2 s
# of guest time (started in a few ms); 1 if it ended by then
start_run() {
	timeout 300 kbenchctl run add_chain --samples 1000000 --iterations 100000 \
		>/dev/null 2>"$err" &
	pid=$!
	sleep 2
	kill -0 $pid 2>/dev/null
}

what="SIGTERM to kbenchctl mid-run: exit 143 within $bound_ms ms of guest time"
if ! kb_icount; then
	skip "$what: guest time is instructions under icount only"
elif ! start_run; then
	out=$(cat "$err")
	tap_out 1 "$what: the run ended before the signal"
else
	t0=$(now_ms)
	kill -TERM $pid
	wait $pid
	rc=$?
	ms=$(( $(now_ms) - t0 ))
	out=$(cat "$err")
	echo "# exit $rc after $ms ms of guest time"
	[ $rc = 143 ] && [ $ms -le $bound_ms ]
	tap_out $? "$what ($ms ms)"
fi

what="rmmod kbench mid-run: rmmod done within $bound_ms ms of guest time, kbenchctl told"
ko=$kb_moddir/kbench.ko
if ! kb_icount; then
	skip "$what: guest time is instructions under icount only"
elif kb_builtin || [ ! -f "$ko" ]; then
	skip "$what: kbench is built in (or $ko missing): it cannot be unloaded"
else
	max_window_us=$(kbenchctl --json info | json_num max_window_us)
	# the modules that use kbench (lsmod's last column), put back after
	loaded=$(lsmod | awk '$1 == "kbench" { print $4 }' | tr , ' ')
	for m in $loaded; do rmmod "$m"; done
	if ! start_run; then
		out=$(cat "$err")
		tap_out 1 "$what: the run ended before rmmod"
	else
		t0=$(now_ms)
		rmmod kbench
		rrc=$?
		ms=$(( $(now_ms) - t0 ))
		wait $pid
		rc=$?
		out=$(cat "$err")
		echo "# rmmod exit $rrc after $ms ms of guest time; kbenchctl exit $rc"
		[ $rrc = 0 ] && [ $ms -le $bound_ms ] && [ $rc != 0 ] && [ $rc != 124 ]
		tap_out $? "$what ($ms ms; kbenchctl exit $rc)"
	fi
	lsmod | grep -q '^kbench ' || insmod "$ko" max_window_us="$max_window_us"
	for m in $loaded; do insmod "$kb_moddir/$m.ko"; done
fi
what="SIGKILL to kbenchctl while its run's setup is held: reaped within $bound_ms ms of guest time, the setup still held"
st=/sys/module/kbench_setup_test/parameters
[ -d $st ] || insmod "$kb_moddir/kbench_setup_test.ko" 2>/dev/null
if ! kb_icount; then
	skip "$what: guest time is instructions under icount only"
elif [ ! -d $st ]; then
	skip "$what: kbench_setup_test is not loaded"
else
	s0=$(cat $st/setups)
	echo 1 >$st/hold
	timeout 300 kbenchctl run setup_test --samples 100 --iterations 10 \
		>/dev/null 2>"$err" &
	pid=$!
	k=0
	while [ "$(cat $st/holding)" != 1 ] && [ $k -lt 600 ]; do
		sleep 0.1
		k=$((k + 1))
	done
	t0=$(now_ms)
	kill -KILL $pid
	wait $pid
	ms=$(( $(now_ms) - t0 ))
	held="$(cat $st/hold) $(cat $st/holding) $(( $(cat $st/setups) - s0 ))"
	echo 0 >$st/hold
	k=0
	while [ "$(cat $st/teardowns)" != "$(cat $st/setups)" ] && [ $k -lt 600 ]; do
		sleep 0.1
		k=$((k + 1))
	done
	kbenchctl run add_chain --samples 10 --iterations 10 >/dev/null 2>"$err"
	rc=$?
	out="$(cat "$err")
hold, holding, setups returned when reaped: $held; setups $(cat $st/setups) teardowns $(cat $st/teardowns)"
	echo "# reaped after $ms ms of guest time; hold, holding, setups returned then: $held; the next run: exit $rc"
	[ $ms -le $bound_ms ] && [ "$held" = "Y 1 0" ] && [ $rc = 0 ] &&
		[ "$(cat $st/teardowns)" = "$(cat $st/setups)" ]
	tap_out $? "$what ($ms ms)"
fi
rm -f "$err"

exit $failed
