#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every harness under bench/ built (not run), so that a change to the
# shared headers or to user/ that breaks one shows in `make check` and the
# figures in bench/README.md can be measured again.  One TAP line per
# harness; the compilers' output of a failure follows it as comments.
#   gbench    the Google Benchmark twin (C++ over include/kbench/bodies.h;
#             Debian's libbenchmark-dev, installed by scripts/deps.sh)
#   csv       the CSV writer natively (links user/'s libraries)
#   timeit    bench/timeit.c, the timer bench/perf.sh adds to the VM
#   verdict   bench/verdict/thrash.c, calibrate.sh's cache thrasher
#   scripts   bash -n on the scripts that drive them
# Usage: bench/build.sh          (build outputs: build/bench/, and the
#                                 harnesses' own ignored binaries)
set -uo pipefail
{

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
mkdir -p "$out"
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"

cc=${CC:-gcc}
cflags=(-O2 -std=gnu11 -Wall -Wextra -Werror)

# Each harness's own binary is built again (clean, then make), not with
# make -B: -B reaches the harness's make of user/'s libraries through
# MAKEFLAGS, rebuilds them, and so makes the next `make -C user` relink
# kbenchctl while another chain of make check runs it (a replicated
# run's worker then cannot execute it).
{ make -s -C "$top/bench/gbench" clean && make -s -C "$top/bench/gbench"; } >"$out/gbench.log" 2>&1
tap $? "bench/gbench: kbench_gbench (C++17, libbenchmark)" "$out/gbench.log"

{ make -s -C "$top/bench/csv" clean && make -s -C "$top/bench/csv"; } >"$out/csv.log" 2>&1
tap $? "bench/csv: csv-bench" "$out/csv.log"

"$cc" "${cflags[@]}" -o "$out/timeit" "$top/bench/timeit.c" >"$out/timeit.log" 2>&1
tap $? "bench/timeit.c" "$out/timeit.log"

"$cc" "${cflags[@]}" -o "$out/thrash" "$top/bench/verdict/thrash.c" >"$out/thrash.log" 2>&1
tap $? "bench/verdict/thrash.c" "$out/thrash.log"

: >"$out/scripts.log"
st=0
for s in "$top"/bench/*.sh "$top"/bench/*/*.sh; do
	bash -n "$s" >>"$out/scripts.log" 2>&1 || st=1
done
tap $st "bench scripts parse (bash -n)" "$out/scripts.log"

echo "1..$n"
[ "$nfail" = 0 ]
exit
}
