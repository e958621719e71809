#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lint the kernel-side code and print the results as TAP (one line per
# check), so that make check counts them:
#   - checkpatch.pl --strict --no-tree -f on kmod/*.[ch], kmod/examples/*.c,
#     kmod/prims/*.c,
#     kmod/tests/*.c
#     and include/**/*.h (checkpatch.pl from Debian's linux-source-6.1,
#     extracted by scripts/kselftest-headers.sh); any ERROR/WARNING/CHECK
#     fails the file;
#   - `make -C kmod W=1` from scratch for each kernel: any warning fails;
#   - sparse (`make -C kmod C=2`) against the 6.1 headers: any warning fails.
#
# Usage: scripts/lint.sh [--kver KVER]... [--no-sparse] [--no-build]
#   --kver KVER   kernel headers to build against (repeatable; default:
#                 every installed Debian 6.1/6.12/6.12-rt amd64 header set)
# Exit status 1 if any check failed.
set -uo pipefail
# The whole script is one block, so bash reads it completely before running
# it: editing the file while a run is under way cannot break that run.
{

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kvers=()
sparse=1
build=1
while [ $# -gt 0 ]; do
	case "$1" in
	--kver) kvers+=("$2"); shift 2 ;;
	--no-sparse) sparse=0; shift ;;
	--no-build) build=0; shift ;;
	-h|--help) sed -n '3,17p' "$0"; exit 0 ;;
	*) echo "lint.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
if [ ${#kvers[@]} -eq 0 ]; then
	for d in /usr/src/linux-headers-6.1.*-amd64 /usr/src/linux-headers-6.12.*-amd64; do
		[ -f "$d/Makefile" ] && kvers+=("${d#/usr/src/linux-headers-}")
	done
fi

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
indent() { sed 's/^/# /'; }

echo "TAP version 13"

src=$("$top/scripts/kselftest-headers.sh") || { notok "lint: kernel source files unavailable"; echo "1..$n"; exit 1; }
checkpatch=$src/scripts/checkpatch.pl

shopt -s nullglob globstar
files=(kmod/*.c kmod/*.h kmod/examples/*.c kmod/prims/*.c kmod/tests/*.c include/**/*.h)
for f in "${files[@]}"; do
	case "$f" in *.mod.c) continue ;; esac	# kbuild output of in-tree builds
	out=$(perl "$checkpatch" --strict --no-tree --no-summary --show-types \
		--terse -f "$f" 2>&1)
	if [ -z "$out" ]; then
		ok "checkpatch $f"
	else
		echo "$out" | indent
		notok "checkpatch $f"
	fi
done

kbuild() { # name make-args...
	local name=$1 out log; shift
	out=$top/build/lint/$name
	rm -rf "$out"
	log=$(make -j2 -C kmod OUT="$out" "$@" 2>&1)
	local rc=$?
	if [[ " $* " == *" C=2 "* ]] && ! grep -q -E '^ +CHECK +' <<<"$log"; then
		echo "$log" | tail -n 20 | indent
		notok "$name (sparse did not run)"
		return
	fi
	local warn
	warn=$(echo "$log" | grep -E 'warning:|error:|[Ww]arning: ' |
		grep -v -E 'Skipping BTF generation' || true)
	if [ $rc -ne 0 ]; then
		echo "$log" | tail -n 40 | indent
		notok "$name (make exit $rc)"
	elif [ -n "$warn" ]; then
		echo "$warn" | indent
		notok "$name ($(echo "$warn" | wc -l) warnings)"
	else
		ok "$name"
	fi
}

if [ "$build" = 1 ]; then
	for k in "${kvers[@]}"; do
		kbuild "kmod-W1-$k" KVER="$k" W=1 KBENCH_TEST_MODULES=m
	done
	if [ "$sparse" = 1 ]; then
		k=${kvers[0]:-}
		for kk in "${kvers[@]}"; do
			case "$kk" in 6.1.*) k=$kk; break ;; esac
		done
		if ! command -v sparse >/dev/null; then
			notok "kmod-sparse: sparse not installed (scripts/deps.sh)"
		elif [ -n "$k" ]; then
			kbuild "kmod-sparse-$k" KVER="$k" C=2 KBENCH_TEST_MODULES=m
		fi
	fi
fi

echo "1..$n"
[ "$failed" = 0 ]

exit
}
