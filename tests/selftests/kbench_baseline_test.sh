#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kbenchctl baseline against the companion module kbench_prims.ko: its
# message when the module is absent, every kernel row of the suite in the
# table (measured, or missing on this kernel with why), each figure as a
# KTAP diagnostic line; under icount the figures of two runs identical and
# their saved results diffed row by row; on PREEMPT_RT the rows that
# cannot run with interrupts off named as missing; with two CPUs online,
# --cpus 0,1: the locking and atomics rows each one run on both CPUs at
# once, measured or failed with why, the others alone on CPU 0, and the
# contended rows saved with ncpus (their structure only: plain TCG is
# host-timed, and icount runs one CPU).  Prints KTAP.
#
#   kbench_baseline_test.sh [SAMPLES]   samples per primitive (30)
#
# Small runs (30 samples, 20 us windows): the figures under icount are
# exact at any sample count, and elsewhere only their presence is tested.

samples=${1:-30}
opts="--samples $samples --target-ns 20000"
# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

tmp=${TMPDIR:-/tmp}/kbench-baseline.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

echo "TAP version 13"
echo "1..9"

# kbench_prims absent (and not loadable by modprobe here): the message
# names the module and how to load it, exit 2, no table.
grep -q '^kbench_prims ' /proc/modules && rmmod kbench_prims
if modprobe -n -q kbench_prims 2>/dev/null; then
	skip "absent module: modprobe would load an installed kbench_prims here"
else
	has 2 "the kernel's primitives are not loaded: no routine prim_* is registered.  They are the companion module kbench_prims.ko: 'modprobe kbench_prims'" \
		kbenchctl baseline
fi

insmod "$kb_moddir/kbench_prims.ko"
tap $? "insmod kbench_prims.ko"

# rt: this kernel is PREEMPT_RT (its sleeping locks are not registered)
rt=0
{ [ -f /sys/kernel/realtime ] || uname -v | grep -q PREEMPT_RT; } && rt=1

# The suite's kernel rows as `baseline` prints them: "name routine figures"
# (rows of the table start with two spaces and hold a prim_ routine).
rows() { grep '^  [a-z0-9_]* *prim_[a-z0-9_]* ' "$1"; }

t0=$(now_ms)
kbenchctl baseline $opts --save "$tmp/a.json" >"$tmp/a.txt" 2>"$tmp/a.err"
rc=$?
echo "# baseline: $(( $(now_ms) - t0 )) ms, exit $rc"
total=$(rows "$tmp/a.txt" | wc -l)
measured=$(rows "$tmp/a.txt" | awk '$3 ~ /^[0-9]/' | wc -l)
missing=$(rows "$tmp/a.txt" | grep -c ' missing$')
nfailed=$(rows "$tmp/a.txt" | grep -c ' failed$')
# every figure as a KTAP line: per call in ticks and ns, the CI, the verdict
rows "$tmp/a.txt" | awk '$3 ~ /^[0-9]/ {
	gsub(/[][,]/, "", $5); gsub(/[][,]/, "", $6)
	printf "# kbench.baseline.%s.ticks_per_call: %s\n", $2, $3
	printf "# kbench.baseline.%s.ns_per_call: %s\n", $2, $4
	printf "# kbench.baseline.%s.ci_ticks: %s..%s\n", $2, $5, $6
	printf "# kbench.baseline.%s.verdict: %s\n", $2, $7 }'
rows "$tmp/a.txt" | awk '$3 == "-" { printf "# kbench.baseline.%s: %s\n", $2, $NF }'
grep -A100 'routines measured' "$tmp/a.txt" | sed 's/^/# /'
sed 's/^/# stderr: /' "$tmp/a.err"
# the whole suite, each row measured, missing with why, or failed with
# why (exit 1, never a table that looks whole); at least 25 primitives
# measured on every kernel.  Under icount nothing fails.  In plain TCG a
# slow kernel's row may: on the debug kernel (KASAN, kmemleak, lockdep)
# an allocation costs some 10^5 instructions, windows of N = 1 to 4, and
# the empty loop measured beside it at that N can have no sample that
# passes the reference test on a busy host ("none of 30 samples valid").
footer=$(grep -o '^[0-9]* of [0-9]* routines measured' "$tmp/a.txt")
echo "# $total kernel rows: $measured measured, $missing missing, $nfailed failed ($footer)"
want_rc=0
[ "$nfailed" = 0 ] || want_rc=1
[ "$rc" = "$want_rc" ] && [ "$total" -ge 25 ] && [ "$measured" -ge 25 ] &&
	[ $((measured + missing + nfailed)) = "$total" ] &&
	[ "$footer" = "$measured of $total routines measured" ] &&
	{ [ "$nfailed" = 0 ] || { ! kb_icount && grep -q 'baseline: .* not measured: some failed' "$tmp/a.err"; }; }
tap $? "baseline: every kernel row measured, missing or failed with why (exit $want_rc, $nfailed failed: plain TCG only), at least 25 measured"

# missing rows: only on PREEMPT_RT (spinlock_t, rwlock_t, the allocators,
# get_random_u*: 7), each with its reason
if [ $rt = 1 ]; then
	[ "$missing" = 7 ] && grep -q 'prim_spin_lock: missing: spinlock_t sleeps under PREEMPT_RT' "$tmp/a.txt"
	tap $? "PREEMPT_RT: 7 rows missing, spin_lock's saying why"
else
	[ "$missing" = 0 ]
	tap $? "not PREEMPT_RT: no row missing"
fi

