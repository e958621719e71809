#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# baseline.sh: two rows of `kbenchctl baseline --user` - the vDSO
# clock_gettime(CLOCK_MONOTONIC) (u_clock_gettime) and getpid() as a system
# call (u_getpid) - against Google Benchmark timing the same calls
# (BM_clock_gettime_monotonic, BM_getpid), pinned to one CPU, in one run.
#
#   bench/gbench/baseline.sh [-c CPU] [-r ROUNDS] [-n REPS] [-t TOL] [-o DIR]
#
#   -c CPU     CPU both tools are pinned to (default: the last online CPU)
#   -r ROUNDS  rounds (default 5); each is kbenchctl, Google Benchmark,
#              kbenchctl again: the kbench figure is the mean of the two
#   -n REPS    Google Benchmark --benchmark_repetitions (default 10)
#   -t TOL     tolerance in percent on |GB median / kbench - 1| (default 5)
#   -o DIR     the raw JSON of every round (default bench/gbench/out-baseline)
#
# Both figures include a loop around the call: kbench's is the median per
# iteration of the row's run (median_ticks_per_iter over the counter's
# rate: the call and kbench's two-instruction loop, not the table's figure
# per call, which subtracts that loop), Google Benchmark's the median over
# repetitions of cpu_time per iteration (the call, its loop and, being a
# mean over each repetition, every interrupt and preemption that landed in
# it).  A benchmark, not a test: nothing in make check runs it.
#
# Exit status: 0 both within the tolerance, 1 not, 2 usage/setup.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KB=${KBENCHCTL:-$ROOT/user/kbenchctl}
GB=${GBENCH:-$HERE/kbench_gbench}
CPU=$(($(getconf _NPROCESSORS_ONLN) - 1))
ROUNDS=5
REPS=10
TOL=5
OUT=$HERE/out-baseline

usage() { sed -n '9,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts c:r:n:t:o:h opt; do
	case $opt in
	c) CPU=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	n) REPS=$OPTARG ;;
	t) TOL=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) usage ;;
	esac
done

for t in jq taskset awk; do
	command -v $t >/dev/null || { echo "baseline.sh: needs $t" >&2; exit 2; }
done
[ -x "$KB" ] || make -s -C "$ROOT/user" >&2
make -s -C "$HERE" >&2 || {
	echo "baseline.sh: build failed; apt-get install -y libbenchmark-dev" >&2
	exit 2
}
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT/rounds.tsv"

calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
now() { date +%s.%N; }

# kb FILE ROW: the userspace row's median per iteration, in ns
kb() {
	jq -r --arg p "$2" '.user_run.counter_mhz as $mhz | .rows[] |
		select(.primitive == $p) | .user.median_ticks_per_iter * 1000 / $mhz' "$1"
}
# gb FILE NAME: Google Benchmark's median cpu_time of one benchmark
gb() {
	jq -r --arg n "$2" '.benchmarks[] | select(.run_name == $n and
		.aggregate_name == "median") | .cpu_time' "$1"
}
run_kb() {
	taskset -c "$CPU" "$KB" baseline --user --cpu "$CPU" \
		--match 'ktime_get,getpid' --json >"$1"
}

t_start=$(now)
printf 'kbenchctl baseline --user vs Google Benchmark (%s) on CPU %s: %s rounds, %s repetitions, tolerance %s%%\n' \
	"$GB" "$CPU" "$ROUNDS" "$REPS" "$TOL"
printf '%-5s %-18s %10s %10s %10s %7s %7s\n' round call kb_before kb_after \
	gb_median ratio drift
r=1
while [ "$r" -le "$ROUNDS" ]; do
	run_kb "$OUT/kb_${r}a.json"
	taskset -c "$CPU" "$GB" \
		--benchmark_filter='^(BM_clock_gettime_monotonic|BM_getpid)$' \
		--benchmark_repetitions="$REPS" \
		--benchmark_report_aggregates_only=true \
		--benchmark_format=json >"$OUT/gb_$r.json" 2>/dev/null
	run_kb "$OUT/kb_${r}b.json"
	while read -r q row bm; do
		a=$(kb "$OUT/kb_${r}a.json" "$row")
		b=$(kb "$OUT/kb_${r}b.json" "$row")
		g=$(gb "$OUT/gb_$r.json" "$bm")
		ratio=$(calc "$g / (($a + $b) / 2)")
		drift=$(calc "$b / $a")
		printf '%-5s %-18s %10.3f %10.3f %10.3f %7.3f %7.3f\n' "$r" "$q" \
			"$a" "$b" "$g" "$ratio" "$drift"
		printf '%s\t%s\t%s\t%s\n' "$q" "$(calc "($a + $b) / 2")" "$g" \
			"$ratio" >>"$OUT/rounds.tsv"
	done <<EOT
clock_gettime_ns ktime_get BM_clock_gettime_monotonic
getpid_ns getpid BM_getpid
EOT
	r=$((r + 1))
done

echo
echo "summary: medians over $ROUNDS rounds (ratio = GB median / kbench median per iteration; $(calc "$(now) - $t_start") s of wall time)"
printf '| %-16s | %10s | %10s | %6s | %-11s | %-8s |\n' call "kbench ns" \
	"GB ns" ratio "ratio range" verdict
printf '|%s|%s|%s|%s|%s|%s|\n' ------------------ ------------: ------------: \
	-------: ------------- ----------
fail=0
for q in clock_gettime_ns getpid_ns; do
	line=$(awk -F'\t' -v q="$q" -v tol="$TOL" '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j-1] > a[j]; j--) {
				t = a[j]; a[j] = a[j-1]; a[j-1] = t
			}
		return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
	}
	$1 == q {
		n++; k[n] = $2; g[n] = $3; rt[n] = $4
		if (n == 1 || $4 < lo) lo = $4
		if (n == 1 || $4 > hi) hi = $4
	}
	END {
		ratio = med(g, n) / med(k, n)
		v = (ratio >= 1 - tol / 100 && ratio <= 1 + tol / 100) ? "agree" : "DISAGREE"
		printf "%.3f|%.3f|%.3f|%.3f-%.3f|%s\n", med(k, n), med(g, n), ratio, lo, hi, v
	}' "$OUT/rounds.tsv")
	IFS='|' read -r a b c d v <<EOT
$line
EOT
	printf '| %-16s | %10s | %10s | %6s | %-11s | %-8s |\n' "$q" "$a" "$b" \
		"$c" "$d" "$v"
	[ "$v" = agree ] || fail=1
done
exit $fail
