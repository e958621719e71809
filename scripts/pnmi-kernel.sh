#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the test bed's arm64 pseudo-NMI kernel: Debian's
# linux-source-6.1, `make ARCH=arm64 tinyconfig`, then
# tests/vm/pnmi-kernel.config merged over it (CONFIG_ARM64_PSEUDO_NMI, GICv3,
# the PMU, qemu virt's devices; nothing else), cross-compiled with the
# toolchain of scripts/cross-setup.sh arm64.  Debian's arm64 kernels lack
# CONFIG_ARM64_PSEUDO_NMI; tests/vm/run --arch arm64 --kernel pnmi boots
# this one with irqchip.gicv3_pseudo_nmi=1.  Cached like
# scripts/debug-kernel.sh, keyed by the fragment, the source package, the
# cross compiler and this recipe.
#
# Usage: scripts/pnmi-kernel.sh [--jobs N] [--quiet] [--tap]
#   prints the cache directory: DIR/Image, DIR/config, DIR/release,
#   DIR/linux (the build tree: KDIR for kbench.ko and the test modules),
#   DIR/complete (how long the build took); --tap: instead, TAP lines for
#   the build and the config
# Cache: $KBENCH_CACHE_DIR/pnmi-kernel/KEY (default /var/cache/kbench,
# else ~/.cache/kbench); one builder at a time (flock).
# Exit status: 0 ok, 1 build failed, 2 usage / missing tools.
set -euo pipefail
{

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kcache.sh
. "$top/scripts/kcache.sh"
kcache_init pnmi-kernel.sh 3,22 pnmi-kernel.config \
	"${KBENCH_LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}"
tap=0
kcache_options "--tap=tap" "$@"
cross=aarch64-linux-gnu-
kcache_ready "${cross}gcc" "${cross}ld"

src_version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
	stat -L -c '%s %Y' "$tarball")
key=$( { echo "recipe $recipe"; echo "source $src_version";
	 "${cross}gcc" --version | head -n1; "${cross}ld" --version | head -n1;
	 cat "$fragment"; } | sha256sum | cut -c1-16)
cache=$(kbench_cache_dir)
base=$cache/pnmi-kernel
dir=$base/$key
mkdir -p "$base"

# check_config FILE: every line of the fragment holds in FILE; prints the
# lines that do not
check_config() {
	local bad

	mapfile -t bad < <(kcache_fragment_missing "$1")
	[ ${#bad[@]} = 0 ] || { printf 'MISSING: %s\n' "${bad[@]}"; return 1; }
}

# the build, in a fresh $dir (kcache_build calls it)
# shellcheck disable=SC2317
build_steps() {
	local mk=(make ARCH=arm64 CROSS_COMPILE="$cross")
	tar -xJf "$tarball" -C "$dir/linux" --strip-components=1
	cd "$dir/linux"
	"${mk[@]}" tinyconfig
	scripts/kconfig/merge_config.sh -m .config "$fragment"
	"${mk[@]}" olddefconfig
	check_config .config
	# Image, and modules for Module.symvers (external modules)
	"${mk[@]}" -j"$jobs" Image modules
	"${mk[@]}" -s kernelrelease >"$dir/release"
	cp arch/arm64/boot/Image "$dir/Image"
	cp .config "$dir/config"
}

# shellcheck disable=SC2317
build() {
	local fail=
	[ "$tap" = 0 ] || fail="not ok 1 pnmi_kernel_built: see $base/$key.log"
	kcache_build "arm64 pseudo-NMI kernel" build_steps 'error|Error|MISSING' "$fail"
}

kcache_ensure build
if [ "$tap" = 1 ]; then
	echo "TAP version 13"
	echo "1..2"
	echo "ok 1 pnmi_kernel_built: $(cat "$dir/release"): $(cat "$dir/complete")"
	if out=$(check_config "$dir/config"); then
		echo "ok 2 config: every line of tests/vm/pnmi-kernel.config holds"
	else
		printf '# %s\n' "$out"
		echo "not ok 2 config: lines dropped by Kconfig"
	fi
	exit 0
fi
echo "$dir"

exit
}
