#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a run costs (the performance figures of bench/README.md), measured in the test bed:
#   1. efficiency = counter ticks inside the routine's N iterations / all
#      ticks from the first to the last window, for add_chain, 1000 samples,
#      N = 10, 100, 1000, under icount (exact, repeatable), with the default
#      duty_pct=50 and with duty_pct=100 (no enforced irq-on gap);
#   2. the module's memory for the run (RUN's mem_bytes);
#   3. dump throughput: 1,000,000 samples of one routine from the kernel to
#      a CSV and a JSON file, wall time in the VM (plain TCG: host-dependent);
#   4. saved results: a run of 1,000,000 samples saved, loaded and
#      diffed, and its CSV export, each next to `cat` of the same file in
#      the same VM boot (bench/timeit.c times them);
#   5. the environment report and tune: kbenchctl info (INFO, the
#      user counter's probe and the report), tune --dry-run (reads all that
#      tune reads), tune and tune --reset of CPU 1, with 2 vCPUs (plain
#      TCG: host time, so only the order of magnitude means anything).
# Prints Markdown tables.
# Usage: bench/perf.sh [--kernel KVER] [--only efficiency|dump|results|env] [--icount]
#   --icount: section 4 under -icount shift=0 (guest time = instructions:
#   deterministic, immune to a busy host)
set -euo pipefail
cd "$(dirname "$0")/.."
kernel=(--kernel "${KBENCH_PERF_KERNEL:-6.1}")
only=""
icount=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=(--kernel "$2"); shift 2 ;;
	--only) only=$2; shift 2 ;;
	--icount) icount=(--icount); shift ;;
	*) echo "perf.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }

eff_cmd='for n in 10 100 1000; do
	kbenchctl --json run add_chain --iterations $n --samples 1000 > /tmp/r.json
	printf "%s %s %s %s %s\n" $n \
		$(grep -o "\"efficiency\": [0-9.e-]*" /tmp/r.json | cut -d" " -f2) \
		$(grep -o "\"routine_cycles\": [0-9]*" /tmp/r.json | cut -d" " -f2) \
		$(grep -o "\"span_cycles\": [0-9]*" /tmp/r.json | cut -d" " -f2) \
		$(grep -o "\"mem_bytes\": [0-9]*" /tmp/r.json | cut -d" " -f2)
done'

if want efficiency; then
echo "### Efficiency (add_chain, 1000 samples, -icount shift=0: ticks = instructions)"
echo
echo "| duty_pct | N | efficiency | routine ticks | span ticks | run memory (bytes) |"
echo "|---|---|---|---|---|---|"
for duty in 50 100; do
	tests/vm/run "${kernel[@]}" --icount --module-args "duty_pct=$duty" \
		-- "$eff_cmd" 2>/dev/null |
	while read -r n eff rc sc mem; do
		echo "| $duty | $n | $eff | $rc | $sc | $mem |"
	done
done
echo
fi

dump_cmd='ms() { awk "{ printf \"%d\n\", \$1 * 1000 }" /proc/uptime; }
kbenchctl --json run empty --samples 1000000 --iterations 1 --warmup 0 > /tmp/r.json
id=$(grep -o "\"run_id\": [0-9]*" /tmp/r.json | cut -d" " -f2)
t0=$(ms); kbenchctl samples $id --routine 0 --csv > /tmp/s.csv; t1=$(ms)
kbenchctl --json samples $id --routine 0 > /tmp/s.json; t2=$(ms)
echo "csv $((t1 - t0)) $(wc -l < /tmp/s.csv) $(wc -c < /tmp/s.csv)"
echo "json $((t2 - t1)) - $(wc -c < /tmp/s.json)"'

if want dump; then
echo "### Dump throughput (1,000,000 samples of one routine, plain TCG, 2 vCPUs)"
echo
echo "| format | wall ms (10 ms resolution) | lines | bytes |"
echo "|---|---|---|---|"
tests/vm/run "${kernel[@]}" --timeout 600 -- "$dump_cmd" 2>/dev/null |
while read -r fmt ms lines bytes; do
	echo "| $fmt | $ms | $lines | $bytes |"
