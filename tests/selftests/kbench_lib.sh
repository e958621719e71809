# shellcheck shell=sh disable=SC2034  # n and failed: the scripts' state
# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the selftest scripts (busybox sh), sourced by each:
#   . "$(dirname "$0")/kbench_lib.sh"
# TAP lines numbered in $n; $failed is 1 once a test failed.

n=0
failed=0

# tap STATUS DESCRIPTION: "ok N ..." when STATUS is 0, else "not ok N ..."
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=1; fi
}

# skip WHY: a test that cannot run here
skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}

# json_num KEY: the first number after "KEY": in the JSON on stdin
json_num() {
	tr -d '\n' | grep -o "\"$1\": [-0-9.e+]*" | head -n 1 | sed 's/.*: //'
}
