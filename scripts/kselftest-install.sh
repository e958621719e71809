#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make kselftest-install INSTALL_PATH=DIR`: write the kbench kselftest
# package, laid out as the kernel's `make -C tools/testing/selftests
# TARGETS=kbench install` lays one out, for a machine that runs it with
#     cd DIR && ./run_kselftest.sh -c kbench
#
#   DIR/run_kselftest.sh, DIR/kselftest/{runner.sh,prefix.pl,ktap_helpers.sh,
#       module.sh,ksft.py}     the kernel's own runner, copied from Debian's
#                              linux-source-6.12 (KBENCH_KSFT_SOURCE) at
#                              build time
#   DIR/kselftest-list.txt     kbench:TEST lines (tests/selftests/Makefile's
#                              emit_tests: TEST_GEN_PROGS, then TEST_PROGS)
#   DIR/kbench/                the tests, settings (timeout), kbench_lib.sh,
#                              kbench-fuzz, a static kbenchctl
#   DIR/kbench/modules/        kbench.ko, the example modules and the test
#                              modules, built for KVER (not kbench.ko when
#                              KDIR's kernel has CONFIG_KBENCH=y)
#
# Usage: scripts/kselftest-install.sh DIR [KVER [KDIR]]
#   KVER/KDIR as the top Makefile chooses them (the running kernel's
#   headers, else Debian's 6.1).  The package runs x86_64 kernels.
# Exit status: 0 written, 1 a build failed, 2 usage.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
prog=kselftest-install.sh
die() { echo "$prog: $*" >&2; exit "${2:-1}"; }

dest=${1:-}
[ -n "$dest" ] || die "usage: make kselftest-install INSTALL_PATH=DIR [KVER=...] [KDIR=...]" 2
kver=${2:-}
kdir=${3:-}
if [ -z "$kver" ]; then
	if [ -d "/lib/modules/$(uname -r)/build" ]; then
		kver=$(uname -r)
	else
		kver=$(find /usr/src -maxdepth 1 -name 'linux-headers-6.1.*-amd64' |
			sort -V | tail -n1 | sed 's,.*/linux-headers-,,')
	fi
fi
[ -n "$kver" ] || die "no kernel headers found: give KVER= and KDIR=" 2
if [ -z "$kdir" ]; then
	kdir=/lib/modules/$kver/build
	[ -d "$kdir" ] || kdir=/usr/src/linux-headers-$kver
fi
[ -d "$kdir" ] || die "$kdir: no build tree for $kver (give KDIR=)" 2
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)

# ---- the kernel's runner ----------------------------------------------------
ksrc=$top/build/ksft-runner
runner_files=(run_kselftest.sh kselftest/runner.sh kselftest/prefix.pl
	kselftest/ktap_helpers.sh kselftest/module.sh kselftest/ksft.py)
"$top/scripts/ksrc-extract.sh" \
	"${KBENCH_KSFT_SOURCE:-/usr/src/linux-source-6.12.tar.xz}" "$ksrc" \
	"${runner_files[@]/#/tools/testing/selftests/}" >/dev/null ||
	die "could not extract the kselftest runner (scripts/deps.sh installs linux-source-6.12)"
mkdir -p "$dest/kselftest"
for f in "${runner_files[@]}"; do
	# the kernel's install target: install -m 744
	install -m 744 "$ksrc/tools/testing/selftests/$f" "$dest/$f"
done

# ---- the modules, for KVER ----------------------------------------------------
# Where and how tests/vm/run builds them (one build per kernel, flock'd).
kout=$top/build/$kver/kmod
mkdir -p "$top/build/$kver"
(
	flock 9
	make -s -C "$top/kmod" KVER="$kver" KDIR="$kdir" OUT="$kout" \
		KBENCH_TEST_MODULES=m
) 9>"$top/build/$kver/.build.lock" || die "the modules did not build for $kver ($kdir)"
mods=(kbench_example.ko kbench_measure_example.ko kbench_prims.ko kbench_setup_test.ko
	kbench_atomic_test.ko kbench_genl_test.ko)
if grep -qs '^CONFIG_KBENCH=y' "$kdir/.config"; then
	echo "$prog: $kver has kbench built in (CONFIG_KBENCH=y): no kbench.ko" >&2
else
	mods=(kbench.ko "${mods[@]}")
fi

# ---- kbenchctl and the tests ------------------------------------------------
# the same lock as tests/vm/run's build of user/: chains run side by side
(
	flock 9
	make -s -C "$top/user" kbenchctl.static
) 9>"$top/build/.user.lock" || die "kbenchctl did not build"
(
	flock 9
	make -s -C "$top/tests/selftests" OUT="$top/build/selftests" \
		INSTALL_PATH="$dest/kbench" install
) 9>"$top/build/.selftests.lock" || die "the selftests did not build"
install -m 755 "$top/user/kbenchctl.static" "$dest/kbench/kbenchctl"
mkdir -p "$dest/kbench/modules"
rm -f "$dest"/kbench/modules/*.ko
for m in "${mods[@]}"; do
	install -m 644 "$kout/$m" "$dest/kbench/modules/$m"
done
echo "$kver" >"$dest/kbench/modules/kernelrelease"

# ---- kselftest-list.txt -----------------------------------------------------
# As the kernel's selftests Makefile writes it: every target's emit_tests.
make -s --no-print-directory -C "$top/tests/selftests" COLLECTION=kbench \
	emit_tests >"$dest/kselftest-list.txt"
echo "$prog: $dest: $(wc -l <"$dest/kselftest-list.txt") kbench tests, modules for $kver; run: cd $dest && ./run_kselftest.sh -c kbench" >&2
