#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kbench_measure() from atomic context, in a VM boot of its own (tests/vm/run
# -- /selftests/kbench_atomic_test.sh; kbench.ko loaded): the module
# kbench_atomic_test calls it under preempt_disable(), a spinlock,
# rcu_read_lock() and with interrupts off - each -EINVAL - and from process
# context - 0.  The kernel log must then hold exactly one warning, kbench's
# WARN_ON_ONCE in __kbench_measure(), and nothing else: no "sleeping
# function called from invalid context", no "scheduling while atomic", no
# lockdep report.  The warning is on purpose, so the test turns
# panic_on_warn off and keeps the console quiet while it runs (both
# restored after), and judges only the log lines written since it began:
# it runs late in the collection, after the dmesg check and the compare
# test's deliberate NMI backtraces.  Where the whole log must stay clean
# (tests/vm/debug-check.sh sets KBENCH_LOG_MUST_STAY_CLEAN=1) it SKIPs,
# and runs in a boot of its own instead.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

p=/sys/module/kbench_atomic_test/parameters

echo "TAP version 13"
echo "1..5"

if [ "${KBENCH_LOG_MUST_STAY_CLEAN:-0}" = 1 ]; then
	for t in insmod atomic process warning log; do
		skip "$t: warns on purpose; this kernel's log must stay clean"
	done
	exit 4
fi

pow=$(cat /proc/sys/kernel/panic_on_warn)
lvl=$(cut -f1 /proc/sys/kernel/printk)
restore() {
	echo "$pow" >/proc/sys/kernel/panic_on_warn
	echo "$lvl" >/proc/sys/kernel/printk
}
echo 0 >/proc/sys/kernel/panic_on_warn
# the warning to the log only: tests/vm/run fails a boot whose console
# shows one
echo 1 >/proc/sys/kernel/printk
# the log from here on is this test's
n0=$(dmesg | wc -l)
insmod "$kb_moddir/kbench_atomic_test.ko"
tap $? "insmod kbench_atomic_test.ko"

r=""
for c in preempt spin rcu irq; do
	r="$r $c=$(cat $p/$c)"
done
echo "#$r process=$(cat $p/process)"
bad=0
tried=0
for c in preempt spin rcu irq; do
	v=$(cat $p/$c)
	# 1: not visible to this kernel (no CONFIG_PREEMPT_COUNT: Debian's
	# arm64 and ppc64le kernels), so the module did not try it
	[ "$v" = 1 ] && continue
	tried=$((tried + 1))
	[ "$v" = -22 ] || bad=1
done
# interrupts off is visible to every kernel
[ $bad = 0 ] && [ "$(cat $p/irq)" = -22 ] && [ $tried -ge 1 ]
tap $? "kbench_measure() from atomic context: -EINVAL each ($tried contexts tried, 1 = invisible without CONFIG_PREEMPT_COUNT:$r)"
# It measures again (not -EINVAL): 0, on every arch and in both modes.
# What the measurement flagged is printed every time (the module's
# process_excluded: its excluded samples by reason, named as kbenchctl's
# JSON "excluded_by_reason" names them).  -ENODATA (all 200 samples
# flagged) was seen in plain TCG on ppc64le at N = 100: `reference', the
# reasonableness test, because the net of the empty loop there was a few
# dozen timebase ticks, and the emulated counter's reference spans vary
# by more than half of that (kmod/tests/kbench_atomic_test.c says how it
# was measured); at the
# module's N = 1000 it did not happen in 20 tries.
v=$(cat $p/process)
reasons=$(awk -v RS=, -v FS=, '
	BEGIN { split("cpu_changed backwards nmi smi window reference event steal skew", k, " ") }
	$1 + 0 > 0 { printf "%s%s %d", sep, ((NR in k) ? k[NR] : "bit" NR - 1), $1; sep = ", " }' \
	"$p/process_excluded" 2>/dev/null)
echo "# process: $v; $(cat $p/process_samples 2>/dev/null) samples," \
	"$(cat $p/process_valid 2>/dev/null) valid; excluded by reason: ${reasons:-none}"
[ "$v" = 0 ]
tap $? "kbench_measure() from process context afterwards: 0 ($v)"

log=$(dmesg | tail -n +$((n0 + 1)))
warns=$(echo "$log" | grep -c 'WARNING:')
ours=$(echo "$log" | grep 'WARNING:' | grep -c '__kbench_measure')
traces=$(echo "$log" | grep -ci 'call trace')	# arm64: "Call trace:"
echo "$log" | grep 'WARNING:' | sed 's/^/# /'
if zcat /proc/config.gz 2>/dev/null | grep -qx '# CONFIG_BUG is not set'; then
	# WARN_ON_ONCE() tests and reports nothing there
	skip "exactly one warning: this kernel has no CONFIG_BUG ($warns warnings)"
else
	what="$warns warnings, $ours ours, $traces call traces"
	[ "$warns" = 1 ] && [ "$ours" = 1 ] && [ "$traces" = 1 ]
	tap $? "exactly one warning, kbench's in __kbench_measure ($what)"
fi
pattern='BUG:|Oops|lockup|RCU stall|rcu: INFO|scheduling while atomic'
pattern="$pattern|sleeping function called|possible circular|possible recursive"
pattern="$pattern|inconsistent lock|suspicious RCU|KASAN|UBSAN"
bad=$(echo "$log" | grep -v -i 'command line' | grep -E "$pattern")
[ -n "$bad" ] && echo "$bad" | head -n 20 | sed 's/^/# /'
[ -z "$bad" ]
tap $? "nothing else in the kernel log"
kb_rmmod kbench_atomic_test
restore
exit $failed
