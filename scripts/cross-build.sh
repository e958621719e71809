#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cross-build kbench for a foreign architecture prepared by
# scripts/cross-setup.sh, into build/cross/ARCH/ (the source tree is not
# touched, so native and foreign builds coexist):
#   kmod/kbench.ko, kmod/kbench_example.ko   against Debian's ARCH headers
#   src/user/kbenchctl                       static, with the ARCH's libnl
#                                            and libkbench
#   selftests/                               static, as for x86 (and
#                                            selftests-libkbench/, staged)
#   stress/                                  sigrun and the stress scripts
#
# Usage: scripts/cross-build.sh [--quiet] ARCH      ARCH: arm64 | ppc64le
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
quiet=0
[ "${1:-}" = --quiet ] && { quiet=1; shift; }
arch=${1:-}
case "$arch" in
arm64|ppc64le) ;;
aarch64) arch=arm64 ;;
ppc64el|powerpc64le) arch=ppc64le ;;
*) echo "usage: scripts/cross-build.sh [--quiet] arm64|ppc64le" >&2; exit 2 ;;
esac
dir=$top/build/cross/$arch
[ -f "$dir/env" ] || "$top/scripts/cross-setup.sh" "$arch"
# shellcheck disable=SC1091
. "$dir/env"

step() { # name cmd...: output only on failure (with --quiet)
	local name=$1 log
	shift
	if [ "$quiet" = 0 ]; then
		echo "cross-build: $arch: $name"
		"$@"
		return
	fi
	log=$(mktemp)
	if ! "$@" >"$log" 2>&1; then
		echo "cross-build: $arch: $name failed:" >&2
		grep -m 30 -E 'error|Error|warning' "$log" >&2 || tail -n 30 "$log" >&2
		rm -f "$log"
		return 1
	fi
	rm -f "$log"
}

step kmod make -C "$top/kmod" KDIR="$XKDIR" ARCH="$XKARCH" \
	CROSS_COMPILE="$XCROSS" OUT="$dir/kmod" KBENCH_TEST_MODULES=m

# user/ (and user/lib/, libkbench) builds in its own directory with
# ../include: give it a private copy of its sources next to a link to that.
src=$dir/src
mkdir -p "$src/user"
ln -sfn "$top/include" "$src/include"
rm -f "$src/kmod"
cp -u "$top"/user/*.c "$top"/user/*.h "$top"/user/Makefile "$src/user/"
for d in "$top"/user/*/; do
	d=${d%/}
	mkdir -p "$src/user/${d##*/}"
	cp -u "$d"/*.[ch] "$src/user/${d##*/}/"
done
cp -u "$top"/user/lib/*.map "$top"/user/lib/Makefile "$src/user/lib/"
# libnl's getaddrinfo() etc. are never called; silence glibc's static-link
# warnings about them.
step kbenchctl env PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="/usr/lib/$XTRIPLET/pkgconfig" \
	make -C "$src/user" CC="${XCROSS}gcc" AR="${XCROSS}ar" \
	LDFLAGS="-static -Wl,--no-warnings" kbenchctl

step selftests make -C "$top/tests/selftests" CC="${XCROSS}gcc" \
	AR="${XCROSS}ar" OUT="$dir/selftests"

step stress make -C "$top/tests/stress" CC="${XCROSS}gcc" OUT="$dir/stress"
