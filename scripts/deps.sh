#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package kbench needs to build, lint and test.
# Idempotent: asks dpkg-query what is missing and only then runs
# `apt-get update` (once) and `apt-get install -y`.  Needs root (or sudo)
# only when something is missing.  Works without a terminal or stdin.
#
# Usage: scripts/deps.sh [--no-612] [--dry-run] [--quiet]
#   --no-612    do not install the 6.12 and 6.12-rt kernel images/headers
#               (make check boots all three kernels, so the default is all)
#   --dry-run   print what is missing and exit (status 1 if anything is)
#   --quiet     print nothing when everything is present
set -euo pipefail

with_612=1
dry_run=0
quiet=0
for arg in "$@"; do
	case "$arg" in
	--no-612) with_612=0 ;;
	--with-612) with_612=1 ;;
	--dry-run) dry_run=1 ;;
	--quiet|-q) quiet=1 ;;
	-h|--help) sed -n '3,14p' "$0"; exit 0 ;;
	*) echo "deps.sh: unknown option '$arg'" >&2; exit 2 ;;
	esac
done

pkgs=(
	build-essential gcc make pkg-config perl python3 git
	xz-utils gzip cpio file kmod
	libnl-3-dev libnl-genl-3-dev libjson-c-dev
	valgrind sparse dkms jq
	clang libclang-rt-14-dev
	chromium libxml2-utils openssl
	qemu-system-x86 busybox-static
	linux-source-6.1 linux-source-6.12 python3-yaml python3-jsonschema
	# checkpatch's SPDX check (scripts/spdxcheck.py) on the in-tree series
	python3-ply python3-git
	linux-image-amd64 linux-headers-amd64
	# the debug kernel of the test bed (scripts/debug-kernel.sh)
	flex bison bc libelf-dev libssl-dev
	# bench/gbench: Google Benchmark, built by bench/build.sh in make check
	libbenchmark-dev
	# tests/unit (export): Google Benchmark's compare.py and its U test
	libbenchmark-tools python3-scipy
)
if [ "$with_612" = 1 ]; then
	pkgs+=(linux-image-6.12-amd64 linux-headers-6.12-amd64
	       linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64)
fi

# Installed for this machine's architecture (or arch: all); other
# architectures added with dpkg --add-architecture do not count.
arch=$(dpkg --print-architecture)
missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${db:Status-Status} ${Architecture}\n' "$p" 2>/dev/null |
		grep -q -x -E "installed ($arch|all)"; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	[ "$quiet" = 1 ] || echo "deps: all ${#pkgs[@]} packages present"
	exit 0
fi

echo "deps: missing: ${missing[*]}"
[ "$dry_run" = 0 ] || exit 1

sudo=()
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null; then
		sudo=(sudo -n)
	else
		echo "deps: need root to install packages" >&2
		exit 1
	fi
fi

export DEBIAN_FRONTEND=noninteractive
apt_opts=(-y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
# A failing index (e.g. a foreign architecture's list mid-sync) must not
# stop us: apt-get install below decides whether what we need is there.
"${sudo[@]}" apt-get update -q </dev/null ||
	echo "deps: apt-get update reported errors; trying the install anyway" >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install "${apt_opts[@]}" --no-install-recommends "${missing[@]}" </dev/null
echo "deps: installed ${#missing[@]} package(s)"
