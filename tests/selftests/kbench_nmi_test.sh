#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The NMI and SMI detectors end to end, with the interference made to land
# in windows on purpose (busybox sh, as root): kbench_setup_test's
# nmi_self and smi_self raise an NMI or an SMI on their own CPU in every
# period-th timed call (run(N + 2)) of a window, so that a run of S
# samples at period P has exactly S / P samples the detector must flag,
# whatever the probe and the warm-up took before (P divides S).  Nothing
# here waits for an interrupt to land by chance, and nothing depends on
# how long anything takes: where the interrupt lands is decided by the
# routine's instructions, in plain TCG as under icount.
#
# Asserted on x86_64, under icount and in plain TCG alike:
#   - the flagged count is S / P exactly, and those samples are excluded
#     (the valid count is S - S / P under icount, at most that in plain
#     TCG, where the reasonableness test excludes samples the host
#     stretched as well);
#   - every NMI raised was taken by the module's own handler (none reported
#     as unknown) and nothing in the log warned;
# and under icount only (one tick = one instruction): the clean samples of
# the run with NMIs have the same median as a run without any, and are
# all the same (min = median = max): what the detector flags is exactly
# what the interrupt stretched.  An SMI needs the counter MSR_SMI_COUNT
# (qemu's TCG counts its SMM entries there); where kbench found none the
# SMI test says so (real AMD CPUs).  Other architectures have no per-CPU
# NMI or SMI count (kbench_counter_arm64.h, kbench_counter_powerpc.h):
# SKIP there.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

samples=2000
period=5
want=$((samples / period))

echo "TAP version 13"
echo "1..5"

if [ "$(uname -m)" != x86_64 ]; then
	for t in nmi_flagged nmi_claimed nmi_median smi_flagged smi_median; do
		skip "$t: no NMI or SMI count on $(uname -m) (detectors: $(kbenchctl info | sed -n 's/^detectors: *//p'))"
	done
	exit 0
fi

lsmod | grep -q '^kbench_setup_test ' || insmod "$kb_moddir/kbench_setup_test.ko"
par=/sys/module/kbench_setup_test/parameters
detectors=$(kbenchctl info | sed -n 's/^detectors: *//p')

# valid_ok N: N valid samples are what the run should leave: all but the
# flagged ones under icount, at most those elsewhere
valid_ok() {
	if kb_icount; then
		[ "$1" = $((samples - want)) ]
	else
		[ -n "$1" ] && [ "$1" -le $((samples - want)) ]
	fi
}

# raise ROUTINE PERIOD OUT: a run of $samples samples at a fixed N, its
# JSON in OUT; the run's exit status
raise() {
	kbenchctl --json run "$1:$2" --cpu 0 --iterations 100 \
		--samples $samples >"$3"
}

# the first (the routine's) figures of a run's JSON
fig() { json_num "$1" <"$2"; }

# net FILE: "min median max" of the routine's clean samples' net cycles
net() {
	tr -d ' \n' <"$1" |
		grep -o '"net_cycles":{"min":-*[0-9]*,"median":-*[0-9]*,"max":-*[0-9]*' |
		head -n 1 | sed 's/[^0-9-]*:\(-*[0-9]*\)/\1 /g'
}

# the log from here on (not cleared: kbench_dmesg_test.sh reads it whole)
echo "kbench_nmi_test: start" >/dev/kmsg
raised0=$(cat $par/nmis_raised)
claimed0=$(cat $par/nmis_claimed)
raise nmi_self $period /tmp/kbench_nmi.json
rc=$?
nmi=$(fig nmi /tmp/kbench_nmi.json)
valid=$(fig valid /tmp/kbench_nmi.json)
raised=$(( $(cat $par/nmis_raised) - raised0 ))
claimed=$(( $(cat $par/nmis_claimed) - claimed0 ))
echo "# nmi_self:$period: exit $rc, $nmi of $samples samples flagged nmi, $valid valid; $raised NMIs raised (the probe's and warm-up's too), $claimed claimed"
case "$detectors" in *nmi*) ;; *) echo "# no nmi among the detectors: $detectors" ;; esac
[ $rc = 0 ] && [ "$nmi" = $want ] && valid_ok "$valid"
tap $? "nmi_flagged: every NMI raised in a sample's window flagged ($nmi of $samples, want $want) and excluded ($valid valid)"

bad=$(dmesg | sed -n '/kbench_nmi_test: start/,$p' | grep -E 'NMI received for unknown reason|Dazed and confused|WARNING|BUG:|Oops|lockup|stall|scheduling while atomic|sleeping function')
[ -n "$bad" ] && echo "$bad" | sed 's/^/# unexpected: /'
[ "$raised" -ge $want ] && [ "$claimed" = "$raised" ] && [ -z "$bad" ]
tap $? "nmi_claimed: all $raised NMIs raised were taken by the test module's handler ($claimed), no warnings"

if kb_icount; then
	raise nmi_self 0 /tmp/kbench_nonmi.json
	rc0=$?
	# shellcheck disable=SC2046  # three numbers
	set -- $(net /tmp/kbench_nmi.json) $(net /tmp/kbench_nonmi.json)
	median0=$5
	echo "# net cycles of the clean samples: with NMIs min $1 median $2 max $3; without (exit $rc0, nmi $(fig nmi /tmp/kbench_nonmi.json)) min $4 median $5 max $6"
	[ $rc0 = 0 ] && [ "$(fig nmi /tmp/kbench_nonmi.json)" = 0 ] &&
		[ $# = 6 ] && [ "$2" = "$5" ] && [ "$1" = "$2" ] && [ "$3" = "$2" ]
	tap $? "nmi_median: the clean samples' median unmoved by the NMIs ($2, without: $5), all equal (icount)"
else
	skip "nmi_median: an exact median needs --icount (plain TCG: the flagged count only)"
fi

case "$detectors" in
*smi*)
	raised0=$(cat $par/smis_raised)
	raise smi_self $period /tmp/kbench_smi.json
	rc=$?
	smi=$(fig smi /tmp/kbench_smi.json)
	valid=$(fig valid /tmp/kbench_smi.json)
	raised=$(( $(cat $par/smis_raised) - raised0 ))
	echo "# smi_self:$period: exit $rc, $smi of $samples samples flagged smi, $valid valid; $raised SMIs raised"
	[ $rc = 0 ] && [ "$smi" = $want ] && valid_ok "$valid"
	tap $? "smi_flagged: every SMI raised in a sample's window flagged ($smi of $samples, want $want) and excluded ($valid valid)"
	if kb_icount; then
		# shellcheck disable=SC2046  # three numbers
		set -- $(net /tmp/kbench_smi.json)
		[ $# = 3 ] && [ "$2" = "$median0" ] && [ "$1" = "$2" ] && [ "$3" = "$2" ]
		tap $? "smi_median: the clean samples' median unmoved by the SMIs (min $1 median $2 max $3, without: $median0), all equal (icount)"
	else
		skip "smi_median: an exact median needs --icount (plain TCG: the flagged count only)"
	fi
	;;
*)
	skip "smi_flagged: kbench found no SMI count here (MSR_SMI_COUNT; detectors: $detectors)"
	skip "smi_median: no SMI count"
	;;
esac

exit $failed
