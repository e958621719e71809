#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# builtin-check.sh WANT_WINDOW_US COMMAND...: inside the VM of a kernel with
# kbench built in (CONFIG_KBENCH=y, scripts/builtin-kernel.sh), booted with
# kbench.max_window_us=WANT_WINDOW_US and nothing loaded: kbench is there
# without a module, kbenchctl info answers, the command-line parameter took
# effect, an example module registers against the built-in kbench; then
# COMMAND (a suite printing its own TAP), and no kbench.ko appeared.
# Prints TAP; exits 1 if COMMAND or any check failed.

want=${1:?usage: builtin-check.sh WANT_WINDOW_US COMMAND...}
shift
n=0
failed=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=1; fi
}
nomodule() { ! grep -q '^kbench ' /proc/modules; }

echo "TAP version 13"
echo "1..6"
zcat /proc/config.gz 2>/dev/null | grep -qx CONFIG_KBENCH=y && nomodule &&
	[ -d /sys/module/kbench ]
tap $? "builtin: CONFIG_KBENCH=y, /sys/module/kbench, no kbench in /proc/modules"

out=$(kbenchctl info 2>&1)
rc=$?
[ $rc = 0 ] || echo "$out" | sed 's/^/# /'
tap $rc "kbenchctl info answers with no kbench.ko loaded"

have=$(cat /sys/module/kbench/parameters/max_window_us 2>/dev/null)
[ "$have" = "$want" ]
tap $? "kbench.max_window_us=$want on the kernel command line: parameter is ${have:-missing}"

ko=/lib/kbench/kbench_example.ko
insmod $ko && kbenchctl list | grep -q '^foobar ' && rmmod kbench_example
tap $? "kbench_example.ko registers its routines with the built-in kbench and unloads"

/bin/sh -c "$*"
rc=$?
tap $rc "suite: $* (exit $rc)"

nomodule
tap $? "still no kbench.ko loaded after the suite"
exit $failed
