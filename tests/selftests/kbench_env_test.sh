#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The environment report and kbenchctl tune in the VM (busybox sh, root,
# kbench.ko loaded): INFO and --json report the kernel's facts as the
# kernel itself shows them (uname -v: PREEMPT_RT, PREEMPT_DYNAMIC) and the
# hypervisor qemu TCG is (x86_64: the hypervisor bit with vendor
# TCGTCGTCGTCG, no steal time: the detector reports itself unavailable);
# a run on a CPU with a warning prints it; tune then reset restores every
# sysfs/procfs value tune may touch (snapshots compared), and fails
# cleanly, changing nothing, without root.  Booted with tests/vm/run --smt
# (SMT siblings; --smp 4: two cores), tune takes the sibling offline,
# steers the interrupts to the other core, and reset brings it all back.
# On a kernel with debug options (tests/vm/run --kernel debug) runs carry
# the debug-options warning.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

# env_value ITEM: the value of an environment item in the JSON on stdin
env_value() {
	tr -d '\n' | grep -o "\"$1\": *{ *\"value\": *\"[^\"]*\"" | head -n 1 |
		sed 's/.*"value": *"//; s/"$//'
}

# in_list LIST CPU: is CPU in the CPU list ("0-3,8")?
in_list() {
	echo "$1" | awk -F, -v c="$2" '{
		for (i = 1; i <= NF; i++) {
			k = split($i, a, "-")
			if (c >= a[1] + 0 && c <= a[k] + 0) f = 1
		}
	} END { exit !f }'
}

# every value tune may change, one "path value" line each
snapshot() {
	for f in /proc/sys/kernel/nmi_watchdog /proc/irq/default_smp_affinity \
		 /proc/irq/*/smp_affinity_list /sys/devices/system/cpu/cpu*/online \
		 /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor \
		 /sys/devices/system/cpu/cpufreq/boost \
		 /sys/devices/system/cpu/intel_pstate/no_turbo; do
		[ -r "$f" ] && echo "$f $(cat "$f")"
	done
}

echo "TAP version 13"
echo "1..14"

arch=$(uname -m)
info=$(kbenchctl --json info --cpu 0)
tap $? "kbenchctl --json info --cpu 0"

# ---- the kernel's facts -----------------------------------------------------
hyper=$(echo "$info" | env_value hypervisor)
# x86: the hypervisor bit without a driver; ppc64 pseries: an LPAR; arm64:
# qemu's virt machine offers SMCCC 1.0 only, so the kernel sees none
case "$arch" in
x86_64) want="other (TCGTCGTCGTCG)" ;;
ppc64le) want="other (PAPR LPAR)" ;;
*) want="none" ;;
esac
[ "$hyper" = "$want" ]
r=$?
if [ "$want" != none ]; then
	echo "$info" | tr -d '\n' | grep -q '"problems": *\[[^]]*"hypervisor"' || r=1
fi
[ $r = 0 ] || echo "# hypervisor: '$hyper'"
tap $r "info: hypervisor '$want'"

! echo "$info" | tr -d '\n' | grep -o '"detectors": *\[[^]]*\]' | grep -q steal
tap $? "info: no steal detector under TCG (no paravirtual steal time)"

rt=$(echo "$info" | env_value preempt_rt)
if uname -v | grep -q PREEMPT_RT; then want=yes; else want=no; fi
[ "$rt" = "$want" ]
tap $? "info: PREEMPT_RT '$rt' as uname -v says ($(uname -v | cut -c1-40))"

pm=$(echo "$info" | env_value preemption)
case "$pm" in
none*|voluntary*|full*|lazy*|laziest*) r=0 ;;
*) r=1 ;;
esac
if uname -v | grep -q PREEMPT_DYNAMIC; then
	case "$pm" in *"(dynamic)") ;; *) r=1 ;; esac
fi
tap $r "info: preemption '$pm'"

hz=$(echo "$info" | env_value hz)
case "$hz" in 100|250|300|1000) r=0 ;; *) r=1 ;; esac
tap $r "info: HZ $hz"

dbg=$(echo "$info" | env_value debug_options)
if [ -n "$KBENCH_DEBUG_KERNEL" ] || uname -r | grep -q debug; then
	# the debug test bed: KASAN, lockdep, ... (tests/vm/debug-kernel.config)
	case "$dbg" in *lockdep*kasan*) r=0 ;; *) r=1 ;; esac
	slub=$(echo "$info" | env_value slub_debug)
	case "$slub" in on*) ;; *) r=1 ;; esac
	tap $r "info: the debug kernel's options: $dbg; slub_debug $slub"
else
	[ "$dbg" = none ]
	tap $? "info: a Debian kernel has no debug options ($dbg)"
fi

