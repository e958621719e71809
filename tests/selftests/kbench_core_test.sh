#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# --unit core on every architecture (busybox sh, kbench.ko loaded): the
# calibration - add_n's loop at 32 and 64 adds, interleaved with the
# routine - in the kernel and in --user.  Under icount one instruction is
# one nanosecond, so a core cycle (an add) is 1 TSC tick on x86_64 (the
# TSC counts instructions), 0.0625 CNTVCT ticks on arm64 (62.5 MHz) and
# 0.512 timebase ticks on powerpc64 (512 MHz), exactly; the chains cost
# 32 and 64 adds plus add_n's loop (2 instructions, 3 on arm64) and
# add_chain exactly 6 core cycles.  CNTVCT moves once every 16
# instructions: a chain's 35 or 67 instructions are 2.1875 or 4.1875 ticks
# an iteration, which a window of N iterations rounds to whole ticks, so on
# arm64 the chains' medians are within 1/N of that, and a round's ratio,
# the difference of two such windows over 32 N adds, is 0.0625 or one
# step of 1/(32 N) tick beside it: the median stays exact, its interval's
# ends may sit one step out (seen: 0.06253125 in --user at N = 1000).
# add_chain's own window rounds alike: 6 N instructions are 0.375 N
# ticks, so its median per iteration in core cycles is 6 or one tick
# over N beside it, 1 / (0.0625 N) = 0.016 at N = 1000 (seen: 5.984 in
# the kernel, where the window's phase against the tick follows the
# code run before it).  The interval's ends are the order-statistic
# ones (so on arm64 the ratio or one step beside it) scaled by the
# widening for the rounds' dependence, which the run reports
# (ticks_per_cycle_ci95_widening; seen 1.96 in --user and in the kernel,
# an end 1.96 steps out): each end must sit at 0 or exactly that many steps
# from the ratio.  Without icount nothing is exact:
# the tests skip.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..2"

# num_is X V: the number X (JSON's) equals V exactly
num_is() { awk -v x="$1" -v v="$2" 'BEGIN { exit !(x != "" && x + 0 == v + 0) }'; }
# num_near X V D: |X - V| <= D
num_near() { awk -v x="$1" -v v="$2" -v d="$3" 'BEGIN { exit !(x != "" && x - v <= d && v - x <= d) }'; }
# ci_end X V S W: |X - V| is 0 or W steps of S (the order-statistic
# end one step out, widened by W >= 1), to a relative 1e-9
ci_end() {
	awk -v x="$1" -v v="$2" -v s="$3" -v w="$4" 'BEGIN {
		d = x - v; if (d < 0) d = -d
		e = d - w * s; if (e < 0) e = -e
		t = 1e-9 * v
		exit !(x != "" && w != "" && w + 0 >= 1 && (d <= t || (s > 0 && e < t)))
	}'
}

case "$(uname -m)" in
x86_64) ratio=1 loop=2 step=0 cistep=0 cycstep=0 ;;
# one step: 1/1000 tick, 1/32000 of the ratio, 1/62.5 core cycle (and a rounding)
aarch64) ratio=0.0625 loop=3 step=0.001 cistep=0.00003125 cycstep=0.0161 ;;
ppc64le | ppc64) ratio=0.512 loop=2 step=0 cistep=0 cycstep=0 ;;
*) ratio='' loop='' step=0 cistep=0 cycstep=0 ;;
esac
lo=$(awk -v r="$ratio" -v l="$loop" 'BEGIN { print (32 + l) * r }')
hi=$(awk -v r="$ratio" -v l="$loop" 'BEGIN { print (64 + l) * r }')
for side in "" "--user"; do
	what="run add_chain ${side:+$side }--unit core"
	if ! kb_icount || [ -z "$ratio" ]; then
		skip "$what: exact only under icount (x86_64, arm64, powerpc64)"
		continue
	fi
	out=$(kbenchctl --json run add_chain $side --unit core --iterations 1000 --samples 100 2>&1)
	tpc=$(echo "$out" | json_num ticks_per_cycle)
	cilo=$(echo "$out" | json_num ticks_per_cycle_ci95_lo)
	cihi=$(echo "$out" | json_num ticks_per_cycle_ci95_hi)
	w=$(echo "$out" | json_num ticks_per_cycle_ci95_widening)
	echo "# $what: ticks_per_cycle $tpc, 95% CI [$cilo, $cihi], widened $w"
	num_is "$tpc" "$ratio" &&
	ci_end "$cilo" "$ratio" "$cistep" "$w" &&
	ci_end "$cihi" "$ratio" "$cistep" "$w" &&
	num_near "$(echo "$out" | json_num lo_median_ticks)" "$lo" "$step" &&
	num_near "$(echo "$out" | json_num hi_median_ticks)" "$hi" "$step" &&
	num_near "$(echo "$out" | json_num median_cycles)" 6 "$cycstep" &&
	echo "$out" | grep -q '"unit": "core cycles"'
	tap_out $? "$what under icount: exactly $ratio ticks a core cycle (CI ends 0 or one step of $cistep from it, times the widening), the chains $lo and $hi ticks, add_chain 6 core cycles (within $cycstep)"
done

exit $failed
