#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The selftests on one foreign architecture, as TAP: prepare it
# (scripts/cross-setup.sh), cross-build kbench (scripts/cross-build.sh),
# check the module's disassembly (tests/host/arch-windows.sh), boot Debian's
# kernel for it in qemu (tests/vm/run --arch) and run /selftests/run.sh in
# each mode; on arm64 without icount also tests/stress/events.sh (hardware
# events under signals, rmmod and CPU offline).  Meant to be called by scripts/check.sh
# once per architecture of `make check ARCHS="x86_64 arm64 ppc64le"`.
#
# Usage: scripts/check-arch.sh [--modes "icount plain"] ARCH [RUN.SH ARGS...]
#   ARCH: arm64 | ppc64le
# Env: KBENCH_CHECK_MODES, KBENCH_CHECK_VM_TIMEOUT (each VM's bound, 1200 s),
#      KBENCH_ARCH_SKIP (tests left out, run.sh --skip; below)
# Exit status: 0 if everything passed, 1 otherwise.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
modes=${KBENCH_CHECK_MODES:-icount plain}
# a bound for a hung VM, not a speed: the arch suites run beside others
# (arm64's plain run took over tests/vm/run's default 300 s so)
vm_timeout=${KBENCH_CHECK_VM_TIMEOUT:-1200}
if [ "${1:-}" = --modes ]; then
	modes=$2
	shift 2
fi
arch=${1:-}
case "$arch" in
arm64|ppc64le) ;;
*) echo "usage: scripts/check-arch.sh [--modes \"icount plain\"] arm64|ppc64le [ARGS...]" >&2
   exit 2 ;;
esac
shift

# Left out here, run once on x86_64: the CLI test (kbenchctl's own options
# and output, the same C on every arch; what it makes the module do is
# kbench_setup_mem_test.sh's, which runs here).  The fuzz runs, shorter in
# plain TCG (run.sh --quick: 2000 messages; 500 under icount): the netlink
# policy has no arch code, but the module's parsing and replies meet each
# arch's kernel.  KBENCH_ARCH_SKIP="" runs the CLI test too.
arch_skip=${KBENCH_ARCH_SKIP-kbench_cli_test.sh}
skip_args=()
[ -n "$arch_skip" ] && skip_args=(--skip "$arch_skip")

rc=0
t_all=$(date +%s)
echo "# ---- $arch: setup and cross build"
echo "TAP version 13"
echo "1..2"
if "$top/scripts/cross-setup.sh" "$arch" 2>&1 | sed 's/^/# /'; then
	echo "ok 1 cross_setup_$arch"
else
	echo "not ok 1 cross_setup_$arch"
	echo "not ok 2 cross_build_$arch # no setup"
	exit 1
fi
if "$top/scripts/cross-build.sh" --quiet "$arch" 2>&1 | sed 's/^/# /'; then
	echo "ok 2 cross_build_$arch"
else
	echo "not ok 2 cross_build_$arch"
	exit 1
fi

# --asm for this arch, built here by kbenchctl itself (ARCH and
# CROSS_COMPILE as kbuild takes them, --keep DIR): the module, the shared
# object and a module whose snippet faults; kbench_asm_test.sh reuses them
# in the VM, which has no compiler.
echo "# ---- $arch: kbenchctl --asm builds kept for $arch"
# shellcheck disable=SC1090,SC1091
. "$top/build/cross/$arch/env"
asm=$top/build/cross/$arch/asm
case "$arch" in
arm64) code='add x3, x3, x4; mul x5, x5, x5; nop'
	bad='mov x9, #16; ldr x10, [x9]' ;;
*) code='add 3, 3, 4; mulld 5, 5, 5; nop'
	bad='lis 9, -16369; sldi 9, 9, 32; ld 10, 0(9)' ;;
esac
rm -rf "$asm" && mkdir -p "$asm/kit" &&
	sed -e "s,@MKFILE@,$asm/kit/kbench.mk,g" -e "s,@KBUILD_INCLUDE@,$top/include,g" \
	    -e "s,@SYMVERSDIR@,$asm/kit,g" "$top/kbench.mk.in" >"$asm/kit/kbench.mk" &&
	make -s -C "$top/user" kbenchctl >"$asm/log" 2>&1
asm_ok=$?
for what in kmod user fault; do
	[ $asm_ok = 0 ] || break
	c=$code opt=()
	[ $what = fault ] && c=$bad
	[ $what = user ] && opt=(--user)
	ARCH=$XKARCH CROSS_COMPILE=$XCROSS KDIR=$XKDIR KBENCH_MK=$asm/kit/kbench.mk \
		KBENCH_SYMVERS=$top/build/cross/$arch/kmod/Module.symvers \
		"$top/user/kbenchctl" run --asm "$c" --unroll 10 "${opt[@]}" \
		--keep "$asm/asm-$what" >>"$asm/log" 2>&1 &&
		grep -q "built for .*kept in $asm/asm-$what, not loaded" "$asm/log" ||
		asm_ok=1
done
if [ $asm_ok = 0 ]; then
	echo "ok 3 asm_builds_$arch"
else
	sed 's/^/# /' "$asm/log"
	echo "not ok 3 asm_builds_$arch"
	rc=1
fi
asm_add=()
for what in kmod user fault; do
	[ -d "$asm/asm-$what" ] && asm_add+=(--add "$asm/asm-$what")
done

echo "# ---- $arch: what the module's disassembly must show"
"$top/tests/host/arch-windows.sh" "$arch" || rc=1

for m in $modes; do
	opt=()
	[ "$m" = icount ] && opt=(--icount)
	# plain TCG: windows must not fail on host stalls (see check.sh)
	quick=()
	[ "$m" = plain ] && opt=(--module-args max_window_us=20000) &&
		quick=(--quick)
	t0=$(date +%s)
	echo "# ---- $arch $m: tests/vm/run --arch $arch ${opt[*]} -- /selftests/run.sh ${skip_args[*]} ${quick[*]} $*"
	"$top/tests/vm/run" --arch "$arch" --no-build "${opt[@]}" "${asm_add[@]}" \
		--timeout "$vm_timeout" -- /selftests/run.sh "${skip_args[@]}" \
		"${quick[@]}" "$@" || rc=1
	echo "# $arch $m: $(( $(date +%s) - t0 )) s"
	# hardware events under signals, rmmod and CPU offline: needs a PMU
	# (arm64's) and 2 vCPUs (no icount)
	if [ "$arch" = arm64 ] && [ "$m" = plain ]; then
		t0=$(date +%s)
		stress=$top/build/cross/$arch/stress
		echo "# ---- $arch $m: tests/stress/events.sh"
		"$top/tests/vm/run" --arch "$arch" --no-build --add "$stress/sigrun" \
			--add "$stress/events.sh" --timeout "$vm_timeout" \
			-- /extra/events.sh || rc=1
		echo "# $arch events stress: $(( $(date +%s) - t0 )) s"
	fi
done
echo "# $arch: $(( $(date +%s) - t_all )) s wall for: setup, build, $modes"
exit $rc
