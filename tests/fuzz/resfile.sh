#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the libFuzzer harness of the saved-result loader (clang,
# -fsanitize=fuzzer,address,undefined) and run it on a seed corpus of
# result files written by kbenchctl (--user runs: no module needed).
# Prints TAP.  Usage: tests/fuzz/resfile.sh [RUNS] (default 200000 inputs)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-200000}
out=$top/build/fuzz-resfile
echo "TAP version 13"
if ! command -v clang >/dev/null; then
	echo "ok 1 - libFuzzer run of the result loader # SKIP no clang"
	echo "1..1"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out/corpus"
srcs=()
incs=(-I"$top/user")
for d in "$top"/user/*/; do
	incs+=(-I"${d%/}")
done
for f in "$top"/user/*.c "$top"/user/*/*.c; do
	[ "$(basename "$f")" = kbenchctl.c ] || srcs+=("$f")
done
read -ra nl_cflags < <(pkg-config --cflags libnl-genl-3.0 json-c)
read -ra nl_libs < <(pkg-config --libs libnl-genl-3.0 json-c)
if ! clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	"${incs[@]}" -I"$top/include/uapi" -I"$top/include" \
	"${nl_cflags[@]}" \
	"$top/tests/fuzz/resfile-fuzz.c" "${srcs[@]}" \
	"${nl_libs[@]}" -lm -o "$out/resfile-fuzz" 2>"$out/build.log"; then
	sed 's/^/# /' "$out/build.log" | tail -n 20
	echo "not ok 1 - build of the libFuzzer harness"
	echo "1..1"
	exit 1
fi
make -s -C "$top/user" >/dev/null
k=$top/user/kbenchctl
(
	cd "$out/corpus" || exit 1
	$k run add_chain --user --samples 20 --iterations 100 --save a.json
	$k run add_chain mul_chain --user --samples 10 --iterations 50 --save b.json
	$k compare add_chain load_l1 --user --samples 8 --iterations 20 --save c.json
	# base64 arrays (more than 16 values) and JSON arrays (up to 16) above
	$k run add_chain mul_chain --user --samples 60 --iterations 20 --save d.json
	# version 1: the format before base64 arrays (JSON arrays of 200
	# values), compacted by jq to fit in -max_len
	jq -c . "$top/tests/unit/fixtures/result-v1.json" >e.json
) >/dev/null 2>&1
"$out/resfile-fuzz" -runs="$runs" -seed=1 -artifact_prefix="$out/" -max_len=4096 -timeout=10 \
	-rss_limit_mb=1024 "$out/corpus" >"$out/fuzz.log" 2>&1
rc=$?
grep -E "^#[0-9]+ +DONE|^Done" "$out/fuzz.log" | sed 's/^/# /'
if [ $rc = 0 ]; then
	echo "ok 1 - libFuzzer: $runs inputs to the result loader, no crash, leak or sanitizer error"
else
	tail -n 30 "$out/fuzz.log" | sed 's/^/# /'
	echo "not ok 1 - libFuzzer found a failing input (see $out)"
fi
echo "1..1"
exit $rc
