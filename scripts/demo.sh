#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: what kbench is for, in under a minute of reading.  Boots
# Debian's kernel in qemu twice: under -icount, where one TSC tick is one
# guest instruction and the numbers are exact, then plain TCG, where the
# TSC is the host's clock and the numbers are host noise.
#
# Usage: scripts/demo.sh [--kernel KVER]   (default: VM_KERNEL or 6.1)
#        scripts/demo.sh --in-vm icount|plain COLOR   (inside the VM)

# ---- inside the VM: busybox sh, so plain POSIX sh from here to exit ----
if [ "${1:-}" = --in-vm ]; then
	part=$2
	color=$3
	k() {
		echo "\$ kbenchctl $*"
		kbenchctl --color="$color" "$@"
		echo
	}
	if [ "$part" = icount ]; then
		echo "==== 1. An exact measurement (qemu -icount: one TSC tick = one instruction)"
		echo
		k run add_chain
		cat <<'EOF'
Why exactly 6.000: add_chain's loop body is 4 dependent adds plus dec/jnz,
6 instructions per iteration.  Under -icount the TSC advances by one per
instruction, and kbench times each sample with interrupts off as
T(N+2) - T(2): the counter reads, the call and the loop's start cancel, so
N iterations take exactly 6N ticks in every sample (min = median, a CI of
width 0).  "corrected" subtracts the empty loop (dec/jnz, 2): the 4 adds.
The warnings first are what on this machine could distort a measurement
(here: a virtual machine, and a CPU that takes the device interrupts);
`kbenchctl info` lists everything it checks, `kbenchctl tune` fixes what a
running system can (governor, turbo, NMI watchdog, SMT sibling, interrupts).

==== 2. Is B slower than A? (compare: both interleaved in one run)

EOF
		k compare empty add_chain
		cat <<'EOF'
4 more instructions on top of 2 is +200%, with its confidence interval
and a significance test.  On hardware the same command answers "is my
version really faster?" (kbench_example's foo and foobar are the
null experiment: identical bodies must come out equal).

==== 3. The same loop in the kernel and in userspace (the twin)

EOF
		k compare add_chain --kernel-vs-user --iterations 1000 --samples 200
		cat <<'EOF'
The userspace twin runs the same instructions on the same CPU with the
same method, and its minimum equals the kernel's.  In userspace an
interrupt or the scheduler can land inside a sample (the last line counts
those that did); in the kernel's windows interrupts are off.

EOF
	else
		echo "==== 4. Plain qemu (TCG without -icount): HOST NOISE, not add_chain"
		echo
		k run add_chain
		cat <<'EOF'
Without -icount the guest's TSC is the host's clock, and the qemu thread
shares the host with everything else: these figures are host noise (the
verdict says so when it sees it).  Samples whose short reference span the
host stretched would come out too small, even negative; the reasonableness
test flags them `reference' and excludes them, so the minimum stays
meaningful.  For real numbers run kbench on real hardware; `make check`
runs the tests, exact under -icount.
EOF
	fi
	exit 0
fi

# ---- on the host ----
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=${VM_KERNEL:-6.1}
[ "${1:-}" = --kernel ] && kernel=$2
color=never
[ -t 1 ] && color=always

"$top/tests/vm/run" --kernel "$kernel" --icount --add "$0" \
	-- sh /extra/demo.sh --in-vm icount "$color"
echo
"$top/tests/vm/run" --kernel "$kernel" --add "$0" \
	-- sh /extra/demo.sh --in-vm plain "$color"
