#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# VM tests of saved results and kbenchctl diff (TAP):
#   run.sh icount [--kernel K]  the diff test module in two versions (7 and 8
#                               instructions per iteration) under icount:
#                               exact +14.29 % regressed / no change (~20 s)
#   run.sh bisect [--kernel K]  git bisect run over five synthetic versions
#                               of the test module finds the first slow one
#                               (three icount boots, ~60 s)
#   run.sh tcg [--kernel K]     plain TCG, any host load: the module before
#                               and after a change that makes it several
#                               times slower, 5 replicated runs a side:
#                               regressed (or inconclusive with its reason,
#                               never no change or improved), diff's exit
#                               codes, --bisect, --markdown, run --baseline,
#                               the KCIDB and gbench exports (one boot)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
stage=${1:?usage: run.sh icount|bisect|tcg [--kernel K]}
shift
kernel=6.1
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?--kernel wants a kernel}; shift 2 ;;
	*) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
vmrun=(tests/vm/run --kernel "$kernel")

# The release tests/vm/run boots for $kernel (its pick_kernel), and
# kbench.ko built for it where tests/vm/run keeps it (Module.symvers for
# the test module; the same lock as tests/vm/run's build).
kver_of() {
	local glob rt f k best=""
	case $kernel in
	6.1) glob='6.1.*' rt=0 ;;
	6.12) glob='6.12.*' rt=0 ;;
	6.12-rt) glob='6.12.*' rt=1 ;;
	*) echo "$kernel"; return 0 ;;
	esac
	for f in /boot/vmlinuz-$glob; do
		[ -e "$f" ] || continue
		k=${f#/boot/vmlinuz-}
		if [ "$rt" = 1 ]; then [[ "$k" == *-rt-* ]] || continue
		else [[ "$k" != *-rt-* ]] || continue; fi
		best=$(printf '%s\n%s\n' "$best" "$k" | sed '/^$/d' | sort -V | tail -n1)
	done
	[ -n "$best" ] || return 1
	mkdir -p "$top/build/$best"
	( flock 9; make -s -C "$top/kmod" KVER="$best" OUT="$top/build/$best/kmod" \
		>/dev/null 2>&1 ) 9>"$top/build/$best/.build.lock" || return 1
	echo "$best"
}

