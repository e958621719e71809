#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `kbenchctl diff` of two result files of 1,000,000 samples per routine
# (and as many overhead samples), natively on this machine, for two
# kbenchctl binaries side by side: the rounds alternate between them, so
# a busy host slows both alike.  The files come from userspace twin runs
# (no module needed) written by the second binary; both read them.
# Prints each round's wall and CPU time and a Markdown table (min, median
# and max of the rounds, seconds).
# Usage: bench/diff-native.sh [-r ROUNDS] OLD_KBENCHCTL [NEW_KBENCHCTL]
#   NEW_KBENCHCTL defaults to user/kbenchctl; ROUNDS to 10.
#   e.g.  git worktree add /tmp/kb-base main && make -C /tmp/kb-base/user
#         bench/diff-native.sh /tmp/kb-base/user/kbenchctl
set -euo pipefail
rounds=10
if [ "${1:-}" = -r ]; then
	rounds=$2
	shift 2
fi
[ $# -ge 1 ] || { sed -n '11,14p' "$0" >&2; exit 2; }
old=$1
new=${2:-$(cd "$(dirname "$0")/.." && pwd)/user/kbenchctl}
dir=$(mktemp -d /tmp/kbench-diffbench.XXXXXX)
trap 'rm -rf "$dir"' EXIT

for f in a b; do
	"$new" run add_chain --user --samples 1000000 --iterations 10 \
		--save "$dir/$f.json" >/dev/null 2>&1
done
echo "# files: $(stat -c %s "$dir/a.json") and $(stat -c %s "$dir/b.json") bytes"

# One timed diff: "wall cpu" in ms (cpu: user + system, which a busy
# host inflates less than wall time); its report must be the same for
# both binaries.
once() {
	local r u s

	TIMEFORMAT='%R %U %S'
	read -r r u s < <({ time "$1" diff "$dir/a.json" "$dir/b.json" \
		>"$dir/out.$2" 2>&1; } 2>&1)
	awk -v r="$r" -v u="$u" -v s="$s" \
		'BEGIN { printf "%d %d\n", r * 1000, (u + s) * 1000 }'
}

declare -a t_old t_new c_old c_new
for ((i = 1; i <= rounds; i++)); do
	read -r w c < <(once "$old" old)
	t_old+=("$w"); c_old+=("$c")
	read -r w c < <(once "$new" new)
	t_new+=("$w"); c_new+=("$c")
	echo "# round $i: old ${t_old[-1]} ms (cpu ${c_old[-1]}), new ${t_new[-1]} ms (cpu ${c_new[-1]})"
done
cmp -s "$dir/out.old" "$dir/out.new" ||
	echo "# WARNING: the two binaries printed different reports"

stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "min %.2f s, median %.2f s, max %.2f s", v[1] / 1000, m / 1000, v[NR] / 1000 }'
}
echo "| binary | wall | cpu (user + system) |"
echo "|---|---|---|"
echo "| old: $old | $(printf '%s\n' "${t_old[@]}" | stats) | $(printf '%s\n' "${c_old[@]}" | stats) |"
echo "| new: $new | $(printf '%s\n' "${t_new[@]}" | stats) | $(printf '%s\n' "${c_new[@]}" | stats) |"
