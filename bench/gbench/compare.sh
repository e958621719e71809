#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# compare.sh: kbenchctl's userspace figures against Google Benchmark's, on
# the same CPU, several rounds, with the wall time each tool took.
#
#   bench/gbench/compare.sh [-c CPU] [-r ROUNDS] [-n REPS] [-m SECS] [-t TOL] [-o DIR]
#
#   -c CPU     CPU both tools are pinned to (taskset; kbenchctl also --cpu)
#              default: the last online CPU
#   -r ROUNDS  rounds (default 15); each is kbenchctl, Google Benchmark,
#              kbenchctl again: the kbench figure is the mean of the two
#   -n REPS    Google Benchmark --benchmark_repetitions (default 10)
#   -m SECS    Google Benchmark --benchmark_min_time (default: its own, 0.5)
#   -t TOL     tolerance in percent on |GB median / kbench median - 1|
#              (default 10; see RESULTS.md for why)
#   -o DIR     where the raw JSON of every round goes (default bench/gbench/out)
#
# Quantities (x86-64; the TSC is the counter of both):
#   clock_gettime(CLOCK_MONOTONIC), ns per call
#       kbenchctl clocks --user: span / (reads + 1) over 10000 reads, best of
#       5 rounds.  Google Benchmark: one call per iteration, mean over
#       --benchmark_min_time, REPS repetitions.
#   add_chain, ns and TSC cycles per body iteration
#       kbenchctl run add_chain --user: median of 1000 samples of
#       (T(N+2) - T(2)) / N, N adaptive (16384 here).  Google Benchmark:
#       kbench_body_add_chain(16384) per iteration, time / 16384; cycles =
#       ns * kbenchctl's counter_hz.
#
# The Google Benchmark figure judged is cpu_time: kbench's median describes
# the code with nothing else on the CPU, and cpu_time is the harness's
# estimate of that (it leaves out the time other tasks held the CPU).  Its
# real_time is printed too: on a loaded machine it exceeds cpu_time by the
# share of the CPU other tasks took, which is not a property of the code.
#
# Exit status: 0 all quantities within the tolerance, 1 not, 2 usage/setup.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
KB=${KBENCHCTL:-$ROOT/user/kbenchctl}
GB=${GBENCH:-$HERE/kbench_gbench}
CPU=$(($(getconf _NPROCESSORS_ONLN) - 1))
ROUNDS=15
REPS=10
TOL=10
OUT=$HERE/out
MIN_TIME=
N=16384

usage() { sed -n '6,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts c:r:n:m:t:o:h opt; do
	case $opt in
	c) CPU=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	n) REPS=$OPTARG ;;
	m) MIN_TIME=$OPTARG ;;
	t) TOL=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) usage ;;
	esac
done

for t in jq taskset awk; do
	command -v $t >/dev/null || { echo "compare.sh: needs $t" >&2; exit 2; }
done
[ -x "$KB" ] || make -s -C "$ROOT/user" >&2
[ -x "$GB" ] || make -s -C "$HERE" >&2 || {
	echo "compare.sh: build failed; apt-get install -y libbenchmark-dev" >&2
	exit 2
}
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT/rounds.tsv"

now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# gbench FILTER OUTFILE: one pinned Google Benchmark run, JSON to OUTFILE
gbench() {
	taskset -c "$CPU" "$GB" --benchmark_filter="$1" \
		--benchmark_repetitions="$REPS" \
		--benchmark_report_aggregates_only=true \
		${MIN_TIME:+--benchmark_min_time=$MIN_TIME} \
		--benchmark_format=json >"$2" 2>/dev/null
}
# gb FILE NAME AGG FIELD: a field of one aggregate row
gb() {
	jq -r --arg n "$2" --arg a "$3" --arg f "$4" \
		'.benchmarks[] | select(.run_name == $n and .aggregate_name == $a) | .[$f]' "$1"
}

