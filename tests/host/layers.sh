#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# No dependency loops (CONTRIBUTING.md, "Layers"): scripts/loops.py over
# kbenchctl's files (includes, and calls between the built objects) and
# the module's (includes, and calls between the objects of a build for
# the newest installed 6.1 headers).  kbenchctl has none; the module has
# the one CONTRIBUTING.md explains and must not grow another.  Prints TAP.
#
# Usage: tests/host/layers.sh
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
KMOD_LOOPS_ALLOWED=1

make -s -C "$top/user" >"$tmp/build" 2>&1
"$py" "$top/scripts/loops.py" --calls "$top/user" >"$tmp/user" 2>&1
tap $? "kbenchctl (user/): no file includes or calls into another that depends back on it ($(tail -n1 "$tmp/user"))" "$tmp/user"

kver=$(ls -d /lib/modules/6.1.*/build 2>/dev/null | sort -V | tail -n1)
kver=${kver#/lib/modules/}
kver=${kver%/build}
if [ -z "$kver" ]; then
	skip "kbench.ko: dependency loops" "no 6.1 kernel headers (scripts/deps.sh)"
else
	out=$top/build/layers/$kver
	mkdir -p "$out"
	if ( flock 9; make -s -C "$top/kmod" KVER="$kver" OUT="$out" ) \
		9>"$out/.build.lock" >"$tmp/kbuild" 2>&1; then
		"$py" "$top/scripts/loops.py" --calls --objects "$out" \
			--allow "$KMOD_LOOPS_ALLOWED" "$top/kmod" >"$tmp/kmod" 2>&1
		rc=$?
		sed 's/^/# /' "$tmp/kmod" | grep -v '^#     '
		tap $rc "kbench.ko (kmod/): at most $KMOD_LOOPS_ALLOWED loop, the one CONTRIBUTING.md explains ($(tail -n1 "$tmp/kmod"))" "$tmp/kmod"
	else
		tap 1 "kbench.ko: build for $kver (for its objects)" "$tmp/kbuild"
	fi
fi
echo "1..$n"
[ "$nfail" = 0 ]
