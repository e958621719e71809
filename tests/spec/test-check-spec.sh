#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/spec/test-check-spec.sh - the checker must pass on the tree and
# catch every kind of disagreement: each case below edits a copy of the
# header or the spec and expects check-spec.py to exit 1 (or 2 for a spec
# it cannot parse).  Prints TAP.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
check=$here/check-spec.py
header=$top/include/uapi/linux/kbench.h
spec=$top/Documentation/netlink/specs/kbench.yaml
tmp=$(mktemp -d)
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

# expect STATUS DESCRIPTION HEADER SPEC
expect() {
	local want=$1 desc=$2 h=$3 s=$4 got=0
	python3 "$check" --header "$h" --spec "$s" >"$tmp/out" 2>&1 || got=$?
	if [ "$got" = "$want" ]; then
		result 0 "$desc"
	else
		result 1 "$desc (exit $got, want $want)"
		sed 's/^/# /' "$tmp/out"
	fi
}

# header_case DESCRIPTION SED-SCRIPT
header_case() {
	sed -e "$2" "$header" >"$tmp/h.h"
	if cmp -s "$header" "$tmp/h.h"; then
		result 1 "$1 (the edit did not apply)"
		return
	fi
	expect 1 "$1" "$tmp/h.h" "$spec"
}

# spec_case STATUS DESCRIPTION OLD NEW: replace the first OLD by NEW
spec_case() {
	python3 - "$spec" "$tmp/s.yaml" "$3" "$4" <<'EOF'
import sys
src, dst, old, new = sys.argv[1:]
text = open(src).read()
if old not in text:
    sys.exit('no %r in the spec' % old)
open(dst, 'w').write(text.replace(old, new, 1))
EOF
	expect "$1" "$2" "$header" "$tmp/s.yaml"
}

echo "1..12"
expect 0 "header and spec agree" "$header" "$spec"
header_case "attribute added to the header" \
	's/KBENCH_A_RUN_PAD,/KBENCH_A_RUN_EXTRA,\n\tKBENCH_A_RUN_PAD,/'
header_case "command added to the header" \
	's/KBENCH_CMD_PROGRESS_NTF,/KBENCH_CMD_PROGRESS_NTF,\n\tKBENCH_CMD_NEW,/'
header_case "flag value changed in the header" \
	's/KBENCH_SAMPLE_F_SMI\t\t= 1U << 3/KBENCH_SAMPLE_F_SMI\t\t= 1U << 5/'
header_case "attribute type comment changed in the header" \
	's|KBENCH_A_CLOCK_LAT_READS,\t/\* u32|KBENCH_A_CLOCK_LAT_READS,\t/* u64|'
header_case "define changed in the header" \
	's/KBENCH_NAME_MAX\t\t31/KBENCH_NAME_MAX\t\t32/'
header_case "enum added to the header" \
	's/#endif \/\* _UAPI_LINUX_KBENCH_H \*\//enum kbench_extra { KBENCH_EXTRA_A };\n&/'
spec_case 1 "attribute renamed in the spec" \
	"name: elapsed-ns" "name: elapsed-time-ns"
spec_case 1 "command value moved in the spec" \
	"      name: samples-get" $'      name: samples-get\n      value: 7'
spec_case 1 "operation lists an unknown attribute" \
	"          - portid" "          - port-id"
spec_case 1 "flag renamed in the spec" \
	"name: cpu-changed" "name: cpu-moved"
spec_case 2 "spec outside the YAML subset is refused" \
	"name: kbench" $'name: kbench\n  oops: 1'

if [ "$failed" -gt 0 ]; then
	echo "# $failed of $n failed"
	exit 1
fi
