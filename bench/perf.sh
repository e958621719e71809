#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a run costs (issue 3's performance figures), measured in the test bed:
#   1. efficiency = counter ticks inside the routine's N iterations / all
#      ticks from the first to the last window, for add_chain, 1000 samples,
#      N = 10, 100, 1000, under icount (exact, repeatable), with the default
#      duty_pct=50 and with duty_pct=100 (no enforced irq-on gap);
#   2. the module's memory for the run (RUN's mem_bytes);
#   3. dump throughput: 1,000,000 samples of one routine from the kernel to
#      a CSV and a JSON file, wall time in the VM (plain TCG: host-dependent).
# Prints Markdown tables.  Usage: bench/perf.sh [--kernel KVER]
set -euo pipefail
cd "$(dirname "$0")/.."
kernel=(--kernel "${KBENCH_PERF_KERNEL:-6.1}")
[ "${1:-}" = --kernel ] && kernel=(--kernel "$2")

eff_cmd='for n in 10 100 1000; do
	kbenchctl --json run add_chain --iterations $n --samples 1000 > /tmp/r.json
	printf "%s %s %s %s %s\n" $n \
		$(grep -o "\"efficiency\": [0-9.e-]*" /tmp/r.json | cut -d" " -f2) \
		$(grep -o "\"routine_cycles\": [0-9]*" /tmp/r.json | cut -d" " -f2) \
		$(grep -o "\"span_cycles\": [0-9]*" /tmp/r.json | cut -d" " -f2) \
		$(grep -o "\"mem_bytes\": [0-9]*" /tmp/r.json | cut -d" " -f2)
done'

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

dump_cmd='ms() { awk "{ printf \"%d\n\", \$1 * 1000 }" /proc/uptime; }
kbenchctl --json run empty --samples 1000000 --iterations 1 --warmup 0 > /tmp/r.json
id=$(grep -o "\"run_id\": [0-9]*" /tmp/r.json | cut -d" " -f2)
t0=$(ms); kbenchctl samples $id --routine 0 --csv > /tmp/s.csv; t1=$(ms)
kbenchctl --json samples $id --routine 0 > /tmp/s.json; t2=$(ms)
echo "csv $((t1 - t0)) $(wc -l < /tmp/s.csv) $(wc -c < /tmp/s.csv)"
echo "json $((t2 - t1)) - $(wc -c < /tmp/s.json)"'

echo "### Dump throughput (1,000,000 samples of one routine, plain TCG, 2 vCPUs)"
echo
echo "| format | wall ms (10 ms resolution) | lines | bytes |"
echo "|---|---|---|---|"
tests/vm/run "${kernel[@]}" --timeout 600 -- "$dump_cmd" 2>/dev/null |
while read -r fmt ms lines bytes; do
	echo "| $fmt | $ms | $lines | $bytes |"
done
