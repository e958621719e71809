#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The netlink fuzzer (kbench-fuzz, next to this script) as root and as an
# unprivileged user: random and mutated requests to the kbench family; the
# kernel must answer every one and stay well.  Prints KTAP.
#
# Env: KBENCH_FUZZ_COUNT messages per run (default 10000; under icount
# 500: the fuzz asserts nothing exact, every kernel runs it whole in plain
# TCG - the kselftest package, the debug kernel - and instruction counting
# makes each message about ten times dearer on the host).

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

count=${KBENCH_FUZZ_COUNT:-10000}
[ -z "${KBENCH_FUZZ_COUNT:-}" ] && kb_icount && count=500
fuzz=$kb_dir/kbench-fuzz

echo "TAP version 13"
echo "1..2"
for mode in root unpriv; do
	if [ ! -x "$fuzz" ]; then
		tap 1 "kbench-fuzz ($mode): $fuzz missing"
		continue
	fi
	opt=""
	[ $mode = unpriv ] && opt=--unpriv
	log=$(mktemp)
	# shellcheck disable=SC2086
	"$fuzz" --count "$count" $opt >"$log" 2>&1
	rc=$?
	sed 's/^/# /' "$log"
	rm -f "$log"
	tap "$rc" "kbench-fuzz --count $count $opt (exit $rc)"
done
exit $failed
