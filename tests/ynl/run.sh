#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/ynl/run.sh - the kernel's own ynl CLI (tools/net/ynl/cli.py of
# Debian's linux-source-6.12) drives the kbench family in the VM, knowing
# nothing but Documentation/netlink/specs/kbench.yaml: --do info, --dump
# routine-get and clock-get, --do run with attributes, and bad requests
# whose extack message and attribute it prints; its library drives a RUN
# with notify to its notifications and run-get (tests/ynl/ynl_test.py).
# Prints TAP.  Plain TCG (no icount): nothing here depends on timing.
#
# Usage: tests/ynl/run.sh [tests/vm/run options, e.g. --kernel 6.12-rt]
# Exit status: that of tests/vm/run (0 all passed, 1 a test failed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
case "${1:-}" in -h|--help) sed -n '3,13p' "$0"; exit 0 ;; esac

ynl=$("$top/scripts/ynl-tools.sh")/tools/net/ynl
exec "$top/tests/vm/run" --with-python "$@" \
	--add "$ynl" --add "$top/Documentation/netlink/specs/kbench.yaml" \
	--add "$here/ynl_test.py" --add "$here/ynl_common.py" \
	-- python3 /extra/ynl_test.py /extra/ynl/cli.py /extra/kbench.yaml