# One round: kbenchctl, Google Benchmark, kbenchctl again (a sandwich: the
# kbench figure is the mean of the two runs, which cancels linear drift of
# the machine's speed; their ratio, "kb drift", is the noise floor the
# tolerance is judged against).  Raw JSON in $OUT, times in variables.
run_kb() {	# $1: a or b
	t0=$(now)
	taskset -c "$CPU" "$KB" run add_chain --user --cpu "$CPU" --json \
		>"$OUT/kb_add_$r$1.json"
	t1=$(now)
	taskset -c "$CPU" "$KB" clocks --user --json >"$OUT/kb_clk_$r$1.json"
	t2=$(now)
	eval "kb_add_wall_$1=\$(sub $t0 $t1)"
	eval "kb_clk_wall_$1=\$(sub $t1 $t2)"
}
run_gb() {
	t0=$(now)
	gbench '^BM_add_chain/16384$' "$OUT/gb_add_$r.json"
	t1=$(now)
	gbench '^BM_clock_gettime_monotonic$' "$OUT/gb_clk_$r.json"
	t2=$(now)
	gb_add_wall=$(sub "$t0" "$t1")
	gb_clk_wall=$(sub "$t1" "$t2")
}
# not timed for the table, after the sandwich: the overhead rows
run_gb_extra() {
	gbench '^BM_add_chain/(2|64|16386)$' "$OUT/gb_diff_$r.json"
}
# kb_clk FILE: CLOCK_MONOTONIC latency in ns
kb_clk() {
	jq -r '.[] | select(.name == "CLOCK_MONOTONIC") | .latency_ns' "$1"
}
mean2() { calc "($1 + $2) / 2"; }
min2() { calc "($1 < $2) ? $1 : $2"; }

printf 'kbenchctl vs Google Benchmark (%s) on CPU %s: %s rounds, %s repetitions, tolerance %s%%\n' \
	"$GB" "$CPU" "$ROUNDS" "$REPS" "$TOL"
printf '%-5s %-22s %8s %9s %9s %9s %9s %6s %6s %8s %8s\n' round quantity \
	kb_min kb_median gb_median gb_mean gb_real ratio drift kb_wall gb_wall
r=1
while [ "$r" -le "$ROUNDS" ]; do
	run_kb a
	run_gb
	run_kb b
	run_gb_extra

	hz=$(jq -r .counter_hz "$OUT/kb_add_${r}a.json")
	ga=$OUT/gb_add_$r.json gc=$OUT/gb_clk_$r.json gd=$OUT/gb_diff_$r.json
	for s in a b; do
		ka=$OUT/kb_add_$r$s.json
		eval "clk_$s=\$(kb_clk $OUT/kb_clk_$r$s.json)"
		eval "add_min_$s=\$(jq -r .ns_per_iter.min $ka)"
		eval "add_med_$s=\$(jq -r .ns_per_iter.median $ka)"
		eval "cyc_min_$s=\$(jq -r .net_cycles_per_iter.min $ka)"
		eval "cyc_med_$s=\$(jq -r .net_cycles_per_iter.median $ka)"
	done
	clk_kb_min=$(min2 "$clk_a" "$clk_b")
	clk_kb=$(mean2 "$clk_a" "$clk_b")
	clk_drift=$(calc "$clk_b / $clk_a")
	add_kb_min=$(min2 "$add_min_a" "$add_min_b")
	add_kb_med=$(mean2 "$add_med_a" "$add_med_b")
	add_drift=$(calc "$add_med_b / $add_med_a")
	cyc_kb_min=$(min2 "$cyc_min_a" "$cyc_min_b")
	cyc_kb_med=$(mean2 "$cyc_med_a" "$cyc_med_b")
	kb_clk_wall=$(mean2 "$kb_clk_wall_a" "$kb_clk_wall_b")
	kb_add_wall=$(mean2 "$kb_add_wall_a" "$kb_add_wall_b")

	B=BM_clock_gettime_monotonic A=BM_add_chain/$N
	clk_gb_med=$(gb "$gc" $B median cpu_time)
	clk_gb_mean=$(gb "$gc" $B mean cpu_time)
	clk_gb_real=$(gb "$gc" $B median real_time)
	add_gb_med=$(calc "$(gb "$ga" "$A" median cpu_time) / $N")
	add_gb_mean=$(calc "$(gb "$ga" "$A" mean cpu_time) / $N")
	add_gb_real=$(calc "$(gb "$ga" "$A" median real_time) / $N")
	cyc_gb_med=$(calc "$add_gb_med * $hz / 1e9")
	cyc_gb_mean=$(calc "$add_gb_mean * $hz / 1e9")
	cyc_gb_real=$(gb "$ga" "$A" median tsc_per_iter)
	# kbench's own differencing applied to Google Benchmark, and small N
	t2=$(gb "$gd" BM_add_chain/2 median cpu_time)
	t64=$(calc "$(gb "$gd" BM_add_chain/64 median cpu_time) / 64")
	tn2=$(gb "$gd" BM_add_chain/$((N + 2)) median cpu_time)
	diff_gb=$(calc "($tn2 - $t2) / $N")
	t2=$(calc "$t2 / 2")

	while read -r q kmin kmed gmed gmean greal drift kw gw; do
		ratio=$(calc "$gmed / $kmed")
		[ "$greal" = - ] || greal=$(printf %.3f "$greal")
		printf '%-5s %-22s %8.3f %9.3f %9.3f %9.3f %9s %6.3f %6.3f %8s %8s\n' \
			"$r" "$q" "$kmin" "$kmed" "$gmed" "$gmean" "$greal" \
			"$ratio" "$drift" "$kw" "$gw"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$q" \
			"$kmin" "$kmed" "$gmed" "$gmean" "$greal" "$ratio" \
			"$drift" "$kw" "$gw" >>"$OUT/rounds.tsv"
	done <<EOF
