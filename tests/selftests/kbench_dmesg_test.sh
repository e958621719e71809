#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel must not have complained about anything while the collection
# ran: no warning, BUG, oops, lockup, stall or "sleeping function called
# from invalid context" in the log since run_kselftest.sh started the kbench
# collection (its "kselftest: Running tests in kbench" line), or in the
# whole log when run otherwise (the test VM: boot and module load
# included).  Runs before kbench_atomic_test.sh, which makes kbench warn
# on purpose.  Prints KTAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..1"
pattern='WARNING|BUG:|kernel BUG|Oops|lockup|rcu_sched self-detected stall|RCU stall'
pattern="$pattern|rcu: INFO|scheduling while atomic|Call Trace"
pattern="$pattern|sleeping function called from invalid context"
if ! log=$(dmesg 2>&1) || [ -z "$log" ]; then
	echo "# cannot read the kernel log: $log"
	tap 1 "dmesg_clean"
	exit $failed
fi
mark='kselftest: Running tests in kbench'
if echo "$log" | grep -q "$mark"; then
	log=$(echo "$log" | awk -v m="$mark" '
		index($0, m) { buf = ""; next }
		{ buf = buf $0 "\n" }
		END { printf "%s", buf }')
	since="since run_kselftest.sh started the collection"
else
	since="since boot"
fi
# The kernel command line names some of these (softlockup_panic=1, ...).
bad=$(echo "$log" | grep -v -i 'command line' | grep -E "$pattern")
if [ -n "$bad" ]; then
	echo "$bad" | sed 's/^/# /'
	tap 1 "dmesg_clean: the kernel log $since"
else
	tap 0 "dmesg_clean: the kernel log $since"
fi
exit $failed
