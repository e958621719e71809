#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kbenchctl against the module, in the VM (busybox sh): the exact error
# messages and exit statuses of the paths that need the module (routines,
# CPUs, the module's limits, the kernel's extended ack naming an option)
# and the default report of a kernel run (exact under icount on x86_64);
# arguments and sweeps: add_n's exact sweep and its O(n) fit (icount,
# x86_64), the ratio of one routine at two arguments, where two curves
# cross, a failing setup mid-sweep, the setup memory cap (-E2BIG, -ENOMEM)
# and add_n's ENDBR64 variant (reloading kbench.ko).  The paths without a
# module are covered by tests/unit.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..26"

info=$(kbenchctl --json info)
routines=$(kbenchctl --json list | grep -c '"name"')
online=$(cat /sys/devices/system/cpu/online)
max_samples=$(echo "$info" | json_num max_samples)
max_window_us=$(echo "$info" | json_num max_window_us)

expect 2 "kbenchctl: no routine 'nosuch' (kbenchctl list shows $routines)" \
	kbenchctl run nosuch
expect 2 "kbenchctl: no routine 'add_chian' (did you mean 'add_chain'? kbenchctl list shows $routines)" \
	kbenchctl compare add_chian mul_chain
expect 2 "kbenchctl run: --cpu 7: no such CPU (online: $online)" \
	kbenchctl run add_chain --cpu 7
expect 2 "kbenchctl run: --iterations 100000000: at most 16777216" \
	kbenchctl run add_chain --iterations 100000000
expect 2 "kbenchctl compare: --samples $((max_samples + 1)): at most $max_samples (module parameter max_samples)" \
	kbenchctl compare add_chain mul_chain --samples $((max_samples + 1))
# at the hard limit (20 ms, as the debug test bed loads kbench) the
# option's own range refuses it first, without naming the parameter
param=" (module parameter max_window_us x 1000)"
[ "$max_window_us" -ge 20000 ] && param=""
expect 2 "kbenchctl run: --target-ns $((max_window_us * 1000 + 1)): at most $((max_window_us * 1000))$param" \
	kbenchctl run add_chain --target-ns $((max_window_us * 1000 + 1))

expect 2 "kbenchctl: run 4000000000: no stored run with this id" \
	kbenchctl samples 4000000000
id=$(kbenchctl --json run add_chain --samples 10 --iterations 100 | json_num run_id)
expect 2 "kbenchctl: run $id, --routine 2: no routine with this index in the run" \
	kbenchctl samples "$id" --routine 2

# packed sample pages (1-8 bytes a value, flagged samples listed) give
# the same samples as unpacked ones: tiny values (width 1), 4-digit ones
# (width 2), every series of the run, flags where the run had any
for w in "empty --iterations 1" "add_chain --target-ns 2000"; do
	# shellcheck disable=SC2086  # the words of $w are options
	id=$(kbenchctl --json run $w --samples 30000 --warmup 0 | json_num run_id)
	kbenchctl samples "$id" --csv > /tmp/packed.csv
	KBENCH_SAMPLES_UNPACKED=1 kbenchctl samples "$id" --csv > /tmp/unpacked.csv
	rows=$(wc -l < /tmp/packed.csv)
	flagged=$(grep -c -v ',$' /tmp/packed.csv)
	[ -n "$id" ] && [ "$rows" = 60001 ] && cmp -s /tmp/packed.csv /tmp/unpacked.csv
	tap $? "samples $w: packed pages = unpacked, $rows lines ($((flagged - 1)) flagged samples)"
done
rm -f /tmp/packed.csv /tmp/unpacked.csv

# the default report: a few lines (after the environment's warnings, one
# each); under icount one tick is one instruction
out=$(kbenchctl run add_chain --iterations 1000 --samples 200 2>&1)
rc=$?
lines=$(echo "$out" | grep -v -c '^warning: ')
[ $rc = 0 ] && [ "$lines" -le 12 ] && echo "$out" | grep -q '^  verdict    '
tap_out $? "run add_chain: the default report has $lines lines (at most 12) after the warnings"
if kb_icount && [ "$(uname -m)" = x86_64 ]; then
	echo "$out" | grep -qx '  median         6.000 ticks/iter     6.000 ns/iter   95% CI \[6.000, 6.000\]' &&
	echo "$out" | grep -qx '  min            6.000 ticks/iter     6.000 ns/iter' &&
	echo "$out" | grep -qx '  corrected      4.000 ticks/iter     4.000 ns/iter   (the median minus the empty loop)' &&
	echo "$out" | grep -qx '  samples    200 valid, 0 excluded' &&
	echo "$out" | grep -qx '  verdict    stable'
	tap $? "run add_chain under icount: median = min = 6.000, corrected 4.000, stable"
else
	echo "ok $((n += 1)) # SKIP exact report needs --icount on x86_64"
fi

# num_is X V: the number X (JSON's) equals V
num_is() { awk -v x="$1" -v v="$2" 'BEGIN { exit !(x != "" && x + 0 == v + 0) }'; }