done
echo
fi

# 4. saved results: two workloads (tiny and 4-digit sample values), three
#    rounds of each operation next to cat of the same file, one boot.
results_cmd='T=/extra/timeit
export KBENCH_TIMING=1
for w in "empty --iterations 1" "add_chain --target-ns 2000"; do
	set -- $w
	kbenchctl --json run "$@" --samples 1000000 --warmup 0 \
		--save /tmp/r.json >/tmp/run.json 2>/tmp/save.err || exit 1
	id=$(grep -o "\"run_id\": [0-9]*" /tmp/run.json | cut -d" " -f2)
	save=$(grep -o "[0-9.]* ms)" /tmp/save.err | cut -d" " -f1)
	cp /tmp/r.json /tmp/r2.json
	for i in 1 2 3; do
		c=$($T /tmp/c.json cat /tmp/r.json 2>&1)
		l=$(kbenchctl diff --check /tmp/r.json 2>&1 >/dev/null | grep -o "in [0-9.]* ms" | cut -d" " -f2)
		d=$($T /dev/null kbenchctl diff /tmp/r.json /tmp/r2.json 2>&1 | tail -n1)
		x=$($T /tmp/s.csv kbenchctl samples $id --routine 0 --csv 2>&1)
		y=$($T /tmp/c.csv cat /tmp/s.csv 2>&1)
		echo "$1 $i $(wc -c </tmp/r.json) ${save:--} $c $l $d $(wc -c </tmp/s.csv) $x $y"
		save=-
	done
done'

if want results; then
	mkdir -p build/bench
	gcc -O2 -Wall -Wextra -Werror -o build/bench/timeit bench/timeit.c
	if [ ${#icount[@]} -gt 0 ]; then
		mode="-icount shift=0: 1 ms = 1,000,000 guest instructions"
	else
		mode="plain TCG, 2 vCPUs"
	fi
	echo "### Saved results and CSV export (1,000,000 samples per routine, $mode, ms)"
	echo
	echo "The result file holds the routine and the interleaved \`empty\` overhead"
	echo "(2,000,000 samples); the CSV is the routine's 1,000,000."
	echo
	echo "| routine | round | result bytes | save | cat of it | load | diff of two | CSV bytes | samples --csv | cat of the CSV |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	tests/vm/run "${kernel[@]}" "${icount[@]}" --timeout 1800 --add build/bench/timeit -- "$results_cmd" 2>/dev/null |
	while read -r w i rb sv c l d cb x y; do
		echo "| $w | $i | $rb | $sv | $c | $l | $d | $cb | $x | $y |"
	done
fi

# 5. the environment report and tune: five rounds, one boot
env_cmd='T=/extra/timeit
for i in 1 2 3 4 5; do
	a=$($T /dev/null kbenchctl info --cpu 1 2>&1)
	b=$($T /dev/null kbenchctl tune --cpu 1 --dry-run 2>&1)
	c=$($T /dev/null kbenchctl tune --cpu 1 2>&1)
	d=$($T /dev/null kbenchctl tune --reset 2>&1)
	e=$(ls -d /proc/irq/[0-9]* | wc -l)
	echo "$i $e $a $b $c $d"
done'

if want env; then
	mkdir -p build/bench
	gcc -O2 -Wall -Wextra -Werror -o build/bench/timeit bench/timeit.c
	echo "### The environment report and tune (plain TCG, 2 vCPUs, ms of wall time in the guest)"
	echo
	echo "| round | interrupts | info --cpu 1 | tune --cpu 1 --dry-run | tune --cpu 1 | tune --reset |"
	echo "|---|---|---|---|---|---|"
	tests/vm/run "${kernel[@]}" --add build/bench/timeit -- "$env_cmd" 2>/dev/null |
	while read -r i e a b c d; do
		echo "| $i | $e | $a | $b | $c | $d |"
	done
fi
