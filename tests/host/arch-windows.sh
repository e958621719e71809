#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a foreign architecture's kbench.ko must contain, read from its
# disassembly: qemu shows neither property (it emulates no timer erratum,
# and a soft-masked interrupt inside a short window is too rare to catch).
#
#   arm64    CNTVCT is read through the kernel's erratum-aware accessor
#            (__arch_counter_get_cntvct_stable()): the module imports the
#            per-CPU timer_unstable_counter_workaround, and the counter's
#            window function both consults it and reads cntvct_el0.
#   ppc64le  Every irq-off window is hard-disabled, not only soft-masked:
#            the counter's window function and the clocks table's latency
#            and resolution functions (CLOCK_GET) contain mtmsrd
#            (__hard_irq_disable() on Book3S-64).
#
# Usage: tests/host/arch-windows.sh ARCH [KBENCH_KO]
#   ARCH: arm64 | ppc64le; KBENCH_KO defaults to build/cross/ARCH/kmod/kbench.ko
#   (scripts/cross-build.sh).  Prints TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
arch=${1:-}
case "$arch" in
arm64|ppc64le) ;;
*) echo "usage: tests/host/arch-windows.sh arm64|ppc64le [KBENCH_KO]" >&2; exit 2 ;;
esac
ko=${2:-$top/build/cross/$arch/kmod/kbench.ko}
env=$top/build/cross/$arch/env
if [ ! -f "$ko" ] || [ ! -f "$env" ]; then
	echo "1..0 # SKIP $ko not built (scripts/cross-build.sh $arch)"
	exit 0
fi
# shellcheck disable=SC1090
. "$env"
objdump=${XCROSS}objdump
nm=${XCROSS}nm

# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"

# fn NAME: the function's disassembly with relocations
fn() {
	"$objdump" -dr --no-show-raw-insn "$ko" | awk -v fn="<$1>:" '
		$2 == fn { on = 1; next }
		on && NF == 0 { exit }
		on'
}

case "$arch" in
arm64)
	syms=$("$nm" "$ko")
	grep -q ' U timer_unstable_counter_workaround$' <<<"$syms"
	tap $? "arm64: kbench.ko imports timer_unstable_counter_workaround"
	d=$(fn kbench_cntvct_window)
	grep -q 'timer_unstable_counter_workaround' <<<"$d"
	tap $? "arm64: the window consults the per-CPU erratum workaround"
	# without an erratum the accessor calls arch_timer_read_cntvct_el0()
	d=$(fn arch_timer_read_cntvct_el0)
	grep -q 'mrs.*cntvct_el0' <<<"$d"
	tap $? "arm64: its default read is mrs cntvct_el0"
	;;
ppc64le)
	for f in kbench_timebase_window kbench_clock_latency \
		 kbench_clock_resolution; do
		d=$(fn "$f")
		[ -n "$d" ] && grep -q 'mtmsrd' <<<"$d"
		tap $? "ppc64le: $f hard-disables interrupts (mtmsrd)"
	done
	;;
esac

echo "1..$n"
[ "$nfail" = 0 ]
