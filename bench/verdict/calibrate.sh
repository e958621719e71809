#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Calibration of the stability verdict and the false-alarm rate of compare
# on this machine's real CPU (userspace twins, no module needed):
#
#   bench/verdict/calibrate.sh [-n RUNS] [-s SECTION...]
#
# Sections (default: all): idle hog thrash aa foo step small aaseq
#   idle    run add_chain mul_chain load_l1 --user: runs judged stable
#   hog     the same --cpu 0 with a CPU hog pinned to CPU 0: judged
#           unstable, and the reasons given
#   thrash  the same with a cache thrasher (bench/verdict/thrash.c, 64 MiB)
#           on CPU 0 (same CPU) and on CPU 1 (the other), --cpu 0
#   aa      compare add_n:64 add_n:64 --user: "no significant difference"
#   foo     compare foo foobar --user: the same, two addresses
#   step    compare add_n:64 add_n:65 --user: "slower", and the wall time
#   small   compare add_n:256 add_n:257 --user --until-resolved --threshold 0.1: "slower"
#           and the wall time
#   aaseq   compare add_n:64 add_n:64 --user --until-resolved --threshold 0.2 --max-time 3:
#           the false-alarm rate of sampling until answered (A/A)
# RUNS (default 10; aa, foo and step run 2 x RUNS) for each.  Prints the
# load average first: an "idle" figure means little on a busy machine.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kb=${KBENCHCTL:-$here/../../user/kbenchctl}
n=10
sections="idle hog thrash aa foo step small aaseq"
while getopts n:s: opt; do
	case $opt in
	n) n=$OPTARG ;;
	s) sections=$OPTARG ;;
	*) echo "usage: $0 [-n RUNS] [-s 'SECTION ...']" >&2; exit 2 ;;
	esac
done
[ -x "$kb" ] || { echo "$0: build kbenchctl first (make -C user)" >&2; exit 2; }
tmp=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

now() { date +%s.%N; }
# count lines of $2 that match the pattern $1 (grep -c never fails here)
count() { grep -c -- "$1" "$2" || true; }

# N runs of `run add_chain mul_chain load_l1 --user $*`: a run is stable
# when all three routines are; the reasons of the others are tallied
runs_stable() {
	: >"$tmp/verdicts"
	: >"$tmp/cpuonly"
	i=0
	while [ $i -lt "$n" ]; do
		"$kb" run add_chain mul_chain load_l1 --user "$@" 2>/dev/null |
			grep '^  verdict' >"$tmp/v"
		if [ "$(count 'verdict    stable' "$tmp/v")" = 3 ]; then
			echo stable >>"$tmp/verdicts"
		elif ! grep -v 'verdict    stable' "$tmp/v" |
			grep -qv 'UNSTABLE: the CPU was shared: [^;]*$'; then
			# unstable only because another task had the CPU
			grep -v 'verdict    stable' "$tmp/v" | head -n 1 >>"$tmp/verdicts"
			echo cpu-only >>"$tmp/cpuonly"
		else
			grep -v 'verdict    stable' "$tmp/v" | head -n 1 >>"$tmp/verdicts"
		fi
		i=$((i + 1))
	done
	echo "  stable in $(count '^stable$' "$tmp/verdicts") of $n runs; unstable only for the CPU share in $(count . "$tmp/cpuonly")"
	grep -v '^stable$' "$tmp/verdicts" |
		sed 's/^  verdict    UNSTABLE: //; s/[0-9.]\+%/N%/g; s/[0-9.]\+ s/N s/g; s/[0-9]\+ of [0-9]\+/K of M/g' |
		sort | uniq -c | sed 's/^/    /'
	grep -v '^stable$' "$tmp/verdicts" | head -n 3 | sed 's/^  verdict    /    e.g. /'
}

# N runs of compare $*: how often each verdict, and the slowest wall time
compares() {
	runs=$1
	shift
	: >"$tmp/c"
	max=0
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(now)
		"$kb" compare "$@" 2>/dev/null | tail -n 1 >>"$tmp/c"
		t=$(echo "$(now) - $t0" | bc)
		max=$(echo "if ($t > $max) $t else $max" | bc)
		i=$((i + 1))
	done
	echo "  $runs runs: no difference $(count '^no ' "$tmp/c"), slower $(count ' slower than ' "$tmp/c"), faster $(count ' faster than ' "$tmp/c"); slowest run $(printf %.2f "$max") s"
	grep -v '^no ' "$tmp/c" | head -n 3 | sed 's/^/    e.g. /'
	grep '^no ' "$tmp/c" | head -n 1 | sed 's/^/    e.g. /'
}

hog() { taskset -c "$1" sh -c 'while :; do :; done' & pids="$pids $!"; }
stop() { for p in $pids; do kill "$p" 2>/dev/null; done; pids=; sleep 0.2; }

echo "# $(uname -n), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%F %T UTC')"
for s in $sections; do
	case $s in
	idle)
		echo "idle: run add_chain mul_chain load_l1 --user"
		runs_stable ;;
	hog)
		echo "hog: the same --cpu 0, with 'taskset -c 0 sh -c \"while :; do :; done\"'"
		hog 0
		sleep 0.3
		runs_stable --cpu 0
		stop ;;
	thrash)
		cc -O2 -o "$tmp/thrash" "$here/thrash.c" || exit 1
		echo "thrash: the same --cpu 0, a 64 MiB cache thrasher on CPU 0"
		taskset -c 0 "$tmp/thrash" 64 & pids="$pids $!"
		sleep 0.3
		runs_stable --cpu 0
		stop
		echo "thrash: the same --cpu 0, a 64 MiB cache thrasher on CPU 1"
		taskset -c 1 "$tmp/thrash" 64 & pids="$pids $!"
		sleep 0.3
		runs_stable --cpu 0
		stop ;;
	aa)
		echo "aa: compare add_n:64 add_n:64 --user (A/A)"
		compares $((2 * n)) add_n:64 add_n:64 --user ;;
	foo)
		echo "foo: compare foo foobar --user (identical bodies)"
		compares $((2 * n)) foo foobar --user ;;
	step)
		echo "step: compare add_n:64 add_n:65 --user (one more add)"
		compares $((2 * n)) add_n:64 add_n:65 --user ;;
	small)
		echo "small: compare add_n:256 add_n:257 --user --until-resolved --threshold 0.1"
		compares "$n" add_n:256 add_n:257 --user --until-resolved --threshold 0.1 ;;
	aaseq)
		echo "aaseq: compare add_n:64 add_n:64 --user --until-resolved --threshold 0.2 --max-time 3 (A/A)"
		compares $((2 * n)) add_n:64 add_n:64 --user --until-resolved --threshold 0.2 --max-time 3 ;;
	*)
		echo "$0: unknown section '$s'" >&2
		exit 2 ;;
	esac
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