# ---- warnings at the top of a run -------------------------------------------
# one warning line per problem of CPU 0, before the report's first line
problems=$(echo "$info" | tr -d '\n' | grep -o '"problems": *\[[^]]*\]' |
	grep -o '"[a-z_]*"' | grep -c -v problems)
out=$(kbenchctl run add_chain --cpu 0 --samples 20 --iterations 100 2>&1)
warnings=$(echo "$out" | sed '/^run [0-9]* on cpu 0:/,$d' | grep -c '^warning: ')
before=$(echo "$out" | sed '/^run [0-9]* on cpu 0:/,$d' | wc -l)
[ "$problems" -gt 0 ] && [ "$warnings" = "$problems" ] && [ "$before" = "$warnings" ]
r=$?
if [ "$hyper" != none ]; then
	echo "$out" | grep -q -F "warning: hypervisor $hyper: " || r=1
fi
if [ -n "$KBENCH_DEBUG_KERNEL" ] || uname -r | grep -q debug; then
	echo "$out" | grep -q '^warning: debug options .*lockdep' || r=1
fi
[ $r = 0 ] || echo "$out" | sed 's/^/# /'
tap $r "run --cpu 0: first the warnings, one per problem ($warnings of $problems)"

csv=$(kbenchctl run add_chain --cpu 0 --samples 5 --iterations 100 --csv 2>/dev/null | head -n 1)
[ "$csv" = "index,routine,net_cycles,flags" ]
tap $? "run --csv: the warnings stay out of the CSV (stderr)"

# ---- tune and reset ---------------------------------------------------------
# the CPU to prepare: 0 with SMT siblings (cpu 1 goes offline), else 1,
# or 0 when it is the only one (--icount: the interrupts have to stay)
sib=$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list)
cpu=1
[ "$sib" != 0 ] || [ ! -d /sys/devices/system/cpu/cpu1 ] && cpu=0
before=$(snapshot)

# as nobody: refused (exit 1) where there is something to change, which
# is everywhere but on a lone CPU (--icount: the interrupts stay)
kbenchctl tune --cpu $cpu --dry-run | grep -q 'would' && want=1 || want=0
su -s /bin/sh nobody -c "kbenchctl tune --cpu $cpu" >/tmp/tune.out 2>&1
rc=$?
after=$(snapshot)
[ $rc = $want ] && [ "$before" = "$after" ] && [ ! -e /run/kbench/tune.state ]
r=$?
[ $want = 0 ] || grep -q 'tune needs root' /tmp/tune.out || r=1
[ $r = 0 ] || sed 's/^/# /' /tmp/tune.out
tap $r "tune as nobody: exit $want, nothing changed, nothing saved$([ $want = 1 ] && echo ', says it needs root')"
rm -rf /run/kbench

kbenchctl --json tune --cpu $cpu >/tmp/tune.json 2>/tmp/tune.err
rc=$?
# every interrupt that may still run on the CPU was refused by the kernel
left=0
for f in /proc/irq/*/smp_affinity_list; do
	in_list "$(cat "$f")" $cpu || continue
	tr -d '\n' </tmp/tune.json |
		grep -q "\"path\": \"$f\",[^}]*\"result\": \"refused\"" ||
		left=$((left + 1))
done
# (unless no other CPU stays online: one core of two threads)
tr -d '\n' </tmp/tune.json | grep -q '"interrupt": "they stay' && left=0
[ $rc = 0 ] && [ $left = 0 ]
r=$?
[ $r = 0 ] && echo "# $(grep -c '"result": "changed"' /tmp/tune.json) changed, $(grep -c '"result": "refused"' /tmp/tune.json) refused"
[ $r = 0 ] || { sed 's/^/# /' /tmp/tune.err; echo "# $left interrupts left on CPU $cpu"; }
tap $r "tune --cpu $cpu: every interrupt moved away or refused by the kernel"

if [ "$sib" != 0 ]; then
	[ "$(cat /sys/devices/system/cpu/cpu1/online)" = 0 ]
	tap $? "tune --cpu 0: its SMT sibling cpu 1 is offline"
else
	skip "tune takes an SMT sibling offline: none here (tests/vm/run --smt)"
fi

kbenchctl tune --reset >/tmp/reset.out 2>&1
rc=$?
after=$(snapshot)
[ $rc = 0 ] && [ "$before" = "$after" ] && [ ! -e /run/kbench/tune.state ]
r=$?
if [ $r != 0 ]; then
	sed 's/^/# /' /tmp/reset.out
	echo "$before" >/tmp/before
	echo "$after" >/tmp/after
	diff /tmp/before /tmp/after | sed 's/^/# /'
fi
tap $r "tune --reset: every value as before ($(echo "$before" | wc -l) compared), state file gone"

kbenchctl tune --reset >/dev/null 2>&1
tap $? "tune --reset again: nothing to restore, exit 0"

exit "$failed"
