#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/vm/ksft.sh: the kselftest package in the test VM, run by the
# kernel's own runner as a CI farm runs it.  `make kselftest-install` for
# the kernel (into build/ksft/KVER), boot it with nothing loaded
# (tests/vm/run --no-load), then in the guest
#     cd /extra/KVER && ./run_kselftest.sh -c kbench
# whose first test loads kbench.ko from the package and whose last unloads
# it.  Prints the runner's KTAP; exits 1 if any test failed.
#
# Usage: tests/vm/ksft.sh [--kernel 6.1|6.12|6.12-rt|debug|KVER]
#                         [--kernel-dir DIR] [tests/vm/run options...]
#   --kernel-dir DIR  a kernel built elsewhere: DIR/bzImage, DIR/release,
#                     DIR/linux (its build tree), e.g. scripts/builtin-kernel.sh
#   --wrap CMD        run the package under CMD in the guest (the debug
#                     kernel: --add tests/vm/debug-check.sh
#                     --wrap /extra/debug-check.sh)
# Env: KBENCH_MODULE_ARGS (kbench.ko's parameters), KBENCH_FUZZ_COUNT,
#      KBENCH_KSFT_SKIP (tests left out: tests/vm/ksft-guest.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kernel=6.1
kernel_dir=""
wrap=""
vm_args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=${2?}; shift 2 ;;
	--kernel-dir) kernel_dir=${2?}; shift 2 ;;
	--wrap) wrap=${2?}; shift 2 ;;
	-h|--help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) vm_args+=("$1"); shift ;;
	esac
done

newest() { # glob rt: the newest /boot/vmlinuz-GLOB, -rt or not
	local f k best=""
	for f in /boot/vmlinuz-$1; do
		[ -e "$f" ] || continue
		k=${f#/boot/vmlinuz-}
		if [ "$2" = 1 ]; then [[ "$k" == *-rt-* ]] || continue
		else [[ "$k" != *-rt-* ]] || continue; fi
		best=$(printf '%s\n%s\n' "$best" "$k" | sed '/^$/d' | sort -V | tail -n1)
	done
	echo "$best"
}
kdir=""
boot=(--kernel "$kernel")
case "$kernel" in
6.1) kver=$(newest '6.1.*' 0) ;;
6.12) kver=$(newest '6.12.*' 0) ;;
6.12-rt) kver=$(newest '6.12.*' 1) ;;
debug) kernel_dir=$("$top/scripts/debug-kernel.sh") ;;
*) kver=$kernel ;;
esac
if [ -n "$kernel_dir" ]; then
	kver=$(cat "$kernel_dir/release")
	kdir=$kernel_dir/linux
	[ "$kernel" = debug ] || boot=(--kernel "$kernel_dir")
fi
[ -n "$kver" ] || { echo "ksft.sh: no kernel '$kernel' in /boot" >&2; exit 2; }

pkg=$top/build/ksft/$kver
rm -rf "$pkg"
"$top/scripts/kselftest-install.sh" "$pkg" "$kver" "$kdir"
# shellcheck disable=SC2016,SC2086  # single quotes for the guest's shell; CMD is words
exec "$top/tests/vm/run" "${boot[@]}" --no-load "${vm_args[@]}" \
	--add "$pkg" --add "$(command -v timeout)" --add "$top/tests/vm/ksft-guest.sh" \
	-- "${KBENCH_MODULE_ARGS:+KBENCH_MODULE_ARGS='$KBENCH_MODULE_ARGS'}" \
	"${KBENCH_FUZZ_COUNT:+KBENCH_FUZZ_COUNT=$KBENCH_FUZZ_COUNT}" \
	"${KBENCH_KSFT_SKIP:+KBENCH_KSFT_SKIP='$KBENCH_KSFT_SKIP'}" \
	$wrap /extra/ksft-guest.sh "/extra/$kver"
