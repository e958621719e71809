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
"$top/scripts/ksrc-extract.sh" \
	"${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" "$dest" \
	tools/testing/selftests/kselftest_harness.h \
	tools/testing/selftests/kselftest.h \
	scripts/checkpatch.pl \
	scripts/spelling.txt \
	scripts/const_structs.checkpatch
chmod +x "$dest/scripts/checkpatch.pl"