# --unit core (kbench_core_test.sh checks the ratio on every arch): a
# compare in core cycles under icount, exact on x86_64
if kb_icount && [ "$(uname -m)" = x86_64 ]; then
	out=$(kbenchctl compare add_n:8 add_n:9 --unit core --iterations 1000 --samples 100 2>&1)
	echo "$out" | grep -q '^core cycles: 1 core cycle = 1.0000 tsc ticks (95% CI \[1.0000, 1.0000\])' &&
	echo "$out" | grep -q '^add_n:9 - add_n:8: +1.000 '
	tap_out $? "compare add_n:8 add_n:9 --unit core under icount: ratio [1, 1], +1.000 core cycle"
else
	skip "exact core cycles need --icount on x86_64"
fi
# --asm --user: a snippet of K = 3 instructions, 10 copies an iteration,
# built on the host (tests/selftests/Makefile: the VM has no compiler) and
# loaded from its --keep directory.  Under icount an iteration is
# 3 x 10 + 2 (the loop) instructions: exactly 3.2 per copy, the loop's
# share 0.2, corrected 3; in core cycles (ratio exactly 1) the same.
asm_dir=$(dirname "$0")/asm-icount
if kb_icount && [ "$(uname -m)" = x86_64 ]; then
	out=$(kbenchctl --json run --asm 'add %rax, %rbx; imul %rcx, %rdx; nop' \
		--unroll 10 --user --unit core --keep "$asm_dir" \
		--iterations 1000 --samples 200 2>&1)
	corr=$(echo "$out" | tr -d '\n' | grep -o '"corrected_cycles_per_iter": {[^}]*}')
	num_is "$(echo "$out" | json_num median_cycles)" 3.2 &&
	num_is "$(echo "$corr" | json_num median)" 3 &&
	num_is "$(echo "$out" | json_num loop_per_copy)" 0.2 &&
	num_is "$(echo "$out" | json_num unroll)" 10 &&
	num_is "$(echo "$out" | json_num ticks_per_cycle)" 1
	tap_out $? "run --asm (3 instructions) --unroll 10 --user --unit core under icount: exactly 3.2 per copy, the loop's 0.2, corrected 3"
else
	skip "the exact --asm run needs --icount on x86_64"
fi

# sampling until answered in the kernel: repeated RUN requests merged.
# Under icount add_chain and mul_chain are both exactly 6 instructions:
# the paired CI is [0, 0], "no significant difference" at threshold 0,
# answered at the first look.  In plain TCG mul_chain is far slower:
# resolved, at the first look or a later one, each a RUN of its own.
out=$(kbenchctl compare add_chain mul_chain --iterations 1000 --samples 100 \
	--threshold 0 --max-time 1 2>&1)
rc=$?
set -- $(echo "$out" | sed -n 's/^sampled until [^:]*: \([0-9]*\) looks\{0,1\}, \([0-9]*\) samples per routine.*/\1 \2/p')
looks=${1:-0}
total=${2:-0}
[ $rc = 0 ] && [ "$looks" -ge 1 ] && [ "$total" -ge 100 ] &&
	echo "$out" | tail -n 1 | grep -q '95% anytime CI'
tap_out $? "compare --threshold 0 --max-time 1: $looks looks (RUN requests merged), $total samples per routine, an anytime CI"
if grep -q kbench_icount=1 /proc/cmdline && [ "$(uname -m)" = x86_64 ]; then
	# identical samples of the two routines round by round: the paired
	# interval is exactly [0, 0], so the first look answers
	[ "$looks" = 1 ] && echo "$out" | grep -q '^sampled until answered: 1 look,' &&
	echo "$out" | tail -n 1 | grep -qx 'no significant difference between add_chain and mul_chain (+0.00%, 95% anytime CI +0.00% to +0.00%)' &&
	echo "$out" | grep -qx '  median         6.000 ticks/iter     6.000 ns/iter   95% CI \[6.000, 6.000\]' &&
	echo "$out" | grep -q "^  samples    $total valid, 0 excluded"
	tap $? "the merged samples under icount: still exactly 6.000, all $total valid"
	out=$(kbenchctl run add_chain --iterations 1000 --samples 100 --precision 0.1 2>&1)
	echo "$out" | grep -q '^sampled until answered: 1 look, 100 samples per routine' &&
	echo "$out" | grep -qx '  verdict    stable'
	tap_out $? "run --precision 0.1 under icount: answered at the first look (CI width 0), stable"
else
	echo "ok $((n += 1)) # SKIP exact merged samples need --icount on x86_64"
	echo "ok $((n += 1)) # SKIP exact precision needs --icount on x86_64"
fi

# ---- arguments and sweeps ----------------------------------------------
x86_icount=0
kb_icount && [ "$(uname -m)" = x86_64 ] && x86_icount=1
icount=0
kb_icount && icount=1

