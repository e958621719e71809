#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the VM, plain TCG, on a host that may be loaded (make check runs it
# beside other VMs): the diff test module before and after a change that
# makes it several times slower - /extra/before (2 loads an iteration)
# and /extra/after (32 loads; built with LOADS=1, see kbench_difftest.c) -
# each measured as replicated runs (run --runs 5, the module reloaded
# between them), saved, and compared with kbenchctl diff.
#
# Plain TCG's counter is the host's time: a loaded host slows whole runs
# (10-60 % seen) and the emulator has slow modes that last a run or two,
# so no figure is asserted here (the exact ones are the icount test's,
# diff-vm.sh).  What holds on any host: the runs are the unit of
# replication (Welch's t interval over the runs' log medians, the spread
# between runs inside it), and the change is far beyond any such spread
# (in TCG a load is a softmmu lookup, a nop nothing: 4 against 34
# instructions, 2 against 32 loads), so the direction is asserted
# whenever a verdict is reached: "regressed" (exit 1) and the reverse
# "improved", never "no change" or the other direction; "inconclusive"
# (too few runs resolve it) is accepted with its reason printed, and the
# exit codes that go with it.  Then the mechanics: the files, --bisect,
# --markdown, run --baseline, and (printed for the host's checks) both
# files for the exports.  TAP on stdout.
R=5
n=0
failed=0
t() { # status description
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=1
	fi
}
has() { grep -qF -- "$1" "$2"; }
verdict() { grep -o '"verdict": "[^"]*"' "$1" | head -n 1 | sed 's/.*: "//; s/"$//'; }
num() { grep -o "\"$1\": [-0-9.e+]*" "$2" | head -n 1 | sed 's/.*: //'; }
reload() { echo "rmmod kbench_difftest && insmod /extra/$1/kbench_difftest.ko"; }
run() { kbenchctl run kbench_diff_test --samples 200 "$@"; }
# the reason of an inconclusive verdict: the routine's line saying why,
# the summary's words and the smallest change the runs resolve
why() { grep -E '^  inconclusive |inconclusive \(|resolve a change' "$1" | tr -s ' \n' ' '; }

insmod /extra/before/kbench_difftest.ko
t $? "insmod the version before (4 instructions, 2 loads an iteration)"
run --runs $R --between "$(reload before)" --save /tmp/before.json >/tmp/o 2>&1
rc=$?
sed 's/^/# /' /tmp/o
kbenchctl --json diff --check /tmp/before.json >/tmp/c 2>&1
[ $rc = 0 ] && [ "$(num runs /tmp/c)" = $R ] &&
	[ "$(grep -c '"replicate":' /tmp/before.json)" = $R ]
t $? "before: run --runs $R --between 'rmmod && insmod' saved $R runs in one file, each with its replicate index (exit $rc; diff --check: $(num runs /tmp/c) runs)"

rmmod kbench_difftest && insmod /extra/after/kbench_difftest.ko
t $? "replaced by the version after (34 instructions, 32 loads; same routine name)"
run --runs $R --between "$(reload after)" --save after >/tmp/o 2>&1
rc=$?
sed 's/^/# /' /tmp/o
[ $rc = 0 ] && [ -f /root/.local/share/kbench/after.json ] &&
	[ "$(grep -c '"replicate":' /root/.local/share/kbench/after.json)" = $R ]
t $? "after: $R runs saved by NAME (~/.local/share/kbench/after.json) (exit $rc)"

# before -> after: a slowdown
kbenchctl diff /tmp/before.json after >/tmp/d 2>&1
rc=$?
sed 's/^/# /' /tmp/d
kbenchctl --json diff /tmp/before.json after >/tmp/j 2>&1
v=$(verdict /tmp/j)
fwd=$v
case $v in
regressed)
	[ $rc = 1 ] && has "$R and $R runs, between-run spread" /tmp/d &&
		[ "$(num exit_status /tmp/j)" = 1 ] &&
		has '"inconclusive": false' /tmp/j
	t $? "diff before after: regressed between replicated runs ($R and $R), exit 1 (change $(num change_pct /tmp/j) %, CI $(num change_ci95_lo_pct /tmp/j) .. $(num change_ci95_hi_pct /tmp/j); exit $rc)"
	;;
