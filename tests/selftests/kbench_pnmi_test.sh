#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# arm64's pseudo-NMIs end to end (busybox sh, as root), the interrupt made
# to land in windows on purpose: kbench_setup_test's pnmi_self raises the
# PMU's overflow interrupt on its own CPU in every period-th timed call
# (run(N + 2)) of a window, so that a run of S samples at period P has
# exactly S / P samples in whose window it was raised (P divides S).
#
# Which kernel this is decides what is asserted, never kbench: the test
# bed's pseudo-NMI kernel (scripts/pnmi-kernel.sh, release *-kbench-pnmi,
# booted with irqchip.gicv3_pseudo_nmi=1 by tests/vm/run --kernel pnmi)
# takes the PMU's interrupt as a pseudo-NMI inside windows; every other
# arm64 kernel (Debian's, built without CONFIG_ARM64_PSEUDO_NMI) masks it
# there and takes it after the window.  On the pseudo-NMI kernel:
#   - the kernel says so itself (dmesg: "Pseudo-NMIs enabled", the PMU
#     driver "using NMIs");
#   - INFO's environment flags pseudo-NMIs (kbenchctl info: "pseudo_nmi"
#     on) and kbenchctl run warns "warning: pseudo-NMIs on";
#   - the nmi detector is listed;
#   - the flagged count is S / P exactly and those samples are excluded
#     (the valid count S - S / P under icount, at most that in plain TCG);
#   - every interrupt the module raised was taken: the PMU's count in
#     /proc/interrupts went up by as many (the probe's and warm-up's too);
#   - under icount, the clean samples' median is that of a run without
#     any (pnmi_self:0), and their max within one CNTVCT tick of its max
#     (none that the interrupt stretched is left among them);
#   - nothing in the log warned.
# Elsewhere on arm64 the opposite: no pseudo-NMI in the environment, no
# warning, no nmi detector, none of the samples flagged nmi, and the
# interrupts are still all taken (after their windows) and the median
# unmoved.  Not arm64: SKIP (x86_64's NMIs: kbench_nmi_test.sh).

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

samples=2000
period=5
want=$((samples / period))
tests="kernel_pnmi env_pnmi warning detector pnmi_flagged pnmi_taken pnmi_median dmesg"

echo "TAP version 13"
echo "1..$(echo "$tests" | wc -w)"

if [ "$(uname -m)" != aarch64 ]; then
	# told it is the pseudo-NMI kernel: it is not
	if [ "${KBENCH_PNMI_EXPECT:-0}" = 1 ]; then
		for t in $tests; do
			tap 1 "$t: KBENCH_PNMI_EXPECT=1, but this is $(uname -m)"
		done
		exit 1
	fi
	for t in $tests; do
		skip "$t: arm64's pseudo-NMIs, not on $(uname -m)"
	done
	exit 0
fi

case "$(uname -r)" in
*-kbench-pnmi) pnmi=1; what="pseudo-NMI kernel $(uname -r)" ;;
*) pnmi=0; what="$(uname -r), no pseudo-NMIs" ;;
esac
echo "# $what; cmdline: $(cat /proc/cmdline)"
# KBENCH_PNMI_EXPECT=1|0: the kernel the caller booted (make check's
# pnmi suites: 1), so that another kernel fails rather than passes
expect=${KBENCH_PNMI_EXPECT:-$pnmi}

lsmod | grep -q '^kbench_setup_test ' || insmod "$kb_moddir/kbench_setup_test.ko"
par=/sys/module/kbench_setup_test/parameters
echo "kbench_pnmi_test: start" >/dev/kmsg

# holds STATUS: what was checked (STATUS 0: it is so) is what this kernel
# must show: so on the pseudo-NMI kernel, not so elsewhere
holds() {
	if [ $pnmi = 1 ]; then [ "$1" = 0 ]; else [ "$1" != 0 ]; fi
}

# the kernel itself, whatever kbench says
dmesg | grep -q 'Pseudo-NMIs enabled' && dmesg | grep -q 'hw perfevents: .*using NMIs'
holds $? && [ "$expect" = $pnmi ]
tap $? "kernel_pnmi: the kernel expected (pseudo-NMI kernel: $expect), its pseudo-NMIs and NMI PMU interrupt $([ $pnmi = 1 ] && echo on || echo off) ($(dmesg | grep -E 'Pseudo-NMIs|hw perfevents' | sed 's/^\[[^]]*\] //' | tr '\n' ';'))"

# INFO's environment flag, as kbenchctl reports it: "on (...)" and a
# problem, or "off"
env=$(kbenchctl --json info | tr -d '\n' | grep -o '"pseudo_nmi": *{[^}]*}')
echo "$env" | grep -q '"value": *"on' && echo "$env" | grep -q '"problem": *true'
on=$?
echo "$env" | grep -q '"value": *"off"'
[ $? != $on ] && holds $on
tap $? "env_pnmi: INFO's environment: $env"

