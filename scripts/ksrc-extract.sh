#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract a few members of a Debian linux-source tarball into DEST (under
# build/, never committed), its top directory (linux-source-X.Y/) stripped.
# Only those members are read; nothing happens when all are there already.
# A member may be a file or a directory.  Prints DEST.  Used by
# scripts/kselftest-headers.sh (6.1) and scripts/ynl-tools.sh (6.12).
#
# Usage: scripts/ksrc-extract.sh TARBALL DEST MEMBER...
set -euo pipefail

tarball=${1?usage: ksrc-extract.sh TARBALL DEST MEMBER...}
dest=${2?usage: ksrc-extract.sh TARBALL DEST MEMBER...}
shift 2
members=("$@")

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

# make check runs suites in parallel: one extractor per DEST at a time,
# the others find its result
mkdir -p "$(dirname "$dest")"
exec 9>"${dest%/}.lock"
flock 9
if have_all; then
	echo "$dest"
	exit 0
fi

if [ ! -r "$tarball" ]; then
	echo "ksrc-extract: $tarball missing (run scripts/deps.sh)" >&2
	exit 1
fi

# The tarball's top directory is linux-source-X.Y/; strip it.
prefix=$(set +o pipefail; tar -tJf "$tarball" 2>/dev/null | head -n1 | cut -d/ -f1)
mkdir -p "$(dirname "$dest")"
tmp=$(mktemp -d "${dest%/}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp" --strip-components=1 "${members[@]/#/$prefix/}"
mkdir -p "$dest"
cp -a "$tmp"/. "$dest"/
chmod 755 "$dest"
have_all || { echo "ksrc-extract: extraction from $tarball incomplete" >&2; exit 1; }
echo "$dest"