# A primitive this kernel lacks, asked for alone: nothing measured, exit
# 1, the reason and the remedy; elsewhere it is measured.
if [ $rt = 1 ]; then
	has 1 "prim_spin_lock: spinlock_t sleeps under PREEMPT_RT: not callable with interrupts off (measure on a kernel without CONFIG_PREEMPT_RT)" \
		kbenchctl baseline --match spin_lock --samples 10
else
	has 0 "1 of 1 routine measured" kbenchctl baseline --match spin_lock --samples 10
fi

# Under icount every figure repeats, get_random_u32/u64's too: their
# per-CPU batch carries over from one run to the next, so each iteration
# takes a whole batch (one refill in every iteration, wherever the batch
# stood; before that: 165.109 and 177.320 at 30 samples).
if kb_icount && [ "$(uname -m)" = x86_64 ]; then
	kbenchctl baseline $opts --save "$tmp/b.json" >"$tmp/b.txt" 2>"$tmp/b.err"
	rows "$tmp/a.txt" >"$tmp/a.rows"
	rows "$tmp/b.txt" >"$tmp/b.rows"
	exact=$(wc -l <"$tmp/a.rows")
	grep -E " prim_get_random_u(32|64) " "$tmp/b.rows" | sed 's/^/# second run: /'
	out=$(diff "$tmp/a.rows" "$tmp/b.rows")
	tap_out $? "icount: two runs give identical figures for all $exact rows, get_random_u32/u64 included"
	out=$(kbenchctl diff "$tmp/a.json" "$tmp/b.json" 2>&1)
	rowsd=$(echo "$out" | grep -c '^prim_')
	same=$(echo "$out" | grep -c '^prim_.* no change$')
	echo "# diff: $rowsd rows, $same no change"
	[ "$rowsd" = "$measured" ] && [ "$same" = "$measured" ]
	tap_out $? "icount: kbenchctl diff of the two saved runs: a row for each of $measured, every one no change"
else
	skip "identical figures need --icount on x86_64"
	skip "identical figures need --icount on x86_64"
fi

# --cpus 0,1 (two CPUs online: plain TCG; icount runs one vCPU): the
# contended rows of this kernel (the locks and atomics, each one lock or
# atomic_t shared by both CPUs) are each measured at once on both, with a
# line of per-CPU figures, or failed with why on stderr, or missing with
# why; jiffies, not contended, alone on CPU 0.  Structure only.
contended="spin_lock raw_spin_lock read_lock atomic_inc atomic_add_return atomic_cmpxchg refcount_inc_dec"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
if [ "$ncpu" -ge 2 ]; then
	# plain TCG starts the vCPUs' windows up to a few 100 us apart
	kbenchctl baseline $opts --cpus 0,1 --skew-ns 2000000 --match locking,atomics,jiffies \
		--save "$tmp/c.json" >"$tmp/c.txt" 2>"$tmp/c.err"
	rc=$?
	sed 's/^/# /' "$tmp/c.txt"
	sed 's/^/# stderr: /' "$tmp/c.err"
	bad=""
	ncont=0
	for p in $contended; do
		line=$(rows "$tmp/c.txt" | grep "^  $p  *prim_$p ")
		case "$line" in
		*"(contended, 2 CPUs)")
			grep -q "^      prim_$p at once: cpu 0 [-0-9.]* cpu 1 [-0-9.]* ticks/call; start skew median [0-9]* ticks, [0-9]* of [0-9]* samples flagged skew$" "$tmp/c.txt" ||
				bad="$bad $p(no per-CPU line)"
			ncont=$((ncont + 1)) ;;
		*" failed")
			grep -q "^  prim_$p: failed: no CPU had a valid sample" "$tmp/c.txt" &&
				grep -q "prim_$p" "$tmp/c.err" || bad="$bad $p(failed, no reason)" ;;
		*" missing")
			grep -q "^  prim_$p: missing: " "$tmp/c.txt" || bad="$bad $p(missing, no reason)" ;;
		*)	bad="$bad $p(row: $line)" ;;
		esac
	done
	echo "# --cpus 0,1: $ncont of 7 contended rows measured at once, exit $rc"
	[ -z "$bad" ] && [ "$rc" -le 1 ] &&
		grep -q '^contended: the locking and atomics rows ran on CPUs 0-1 at once' "$tmp/c.txt" &&
		rows "$tmp/c.txt" | grep -q '^  jiffies  *prim_jiffies .*(alone on CPU 0)$'
	out="bad rows:$bad"
	tap_out $? "baseline --cpus 0,1: every contended row measured on both CPUs at once or says why, jiffies alone on CPU 0"
	# the contended rows saved as one run each with ncpus 2, and diff
	# pairs them with themselves (labelled as at once)
	nsaved=$(grep -c '"ncpus": 2' "$tmp/c.json")
	out=$(kbenchctl diff "$tmp/c.json" "$tmp/c.json" 2>&1)
	natonce=$(echo "$out" | grep -c '^prim_[a-z_]* \[2 CPUs at once\] ')
	echo "# saved: $nsaved runs with ncpus 2, diff: $natonce rows at once"
	[ "$nsaved" = "$ncont" ] && [ "$natonce" = "$ncont" ] &&
		echo "$out" | grep -q '^prim_jiffies '
	tap_out $? "baseline --cpus --save: $ncont contended rows saved with ncpus 2, diffed as at once; jiffies alone"
else
	skip "baseline --cpus 0,1: $ncpu CPU online (icount runs one vCPU; contention needs two)"
	skip "baseline --cpus --save: $ncpu CPU online"
fi

kb_rmmod kbench_prims
exit $failed
