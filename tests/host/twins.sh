#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The userspace twins execute the same instructions as the kernel routines:
# disassemble each routine's loop in kbench.ko and in kbenchctl and compare
# them instruction by instruction, and against the documented count
# (include/kbench/bodies.h).  libkbench's overhead routine (linked into
# kbenchctl) is the kernel's `empty' too.  Prints TAP.
#
# Usage: tests/host/twins.sh [KBENCH_KO] [KBENCHCTL]
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
ko=${1:-$top/kmod/kbench.ko}
ctl=${2:-$top/user/kbenchctl}
objdump=${OBJDUMP:-objdump}

# loop FILE FUNCTION: the loop's instructions, one per line, addresses and
# the branch target dropped (they differ between the two binaries).
loop() {
	"$objdump" -d --no-show-raw-insn "$1" | awk -v fn="<$2>:" '
		$2 == fn { on = 1; next }
		on && NF == 0 { exit }
		on {
			split($0, f, ":")
			a = f[1]; gsub(/ /, "", a)
			s = $0; sub(/^ *[0-9a-f]+:\t/, "", s)
			addrs[n] = a; insn[n] = s; n++
		}
		END {
			for (i = 0; i < n; i++) {
				if (insn[i] ~ /^(jne|jnz|b\.ne|bne|bdnz)[ \t]/) {
					split(insn[i], p, /[ \t]+/)
					t = p[2]
					for (j = 0; j < i; j++)
						if (addrs[j] == t) break
					for (k = j; k <= i; k++) {
						s = insn[k]
						if (k == i) s = p[1]
						print s
					}
					exit
				}
			}
		}'
}

# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"

for f in "$ko" "$ctl"; do
	if [ ! -f "$f" ]; then
		echo "1..0 # SKIP $f not built"
		exit 0
	fi
done

#        routine    kernel function          kbenchctl function   insns
while read -r name kfn ufn want; do
	k=$(loop "$ko" "$kfn")
	u=$(loop "$ctl" "$ufn")
	count=$(printf '%s\n' "$k" | grep -c .)
	[ -n "$k" ] && [ "$k" = "$u" ]
	tap $? "$name: the kernel loop and the userspace twin's are the same $count instructions"
	[ "$count" = "$want" ]
	tap $? "$name: $count instructions per iteration, as documented ($want)"
	if [ "$k" != "$u" ]; then
		diff <(printf '%s\n' "$k") <(printf '%s\n' "$u") | sed 's/^/# /'
	fi
done <<'LIST'
empty     kbench_run_empty      twin_empty      2
add_chain kbench_run_add_chain  twin_add_chain  6
mul_chain kbench_run_mul_chain  twin_mul_chain  6
load_l1   kbench_run_load_l1    twin_load_l1    6
empty     kbench_run_empty      kbench_lib_empty 2
LIST

# add_n: an unrolled block of KBENCH_ADD_N_MAX adds entered @adds adds
# before its end (the entry is the block's end minus 3 bytes per add), then
# `loop` and `jmp *reg` back to the entry: @adds + 2 instructions per
# iteration.  The block as runs of identical instructions with their
# bytes, then the back edge (the register of the indirect jump named REG).
addn_block() { # FILE FUNCTION
	"$objdump" -d "$1" | awk -F'\t' -v fn="<$2>:" '
		$0 ~ fn"$" { on = 1; next }
		on && NF == 0 { exit }
		on && NF >= 3 {
			b = $2; gsub(/ +$/, "", b)
			s = $3; gsub(/ +/, " ", s)
			if (s ~ /^add %rdx,%rax/) {
				nb = split(b, x, " ")
				adds++
				if (nb != 3) odd++
				next
			}
			if (adds && !done) {
				printf "%d x add %%rdx,%%rax (%s)\n", adds,
					odd ? "not all 3 bytes" : "3 bytes each"
				done = 1
			}
			if (done && s ~ /^(loop|jmp \*)/) {
				sub(/ [0-9a-f]+ <.*/, "", s)
				sub(/\*%r[a-z0-9]+/, "*REG", s)
				print s
			}
		}'
}
k=$(addn_block "$ko" kbench_run_add_n)
u=$(addn_block "$ctl" twin_add_n)
[ -n "$k" ] && [ "$k" = "$u" ]
tap $? "add_n: the kernel block and the userspace twin's are the same ($(printf '%s' "$k" | tr '\n' ';'))"
[ "$k" = "$(printf '1024 x add %%rdx,%%rax (3 bytes each)\nloop\njmp *REG')" ]
tap $? "add_n: 1024 adds of 3 bytes, then loop and jmp *REG: arg + 2 instructions per iteration, as documented"

echo "1..$n"
[ "$nfail" = 0 ]
