#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/core/latency.sh - latencies of common integer instructions in core
# cycles on this machine's CPU, without a PMU: each a dependent chain
# (every copy reads what the one before wrote), measured with
#     kbenchctl run --asm 'INSN' --user --unit core
# i.e. unrolled --unroll times in a loop and divided by the add-chain
# calibration measured interleaved in the same run; set beside the
# published latency (Agner Fog's instruction tables and uops.info, AMD
# Zen 4 / Intel Golden Cove alike for these).
#
# Usage: bench/core/latency.sh [-r RUNS] [-c CPU] [--load]
#   -r RUNS   separate invocations per instruction (default 3): the table
#             gives their median, and the ratio's range over all runs
#   -c CPU    the CPU measured (default 0)
#   --load    a busy loop on every other online CPU meanwhile (on a
#             machine with SMT: the measured CPU's sibling among them)
# Needs user/kbenchctl built and a C compiler.  Prints a Markdown table.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
ctl=$top/user/kbenchctl
runs=3
cpu=0
load=0
while [ $# -gt 0 ]; do
	case "$1" in
	-r) runs=$2; shift 2 ;;
	-c) cpu=$2; shift 2 ;;
	--load) load=1; shift ;;
	-h|--help) sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "usage: $0 [-r RUNS] [-c CPU] [--load]" >&2; exit 2 ;;
	esac
done
[ -x "$ctl" ] || { echo "$0: build kbenchctl first (make -C user)" >&2; exit 2; }

pids=()
stop_load() { [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true; }
trap stop_load EXIT
if [ "$load" = 1 ]; then
	for c in $(seq 0 $(($(nproc) - 1))); do
		[ "$c" = "$cpu" ] && continue
		taskset -c "$c" sh -c 'while :; do :; done' &
		pids+=($!)
	done
	sleep 0.5
fi

# name | snippet (a dependent chain on %rax) | published latency
# shellcheck disable=SC2016 # the snippets' $ are the assembler's
list='add r64|add %rax, %rax|1
sub r64|sub %rbx, %rax|1
xor r64|xor %rbx, %rax|1
adc r64|adc %rbx, %rax|1
shl r64, imm|shl $1, %rax|1
ror r64, imm|ror $1, %rax|1
bswap r64|bswap %rax|1
lea r64, [r+d]|lea 1(%rax), %rax|1
popcnt r64|popcnt %rax, %rax|1
imul r64, r64|imul %rax, %rax|3
imul r32, r32|imul %eax, %eax|3
crc32 r64, r64|crc32q %rax, %rax|3'

echo "| instruction | chain | published | core cycles (median of $runs runs) | off | runs' range |"
echo "|---|---|---|---|---|---|"
rmin=; rmax=
while IFS='|' read -r name code pub; do
	vals=()
	for _ in $(seq "$runs"); do
		out=$("$ctl" --json run --asm "$code" --user --unit core \
			--cpu "$cpu" 2>/dev/null) || { echo "$0: '$code' failed" >&2; exit 1; }
		read -r v r < <(echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["stats"]["median_cycles"], d["core"]["ticks_per_cycle"])')
		vals+=("$v")
		rmin=$(python3 -c "print(min(float('$r'), float('${rmin:-$r}')))")
		rmax=$(python3 -c "print(max(float('$r'), float('${rmax:-$r}')))")
	done
	python3 - "$name" "$code" "$pub" "${vals[@]}" <<'PY'
import statistics, sys
name, code, pub, *v = sys.argv[1:]
v = [float(x) for x in v]
m = statistics.median(v)
print(f"| {name} | `{code}` | {pub} | {m:.3f} | {100 * (m / float(pub) - 1):+.1f}% | {min(v):.3f}-{max(v):.3f} |")
PY
done <<<"$list"
echo
echo "calibration (counter ticks per core cycle) over all runs: $rmin .. $rmax$( [ "$load" = 1 ] && echo ", with busy loops on the other CPUs")"