out=$(kbenchctl run empty --cpu 0 --samples 20 2>&1)
echo "$out" | grep -q 'warning: pseudo-NMIs on'
holds $?
r=$?
[ $r = 0 ] || echo "$out" | sed 's/^/# /'
tap $r "warning: kbenchctl run $([ $pnmi = 1 ] && echo warns || echo 'does not warn') 'warning: pseudo-NMIs on'"

detectors=$(kbenchctl info | sed -n 's/^detectors: *//p')
echo ", $detectors," | grep -q ', nmi,'
holds $?
tap $? "detector: nmi $([ $pnmi = 1 ] && echo among || echo 'not among') the detectors ($detectors)"

# pmu_irqs: the PMU interrupt's count on CPU 0 (/proc/interrupts)
pmu_irqs() { awk '/arm-pmu/ { print $2; exit }' /proc/interrupts; }

# the first (the routine's) figures of a run's JSON
fig() { json_num "$1" <"$2"; }

# net FILE: "min median max" of the routine's clean samples' net cycles
net() {
	tr -d ' \n' <"$1" |
		grep -o '"net_cycles":{"min":-*[0-9]*,"median":-*[0-9]*,"max":-*[0-9]*' |
		head -n 1 | sed 's/[^0-9-]*:\(-*[0-9]*\)/\1 /g'
}

raised0=$(cat $par/pnmis_raised)
irqs0=$(pmu_irqs)
kbenchctl --json run "pnmi_self:$period" --cpu 0 --iterations 100 \
	--samples $samples >/tmp/kbench_pnmi.json
rc=$?
raised=$(( $(cat $par/pnmis_raised) - raised0 ))
irqs=$(( $(pmu_irqs) - irqs0 ))
nmi=$(fig nmi /tmp/kbench_pnmi.json)
valid=$(fig valid /tmp/kbench_pnmi.json)
echo "# pnmi_self:$period: exit $rc, ${nmi:-no} nmi of $samples samples flagged, $valid valid; $raised PMU interrupts raised (the probe's and warm-up's too), $irqs taken (/proc/interrupts, CPU 0)"
if [ $pnmi = 1 ]; then
	if kb_icount; then
		[ "$valid" = $((samples - want)) ]
	else
		[ -n "$valid" ] && [ "$valid" -le $((samples - want)) ]
	fi
	vok=$?
	[ $rc = 0 ] && [ "$nmi" = $want ] && [ $vok = 0 ]
	tap $? "pnmi_flagged: every pseudo-NMI raised in a sample's window flagged ($nmi of $samples, want $want) and excluded ($valid valid)"
else
	[ $rc = 0 ] && [ "${nmi:-0}" = 0 ] && [ -n "$valid" ] && [ "$valid" -gt 0 ]
	tap $? "pnmi_flagged: the PMU interrupts raised in windows waited for their end: no sample flagged nmi (${nmi:-none}), $valid valid"
fi

[ "$raised" -ge $want ] && [ "$irqs" = "$raised" ]
tap $? "pnmi_taken: the $raised PMU interrupts raised were all taken ($irqs)"

if kb_icount; then
	kbenchctl --json run pnmi_self:0 --cpu 0 --iterations 100 \
		--samples $samples >/tmp/kbench_nopnmi.json
	rc0=$?
	# shellcheck disable=SC2046  # three numbers
	set -- $(net /tmp/kbench_pnmi.json) $(net /tmp/kbench_nopnmi.json)
	echo "# net cycles of the clean samples: with PMU interrupts min $1 median $2 max $3; without (exit $rc0, nmi $(fig nmi /tmp/kbench_nopnmi.json)) min $4 median $5 max $6"
	nmi0=$(fig nmi /tmp/kbench_nopnmi.json)
	# and none the interrupt stretched kept among them: their max
	# within one CNTVCT tick (16 instructions: the window's phase) of
	# the run without
	[ $rc0 = 0 ] && [ "${nmi0:-0}" = 0 ] && [ $# = 6 ] && [ "$2" = "$5" ] &&
		[ "$3" -le $(($6 + 1)) ]
	tap $? "pnmi_median: the clean samples' median unmoved by the interrupts ($2, without: $5), none stretched (max $3, without: $6) (icount)"
else
	skip "pnmi_median: an exact median needs --icount (plain TCG: the flagged count only)"
fi

bad=$(dmesg | sed -n '/kbench_pnmi_test: start/,$p' | grep -E 'WARNING|BUG:|Oops|lockup|stall|scheduling while atomic|sleeping function|unhandled|nobody cared')
[ -n "$bad" ] && echo "$bad" | sed 's/^/# unexpected: /'
[ -z "$bad" ]
tap $? "dmesg: no warnings"

exit $failed
