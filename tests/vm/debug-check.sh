#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# debug-check.sh COMMAND...: inside the debug kernel's VM (tests/vm/run
# --kernel debug --no-load), check that the sanitizers are live, load
# kbench, run COMMAND (a suite that prints its own TAP), unload every kbench
# module, and check what the kernel found meanwhile: no kmemleak report
# (after two scans), lockdep still on (it turns itself off at its first
# report), no KASAN/UBSAN/lockdep/debugobjects report, warning or BUG in
# the log.  KASAN and UBSAN reports, warnings and BUGs also panic the VM
# (panic_on_warn=1), which tests/vm/run reports as a failure on its own.
#
# Prints TAP; exits 1 if COMMAND or any check failed.

ko=/lib/kbench/kbench.ko
leaks=/sys/kernel/debug/kmemleak
n=0
failed=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=1; fi
}
# What any of the debug options prints when it finds something.
pattern='BUG:|WARNING:|UBSAN:|KASAN|suspected memory leak|ODEBUG|possible circular|possible recursive|inconsistent lock|suspicious RCU|sleeping function called|scheduling while atomic|Call Trace|soft lockup|hard LOCKUP|detected stall|hung_task: blocked|blocked for more than'

echo "TAP version 13"
echo "1..5"

# ---- before: the sanitizers are there and live ------------------------------
missing=""
for o in KASAN KASAN_GENERIC UBSAN PROVE_LOCKING PROVE_RCU DEBUG_ATOMIC_SLEEP \
	 DEBUG_PREEMPT DEBUG_KMEMLEAK DEBUG_OBJECTS SLUB_DEBUG_ON; do
	zcat /proc/config.gz 2>/dev/null | grep -qx "CONFIG_$o=y" || missing="$missing $o"
done
[ -z "$missing" ]
tap $? "debug_kernel_config: the running kernel has KASAN, UBSAN, lockdep, kmemleak, debug objects, SLUB debugging${missing:+ (missing:$missing)}"

dmesg | grep -q 'KernelAddressSanitizer initialized' &&
	grep -q 'debug_locks: *1$' /proc/lockdep_stats &&
	grep -qw panic_on_warn=1 /proc/cmdline
tap $? "debug_kernel_live: KASAN initialized, lockdep on, panic_on_warn=1"

# Reports about the boot itself are not kbench's: mark them seen.
( echo scan >$leaks && echo clear >$leaks )
tap $? "kmemleak_live: scanned and cleared before loading kbench"

# The debug options make the kernel's own code several times slower
# (lockdep on every seqcount read: ktime_get): a window of 1000 ktime_get
# calls needs more than the default 1 ms.
args=${KBENCH_DEBUG_MODULE_ARGS-max_window_us=20000}
# shellcheck disable=SC2086
lsmod | grep -q '^kbench ' || insmod $ko $args
tap $? "insmod kbench.ko $args"

# ---- the suite ----------------------------------------------------------------
# the whole log must stay clean: a test that warns on purpose
# (kbench_atomic_test.sh) SKIPs and runs in a boot of its own
KBENCH_LOG_MUST_STAY_CLEAN=1 /bin/sh -c "$*"
rc=$?
[ $rc = 0 ]
tap $? "suite: $* (exit $rc)"

# ---- after: unload, then ask every checker -----------------------------------
# Stack traces of objects allocated by a module that is gone show bare
# addresses: keep the modules' symbols to name them.
syms=/tmp/kbench.kallsyms
grep -E '\[kbench(_example)?\]$' /proc/kallsyms | sort >$syms
# symbolize: "0xADDR" at the end of a line -> "0xADDR sym+0xoff [module]"
symbolize() {
	while IFS= read -r line; do
		a=${line##* }
		best=""
		case "$a" in
		0x*)
			while read -r addr _ sym mod; do
				[ $((0x$addr - a)) -le 0 ] && best="$sym+$(printf '%#x' $((a - 0x$addr))) $mod"
			done <$syms
			;;
		esac
		echo "$line${best:+ $best}"
	done
}

echo "TAP version 13"
echo "1..4"
n=0
# Every kbench module, those that use kbench first.  A run whose requester
# has gone ends on its own (a socket's release only aborts it): until then
# it holds its routine's module, which holds kbench, and rmmod says
# "Resource temporarily unavailable".  So the unload is tried again, once
# a second for up to 60 s (the runs end within a window and a teardown);
# a module still there then is reported with lsmod.
tries=0
while lsmod | grep -q '^kbench' && [ $tries -lt 60 ]; do
	[ $tries -gt 0 ] && sleep 1
	for m in $(lsmod | awk '$1 ~ /^kbench./ { print $1 }') kbench; do
		lsmod | grep -q "^$m " && rmmod "$m" 2>/dev/null
	done
	tries=$((tries + 1))
done
if lsmod | grep -q '^kbench'; then
	echo "# still loaded after $tries tries:"
	lsmod | grep '^kbench' | sed 's/^/# /'
	false
else
	[ $tries -gt 1 ] && echo "# unloaded at try $tries"
	true
fi
tap $? "unloaded: no kbench module left"

# kmemleak reports only objects older than 5 s that two scans found
# unreferenced.
sleep 6
if ! ( echo scan >$leaks && echo scan >$leaks ); then
	echo "# kmemleak scan failed: $(dmesg | grep kmemleak | tail -n 3)"
fi
found=$(cat $leaks)
if [ -n "$found" ]; then
	echo "$found" | head -n 60 | symbolize | sed 's/^/# /'
fi
[ -z "$found" ]
tap $? "kmemleak_clean: no unreferenced object after unloading kbench ($(echo "$found" | grep -c '^unreferenced object') found)"

grep -q 'debug_locks: *1$' /proc/lockdep_stats
tap $? "lockdep_clean: lockdep still on (it turns itself off at its first report)"

bad=$(dmesg | grep -v -i 'command line' | grep -E "$pattern")
[ -n "$bad" ] && echo "$bad" | head -n 60 | sed 's/^/# /'
[ -z "$bad" ]
tap $? "dmesg_clean: no KASAN, UBSAN, lockdep, debugobjects, kmemleak report, warning or BUG"

exit $failed
