#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the few kernel-source files kbench borrows from Debian's
# linux-source-6.1 package into build/linux-src/ (never committed):
#   tools/testing/selftests/kselftest_harness.h, kselftest.h   (selftests)
#   scripts/checkpatch.pl, spelling.txt, const_structs.checkpatch (lint)
# Only those members are read from the tarball.  Does nothing if they are
# already there.  Prints the directory on stdout.
#
# Usage: scripts/kselftest-headers.sh [DEST]   (default: <repo>/build/linux-src)
# Env:   LINUX_SOURCE_TARBALL (default /usr/src/linux-source-6.1.tar.xz)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$top/build/linux-src}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
members=(
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/kselftest.h
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
)

have_all() {
	local m
	for m in "${members[@]}"; do
		[ -s "$dest/$m" ] || return 1
	done
}

if have_all; then
	echo "$dest"
	exit 0
fi

if [ ! -r "$tarball" ]; then
	echo "kselftest-headers: $tarball missing (run scripts/deps.sh)" >&2
	exit 1
fi

# The tarball's top directory is linux-source-6.1/; strip it.
prefix=$(set +o pipefail; tar -tJf "$tarball" 2>/dev/null | head -n1 | cut -d/ -f1)
mkdir -p "$(dirname "$dest")"
tmp=$(mktemp -d "${dest%/}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
	"${members[@]/#/$prefix/}"
mkdir -p "$dest"
cp -a "$tmp"/. "$dest"/
chmod 755 "$dest"
chmod +x "$dest/scripts/checkpatch.pl"
have_all || { echo "kselftest-headers: extraction incomplete" >&2; exit 1; }
echo "$dest"
