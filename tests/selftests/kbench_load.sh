#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The first test of the kbench collection: make kbench available.  Built
# in (CONFIG_KBENCH=y) or already loaded, it is used as it is; otherwise
# kbench.ko is loaded from the package (modules/ next to this script, or
# $KBENCH_MODDIR), or else with modprobe (CONFIG_KBENCH=m), with
# $KBENCH_MODULE_ARGS, and kbench_unload.sh, the last test, unloads it
# again.  Prints KTAP; exit 1 if kbench cannot be had.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

state=${KBENCH_STATE:-/tmp/kbench-kselftest.loaded}
rm -f "$state"

echo "TAP version 13"
echo "1..1"
if grep -q '^kbench ' /proc/modules; then
	tap 0 "kbench.ko already loaded: used as it is, left loaded"
elif kb_builtin; then
	tap 0 "kbench built in (CONFIG_KBENCH=y): used as it is"
elif [ "$(id -u)" != 0 ]; then
	echo "# loading kbench.ko needs root"
	tap 1 "kbench loaded"
else
	# the package's kbench.ko, else the kernel's own (CONFIG_KBENCH=m)
	ko=$kb_moddir/kbench.ko
	load="insmod $ko"
	[ -f "$ko" ] || load="modprobe kbench"
	# shellcheck disable=SC2086  # the arguments are words
	if out=$($load ${KBENCH_MODULE_ARGS:-} 2>&1); then
		echo "$load" >"$state"
		tap 0 "$load ${KBENCH_MODULE_ARGS:-}"
	else
		echo "# $load: $out"
		dmesg 2>/dev/null | tail -n 5 | sed 's/^/# dmesg: /'
		echo "# kbench.ko must be built for $(uname -r)" \
			"(make kselftest-install KVER=$(uname -r))," \
			"or the kernel built with CONFIG_KBENCH"
		tap 1 "$load"
	fi
fi
exit $failed