# the built-ins' owner: "kernel" when kbench is built in
owner=kbench
kb_builtin && owner=kernel
out=$(kbenchctl list)
echo "$out" | grep -q "^add_n  *$owner  *adds 1\.\.1024 (64) " &&
	echo "$out" | grep -q "^chase  *$owner  *bytes 4K\.\.256M (1M) " &&
	echo "$out" | grep -q "^add_chain  *$owner  *- "
tap $? "list: each routine's argument, its range and default"

expect 2 "kbenchctl run: --arg 2000: routine 'add_n' takes 1..1024 adds" \
	kbenchctl run add_n --arg 2000
expect 2 "kbenchctl run: --arg 2048: routine 'add_n' takes 1..1024 adds" \
	kbenchctl run add_n --arg 1..4096:x2
expect 2 "kbenchctl run: routine 'mul_chain' takes no argument ('kbenchctl list' shows the ones that do)" \
	kbenchctl run add_n mul_chain --arg 4

# add_n's sweep under icount: arg + 2 cycles per iteration at every value,
# exactly arg minus the empty loop, and the same on a second run
if [ "$x86_icount" = 1 ]; then
	csv1=$(kbenchctl run add_n --arg 1..64:x2 --csv --samples 50) &&
	csv2=$(kbenchctl run add_n --arg 1..64:x2 --csv --samples 50) &&
	echo "$csv1" | awk -F, 'NR > 1 { n++; a = $1 + 0
		if ($2 != "add_n" || $3 != a + 2 || $4 != a + 2 || $7 != a || $12 != 0) bad++ }
		END { exit !(n == 7 && !bad) }' &&
	[ "$csv1" = "$csv2" ]
	r=$?
	[ $r = 0 ] || echo "$csv1" | sed 's/^/# /'
	tap $r "run add_n --arg 1..64:x2 --csv: arg + 2 cycles/iter (corrected: arg) at 7 values, identical on rerun"

	json=$(kbenchctl run add_n --arg 1..64:x2 --json --samples 50)
	# each sweep object: the routine's figures, then the overhead's
	got=$(echo "$json" | tr -d ' \n' |
		grep -o '"net_cycles_per_iter":{"min":[0-9.]*,"median":[0-9.]*' |
		awk -F'[:,]' 'NR % 2 == 1 { printf "%s/%s ", $3, $5 }')
	fit=$(echo "$json" | tr -d ' \n' | grep -o '"fit":{"add_n":{[^[]*')
	[ "$got" = "3/3 4/4 6/6 10/10 18/18 34/34 66/66 " ] &&
		[ "$fit" = '"fit":{"add_n":{"quantity":"corrected_median_cycles_per_iter","points":7,"complexity":"n","big_o":"O(n)","coefficient":1,"rms":0,"candidates":' ]
	r=$?
	[ $r = 0 ] || echo "# got '$got' fit '$fit'"
	tap $r "run add_n --arg 1..64:x2 --json: min = median = arg + 2, fit O(n) with coefficient 1 and RMS 0"

	out=$(kbenchctl run add_n --arg 1..64:x2 --samples 50 2>&1)
	echo "$out" | grep -qx 'fit of add_n (its corrected median, 7 values): O(n), 1.000 x n ticks/iter, RMS 0.00% (the best of O(1) .. O(n^3))' &&
		echo "$out" | awk '$1 == 64 && $2 == "66.000" && $3 == "66.000" &&
			$6 == "64.000" { found = 1 } END { exit !found }'
	tap_out $? "run add_n --arg 1..64:x2: a row per value, the fit O(n), 1.000 x n"

	out=$(kbenchctl compare add_n:64 add_n:128 --iterations 1000 --samples 50 2>&1)
	echo "$out" | grep -q 'add_n:128 is 97.0% slower than add_n:64' &&
		kbenchctl --json compare add_n:64 add_n:128 --iterations 1000 \
			--samples 50 | grep -q '"median_ratio": 1.9696969696969697,'
	tap_out $? "compare add_n:64 add_n:128: exactly 130/66 = 1.9697 (97.0% slower), interleaved in one run"
else
	skip "exact sweep needs --icount on x86_64"
	skip "exact sweep JSON needs --icount on x86_64"
	skip "exact sweep table needs --icount on x86_64"
	skip "exact ratio needs --icount on x86_64"
fi

insmod "$kb_moddir/kbench_setup_test.ko" 2>/dev/null
params=/sys/module/kbench_setup_test/parameters
if [ "$x86_icount" = 1 ]; then
	out=$(kbenchctl compare add_n add_half --arg 4..64:x2 --iterations 1000 --samples 50 2>&1)
	echo "$out" | grep -qx 'add_n and add_half cross between adds 8 and 32 (equal at 16): add_n is faster below, add_half above'
	tap_out $? "compare add_n add_half --arg 4..64:x2: they cross where arg + 2 = arg / 2 + 10"
else
	skip "exact crossing needs --icount on x86_64"
fi

rmmod kbench_setup_test

exit $failed
