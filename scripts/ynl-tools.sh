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
exec "$top/scripts/ksrc-extract.sh" \
	"${LINUX_SOURCE_612_TARBALL:-/usr/src/linux-source-6.12.tar.xz}" \
	"${1:-$top/build/linux-src-6.12}" \
	tools/net/ynl/ynl-gen-c.py \
	tools/net/ynl/cli.py \
	tools/net/ynl/lib \
	Documentation/netlink/genetlink.yaml \
	Documentation/netlink/genetlink-c.yaml \
	Documentation/netlink/genetlink-legacy.yaml