# check_exports DIR N: tests N+1.. of DIR/v7.json, the kernel run of the
# 7-instruction version under icount: its KCIDB export validates against
# schema v5.3 (tests/unit/fixtures, python3-jsonschema) with the exact
# figure, and its Google Benchmark export reads in Debian's compare.py's
# loader.  Prints the plan.
check_exports() {
	local d=$1 n=$2 failed=0 kb="$top/user/kbenchctl" out
	n=$((n + 1))
	if "$kb" export "$d/v7.json" --format kcidb -o "$d/v7.kcidb.json" &&
	   out=$(/usr/bin/python3 - "$d/v7.kcidb.json" \
		"$top/tests/unit/fixtures/kcidb-v05_03.schema.json" 2>&1 <<'PY'
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(d)
t = d['tests']
assert len(t) == 1 and t[0]['path'] == 'kbench.kbench_diff_test', t
assert t[0]['status'] == 'DONE' and t[0]['number'] == {'value': 7, 'unit': 'tsc ticks'}, t[0]
assert t[0]['environment']['misc']['kbench_version'], t[0]['environment']
print(d['checkouts'][0]['id'], d['builds'][0].get('architecture'))
PY
	); then
		echo "ok $n - the KCIDB export of the kernel run (icount) validates against schema v5.3: test kbench.kbench_diff_test DONE, number 7 tsc ticks ($out)"
	else
		echo "not ok $n - the KCIDB export of the kernel run (icount): $out"
		failed=1
	fi
	n=$((n + 1))
	if "$kb" export "$d/v7.json" --format gbench -o "$d/v7.gbench.json" &&
	   out=$(cd /usr/share/benchmark && /usr/bin/python3 -c '
import sys, gbench.util as u
d = u.load_benchmark_results(sys.argv[1])
b = [x for x in d["benchmarks"] if x["name"] == "kbench_diff_test"]
assert b and b[0]["cpu_time"] > 0 and b[0]["time_unit"] == "ns", d
print(b[0]["real_time"], b[0]["time_unit"])' "$d/v7.gbench.json" 2>&1); then
		echo "ok $n - the Google Benchmark export of the kernel run reads in compare.py's loader (gbench.util): kbench_diff_test $out"
	else
		echo "not ok $n - the Google Benchmark export of the kernel run: $out"
		failed=1
	fi
	echo "1..$n"
	return $failed
}

# check_tcg_exports DIR N VERDICT: tests N+1.. of DIR/before.json and
# DIR/after.json, 5 plain-TCG runs each of the diff test module before
# and after (tcg-vm.sh), VERDICT its diff's: their KCIDB export validates
# against schema v5.3, a test per run (DONE, a positive number of tsc
# ticks); their Google Benchmark exports are compared by compare.py's
# report (gbench.report, with its U test over the 5 repetitions), which
# sees the time go up when kbench said regressed.  Prints the plan.
check_tcg_exports() {
	local d=$1 n=$2 verdict=$3 failed=0 kb="$top/user/kbenchctl" out
	n=$((n + 1))
	if [ -s "$d/before.json" ] && [ -s "$d/after.json" ] &&
	   "$kb" export "$d/before.json" "$d/after.json" --format kcidb -o "$d/tcg.kcidb.json" &&
	   out=$(/usr/bin/python3 - "$d/tcg.kcidb.json" \
		"$top/tests/unit/fixtures/kcidb-v05_03.schema.json" 2>&1 <<'PY'
import json, sys, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(d)
t = d['tests']
assert len(t) == 10, len(t)
for x in t:
    assert x['path'] == 'kbench.kbench_diff_test' and x['status'] == 'DONE', x
    assert x['number']['unit'] == 'tsc ticks' and x['number']['value'] > 0, x
files = sorted(set(x['misc']['file'].rsplit('/', 1)[-1] for x in t))
assert files == ['after.json', 'before.json'], files
print(len(t), 'tests,', ' '.join(files))
PY
	); then
		echo "ok $n - the KCIDB export of both files validates against schema v5.3: a DONE test with a positive number of tsc ticks per run ($out)"
	else
		echo "not ok $n - the KCIDB export of both files: $out"
		failed=1
	fi
	n=$((n + 1))
	if "$kb" export "$d/before.json" --format gbench -o "$d/before.gbench.json" &&
	   "$kb" export "$d/after.json" --format gbench -o "$d/after.gbench.json" &&
	   out=$(cd /usr/share/benchmark && /usr/bin/python3 -c '
import sys, gbench.util as u, gbench.report as r
a = u.load_benchmark_results(sys.argv[1])
b = u.load_benchmark_results(sys.argv[2])
rep = {x["name"]: x for x in r.get_difference_report(a, b, utest=True)}
it = rep["kbench_diff_test"]
assert len(it["measurements"]) == 5, it
assert it["utest"]["nr_of_repetitions"] == 5, it["utest"]
med = rep["kbench_diff_test_median"]["measurements"][0]["time"]
if sys.argv[3] == "regressed":
    assert med > 0, med
print("5 repetitions a side, U test p %.3g, median time %+.0f %%" % (it["utest"]["time_pvalue"], 100 * med))' \
		"$d/before.gbench.json" "$d/after.gbench.json" "$verdict" 2>&1); then
		echo "ok $n - the Google Benchmark exports compared by compare.py's report (gbench.report): $out (kbench: $verdict; when regressed, the median time must go up)"
	else
		echo "not ok $n - the Google Benchmark exports in compare.py's report: $out"
		failed=1
	fi
	echo "1..$n"
	return $failed
}

build_module() { # insns outdir kver
	make -s -C tests/results INSNS="$1" OUT="$2" KVER="$3" >/dev/null 2>&1
}

case $stage in
icount)
	kver=$(kver_of) || { echo "not ok 1 - no kernel $kernel, or kbench.ko does not build"; exit 1; }
	d=$top/build/results-$kver
	rm -rf "$d"
	mkdir -p "$d/v7" "$d/v8"
	if ! build_module 7 "$d/build7" "$kver" || ! build_module 8 "$d/build8" "$kver"; then
		echo "not ok 1 - build of the diff test module (7 and 8 instructions)"
		exit 1
	fi
	cp "$d/build7/kbench_difftest.ko" "$d/v7/"
	cp "$d/build8/kbench_difftest.ko" "$d/v8/"
	"${vmrun[@]}" --icount --add "$d/v7" --add "$d/v8" \
		--add tests/results/diff-vm.sh --add contrib/lkp/programs/kbench \
		-- /extra/diff-vm.sh >"$d/vm.tap"
	rc=$?
	# the VM's TAP without its plan; the host's checks of the kernel
	# run it saved follow, numbered on
	grep -v '^1\.\.[0-9]*$' "$d/vm.tap"
	n=$(grep -cE '^(not )?ok ' "$d/vm.tap")
	sed -n '/^# kbench-result-begin$/,/^# kbench-result-end$/s/^# R //p' \
		"$d/vm.tap" >"$d/v7.json"
	check_exports "$d" "$n"
	exit $((rc || $? ))
	;;
tcg)
	kver=$(kver_of) || { echo "not ok 1 - no kernel $kernel, or kbench.ko does not build"; exit 1; }
	d=$top/build/results-tcg-$kver
	rm -rf "$d"
	mkdir -p "$d/before" "$d/after"
	# 2 and 32 loads an iteration (kbench_difftest.c, LOADS=1)
	if ! make -s -C tests/results INSNS=4 LOADS=1 OUT="$d/build-before" KVER="$kver" >/dev/null 2>&1 ||
	   ! make -s -C tests/results INSNS=34 LOADS=1 OUT="$d/build-after" KVER="$kver" >/dev/null 2>&1; then
		echo "not ok 1 - build of the diff test module with loads (4 and 34 instructions)"
		exit 1
	fi
	cp "$d/build-before/kbench_difftest.ko" "$d/before/"
	cp "$d/build-after/kbench_difftest.ko" "$d/after/"
	# a bound for a hung VM, not a speed: 13 runs of 200 samples, one
	# boot; it took 60-150 s beside other VMs
	"${vmrun[@]}" --timeout "${KBENCH_RESULTS_TCG_TIMEOUT:-600}" \
		--add "$d/before" --add "$d/after" --add tests/results/tcg-vm.sh \
		-- /extra/tcg-vm.sh >"$d/vm.tap"
	rc=$?
	grep -v '^# R ' "$d/vm.tap" | grep -v '^1\.\.[0-9]*$'
	n=$(grep -cE '^(not )?ok ' "$d/vm.tap")
	for f in before after; do
		sed -n "/^# kbench-$f-begin\$/,/^# kbench-$f-end\$/s/^# R //p" \
			"$d/vm.tap" >"$d/$f.json"
	done
	verdict=$(sed -n 's/^# verdict: //p' "$d/vm.tap")
	check_tcg_exports "$d" "$n" "$verdict"
	exit $((rc || $? ))
	;;
