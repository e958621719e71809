#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2086  # $ev below is words on purpose
#
# kbenchctl --events, --metric and `events` against the module, in the VM
# (busybox sh).  Without a PMU (x86_64 under TCG): the one-line reason and
# exit 1.  With one (arm64 under qemu): the kernel's errors after the
# option, the report's event lines, the userspace twin's counts by read(2)
# and by mrs (perf_user_access), compare and diff --metric, saved results
# and the samples' event columns.  Under -icount qemu counts instructions
# exactly and cycles at one per instruction, and the figures are asserted
# to the count (arm64 and POWER9 alike); without icount qemu's arm64 PMU
# counts no instructions.  The PMU's own limits and user access (mrs) are
# arm64's.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..22"
icount=0
kb_icount && icount=1
arch=$(uname -m)

if kbenchctl events | grep -q '^no hardware PMU'; then
	why=$(kbenchctl events)
	has 0 "no hardware PMU: " kbenchctl events
	has 0 "pmu:              $why" kbenchctl info
	has 1 "kbenchctl run: --events instructions: $why" \
		kbenchctl run add_chain --events instructions
	has 1 "kbenchctl run: --events cycles: $why" \
		kbenchctl run add_chain --events cycles --user
	has 1 "kbenchctl compare: --events instructions: $why" \
		kbenchctl compare add_chain --kernel-vs-user --metric instructions
	# a run without events after all that
	has 0 "verdict" kbenchctl run add_chain --samples 20 --iterations 100
	while [ $n -lt 22 ]; do skip "no PMU: $why"; done
	exit $failed
fi

pmu=$(kbenchctl events | head -n 1 | cut -d' ' -f1)
has 0 "generic: cycles" kbenchctl events
has 0 "=raw:0x" kbenchctl events -v
has 0 "pmu:              $pmu (cpus " kbenchctl info

# the kernel's refusals, after the option (qemu's arm64 PMUv3: no
# ref-cycles; 7 counters, and raw codes it takes and counts as nothing)
if [ "$arch" = aarch64 ]; then
	has 1 "kbenchctl: --events ref-cycles: event not supported by the PMU of the run's CPU" \
		kbenchctl run add_chain --events cycles,ref-cycles
	has 1 "kbenchctl: --events raw:0x7: no free PMU counter for this event" \
		kbenchctl run add_chain --events cycles,raw:0x1,raw:0x2,raw:0x3,raw:0x4,raw:0x5,raw:0x6,raw:0x7
else
	skip "qemu's arm64 PMU's refusals"
	skip "qemu's arm64 PMU's 7 counters"
fi

if [ $icount = 0 ]; then
	# plain TCG: cycles are host time; arm64's qemu counts instructions
	# only under icount
	if kbenchctl events | grep -q 'generic:.*instructions'; then
		has 0 "events     instructions " kbenchctl run add_chain \
			--events instructions --samples 50 --iterations 100
	else
		has 1 "kbenchctl: --events instructions: event not supported by the PMU" \
			kbenchctl run add_chain --events instructions
	fi
	has 0 "events     cycles " kbenchctl run add_chain --events cycles \
		--samples 50 --iterations 100
	has 0 "events     cycles " kbenchctl run add_chain --events cycles \
		--samples 50 --iterations 100 --user
	while [ $n -lt 22 ]; do skip "exact figures need -icount"; done
	exit $failed
fi

# N = 999: 5994 instructions of add_chain; cycles at one per instruction
ev="--events instructions,cycles --iterations 999 --samples 50"
# qemu's ppc64 PMU (7.2, target/ppc/power8-pmu.c) freezes its counters on
# MMCR0[FC], FC14 and FC56 only, not on FCS (supervisor state), which is
# how Linux asks for exclude_kernel: a user-mode window that an interrupt
# hits counts the handler's instructions too (add_n --arg 64 --user: max
# 82072 for 64935 in 3 of 4 runs).  Kernel windows run with interrupts off
# and stay exact.  So on ppc64le the twin's min and median are exact, its
# max is not asserted, and neither is how many of its samples exceed the
# kernel's max.
umax=
[ "$arch" = ppc64le ] || umax=1
has 0 "events     instructions 6.000/iter, cycles 6.000/iter (medians)" \
	kbenchctl run add_chain $ev
