#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the test bed's kernel with kbench built in: Debian's
# linux-source-6.12, the in-tree series (scripts/intree.sh) applied,
# `make tinyconfig` with tests/vm/builtin-kernel.config merged over it
# (CONFIG_KBENCH=y).  After the kernel, the kbench objects are rebuilt with
# W=1, built in (=y) and as a module (=m, objects only), in that tree;
# any compiler warning fails the build.  Cached like
# scripts/debug-kernel.sh, keyed by the series, the fragment, the source
# package, the compiler and this recipe.  A key whose only change is
# kbench's own sources starts from the newest built tree of the same
# source, fragment and compiler (DIR/seed-base): a few minutes, not a
# whole kernel.
#
# Usage: scripts/builtin-kernel.sh [--jobs N] [--quiet] [--tap]
#   prints the cache directory: DIR/bzImage, DIR/release, DIR/linux (the
#   build tree: KDIR for the example modules), DIR/patches (the series),
#   DIR/w1-y.log, DIR/w1-m.log (the W=1 builds), DIR/complete (how long
#   the build took); --tap: instead, TAP lines for the build, the config
#   and the two W=1 builds
# Cache: $KBENCH_CACHE_DIR/builtin-kernel/KEY (default /var/cache/kbench,
# else ~/.cache/kbench); one builder at a time (flock).
# Exit status: 0 ok, 1 build failed, 2 usage / missing tools.
set -euo pipefail
{

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kcache.sh
. "$top/scripts/kcache.sh"
kcache_init builtin-kernel.sh 3,24 builtin-kernel.config \
	"${KBENCH_LINUX_SOURCE_612:-/usr/src/linux-source-6.12.tar.xz}"
tap=0
kcache_options "--tap=tap" "$@"
kcache_ready git

# What the kernel image is built from: the series' kernel part (the
# selftests and documentation in DIR/patches do not change the kernel).
src_version=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null ||
	stat -L -c '%s %Y' "$tarball")
sources=()
for f in "$top"/kmod/*.[ch]; do
	case "$f" in *.mod.c) ;; *) sources+=("$f") ;; esac	# kbuild output
done
# What a tree of another key can seed this one with (kcache_seed): the
# same source, compiler, fragment and recipe; only kbench differs.
seed_base=$( { echo "recipe $recipe"; echo "source $src_version";
	 gcc --version | head -n1; cat "$fragment"; } | sha256sum | cut -c1-16)
key=$( { echo "seed-base $seed_base";
	 cd "$top" && cat scripts/intree.sh scripts/intree/Kconfig \
		"${sources[@]}" \
		kmod/Kbuild include/linux/kbench.h include/uapi/linux/kbench.h \
		include/kbench/*.h; } | sha256sum | cut -c1-16)
cache=$(kbench_cache_dir)
base=$cache/builtin-kernel
dir=$base/$key
mkdir -p "$base"

# w1 y|m: rebuild kernel/kbench/ with W=1 into DIR/w1-y|m.log; fail on
# any compiler warning
# shellcheck disable=SC2317
w1() {
	local log=$dir/w1-$1.log
	echo "== CONFIG_KBENCH=$1: make W=1 kernel/kbench/" >"$log"
	touch "$tree"/kernel/kbench/*.c
	make -C "$tree" ARCH=x86_64 W=1 -j"$jobs" kernel/kbench/ >>"$log" 2>&1 || return 1
	! grep -E 'warning:|error:' "$log" || return 1
	grep -q 'kernel/kbench/kbench_main.o' "$log" || { echo "== nothing rebuilt" >>"$log"; return 1; }
}

# The tree is built at one path, $base/tree, and moved to DIR/linux when
# done: the build records its own path (objtool, which every object
# depends on, is built with it), so a tree moved back there for the next
# key rebuilds only what changed.  One build at a time of any key.
tree=$base/tree

# the build, in a fresh $dir (kcache_build calls it)
# shellcheck disable=SC2317
build_steps() {
	local seed
	exec 8>"$base/tree.lock"
	flock 8
	rm -rf "$tree"
	seed=$(kcache_seed "$seed_base")
	if [ -n "$seed" ]; then
		# The newest tree, built: no longer its key's (it is moved
		# here), back to the source as extracted (intree.sh's first
		# commit; build outputs stay), the series applied again; make
		# rebuilds what changed (kbench, what includes its headers,
		# the link).
		echo "== seeded from $seed"
		rm -f "$seed/complete"
		mv "$seed/linux" "$tree"
		git -C "$tree" reset -q --hard \
			"$(git -C "$tree" rev-list --max-parents=0 HEAD)"
		# kbench's own directories: kernel/kbench holds only its
		# objects now, the selftests nothing the kernel build made
		rm -rf "$tree/kernel/kbench" "$tree/tools/testing/selftests/kbench"
		"$top/scripts/intree.sh" --built "$tree" "$dir/patches"
	else
		mkdir -p "$tree"
		tar -xJf "$tarball" -C "$tree" --strip-components=1
		"$top/scripts/intree.sh" "$tree" "$dir/patches"
	fi
	echo "$seed_base" >"$dir/seed-base"
	cd "$tree"
	make ARCH=x86_64 tinyconfig
	scripts/kconfig/merge_config.sh -m .config "$fragment"
	make ARCH=x86_64 olddefconfig
	mapfile -t missing < <(kcache_fragment_missing .config)
	[ ${#missing[@]} = 0 ] || { printf 'MISSING: %s\n' "${missing[@]}"; false; }
	make ARCH=x86_64 -j"$jobs" bzImage modules
	make -s ARCH=x86_64 kernelrelease >"$dir/release"
	cp arch/x86/boot/bzImage "$dir/bzImage"
	cp .config "$dir/config"
	w1 y
	# =m in the same tree (objects only: nothing is linked), then the
	# tree back at =y, the configuration its kernel was built with (it
	# is the example modules' KDIR); kbench's objects are the =m ones
	scripts/config --file .config --module KBENCH
	make ARCH=x86_64 olddefconfig
	grep -qx CONFIG_KBENCH=m .config
	w1 m
	cp "$dir/config" .config
	make ARCH=x86_64 -j"$jobs" prepare
	cmp -s .config "$dir/config"
	cd /
	rmdir "$dir/linux"
	mv "$tree" "$dir/linux"
}

# shellcheck disable=SC2317
build() {
	local fail=
	[ "$tap" = 0 ] || fail="not ok 1 builtin_kernel_built: see $base/$key.log"
	kcache_build "built-in kbench kernel" build_steps 'error|Error|warning:|MISSING' "$fail"
}

kcache_ensure build
if [ "$tap" = 1 ]; then
	echo "TAP version 13"
	echo "1..4"
	echo "ok 1 builtin_kernel_built: $(cat "$dir/release"): $(cat "$dir/complete")"
	if grep -qx CONFIG_KBENCH=y "$dir/config"; then
		echo "ok 2 config: CONFIG_KBENCH=y"
	else
		echo "not ok 2 config: CONFIG_KBENCH=y"
	fi
	n=2
	for m in y m; do
		n=$((n + 1))
		if [ -f "$dir/w1-$m.log" ] && ! grep -qE 'warning:|error:' "$dir/w1-$m.log"; then
			echo "ok $n w1_clean_$m: kernel/kbench/ with CONFIG_KBENCH=$m, make W=1: no warning"
		else
			echo "not ok $n w1_clean_$m: $dir/w1-$m.log"
		fi
	done
	exit 0
fi
echo "$dir"

exit
}