clock_gettime_ns $clk_kb_min $clk_kb $clk_gb_med $clk_gb_mean $clk_gb_real $clk_drift $kb_clk_wall $gb_clk_wall
add_chain_ns/iter $add_kb_min $add_kb_med $add_gb_med $add_gb_mean $add_gb_real $add_drift $kb_add_wall $gb_add_wall
add_chain_cyc/iter $cyc_kb_min $cyc_kb_med $cyc_gb_med $cyc_gb_mean $cyc_gb_real $add_drift $kb_add_wall $gb_add_wall
add_chain_ns/iter_diff $add_kb_min $add_kb_med $diff_gb $diff_gb - $add_drift - -
add_chain_ns/iter_N64 $add_kb_min $add_kb_med $t64 $t64 - $add_drift - -
add_chain_ns/iter_N2 $add_kb_min $add_kb_med $t2 $t2 - $add_drift - -
EOF
	r=$((r + 1))
done

# Summary over rounds: kbench min = min of the round minima, every other
# figure = median of the round figures; ranges = min-max over rounds of the
# ratio GB/kbench and of the drift (kbench after / kbench before GB).
echo
echo "summary over $ROUNDS rounds (GB = Google Benchmark cpu_time; ratio = GB median / kbench median;"
echo "sd = standard deviation of the per-round ratios; drift = kbench after GB /"
echo "kbench before GB, the machine's own noise)"
printf '| %-22s | %7s | %9s | %9s | %7s | %7s | %6s | %5s | %-11s | %-11s | %7s | %7s | %-8s |\n' \
	quantity "kb min" "kb median" "GB median" "GB mean" "GB real" ratio \
	"sd" "ratio range" "drift range" "kb wall" "GB wall" verdict
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' ------------------------ \
	--------: ----------: ----------: --------: --------: -------: ------: \
	------------- ------------- --------: --------: ----------
fail=0
for q in clock_gettime_ns add_chain_ns/iter add_chain_cyc/iter \
	 add_chain_ns/iter_diff add_chain_ns/iter_N64 add_chain_ns/iter_N2; do
	line=$(awk -F'\t' -v q="$q" -v tol="$TOL" '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j-1] > a[j]; j--) {
				t = a[j]; a[j] = a[j-1]; a[j-1] = t
			}
		return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
	}
	$2 == q {
		n++
		if (n == 1 || $3 < kmin) kmin = $3
		kmed[n] = $4; gmed[n] = $5; gmean[n] = $6; greal[n] = $7
		kw[n] = $10; gw[n] = $11
		rs += $8; rss += $8 * $8
		if (n == 1 || $8 < rlo) rlo = $8
		if (n == 1 || $8 > rhi) rhi = $8
		if (n == 1 || $9 < dlo) dlo = $9
		if (n == 1 || $9 > dhi) dhi = $9
	}
	END {
		km = med(kmed, n); gm = med(gmed, n)
		sd = n > 1 ? sqrt((rss - rs * rs / n) / (n - 1)) : 0
		ratio = gm / km
		timed = kw[1] != "-"
		if (timed)
			v = (ratio >= 1 - tol / 100 && ratio <= 1 + tol / 100) ? "agree" : "DISAGREE"
		else
			v = "(info)"
		printf "%.3f|%.3f|%.3f|%.3f|%s|%.3f|%.3f|%.3f-%.3f|%.3f-%.3f|%s|%s|%s\n",
			kmin, km, gm, med(gmean, n),
			greal[1] == "-" ? "-" : sprintf("%.3f", med(greal, n)),
			ratio, sd, rlo, rhi, dlo, dhi,
			timed ? sprintf("%.2f s", med(kw, n)) : "-",
			timed ? sprintf("%.2f s", med(gw, n)) : "-", v
	}' "$OUT/rounds.tsv")
	IFS='|' read -r a b c d e f x g h i j v <<EOF
$line
EOF
	printf '| %-22s | %7s | %9s | %9s | %7s | %7s | %6s | %5s | %-11s | %-11s | %7s | %7s | %-8s |\n' \
		"$q" "$a" "$b" "$c" "$d" "$e" "$f" "$x" "$g" "$h" "$i" "$j" "$v"
	[ "$v" = DISAGREE ] && fail=1
done
echo
echo "wall time = one tool invocation producing the figure (kbenchctl clocks --user"
echo "measures all 11 userspace clocks; run add_chain also times 'empty')."
exit $fail
