# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034  # n and failed: the scripts' state
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

# tap_out STATUS DESCRIPTION: tap, with $out (a command's output) as the
# diagnostics of a failure
tap_out() {
	[ "$1" = 0 ] || echo "$out" | sed 's/^/# /'
	tap "$1" "$2"
}

# kb_check_out exact|has CODE WANT CMD...: CMD exits CODE and its stdout
# and stderr are exactly WANT (exact) or hold WANT (has)
kb_check_out() {
	how=$1
	code=$2
	want=$3
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$how" = exact ]; then
		[ "$rc" = "$code" ] && [ "$out" = "$want" ]
	else
		[ "$rc" = "$code" ] && echo "$out" | grep -qF -- "$want"
	fi
	r=$?
	[ $r = 0 ] || echo "$out" | head -n 8 | sed "s/^/# exit $rc: /"
	tap $r "$*: exit $code, '$want'"
}

# expect CODE WANT CMD...: CMD's output is exactly WANT, its exit status CODE
expect() { kb_check_out exact "$@"; }

# has CODE NEEDLE CMD...: CMD exits CODE and its output holds NEEDLE
has() { kb_check_out has "$@"; }

# skip WHY: a test that cannot run here
skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}

# json_num KEY: the first number after "KEY": in the JSON on stdin
json_num() {
	tr -d '\n' | grep -o "\"$1\": [-0-9.e+]*" | head -n 1 | sed 's/.*: //'
}

# Where the scripts find kbenchctl and the modules, so that they run the
# same in the test VM and from an installed kselftest package: kbenchctl
# next to the script first (the package), else on PATH; the modules in
# $KBENCH_MODDIR, else modules/ next to the script (the package), else
# /lib/kbench (the VM).
kb_dir=$(cd "$(dirname "$0")" && pwd)
[ -x "$kb_dir/kbenchctl" ] && PATH=$kb_dir:$PATH
if [ -n "$KBENCH_MODDIR" ]; then
	kb_moddir=$KBENCH_MODDIR
elif [ -d "$kb_dir/modules" ]; then
	kb_moddir=$kb_dir/modules
else
	kb_moddir=/lib/kbench
fi

# kb_icount: exact (instruction-count) assertions may be made: qemu
# -icount, told by kbench_icount=1 on the kernel command line (tests/vm/run
# --icount) or KBENCH_EXACT=1; KBENCH_EXACT=0 says no.  Real hardware: no.
kb_icount() {
	case "${KBENCH_EXACT:-}" in
	1) return 0 ;;
	?*) return 1 ;;
	esac
	grep -q kbench_icount=1 /proc/cmdline
}

# kb_builtin: kbench is part of the kernel (CONFIG_KBENCH=y): it cannot be
# unloaded or reloaded with other parameters.
kb_builtin() {
	[ -d /sys/module/kbench ] && ! grep -q '^kbench ' /proc/modules
}

# kb_rmmod MODULE: unload MODULE, trying again once a second for up to 60 s
# while it is still loaded.  A run whose requester has gone ends on its own
# (a socket's release only aborts it, nobody waits for it): until its
# teardown is over it holds its routine's module, and rmmod fails with
# "Resource temporarily unavailable".  rmmod's status.
kb_rmmod() {
	k=0
	until rmmod "$1" 2>/dev/null; do
		grep -q "^$1 " /proc/modules || return 0
		k=$((k + 1))
		[ $k -ge 60 ] && { rmmod "$1"; return; }
		sleep 1
	done
}

# now_ms: milliseconds since boot
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# busy CPU: wait (up to 20 s) until a run occupies CPU -- a run started in
# the background may take a while on a slow kernel under a loaded host.
# The sign is the run's thread kbench/CPU; probing with runs of our own
# raced (a probe could take the CPU first and make the run fail as busy).
busy() {
	k=0
	while [ $k -lt 100 ]; do
		grep -qx "kbench/$1" /proc/[0-9]*/comm 2>/dev/null && return 0
		sleep 0.2
		k=$((k + 1))
	done
	return 1
}
