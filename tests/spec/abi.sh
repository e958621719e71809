#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/spec/abi.sh - the uapi only grows.  tests/spec/kbench-abi.txt lists
# every symbol of include/uapi/linux/kbench.h with its value, as the C
# compiler sees it; this checks that each still has that value (the
# KBENCH_A_<SET>_MAX and KBENCH_CMD_MAX counts may only grow), and that
# the list knows every symbol the header has now (so that a later rename
# or removal is caught).  Generation alone cannot tell: a renamed spec
# entry regenerates cleanly.  Prints TAP.
#
# Usage: tests/spec/abi.sh [--header FILE] [--list FILE] [--update]
#   --update   append the header's new symbols to the list (after adding
#              attributes, operations or entries); never changes a line
# Exit status: 0 ok, 1 a symbol lost or changed (or unlisted), 2 usage.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
header=$top/include/uapi/linux/kbench.h
list=$top/tests/spec/kbench-abi.txt
update=0
while [ $# -gt 0 ]; do
	case "$1" in
	--header) header=${2?}; shift 2 ;;
	--list) list=${2?}; shift 2 ;;
	--update) update=1; shift ;;
	-h|--help) sed -n '3,14p' "$0"; exit 0 ;;
	*) echo "abi.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
header=$(cd "$(dirname "$header")" && pwd)/$(basename "$header")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every KBENCH_* macro and enumerator the header declares.
symbols() {
	sed -n -E -e 's/^#define[[:space:]]+(_*KBENCH_[A-Z0-9_]+)[[:space:]].*/\1/p' \
		-e 's/^[[:space:]]+(_*KBENCH_[A-Z0-9_]+)[[:space:]]*(=.*|,.*|)$/\1/p' \
		"$1" | grep -v -x -E '_UAPI_LINUX_KBENCH_H' | LC_ALL=C sort -u
}

# values FILE-OF-NAMES: "NAME VALUE" for each, compiled against $header
# (string macros print quoted).
values() {
	{
		echo '#include <stdio.h>'
		echo "#include \"$header\""
		echo '#define P(s) _Generic((s), char *: ps, default: pi)(#s, s)'
		echo 'static void ps(const char *n, const char *v) { printf("%s \"%s\"\n", n, v); }'
		echo 'static void pi(const char *n, long long v) { printf("%s %lld\n", n, v); }'
		echo 'int main(void) {'
		sed 's/.*/\tP(&);/' "$1"
		echo 'return 0; }'
	} >"$tmp/abi.c"
	LC_ALL=C gcc -std=gnu11 -w -o "$tmp/abi" "$tmp/abi.c" 2>"$tmp/cc.log" || return 1
	"$tmp/abi"
}

symbols "$header" >"$tmp/now.names"
if [ "$update" = 1 ]; then
	touch "$list"
	cut -d' ' -f1 "$list" | LC_ALL=C sort -u >"$tmp/listed"
	LC_ALL=C comm -13 "$tmp/listed" "$tmp/now.names" >"$tmp/new.names"
	if [ -s "$tmp/new.names" ]; then
		values "$tmp/new.names" >>"$list" ||
			{ sed 's/^/# /' "$tmp/cc.log"; exit 1; }
	fi
	echo "abi.sh: $(wc -l <"$tmp/new.names") symbol(s) added to $list"
	exit 0
fi

# The counts and maxima of attribute sets and commands grow when entries
# are appended; everything else keeps its value exactly.
grow='^_?_?KBENCH_(A_[A-Z0-9]+|CMD)_MAX$'
echo "1..2"
failed=0
cut -d' ' -f1 "$list" >"$tmp/listed"
if ! values "$tmp/listed" >"$tmp/values"; then
	failed=1
	echo "not ok 1 - symbols of $(basename "$list") are missing from the header"
	grep -o -E "'_*KBENCH_[A-Z0-9_]+' undeclared" "$tmp/cc.log" | sort -u | sed 's/^/# /'
elif ! awk -v grow="$grow" '
	NR == FNR { was[$1] = substr($0, length($1) + 2); next }
	{
		is = substr($0, length($1) + 2)
		if ($1 ~ grow ? is + 0 < was[$1] + 0 : is != was[$1]) {
			printf "%s was %s, is %s\n", $1, was[$1], is
			bad = 1
		}
	}
	END { exit bad }' "$list" "$tmp/values" >"$tmp/diff"; then
	failed=1
	echo "not ok 1 - symbols changed value"
	sed 's/^/# /' "$tmp/diff"
else
	echo "ok 1 - every symbol of $(basename "$list") keeps its value"
fi
LC_ALL=C comm -13 <(LC_ALL=C sort "$tmp/listed") "$tmp/now.names" >"$tmp/unlisted"
if [ -s "$tmp/unlisted" ]; then
	failed=1
	echo "not ok 2 - header symbols missing from the list (run tests/spec/abi.sh --update)"
	sed 's/^/# /' "$tmp/unlisted"
else
	echo "ok 2 - the list knows every symbol of the header"
fi
exit "$failed"
