#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the kernel's YNL tooling from Debian's linux-source-6.12 package
# into build/linux-src-6.12/ (never committed):
#   tools/net/ynl/ynl-gen-c.py, cli.py, lib/     the generator and the CLI
#   Documentation/netlink/genetlink*.yaml        the schemas specs follow
# Only those members are read from the tarball (one pass, about 10 s);
# nothing happens when they are already there.  Prints the directory.
#
# Usage: scripts/ynl-tools.sh [DEST]   (default: <repo>/build/linux-src-6.12)
# Env:   LINUX_SOURCE_612_TARBALL (default /usr/src/linux-source-6.12.tar.xz)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$top/build/linux-src-6.12}
tarball=${LINUX_SOURCE_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
members=(
	tools/net/ynl/ynl-gen-c.py
	tools/net/ynl/cli.py
	tools/net/ynl/lib
	Documentation/netlink/genetlink.yaml
	Documentation/netlink/genetlink-c.yaml
	Documentation/netlink/genetlink-legacy.yaml
)
# What must be there afterwards (lib/ is a directory member).
needed=(
	tools/net/ynl/ynl-gen-c.py tools/net/ynl/cli.py
	tools/net/ynl/lib/__init__.py tools/net/ynl/lib/nlspec.py
	tools/net/ynl/lib/ynl.py tools/net/ynl/lib/ynl-priv.h
	Documentation/netlink/genetlink-c.yaml
)

have_all() {
	local m
	for m in "${needed[@]}"; do
		[ -s "$dest/$m" ] || return 1
	done
}

if have_all; then
	echo "$dest"
	exit 0
fi

if [ ! -r "$tarball" ]; then
	echo "ynl-tools: $tarball missing (run scripts/deps.sh)" >&2
	exit 1
fi

prefix=linux-source-6.12
mkdir -p "$(dirname "$dest")"
tmp=$(mktemp -d "${dest%/}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp" --strip-components=1 "${members[@]/#/$prefix/}"
mkdir -p "$dest"
cp -a "$tmp"/. "$dest"/
chmod 755 "$dest"
have_all || { echo "ynl-tools: extraction incomplete" >&2; exit 1; }
echo "$dest"
