#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/spec/test-ynl-gen.sh - the regeneration check (scripts/ynl-gen.sh
# --check) and the ABI check (tests/spec/abi.sh) catch what they must.  Each
# case copies the spec and the generated files into a scratch tree, changes
# one thing the way a developer might, and expects the check's verdict.
# Prints TAP.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
gen=$top/scripts/ynl-gen.sh
abi=$here/abi.sh
spec=Documentation/netlink/specs/kbench.yaml
files=(include/uapi/linux/kbench.h kmod/kbench_nl_gen.c kmod/kbench_nl_gen.h "$spec")
mkdir -p "$top/build"
tmp=$(mktemp -d "$top/build/test-ynl-gen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

n=0
failed=0
result() { # ok(0/1) description
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

fresh() { # a scratch copy of the repository's spec and generated files
	local f
	rm -rf "$tmp/tree"
	for f in "${files[@]}"; do
		mkdir -p "$tmp/tree/$(dirname "$f")"
		cp "$top/$f" "$tmp/tree/$f"
	done
}

edit() { # FILE OLD NEW: replace the first OLD (a fixed string) by NEW
	python3 - "$tmp/tree/$1" "$2" "$3" <<'EOF'
import sys
path, old, new = sys.argv[1:]
text = open(path).read()
if old not in text:
    sys.exit('no %r in %s' % (old, path))
open(path, 'w').write(text.replace(old, new, 1))
EOF
}

# expect WANT DESCRIPTION CMD...: WANT 0 (passes) or 1 (fails)
expect() {
	local want=$1 desc=$2 got=0
	shift 2
	"$@" >"$tmp/out" 2>&1 || got=$?
	[ "$got" = 0 ] || got=1
	if [ "$got" = "$want" ]; then
		result 0 "$desc"
	else
		result 1 "$desc (check exit $got, want $want)"
		sed 's/^/# /' "$tmp/out"
	fi
}

check() { "$gen" --check --tree "$tmp/tree" --spec "$tmp/tree/$spec"; }
regen() {
	"$gen" --tree "$tmp/tree" --spec "$tmp/tree/$spec" >/dev/null ||
		echo "# regenerating failed"
}
abi() { "$abi" --header "$tmp/tree/include/uapi/linux/kbench.h"; }

echo "1..10"
fresh
expect 0 "the committed files are what the spec generates" check
expect 0 "the committed header keeps the ABI" abi

fresh
edit include/uapi/linux/kbench.h "KBENCH_A_RUN_PAD," $'KBENCH_A_RUN_EXTRA,\n\tKBENCH_A_RUN_PAD,'
expect 1 "a hand edit of the uapi header fails" check

fresh
edit kmod/kbench_nl_gen.c "NLA_POLICY_MAX(NLA_U32, KBENCH_WARMUP_LIMIT)" "{ .type = NLA_U32, }"
expect 1 "a hand edit of a generated policy fails" check

fresh
edit kmod/kbench_nl_gen.h "int kbench_nl_run_doit(" "int kbench_run_doit("
expect 1 "a hand edit of the generated kernel header fails" check

fresh
edit "$spec" $'    name: warmup-limit\n    scope: kernel\n    value: 10000' \
	$'    name: warmup-limit\n    scope: kernel\n    value: 100000'
expect 1 "a spec change without regenerating fails" check

fresh
# the run set's last attribute, whichever it is: the set before `result'
edit "$spec" $'\n  -\n    name: result\n' \
	$'\n      -\n        name: extra\n        type: u32\n  -\n    name: result\n'
regen
expect 0 "an attribute appended and regenerated passes the regeneration check" check
expect 1 "... and the ABI check until tests/spec/kbench-abi.txt lists it" abi

fresh
edit "$spec" "        name: cpu-changed" "        name: cpu-moved"
regen
expect 1 "a renamed flag regenerates, but fails the ABI check" abi

fresh
edit "$spec" "        name: warmup" $'        name: warmup\n        colour: red'
expect 1 "a spec the schema refuses fails the check" check

if [ "$failed" -gt 0 ]; then
	echo "# $failed of $n failed"
	exit 1
fi
