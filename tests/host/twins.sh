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

n=0
fail=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

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

echo "1..$n"
exit $fail
