#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The last test of the kbench collection: unload what the collection loaded
# (the example and test modules, and kbench.ko if kbench_load.sh loaded it),
# so the machine is left as the run found it.  Prints KTAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

state=${KBENCH_STATE:-/tmp/kbench-kselftest.loaded}

echo "TAP version 13"
echo "1..1"
if [ ! -f "$state" ]; then
	skip "kbench was not loaded by this run: left as it was"
	exit 0
fi
for m in kbench_example kbench_measure_example kbench_prims kbench_setup_test; do
	grep -q "^$m " /proc/modules && rmmod "$m"
done
rmmod kbench && ! grep -q '^kbench ' /proc/modules
tap $? "rmmod kbench"
rm -f "$state"
exit $failed