has 0 "derived    IPC 1.000, effective frequency" kbenchctl run add_chain $ev
has 0 "instructions per sample: min 5994, median 5994, max 5994" \
	kbenchctl run add_chain $ev -v
has 0 "cycles per sample: min 5994, median 5994, max 5994" \
	kbenchctl run add_chain $ev -v
# the twin counts its own user-mode instructions: the same body, the same
# count, by read(2) and (arm64, perf_user_access) by mrs
ua=/proc/sys/kernel/perf_user_access
[ -w $ua ] && echo 0 > $ua
has 0 "instructions per sample: min 5994, median 5994, max ${umax:+5994}" \
	kbenchctl run add_chain $ev -v --user
has 0 "read by read" kbenchctl run add_chain $ev -v --user
if [ -w $ua ]; then
	echo 1 > $ua
	has 0 "instructions per sample: min 5994, median 5994, max 5994" \
		kbenchctl run add_chain $ev -v --user
	has 0 "read by rdpmc" kbenchctl run add_chain $ev -v --user
	echo 0 > $ua
else
	skip "no user access to the PMU here ($ua)"
	skip "no user access to the PMU here ($ua)"
fi
has 0 "inflated above the kernel max: ${umax:+0 of }" \
	kbenchctl compare add_chain --kernel-vs-user --metric instructions \
	--iterations 999 --samples 50 -v
has 0 "mul_chain - add_chain: +0.000 instructions/iter (medians)" \
	kbenchctl compare add_chain mul_chain --metric instructions \
	--iterations 999 --samples 50

# add_n (an argument): arg + 2 instructions per iteration (arm64 arg + 3),
# as many cycles, at every argument; the userspace twin counts the same.
# ppc64le: the timebase and the cycles event say arg + 2, but qemu's PMU
# counts fewer instructions, how many depends on where the code lies.
# qemu (7.2, target/ppc/translate.c) adds a translation block's
# instructions to the PMCs when the block ends in a direct jump within its
# page (goto_tb) or an exit, not when it ends with
# tcg_gen_lookup_and_goto_ptr(): an indirect branch (add_n's back edge,
# "4: blr", a block of its own) or a block cut at a page boundary.  Seen:
# arg + 1 in kbench.ko, and 14 a iteration at arg 64 in a twin whose block
# crossed a page.  So on ppc64le only the cycles are asserted for add_n;
# add_chain's instructions (direct branches, one page) are exact above.
case $arch in aarch64) extra=3 ;; *) extra=2 ;; esac
for a in 1 16 64; do
	w=$((a + extra))
	if [ "$arch" = ppc64le ]; then
		needle=", cycles $w.000/iter (medians)"
	else
		needle="events     instructions $w.000/iter, cycles $w.000/iter (medians)"
	fi
	has 0 "$needle" kbenchctl run add_n --arg $a $ev
done
w=$(((64 + extra) * 999))
if [ "$arch" = ppc64le ]; then
	needle="cycles per sample: min $w, median $w, max "
else
	needle="instructions per sample: min $w, median $w, max $w"
fi
has 0 "$needle" kbenchctl run add_n --arg 64 $ev -v --user

# saved results with events, diff --metric, run --baseline --metric
export XDG_DATA_HOME=/tmp/xdg
kbenchctl run add_chain $ev --save ev_a >/dev/null 2>&1
has 0 "0 regressed, 0 improved, 1 no change" \
	kbenchctl run add_chain $ev --baseline ev_a --metric instructions
kbenchctl run mul_chain $ev --save ev_b >/dev/null 2>&1
has 0 "0 regressed, 0 improved, 1 no change" \
	kbenchctl diff ev_a ev_b --match add_chain=mul_chain --metric instructions
id=$(kbenchctl --json run add_chain $ev | grep -m1 '"run_id"' | tr -dc 0-9)
has 0 "index,routine,net_cycles,flags,instructions,cycles" \
	kbenchctl samples "$id" --csv
exit $failed
