#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the VM, under -icount shift=0 (1 tick = 1 instruction): the diff test
# module in two versions, /extra/v7 and /extra/v8 (7 and 8 instructions
# per iteration), measured, saved and compared.  The figures are exact:
# 7.000 and 8.000 cycles/iter, +14.29 % (8/7 - 1) with a CI of width 0.
# TAP on stdout.
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
run() { kbenchctl run kbench_diff_test --samples 200 --iterations 1000 "$@"; }

insmod /extra/v7/kbench_difftest.ko
t $? "insmod the 7-instruction version"
run --save /tmp/v7.json >/dev/null 2>/tmp/err
t $? "v7 measured and saved"
run --save /tmp/v7b.json >/dev/null 2>&1
t $? "v7 measured and saved again"
rmmod kbench_difftest && insmod /extra/v8/kbench_difftest.ko
t $? "replaced by the 8-instruction version (same routine name)"
run --save v8 >/dev/null 2>/tmp/err
t $? "v8 measured and saved by NAME"
[ -f /root/.local/share/kbench/v8.json ]
t $? "NAME stored as ~/.local/share/kbench/v8.json"

kbenchctl diff /tmp/v7.json v8 >/tmp/d 2>&1
rc=$?
sed 's/^/# /' /tmp/d
[ $rc = 0 ] && has "regressed (single runs)" /tmp/d &&
	has "between single runs, not an exit 1" /tmp/d
t $? "diff v7 v8 of single runs: regressed (single runs), exit 0 without --trust-single (got $rc)"

kbenchctl diff /tmp/v7.json v8 --trust-single >/tmp/d 2>&1
rc=$?
sed 's/^/# /' /tmp/d
cp /tmp/d /tmp/d.short
[ $rc = 1 ] && has "7.000 ticks    8.000 ticks   +14.29%  +14.29% .. +14.29%" /tmp/d &&
	has "regressed" /tmp/d
t $? "diff --trust-single v7 v8 (icount: runs repeat exactly): 7.000 -> 8.000 ticks/iter, +14.29 % (CI +14.29..+14.29), regressed, exit 1 (got $rc)"

kbenchctl diff /tmp/v7.json v8 -v --trust-single >/tmp/d 2>&1
rc=$?
[ $rc = 1 ] && has "old: /tmp/v7.json (" /tmp/d &&
	has "+14.29%  +14.29% .. +14.29%    < 0.001  regressed" /tmp/d &&
	has "block-bootstrap CI of the median change and its p" /tmp/d &&
	! has "block-bootstrap" /tmp/d.short
t $? "diff -v: the files, p < 0.001 and the method of the verdict; the default report has neither (got $rc)"

kbenchctl --json diff /tmp/v7.json v8 --trust-single >/tmp/j 2>&1
has '"change_pct": 14.285714285714285' /tmp/j && has '"verdict": "regressed"' /tmp/j &&
	has '"old_median_cycles": 7' /tmp/j && has '"new_median_cycles": 8' /tmp/j &&
	has '"exit_status": 1' /tmp/j
t $? "diff --json: change_pct 14.285714285714285 = (8 - 7) / 7 * 100 in doubles"

kbenchctl diff /tmp/v7.json /tmp/v7b.json >/tmp/d 2>&1
rc=$?
[ $rc = 0 ] && has "+0.00%  +0.00% .. +0.00%" /tmp/d && has "no change" /tmp/d
t $? "diff v7 v7 (two runs of one version): +0.00 %, no change, exit 0 (got $rc)"

kbenchctl diff v8 /tmp/v7.json >/tmp/d 2>&1
rc=$?
[ $rc = 0 ] && has "-12.50%" /tmp/d && has "improved" /tmp/d
t $? "diff v8 v7: -12.50 %, improved, exit 0 (got $rc)"
kbenchctl diff v8 /tmp/v7.json --fail-on changed --trust-single >/dev/null 2>&1
rc=$?
[ $rc = 1 ]
t $? "diff --fail-on changed: an improvement exits 1 (got $rc)"

run --baseline /tmp/v7.json --trust-single >/tmp/d 2>&1
rc=$?
[ $rc = 1 ] && has "diff against the baseline /tmp/v7.json" /tmp/d && has "+14.29%" /tmp/d
t $? "run --baseline v7 with v8 loaded: measures and diffs in one step, exit 1 (got $rc)"
run --baseline v8 --json >/tmp/j 2>/dev/null
rc=$?
[ $rc = 0 ] && has '"diff": {' /tmp/j && has '"verdict": "no change"' /tmp/j
t $? "run --baseline v8 --json with v8 loaded: no change, exit 0 (got $rc)"

# replicated kernel runs, the module under test reloaded between them
run --runs 3 --between 'rmmod kbench_difftest && insmod /extra/v8/kbench_difftest.ko' \
	--save /tmp/r3.json >/tmp/d 2>&1 &&
	run --runs 3 --save /tmp/r3b.json >>/tmp/d 2>&1 &&
	kbenchctl diff --check /tmp/r3.json >>/tmp/d 2>&1
rc=$?
has "3 runs" /tmp/d
t $((rc || $?)) "run --runs 3 --between 'rmmod && insmod' of the kernel routine: 3 runs in one file (exit $rc)"
kbenchctl diff /tmp/r3.json /tmp/r3b.json >/tmp/d 2>&1
rc=$?
sed 's/^/# /' /tmp/d
[ $rc = 0 ] && has "3 and 3 runs, between-run spread 0.00%" /tmp/d && has "+0.00%" /tmp/d
t $? "diff of two 3-run files of the same build under icount: +0.00%, between-run spread 0.00%, exit 0 (got $rc)"

# contrib/lkp's program as LKP runs it (parameters in the environment),
# its output through its parse: LKP's stats, exact under icount
if [ -x /extra/kbench/run ]; then
	routines=kbench_diff_test samples=200 RESULT_ROOT=/tmp \
		/extra/kbench/run >/tmp/lkp.out 2>&1
	rc=$?
	/extra/kbench/parse </tmp/lkp.out >/tmp/lkp.stats
	sed 's/^/# /' /tmp/lkp.stats
	[ $rc = 0 ] && grep -qx "kbench_diff_test.median_cycles_per_iter: 8" /tmp/lkp.stats &&
		grep -qx "kbench_diff_test.samples: 200" /tmp/lkp.stats &&
		[ -s /tmp/kbench.json ] && ! grep -qv '^[A-Za-z0-9_.-]*: [-0-9.e+]*$' /tmp/lkp.stats
	t $? "contrib/lkp run (routines=kbench_diff_test samples=200) then parse: kbench_diff_test.median_cycles_per_iter: 8 exactly, samples 200, every line 'key: number', kbench.json saved (run exit $rc)"
fi

echo "# the Markdown table:"
kbenchctl diff /tmp/v7.json v8 --markdown 2>&1 | sed 's/^/# /'
# the kernel run v7, saved, for the host's checks of its exports
echo "# kbench-result-begin"
sed 's/^/# R /' /tmp/v7.json
echo "# kbench-result-end"
echo "1..$n"
exit $failed
