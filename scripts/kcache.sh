# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the scripts that build and cache a kernel (debug-kernel.sh,
# builtin-kernel.sh): kbench_cache_dir prints the cache's root,
# $KBENCH_CACHE_DIR, else /var/cache/kbench where it can be written, else
# ~/.cache/kbench.
kbench_cache_dir() {
	if [ -n "${KBENCH_CACHE_DIR:-}" ]; then
		echo "$KBENCH_CACHE_DIR"
	elif mkdir -p /var/cache/kbench 2>/dev/null && [ -w /var/cache/kbench ]; then
		echo /var/cache/kbench
	else
		echo "${XDG_CACHE_HOME:-$HOME/.cache}/kbench"
	fi
}
