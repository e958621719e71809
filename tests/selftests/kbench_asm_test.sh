#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kbenchctl --asm on this machine from builds kept for it: the test bed
# (scripts/check-arch.sh) builds them on the host with kbenchctl itself,
# ARCH and CROSS_COMPILE naming this architecture and --keep DIR, and adds
# them as /extra/asm-kmod (the module), /extra/asm-user (the shared
# object) and /extra/asm-fault (a module whose snippet faults); here, with
# no compiler, kbenchctl finds the same source in DIR and reuses the build.
# Under icount one instruction is one nanosecond: the 3-instruction
# snippet unrolled 10 times costs exactly 3 core cycles a copy plus the
# loop's 2 instructions over 10 (0.2), in the kernel and in --user.  The
# faulting snippet (a load from an address nothing maps: arm64 16, a
# kernel address past the memory on powerpc, whose KUAP would WARN for a
# user one; x86 a non-canonical one) is caught by its
# exception table entry: exit 1 and a message, no oops, the module gone.
# Without the builds (a kselftest package, x86_64's VMs, where
# tests/kit/run.sh checks the kernel side) the tests skip.  Prints TAP.

# shellcheck source=tests/selftests/kbench_lib.sh
. "$(dirname "$0")/kbench_lib.sh"

echo "TAP version 13"
echo "1..3"

case "$(uname -m)" in
x86_64) code='add %rax, %rbx; imul %rcx, %rdx; nop'
	# shellcheck disable=SC2016 # assembly: $ is an immediate
	bad='movabs $0xdead000000000000, %rax; mov (%rax), %rbx' ;;
aarch64) code='add x3, x3, x4; mul x5, x5, x5; nop'
	bad='mov x9, #16; ldr x10, [x9]' ;;
ppc64le) code='add 3, 3, 4; mulld 5, 5, 5; nop'
	bad='lis 9, -16369; sldi 9, 9, 32; ld 10, 0(9)' ;;
*) code='' bad='' ;;
esac
# num_near X V D: |X - V| <= D
num_near() { awk -v x="$1" -v v="$2" -v d="$3" 'BEGIN { exit !(x != "" && x - v <= d && v - x <= d) }'; }
# arm64's CNTVCT moves once every 16 instructions: a window of 1000
# iterations (32000 instructions, 2000 ticks) may read one tick more, 1/1000
# of a tick an iteration, 0.0016 core cycles a copy
case "$(uname -m)" in
aarch64) step=0.0017 ;;
*) step=0 ;;
esac

for side in kmod user; do
	what="run --asm '$code' --unroll 10"
	[ "$side" = user ] && what="$what --user"
	if [ -z "$code" ] || [ ! -d "/extra/asm-$side" ]; then
		skip "$what: no build kept for this machine in /extra/asm-$side"
		continue
	fi
	if ! kb_icount; then
		skip "$what: exact only under icount"
		continue
	fi
	opt=''
	[ "$side" = user ] && opt=--user
	out=$(kbenchctl --json run --asm "$code" --unroll 10 $opt --unit core \
		--keep "/extra/asm-$side" --iterations 1000 --samples 50 2>&1)
	rc=$?
	med=$(echo "$out" | json_num median_cycles)
	loop=$(echo "$out" | json_num loop_per_copy)
	echo "# $side: exit $rc, median $med core cycles a copy, the loop $loop"
	[ $rc = 0 ] && num_near "$med" 3.2 "$step" && num_near "$loop" 0.2 "$step" &&
		! grep -q '^kbench_asm ' /proc/modules
	tap_out $? "$what under icount: 3.2 core cycles a copy (3 instructions and the loop's 2/10), the loop 0.2 (within $step)"
done

what="run --asm '$bad' in the kernel: the fault caught by the exception table"
if [ -z "$bad" ] || [ ! -d /extra/asm-fault ]; then
	skip "$what: no build kept for this machine in /extra/asm-fault"
else
	before=$(dmesg 2>/dev/null | wc -l)
	out=$(kbenchctl run --asm "$bad" --unroll 10 --keep /extra/asm-fault \
		--iterations 100 --samples 10 2>&1)
	rc=$?
	log=$(dmesg 2>&1 | tail -n +$((before + 1)))
	echo "$out" | sed 's/^/# /'
	[ $rc = 1 ] && echo "$out" | grep -q "faulted in the kernel" &&
		! grep -q '^kbench_asm ' /proc/modules &&
		! echo "$log" | grep -q -i -E 'oops|bug:|warning:|general protection|unable to handle'
	tap_out $? "$what: exit 1, the message, no oops or warning in the log, the module unloaded"
fi

exit $failed
