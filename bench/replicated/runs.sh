#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/replicated/runs.sh [-n PAIRS] [-r RUNS] [-b 'CMD'] [-k KBENCHCTL]
#
# Replicated runs on this machine's CPU (--user, add_n): PAIRS pairs of
# separate invocations with --runs RUNS a side (user/RESULTS.md,
# "Replicated runs"), and per pair:
#   aa0  diff of two add_n:64 invocations at --threshold 0 (A/A)
#   aad  the same at the default threshold (2%), as the README's
#        before/after section says
#   oned two single-run invocations of add_n:64 at the default
#   abd  add_n:64 against add_n:65 (--match add_n:64=add_n:65), default
#   ab0  the same at --threshold 0
#   one0 two single-run invocations of add_n:64, --threshold 0
#   caa  compare add_n:64 add_n:64 --user --runs RUNS
#   cab  compare add_n:64 add_n:65 --user --runs RUNS
# It prints the verdict counts, the changes, the spreads and the wall
# time of each --runs invocation.  No assertion: the figures are this
# machine's.  Needs python3 and bc.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
K=$top/user/kbenchctl
N=20
R=5
B=
while getopts n:r:b:k: o; do
	case $o in
	n) N=$OPTARG ;;
	r) R=$OPTARG ;;
	b) B=$OPTARG ;;
	k) K=$OPTARG ;;
	*) sed -n 3,16p "$0"; exit 2 ;;
	esac
done
D=$(mktemp -d /tmp/kbench-replicated-XXXXXX)
trap 'rm -rf "$D"' EXIT
between=()
[ -n "$B" ] && between=(--between "$B")
timed() {
	local s e
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$e - $s" | bc >> "$D/times"
}
for i in $(seq 1 "$N"); do
	timed "$K" run add_n:64 --user --runs "$R" "${between[@]}" --save "$D/aa-a$i.json"
	timed "$K" run add_n:64 --user --runs "$R" "${between[@]}" --save "$D/aa-b$i.json"
	timed "$K" run add_n:64 --user --runs "$R" "${between[@]}" --save "$D/ab-a$i.json"
	timed "$K" run add_n:65 --user --runs "$R" "${between[@]}" --save "$D/ab-b$i.json"
	"$K" run add_n:64 --user --save "$D/one-a$i.json" >/dev/null 2>&1
	"$K" run add_n:64 --user --save "$D/one-b$i.json" >/dev/null 2>&1
	"$K" --json compare add_n:64 add_n:64 --user --runs "$R" "${between[@]}" > "$D/caa-$i.out" 2>/dev/null
	"$K" --json compare add_n:64 add_n:65 --user --runs "$R" "${between[@]}" > "$D/cab-$i.out" 2>/dev/null
done
for i in $(seq 1 "$N"); do
	"$K" --json diff "$D/aa-a$i.json" "$D/aa-b$i.json" --threshold 0 > "$D/aa0-$i.out"
	"$K" --json diff "$D/aa-a$i.json" "$D/aa-b$i.json" > "$D/aad-$i.out"
	"$K" --json diff "$D/ab-a$i.json" "$D/ab-b$i.json" --match add_n:64=add_n:65 > "$D/abd-$i.out"
	"$K" --json diff "$D/ab-a$i.json" "$D/ab-b$i.json" --match add_n:64=add_n:65 --threshold 0 > "$D/ab0-$i.out"
	"$K" --json diff "$D/one-a$i.json" "$D/one-b$i.json" --threshold 0 > "$D/one0-$i.out"
	"$K" --json diff "$D/one-a$i.json" "$D/one-b$i.json" > "$D/oned-$i.out"
done
python3 - "$D" "$N" <<'PY'
import json, statistics, sys
D, N = sys.argv[1], int(sys.argv[2])
def rng(v):
    return "min %.2f median %.2f max %.2f" % (min(v), statistics.median(v), max(v))
for tag in ["aa0", "aad", "abd", "ab0", "one0", "oned", "caa", "cab"]:
    c, ch, sp, res, ex = {}, [], [], [], {}
    for i in range(1, N + 1):
        d = json.load(open("%s/%s-%d.out" % (D, tag, i)))
        r = d["comparison"] if tag[0] == "c" else d["routines"][0]
        v = "inconclusive" if r["inconclusive"] else r["verdict"]
        c[v] = c.get(v, 0) + 1
        if tag[0] != "c":
            ex[d["exit_status"]] = ex.get(d["exit_status"], 0) + 1
        ch.append(r["median_rel_diff_pct"] if tag[0] == "c" else r["change_pct"])
        if r.get("between_run_spread_pct") is not None:
            sp.append(r["between_run_spread_pct"])
        if r.get("resolvable_change_pct") is not None:
            res.append(r["resolvable_change_pct"])
    print(tag, c, "exit", ex if ex else "-", "change %:", rng(ch), "| spread %:", rng(sp) if sp else "-",
          "| resolvable %:", rng(res) if res else "-")
    if tag == "one0":
        print("  |change| sorted:", " ".join("%.2f" % abs(x) for x in sorted(ch, key=abs)))
t = [float(x) for x in open(D + "/times")]
print("wall time of a --runs invocation (s):", rng(t), "(%d)" % len(t))
PY
