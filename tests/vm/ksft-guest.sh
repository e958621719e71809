#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ksft-guest.sh PKG: inside the test VM (tests/vm/ksft.sh), run the
# installed kselftest package PKG as a CI farm does, with the kernel's own
# runner: `cd PKG && ./run_kselftest.sh -c kbench`.  busybox's timeout has
# no --foreground, which runner.sh uses: coreutils' timeout (--add'ed as
# /extra/timeout) takes its place.  run_kselftest.sh exits 0 whatever the
# tests did, so this exits 1 if a top-level result is "not ok" or results
# are missing, else 0.  The output is the runner's KTAP, as it came.
# Env: KBENCH_KSFT_SKIP="T T": the runner is given the collection's other
# tests (-t kbench:T each) instead of -c kbench, and a "# SKIP" line says
# which were left out (tests another kernel of the same check runs).

pkg=${1:?usage: ksft-guest.sh PKG}
# runner.sh writes the tests' output to /dev/stdout, which udev makes on a
# real system and devtmpfs does not
for i in 0:stdin 1:stdout 2:stderr; do
	[ -e "/dev/${i#*:}" ] || ln -s "/proc/self/fd/${i%%:*}" "/dev/${i#*:}"
done
if [ -x /extra/timeout ]; then
	rm -f /usr/bin/timeout
	cp /extra/timeout /usr/bin/timeout
fi
cd "$pkg" || exit 1
log=/tmp/ksft.log
sel="-c kbench"
if [ -n "$KBENCH_KSFT_SKIP" ]; then
	sel=""
	for t in $(./run_kselftest.sh -l | sed -n 's/^kbench://p'); do
		case " $KBENCH_KSFT_SKIP " in
		*" $t "*) ;;
		*) sel="$sel -t kbench:$t" ;;
		esac
	done
	echo "# ksft-guest: left out (KBENCH_KSFT_SKIP): $KBENCH_KSFT_SKIP"
fi
# each program's wall seconds after its result (where a suite's time goes)
# shellcheck disable=SC2086  # the selection is words
./run_kselftest.sh $sel 2>&1 | while IFS= read -r line; do
	case "$line" in "# selftests: kbench: "*) t0=$(date +%s) ;; esac
	printf '%s\n' "$line"
	case "$line" in
	"ok "*" selftests: kbench: "*|"not ok "*" selftests: kbench: "*)
		t=${line#*selftests: kbench: }
		echo "# ksft-guest: ${t%% *}: $(( $(date +%s) - ${t0:-0} )) s" ;;
	esac
done | tee $log
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' $log | head -n 1)
results=$(grep -c -E '^(not )?ok [0-9]+ ' $log)
if grep -q '^not ok ' $log; then
	echo "# ksft-guest: run_kselftest.sh -c kbench: failures above"
	exit 1
fi
if [ -z "$plan" ] || [ "$results" != "$plan" ]; then
	echo "# ksft-guest: $results results for a plan of ${plan:-nothing}"
	exit 1
fi
# the figures the C tests measured, as KTAP diagnostics (kbench_nl.c's
# ktap_figures()): a farm that keeps only this log keeps them
figs=$(grep -c -E '^(# )*kbench\.[A-Za-z0-9_.-]+\.median_(cycles|ticks)_per_iter: -?[0-9]+\.[0-9]{3}$' $log)
echo "# ksft-guest: $figs figure lines (# kbench.ROUTINE.median_..._per_iter: VALUE)"
if [ "$figs" = 0 ]; then
	echo "# ksft-guest: no figure in the output"
	exit 1
fi
exit 0
