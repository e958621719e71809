#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug kernel of the test bed: Debian's linux-source-6.1,
# `make tinyconfig`, then tests/vm/debug-kernel.config merged over it (KASAN,
# lockdep, kmemleak, UBSAN, debug objects, SLUB debugging, ...).  The build
# tree is cached outside the clone, keyed by the fragment, the source
# package's version, the compiler and this recipe, so a warm machine never
# rebuilds; it is also the KDIR that kbench.ko is built against.
#
# Usage: scripts/debug-kernel.sh [--check] [--jobs N] [--quiet]
#   (no option)  build if needed; print the cache directory on stdout:
#                DIR/bzImage, DIR/config, DIR/release (kernel release),
#                DIR/linux (the build tree: KDIR for modules)
#   --check      build if needed, then check the .config against the
#                fragment and print TAP (one line per debug feature)
#   --jobs N     make -j N (default: nproc)
#   --quiet      no progress on stderr
#   --print-key  print the cache key and exit
#
# Cache: $KBENCH_CACHE_DIR/debug-kernel/KEY, default /var/cache/kbench when
# writable, else ${XDG_CACHE_HOME:-~/.cache}/kbench.  Concurrent callers
# wait on one flock; a tree counts as built only once its `complete` stamp
# exists, and a failed or interrupted build is removed.  Remove the cache
# directory to reclaim its space (about 2 GB per key).
# Exit status: 0 ok, 1 build or check failed, 2 usage / missing tools.
set -euo pipefail
# The whole script is one block, so bash reads it completely before running
# it: editing the file while a run is under way cannot break that run.
{

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kcache.sh
. "$top/scripts/kcache.sh"
# recipe: bump when the build steps below change in a way that changes
# the result.
kcache_init debug-kernel.sh 3,26 debug-kernel.config \
	"${KBENCH_LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}"

check=0
print_key=0
kcache_options "--check=check --print-key=print_key" "$@"

kcache_ready

src_version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
	stat -L -c '%s %Y' "$tarball")
key=$( { echo "recipe $recipe"; echo "source $src_version";
	 gcc --version | head -n1; ld --version | head -n1;
	 cat "$fragment"; } | sha256sum | cut -c1-16)
if [ "$print_key" = 1 ]; then
	echo "$key"
	exit 0
fi

cache=$(kbench_cache_dir)
base=$cache/debug-kernel
dir=$base/$key
mkdir -p "$base"

# ---- build ------------------------------------------------------------------
# the build, in a fresh $dir (kcache_build calls it)
# shellcheck disable=SC2317
build_steps() {
	tar -xJf "$tarball" -C "$dir/linux" --strip-components=1
	cp "$fragment" "$dir/kbench-debug.config"
	cd "$dir/linux"
	make ARCH=x86_64 tinyconfig
	scripts/kconfig/merge_config.sh -m .config "$dir/kbench-debug.config"
	make ARCH=x86_64 olddefconfig
	# Refuse to build a kernel that lacks what the fragment asks for.
	check_config .config
	# bzImage, and modules for Module.symvers (external modules).
	make ARCH=x86_64 -j"$jobs" bzImage modules
	make -s ARCH=x86_64 kernelrelease >"$dir/release"
	cp arch/x86/boot/bzImage "$dir/bzImage"
	cp .config "$dir/config"
}

# shellcheck disable=SC2317
build() {
	kcache_build "debug kernel" build_steps 'error|Error|^not ok|^# MISSING'
}

# check_config FILE: every line of the fragment holds in FILE.  Prints TAP:
# one line per feature the test bed depends on, one for everything else.
check_config() {
	local cfg=$1 n=0 failed=0 missing=() rest_bad=()
	local -A feature=(
		[KASAN]="CONFIG_KASAN=y CONFIG_KASAN_GENERIC=y CONFIG_SLUB=y"
		[KASAN_VMALLOC]="CONFIG_KASAN_VMALLOC=y"
		[UBSAN]="CONFIG_UBSAN=y CONFIG_UBSAN_BOUNDS=y CONFIG_UBSAN_SHIFT=y CONFIG_UBSAN_SANITIZE_ALL=y"
		[PROVE_LOCKING]="CONFIG_PROVE_LOCKING=y CONFIG_LOCKDEP=y CONFIG_DEBUG_LOCK_ALLOC=y"
		[PROVE_RCU]="CONFIG_PROVE_RCU=y"
		[DEBUG_ATOMIC_SLEEP]="CONFIG_DEBUG_ATOMIC_SLEEP=y"
		[DEBUG_PREEMPT]="CONFIG_DEBUG_PREEMPT=y CONFIG_PREEMPT=y"
		[DEBUG_KMEMLEAK]="CONFIG_DEBUG_KMEMLEAK=y CONFIG_DEBUG_FS=y"
		[DEBUG_OBJECTS]="CONFIG_DEBUG_OBJECTS=y CONFIG_DEBUG_OBJECTS_FREE=y CONFIG_DEBUG_OBJECTS_TIMERS=y CONFIG_DEBUG_OBJECTS_WORK=y CONFIG_DEBUG_OBJECTS_RCU_HEAD=y"
		[SLUB_DEBUG]="CONFIG_SLUB_DEBUG=y CONFIG_SLUB_DEBUG_ON=y"
		[MODULE_UNLOAD]="CONFIG_MODULES=y CONFIG_MODULE_UNLOAD=y"
		[HOTPLUG_CPU]="CONFIG_SMP=y CONFIG_HOTPLUG_CPU=y"
		[x86_64]="CONFIG_64BIT=y CONFIG_X86_64=y"
		[BUG]="CONFIG_BUG=y CONFIG_GENERIC_BUG=y"
	)
	local order="x86_64 BUG KASAN KASAN_VMALLOC UBSAN PROVE_LOCKING PROVE_RCU DEBUG_ATOMIC_SLEEP DEBUG_PREEMPT DEBUG_KMEMLEAK DEBUG_OBJECTS SLUB_DEBUG MODULE_UNLOAD HOTPLUG_CPU"
	local f want

	echo "TAP version 13"
	echo "1..$(( $(wc -w <<<"$order") + 2 ))"
	for f in $order; do
		missing=()
		for want in ${feature[$f]}; do
			grep -qxF "$want" "$cfg" || missing+=("$want")
		done
		n=$((n + 1))
		if [ ${#missing[@]} = 0 ]; then
			echo "ok $n config_$f: ${feature[$f]}"
		else
			echo "not ok $n config_$f: missing ${missing[*]}"
			failed=1
		fi
	done
	# The rest of the fragment, line by line.
	mapfile -t rest_bad < <(kcache_fragment_missing "$cfg")
	n=$((n + 1))
	if [ ${#rest_bad[@]} = 0 ]; then
		echo "ok $n config_fragment: every line of tests/vm/debug-kernel.config holds"
	else
		printf '# MISSING: %s\n' "${rest_bad[@]}"
		echo "not ok $n config_fragment: ${#rest_bad[@]} line(s) dropped by Kconfig"
		failed=1
	fi
	# panic_on_warn comes from tests/vm/run's command line, for every kernel.
	n=$((n + 1))
	if grep -q 'panic_on_warn=1' "$top/tests/vm/run"; then
		echo "ok $n panic_on_warn: on the test bed's kernel command line"
	else
		echo "not ok $n panic_on_warn: missing from tests/vm/run's command line"
		failed=1
	fi
	return $failed
}

kcache_ensure build

if [ "$check" = 1 ]; then
	kcache_say "$(cat "$dir/complete")"
	check_config "$dir/config"
	exit
fi
echo "$dir"

exit
}