bisect)
	kver=$(kver_of) || { echo "not ok 1 - no kernel $kernel, or kbench.ko does not build"; exit 1; }
	b=$top/build/bisect
	rm -rf "$b"
	mkdir -p "$b/repo"
	# five versions of the module: 7, 7, 8, 8, 8 instructions per iteration
	(
		cd "$b/repo" || exit 1
		git init -q .
		git config user.name "kbench test"
		git config user.email "kbench-test@invalid"
		for insns in 7 7 8 8 8; do
			sed "s/^#define KBENCH_DIFF_INSNS\t7$/#define KBENCH_DIFF_INSNS\t$insns/" \
				"$top/tests/results/kbench_difftest.c" >kbench_difftest.c
			echo "$insns" >insns
			git add -A
			git commit -q --allow-empty -m "version with $insns instructions per iteration"
		done
	) || { echo "not ok 1 - synthetic repository"; exit 1; }
	repo=$b/repo
	first=$(git -C "$repo" rev-list --reverse HEAD | head -n1)
	slow=$(git -C "$repo" rev-list --reverse HEAD | sed -n 3p)
	# the baseline: the first (good) version, measured once
	git -C "$repo" checkout -q "$first"
	if ! make -s -C tests/results MODSRC="$repo" OUT="$b/base" KVER="$kver" >/dev/null 2>&1 ||
	   ! "${vmrun[@]}" --icount --add "$b/base/kbench_difftest.ko" -- \
		'insmod /extra/kbench_difftest.ko && kbenchctl run kbench_diff_test --samples 100 --iterations 1000 --save /tmp/b.json >/dev/null 2>&1 && cat /tmp/b.json' \
		>"$b/baseline.json" 2>/dev/null; then
		echo "not ok 1 - baseline of the first version"
		exit 1
	fi
	echo "ok 1 - baseline saved from the first version ($(wc -c <"$b/baseline.json") bytes)"
	git -C "$repo" checkout -q master 2>/dev/null || git -C "$repo" checkout -q main
	(
		cd "$repo" || exit 1
		git bisect start HEAD "$first" >/dev/null &&
			KBENCH_BISECT_KVER=$kver git bisect run "$top/tests/results/bisect-run.sh" \
				"$b/baseline.json" >"$b/bisect.log" 2>&1
		git bisect reset -q >/dev/null 2>&1
	)
	sed 's/^/# /' "$b/bisect.log" | grep -v '^# kernel: ' | tail -n 20
	if grep -q "^$slow is the first bad commit" "$b/bisect.log"; then
		echo "ok 2 - git bisect run finds the first 8-instruction version ($(git -C "$repo" log -1 --format=%s "$slow"))"
	else
		echo "not ok 2 - git bisect run did not name $slow as the first bad commit"
	fi
	echo "1..2"
	grep -q "^$slow is the first bad commit" "$b/bisect.log"
	;;
*)
	echo "run.sh: unknown stage '$stage' (icount, bisect, tcg)" >&2
	exit 2
	;;
esac