inconclusive)
	[ $rc = 0 ] && has '"inconclusive": true' /tmp/j && [ -n "$(why /tmp/d)" ]
	t $? "diff before after: inconclusive, accepted with its reason: $(why /tmp/d)(exit $rc)"
	;;
*)
	t 1 "diff before after: '$v' for a routine with 16 times the loads (only regressed, or inconclusive with its reason; exit $rc)"
	;;
esac

# after -> before: the same change seen the other way
kbenchctl diff after /tmp/before.json >/tmp/d 2>&1
rc=$?
sed 's/^/# /' /tmp/d
kbenchctl --json diff after /tmp/before.json >/tmp/j 2>&1
v=$(verdict /tmp/j)
kbenchctl diff after /tmp/before.json --fail-on changed >/dev/null 2>&1
rc2=$?
case $v in
improved)
	[ $rc = 0 ] && [ $rc2 = 1 ]
	t $? "diff after before: improved, exit 0; with --fail-on changed exit 1 (change $(num change_pct /tmp/j) %; exits $rc, $rc2)"
	;;
inconclusive)
	[ $rc = 0 ] && [ $rc2 = 0 ] && [ -n "$(why /tmp/d)" ]
	t $? "diff after before: inconclusive, accepted with its reason: $(why /tmp/d)(exits $rc, $rc2 with --fail-on changed)"
	;;
*)
	t 1 "diff after before: '$v' for a routine with 1/16 the loads (only improved, or inconclusive with its reason; exit $rc)"
	;;
esac

# git bisect run's exits: a regression is "bad" (1), an inconclusive
# commit "cannot test" (125)
kbenchctl diff /tmp/before.json after --bisect >/dev/null 2>&1
rc=$?
case $fwd in
regressed) [ $rc = 1 ] ;;
inconclusive) [ $rc = 125 ] ;;
*) false ;;
esac
t $? "diff --bisect before after: exit 1 when regressed, 125 when inconclusive ($fwd: exit $rc)"

kbenchctl diff /tmp/before.json after --markdown >/tmp/m 2>/dev/null
rc=$?
sed 's/^/# /' /tmp/m
has '| routine | old/iter | new/iter | change | 95% CI | p | verdict |' /tmp/m &&
	has "| \`kbench_diff_test\` |" /tmp/m && has "$fwd" /tmp/m
t $? "diff --markdown: the table's header and kbench_diff_test's row, $fwd (exit $rc)"

# measure and compare in one step, the module after still loaded
run --runs 3 --baseline /tmp/before.json --json >/tmp/j 2>/tmp/e
rc=$?
v=$(tr -d '\n' </tmp/j | sed 's/.*"diff": {//' | grep -o '"verdict": "[^"]*"' | head -n 1 |
	sed 's/.*: "//; s/"$//')
case $v in
regressed) [ $rc = 1 ] ;;
inconclusive) [ $rc = 0 ] && has '"inconclusive": true' /tmp/j ;;
*) false ;;
esac
r=$?
[ $r = 0 ] || sed 's/^/# /' /tmp/e
t $r "run --runs 3 --baseline before --json with the version after loaded: its diff $v (regressed: exit 1; inconclusive: 0; got $rc)"

# both files for the host's checks of their exports
echo "# kbench-before-begin"
sed 's/^/# R /' /tmp/before.json
echo "# kbench-before-end"
echo "# kbench-after-begin"
sed 's/^/# R /' /root/.local/share/kbench/after.json
echo "# kbench-after-end"
echo "# verdict: $fwd"
echo "1..$n"
exit $failed
