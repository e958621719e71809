#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Generate the "kbench" family from its spec with the kernel's own
# ynl-gen-c (linux-source-6.12, extracted by scripts/ynl-tools.sh):
#   include/uapi/linux/kbench.h   --mode uapi --header
#   kmod/kbench_nl_gen.c          --mode kernel --source
#   kmod/kbench_nl_gen.h          --mode kernel --header
# The files are committed; never edit them, edit the spec and run this
# (`make gen`).
#
# ynl-gen-c names the spec relative to "the kernel root", the first
# directory above it holding MAINTAINERS (without one it loops forever at
# /), and validates the spec against ../genetlink-c.yaml next to it: so it
# runs on a copy of the spec in a scratch tree shaped like the kernel's.
#
# Usage: scripts/ynl-gen.sh [--check] [--spec FILE] [--tree DIR]
#   --check      generate into a scratch directory and compare with the
#                files in the tree; prints TAP, exits 1 on any difference
#   --spec FILE  the spec (default: Documentation/netlink/specs/kbench.yaml)
#   --tree DIR   where the generated files live (default: the repository)
# Exit status: 0 ok, 1 differences (--check) or generation failed, 2 usage.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# Debian's interpreter: scripts/deps.sh installs python3-yaml for it (a
# python3 earlier in PATH, e.g. pyenv's, may lack the module).
python=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
check=0
spec=$top/Documentation/netlink/specs/kbench.yaml
tree=$top
while [ $# -gt 0 ]; do
	case "$1" in
	--check) check=1; shift ;;
	--spec) spec=${2?}; shift 2 ;;
	--tree) tree=${2?}; shift 2 ;;
	-h|--help) sed -n '3,22p' "$0"; exit 0 ;;
	*) echo "ynl-gen: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ -r "$spec" ] || { echo "ynl-gen: no spec $spec" >&2; exit 2; }

# file, ynl-gen-c mode and kind
outputs=(
	"include/uapi/linux/kbench.h uapi --header"
	"kmod/kbench_nl_gen.c kernel --source"
	"kmod/kbench_nl_gen.h kernel --header"
)

ynl=$("$top/scripts/ynl-tools.sh")
mkdir -p "$top/build"
scratch=$(mktemp -d "$top/build/ynl-gen.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
root=$scratch/root
mkdir -p "$root/Documentation/netlink/specs" "$scratch/out"
: >"$root/MAINTAINERS"
cp "$ynl"/Documentation/netlink/genetlink*.yaml "$root/Documentation/netlink/"
cp "$spec" "$root/Documentation/netlink/specs/kbench.yaml"

n=0
failed=0
[ "$check" = 1 ] && echo "1..${#outputs[@]}"
for o in "${outputs[@]}"; do
	read -r file mode kind <<<"$o"
	n=$((n + 1))
	# The output's name matters: the source includes "<its name>.h".
	out=$scratch/out/$(basename "$file")
	if ! (cd "$root" && "$python" "$ynl/tools/net/ynl/ynl-gen-c.py" \
		--mode "$mode" "$kind" \
		--spec "$root/Documentation/netlink/specs/kbench.yaml" \
		-o "$out") >"$scratch/log" 2>&1; then
		sed 's/^/# /' "$scratch/log" >&2
		if [ "$check" = 1 ]; then
			echo "not ok $n - $file: ynl-gen-c failed on the spec"
			failed=$((failed + 1))
			continue
		fi
		echo "ynl-gen: ynl-gen-c --mode $mode $kind failed" >&2
		exit 1
	fi
	if [ "$check" = 0 ]; then
		if cmp -s "$out" "$tree/$file"; then
			echo "  SAME    $file"
		else
			cp "$out" "$tree/$file"
			echo "  GEN     $file"
		fi
	elif cmp -s "$out" "$tree/$file"; then
		echo "ok $n - $file is what the spec generates"
	else
		echo "not ok $n - $file differs from what the spec generates (run make gen; never edit it by hand)"
		failed=$((failed + 1))
		diff -u "$tree/$file" "$out" | head -n 40 | sed 's/^/# /' || true
	fi
done
[ "$failed" = 0 ]
