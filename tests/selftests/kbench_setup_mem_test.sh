#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What kbenchctl's requests make the module do, in the VM (busybox sh, as
# root), on every kernel and architecture (kbenchctl's own messages and
# output are kbench_cli_test.sh's, run once): the kernel's extended ack
# naming the option its attribute came from, a CPU already running
# refused, a setup failing mid-sweep and a sweep killed by a signal (every
# setup torn down), the built-ins' setup memory (a cap, setup_bytes_max:
# -E2BIG; more than half of what is available: -ENOMEM; nothing held
# after the refusals) and add_n's ENDBR64 variant, the last two reloading
# kbench.ko with parameters (not where kbench is built in).  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..10"

info=$(kbenchctl --json info)
max_window_us=$(echo "$info" | json_num max_window_us)
x86_icount=0
kb_icount && [ "$(uname -m)" = x86_64 ] && x86_icount=1

# the kernel's extended ack, after the option its attribute came from
out=$(kbenchctl run add_chain --iterations 16777216 2>&1)
rc=$?
case "$out" in
"kbenchctl: --iterations 16777216: routine '"*"' would take "*" us a window, over max_window_us=$max_window_us")
	r=$rc ;;
*) r=9 ;;
esac
[ "$r" = 1 ] || echo "# exit $rc: $out" | head -n 5
[ "$r" = 1 ]
tap $? "kbenchctl run add_chain --iterations 16777216: exit 1, the window predicted and max_window_us named after the option"
# a CPU already running: the refused run's thread (kbench/0) gone first,
# so that the thread waited for below is the long run's
k=0
while [ $k -lt 100 ] && grep -qx 'kbench/0' /proc/[0-9]*/comm 2>/dev/null; do
	sleep 0.2
	k=$((k + 1))
done
kbenchctl run add_chain --cpu 0 --samples 1000000 --iterations 1000 \
	>/dev/null 2>&1 &
pid=$!
# until it has started - its thread kbench/0 exists: under icount a guest
# second costs seconds, and a debug kernel on a loaded host can take more
# than one (up to 20 s).  (Probing with runs of our own raced: a probe
# could take the CPU first and make the long run fail as busy.)
k=0
while [ $k -lt 100 ] && ! grep -qx 'kbench/0' /proc/[0-9]*/comm 2>/dev/null; do
	sleep 0.2
	k=$((k + 1))
done
expect 1 "kbenchctl: --cpu 0: another run is using this CPU" \
	kbenchctl run add_chain --cpu 0 --samples 10
kill -TERM $pid
wait $pid


insmod "$kb_moddir/kbench_setup_test.ko" 2>/dev/null
params=/sys/module/kbench_setup_test/parameters

# a setup failing mid-sweep: the runs before it reported, its message, exit 1
echo 28 > $params/fail_errno
echo 4 > $params/fail_arg
out=$(kbenchctl run setup_test --arg 1..8:x2 --samples 20 --iterations 10 2>&1)
rc=$?
echo 0 > $params/fail_errno
echo -1 > $params/fail_arg
[ $rc = 1 ] && echo "$out" | grep -q '^         2 ' &&
	echo "$out" | grep -qx 'kbenchctl: setup_test: failing on purpose (fail_errno=28)' &&
	echo "$out" | grep -qx 'kbenchctl run: the sweep stopped at --arg 4, value 3 of 4' &&
	[ "$(cat $params/setups)" = "$(cat $params/teardowns)" ]
tap_out $? "a setup failing at --arg 4 of a sweep: its message, exit 1, every setup torn down"

# a sweep killed by a signal (SIGTERM: a background job ignores SIGINT):
# every setup torn down once its run has ended (kbenchctl's close does
# not wait for it: within a window and the teardown, 20 s at most here)
kbenchctl run setup_test --arg 1..1000:+250 --samples 1000000 --iterations 1000 \
	>/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
rc=$?
k=0
while [ $k -lt 100 ] && [ "$(cat $params/setups)" != "$(cat $params/teardowns)" ]; do
	sleep 0.2
	k=$((k + 1))
done
[ $rc = 143 ] && [ "$(cat $params/setups)" -gt 0 ] &&
	[ "$(cat $params/setups)" = "$(cat $params/teardowns)" ] &&
	[ "$(cat $params/mismatches)" = 0 ]
tap $? "a sweep killed (SIGTERM, exit $rc): $(cat $params/setups) setups, $(cat $params/teardowns) teardowns"
kb_rmmod kbench_setup_test

# the built-ins' setup memory: a cap (setup_bytes_max, -E2BIG) and half of
# what is available (-ENOMEM), never more; reload kbench.ko to set them
ko=$kb_moddir/kbench.ko
# built in (CONFIG_KBENCH=y), kbench cannot be reloaded with other parameters
# (SKIP there); elsewhere a reload that fails is a failure of each test
reload() { ! kb_builtin && rmmod kbench && insmod "$ko" "$@"; }
# not_reloaded N: N results for tests that needed the reload
not_reloaded() {
	k=0
	while [ $k -lt "$1" ]; do
		if kb_builtin; then
			skip "kbench is built in: not reloaded with other parameters"
		else
			tap 1 "reload of kbench.ko with parameters failed"
		fi
		k=$((k + 1))
	done
}
if reload setup_bytes_max=1048576; then
	expect 1 "kbenchctl: chase: 2097152 bytes: above setup_bytes_max 1048576 (0 in use)
kbenchctl run: the sweep stopped at --arg 2M, value 2 of 2" \
		kbenchctl --json run chase --arg 512K,2M --samples 10 --iterations 10
	# two buffers of 512K and one cache line (128 bytes on ppc64le)
	case $(uname -m) in ppc64le) memx=1048704 ;; *) memx=1048640 ;; esac
	expect 1 "kbenchctl: memcpy: $memx bytes: above setup_bytes_max 1048576 (0 in use)" \
		kbenchctl run memcpy --arg 512K --samples 10 --iterations 1
else
	not_reloaded 2
fi
if reload setup_bytes_max=1073741824; then
	# fill a tmpfs until about 400 MiB are available
	avail=$(awk '/^MemAvailable/ { print int($2 / 1024) }' /proc/meminfo)
	fill=$((avail - 400))
	mount -t tmpfs -o size=${avail}m tmpfs /mnt
	[ $fill -gt 0 ] && dd if=/dev/zero of=/mnt/fill bs=1M count=$fill 2>/dev/null
	out=$(kbenchctl run chase --arg 256M --samples 10 --iterations 10 2>&1)
	rc=$?
	rm -f /mnt/fill
	umount /mnt
	[ $rc = 1 ] && echo "$out" | grep -q '^kbenchctl: chase: 268435456 bytes: more than half the [0-9]* MiB available$'
	r=$?
	[ $r = 0 ] || echo "# exit $rc: $out"
	tap $r "chase --arg 256M with ~400 MiB available: -ENOMEM, nothing taken"
	kbenchctl --json info | tr -d ' \n' | grep -q '"setup":{"bytes":0,"bytes_max":1073741824}'
	tap $? "info: no setup memory held after the refusals"
else
	not_reloaded 2
fi
# add_n with an ENDBR64 before every add (what kernel IBT forces): 2 x arg + 2
if reload add_n_endbr=1; then
	if [ "$x86_icount" = 1 ]; then
		out=$(kbenchctl run add_n --arg 8 --iterations 1000 --samples 100 2>&1)
		echo "$out" | grep -q '^  median        18.000 ticks/iter' &&
			kbenchctl list | grep -q '^add_n .* ENDBR64'
		tap_out $? "add_n_endbr=1: add_n --arg 8 is 2 x 8 + 2 = 18 instructions per iteration"
	else
		kbenchctl run add_n --arg 8 --samples 20 >/dev/null 2>&1 ||
			[ "$(uname -m)" != x86_64 ]
		tap $? "add_n_endbr=1: add_n runs (its count is checked under icount)"
	fi
else
	not_reloaded 1
fi
if kb_builtin; then
	skip "kbench is built in: not reloaded"
else
	rmmod kbench; insmod "$ko"
	lsmod | grep -q '^kbench '
	tap $? "kbench.ko back with its defaults"
fi

exit $failed
