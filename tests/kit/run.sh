#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The build kit for benchmark modules and `kbenchctl new` (TAP):
#   new     kbenchctl new with a bad name, an existing directory, an
#           unwritable path and a write failing half-way exits with a clear
#           message and leaves nothing behind; --force, --help, valgrind
#   kit     a copy of the source tree installed into a staging directory
#           (make install DESTDIR=... KVER=...) for each test kernel; with
#           the staged pkg-config (PKG_CONFIG_SYSROOT_DIR), kbench.pc's
#           kbuild_include, symvers and mkfile; `kbenchctl new mybench` and
#           `make -C mybench KDIR=<headers> W=1` builds mybench.ko for that
#           kernel without a warning; a kernel kbench was not built for is
#           named in an error
#   vm      6.1 under icount: insmod the staged kbench.ko, the generated
#           Makefile's `make load`; `kbenchctl list` shows mybench and its
#           argument; `make run` sweeps it, and a sweep is exactly linear
#           in the argument (one instruction = one tick); `make unload`,
#           rmmod kbench, clean log (~40 s); the variant (make
#           KBENCH_VARIANT=old: mybench_old.ko, routine mybench_old) of a
#           7-instruction body beside the usual build of an 8-instruction
#           one, compared in one run: exactly +14.29%; kbenchctl run --asm
#           (3 instructions, --unroll 10) in the kernel: the module built on
#           the host with the staged kit for 6.1 (built, kept, not loaded:
#           the host runs another kernel), reused from its --keep DIR in the
#           VM, loaded, measured and unloaded: exactly 3.2 per copy; a
#           snippet that faults (#GP) caught by its exception table
#           entries (exit 1, the message, dmesg clean); --sign-key and
#           --sign-cert sign the module (modinfo's signer, the kernel's hash);
#           the --user object built and kept on the host: under icount
#           exactly 1 tick a core cycle and 3.2 core cycles per copy
#
# Usage: tests/kit/run.sh [--no-vm] [--kernels "6.1 6.12 6.12-rt"]
# The staged install and the modules go to build/kit/ (~2 min on 2 cores:
# kbench is built once per kernel).
set -uo pipefail
{

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
vm=1
kernels="6.1 6.12 6.12-rt"
while [ $# -gt 0 ]; do
	case "$1" in
	--no-vm) vm=0; shift ;;
	--kernels) kernels=$2; shift 2 ;;
	*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	esac
done

# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"

b=$top/build/kit
rm -rf "$b"
mkdir -p "$b/new"

if ! make -s -C user >"$b/user.log" 2>&1; then
	tap 1 "make -C user" "$b/user.log"
	echo "1..$n"
	exit 1
fi
kbenchctl=$top/user/kbenchctl

# ---- kbenchctl new: errors leave nothing --------------------------------------
w=$b/new
ls_dir() { find "$1" -mindepth 1 -printf '%f\n' | LC_ALL=C sort | tr '\n' ' '; }
# new_fails WHAT STATUS PATTERN ARGS...: exit STATUS, PATTERN on stderr,
# and $w exactly as before
new_fails() {
	local what=$1 want=$2 pat=$3 rc before after
	shift 3
	before=$(cd "$w" && find . | LC_ALL=C sort | md5sum)
	(cd "$w" && "$kbenchctl" new "$@") >"$b/out" 2>"$b/err"
	rc=$?
	after=$(cd "$w" && find . | LC_ALL=C sort | md5sum)
	sed 's/^/# stderr: /' "$b/err"
	[ "$rc" = "$want" ] && grep -q -E "$pat" "$b/err" && [ "$before" = "$after" ] &&
		[ ! -s "$b/out" ]
	tap $? "new $what: exit $want, '$pat', nothing written"
}
new_fails "My-Bench (capitals, '-')" 2 "'M' is not allowed: use a-z, 0-9 and _" My-Bench
new_fails "my-bench" 2 "'-' is not allowed" my-bench
new_fails "1bench (a digit first)" 2 "must begin with a letter" 1bench
new_fails "a 32-character name" 2 "at most 31 characters" abcdefghijklmnopqrstuvwxyz012345
new_fails "kbench (kbench's own module)" 2 "kbench's own module" kbench
new_fails "'' (empty)" 2 "the name is empty" ""
new_fails "(no NAME)" 2 "which name\\?"
new_fails "a b c (three arguments)" 2 "unexpected argument 'c'" a b c
mkdir -p "$w/taken" && echo keep >"$w/taken/notes"
new_fails "NAME taken (an existing directory)" 2 "taken exists \\(--force writes" taken
new_fails "NAME DIR (DIR an existing directory)" 2 "taken exists" mybench taken
echo x >"$w/afile"
new_fails "NAME DIR (DIR a file)" 2 "afile exists and is not a directory" mybench afile
new_fails "NAME nodir/sub (no parent)" 1 "cannot create nodir/sub in nodir: No such file or directory" mybench nodir/sub
new_fails "NAME afile/sub (the parent a file)" 1 "Not a directory" mybench afile/sub
new_fails "NAME /proc/mybench (a read-only place)" 1 "cannot create /proc/mybench in /proc" mybench /proc/mybench
# unwritable for the user who runs it: a root-owned directory, as nobody
# (root may write anywhere: as root, try it as nobody in a directory of
# root's under /tmp, which nobody can reach)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	ro=$(mktemp -d /tmp/kbench-kit-ro.XXXXXX)
	chmod 755 "$ro"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$kbenchctl" new mybench "$ro/mybench" >"$b/out" 2>"$b/err"
	rc=$?
	sed 's/^/# stderr: /' "$b/err"
	[ "$rc" = 1 ] && grep -q "cannot create $ro/mybench in $ro: Permission denied" "$b/err" &&
		[ -z "$(ls -A "$ro")" ] && [ ! -s "$b/out" ]
	tap $? "new into a directory the user cannot write (as nobody): exit 1, 'Permission denied', nothing written"
	rmdir "$ro"
else
	mkdir -p "$w/ro" && chmod 555 "$w/ro"
	new_fails "NAME ro/mybench (unwritable)" 1 "Permission denied" mybench ro/mybench
	chmod 755 "$w/ro"
fi
# a write that fails half-way (the file size limit: EFBIG on the Makefile)
before=$(cd "$w" && find . | LC_ALL=C sort | md5sum)
(cd "$w" && trap '' XFSZ && ulimit -f 1 && exec "$kbenchctl" new mybench) >"$b/out" 2>"$b/err"
rc=$?
sed 's/^/# stderr: /' "$b/err"
[ "$rc" = 1 ] && grep -q -E "mybench.*/Makefile: File too large" "$b/err" &&
	[ "$before" = "$(cd "$w" && find . | LC_ALL=C sort | md5sum)" ]
tap $? "new with a write failing half-way (EFBIG): exit 1, the file named, nothing left (no staging directory)"

"$kbenchctl" new --help >"$b/help" 2>&1 && grep -q '^Usage: kbenchctl new NAME \[DIR\] \[--force\]' "$b/help" &&
	grep -q -- '--force' "$b/help"
tap $? "new --help: usage, --force, exit 0" "$b/help"

(cd "$w" && "$kbenchctl" new mybench) >"$b/out" 2>&1 &&
	[ "$(ls_dir "$w/mybench")" = "Makefile README mybench.c " ] &&
	[ "$(stat -c %a "$w/mybench")" = "$(printf '%o' $((0777 & ~$(umask) & 0755)))" ] &&
	grep -q 'module_kbench_routines(mybench_routines);' "$w/mybench/mybench.c" &&
	grep -q '^obj-m := mybench.o$' "$w/mybench/Makefile" &&
	grep -q 'cd mybench && make && sudo make load && sudo make run' "$b/out"
tap $? "new mybench: exactly Makefile, README, mybench.c in ./mybench (mode from the umask)" "$b/out"
# kernel style: checkpatch of Debian's 6.1 sources (extracted once, as
# scripts/lint.sh does)
if ksrc=$(scripts/kselftest-headers.sh 2>"$b/ksrc.log") && [ -f "$ksrc/scripts/checkpatch.pl" ]; then
	perl "$ksrc/scripts/checkpatch.pl" --strict --no-tree --no-summary --terse \
		-f "$w/mybench/mybench.c" >"$b/checkpatch.log" 2>&1 && [ ! -s "$b/checkpatch.log" ]
	tap $? "the generated mybench.c is checkpatch --strict clean" "$b/checkpatch.log"
else
	skip "checkpatch of the generated mybench.c" "no kernel sources (scripts/kselftest-headers.sh)"
fi
(cd "$w" && "$kbenchctl" new other taken --force) >"$b/out" 2>&1 &&
	[ "$(ls_dir "$w/taken")" = "Makefile README notes other.c " ] &&
	[ "$(cat "$w/taken/notes")" = keep ]
tap $? "new other taken --force: the three files into the existing directory, its own files kept" "$b/out"
if command -v valgrind >/dev/null; then
	(cd "$w" && valgrind -q --error-exitcode=9 --leak-check=full "$kbenchctl" new vg) \
		>"$b/vg.log" 2>&1 &&
		(cd "$w" && valgrind -q --error-exitcode=9 --leak-check=full "$kbenchctl" new vg) \
		>>"$b/vg.log" 2>&1
	[ $? = 2 ] && ! grep -q '==[0-9]*==' "$b/vg.log"
	tap $? "new under valgrind: no error, no leak (success and 'exists')" "$b/vg.log"
else
	skip "new under valgrind" "valgrind not installed"
fi

# ---- the kit: a staged install per kernel, a generated module built ---------
# headers_of ALIAS: the newest Debian amd64 headers of 6.1, 6.12 or
# 6.12-rt (or of that release)
headers_of() {
	local d r
	for d in /usr/src/linux-headers-*-amd64; do
		[ -f "$d/include/generated/utsrelease.h" ] || continue
		r=${d#/usr/src/linux-headers-}
		case $1 in
		6.1) [[ $r == 6.1.* ]] ;;
		6.12) [[ $r == 6.12.* && $r != *-rt-* ]] ;;
		6.12-rt) [[ $r == 6.12.*-rt-* ]] ;;
		*) [ "$r" = "$1" ] ;;
		esac && echo "$d"
	done | sort -V | tail -n1
}
stage=$b/stage
prefix=/usr/local
src=$b/src
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp -P --parents -t "$src" 2>"$b/copy.log"
tap $? "a copy of the source tree (git ls-files) to install from" "$b/copy.log"
# COMMAND with pkg-config looking only at the staged install
staged() { PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR=$stage$prefix/lib/pkgconfig \
	PKG_CONFIG_SYSROOT_DIR=$stage "$@"; }
pc() { staged pkg-config "$@"; }
first_kver=""
for k in $kernels; do
	kdir=$(headers_of "$k")
	if [ -z "$kdir" ]; then
		skip "kit for $k" "no /usr/src/linux-headers for $k"
		continue
	fi
	kver=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")
	make -s -C "$src" install DESTDIR="$stage" KVER="$kver" KDIR="$kdir" \
		>"$b/install-$k.log" 2>&1 &&
		[ -f "$stage$prefix/lib/kbench/$kver/Module.symvers" ] &&
		[ -n "$(find "$stage/lib/modules/$kver/updates" -name 'kbench.ko*')" ] &&
		grep -q 'kbench_register_routines' "$stage$prefix/lib/kbench/$kver/Module.symvers"
	tap $? "$k: make install DESTDIR=... KVER=$kver: kbench.ko and its Module.symvers" "$b/install-$k.log"
	[ -z "$first_kver" ] && first_kver=$kver first_kdir=$kdir first_k=$k

	m=$b/mod-$k
	mkdir -p "$m"
	(cd "$m" && staged "$stage$prefix/bin/kbenchctl" new mybench) \
		>"$b/new-$k.log" 2>&1 &&
		staged make -C "$m/mybench" KDIR="$kdir" W=1 >>"$b/new-$k.log" 2>&1 &&
		! grep -i -E 'warning|error' "$b/new-$k.log" &&
		[ "$(modinfo -F vermagic "$m/mybench/mybench.ko" | cut -d' ' -f1)" = "$kver" ] &&
		[ "$(modinfo -F depends "$m/mybench/mybench.ko")" = kbench ]
	tap $? "$k: kbenchctl new mybench; make -C mybench KDIR=$kdir W=1: mybench.ko for $kver, depends on kbench, no warning" "$b/new-$k.log"
done

if [ -n "$first_kver" ]; then
	{
		echo "kbuild_include=$(pc --variable=kbuild_include kbench)"
		echo "symvers=$(pc --variable=symvers kbench)"
		echo "mkfile=$(pc --variable=mkfile kbench)"
		echo "symvers(kver=$first_kver)=$(pc --define-variable=kver="$first_kver" --variable=symvers kbench)"
	} >"$b/pc.log" 2>&1
	sed 's/^/# /' "$b/pc.log"
	grep -qx "kbuild_include=$stage$prefix/include/kbench" "$b/pc.log" &&
		grep -qx "mkfile=$stage$prefix/share/kbench/kbench.mk" "$b/pc.log" &&
		grep -qx "symvers(kver=$first_kver)=$stage$prefix/lib/kbench/$first_kver/Module.symvers" "$b/pc.log" &&
		grep -q "^symvers=$stage$prefix/lib/kbench/.*/Module.symvers$" "$b/pc.log" &&
		[ -f "$stage$prefix/include/kbench/linux/kbench.h" ] &&
		[ -f "$stage$prefix/include/kbench/uapi/linux/kbench.h" ]
	tap $? "kbench.pc with PKG_CONFIG_SYSROOT_DIR: kbuild_include, mkfile, symvers (--define-variable=kver) in the staging directory" "$b/pc.log"

	# the kit's errors: a kernel kbench was not built for, no kernel tree
	fake=$b/fake-kdir
	mkdir -p "$fake/include/generated"
	echo '#define UTS_RELEASE "9.9.9-kbench-test"' >"$fake/include/generated/utsrelease.h"
	staged make -C "$b/mod-$first_k/mybench" KDIR="$fake" >"$b/nokbench.log" 2>&1
	rc=$?
	[ "$rc" = 2 ] && grep -q "kbench was not built for kernel 9.9.9-kbench-test (KDIR=$fake): neither $stage$prefix/lib/kbench/9.9.9-kbench-test/Module.symvers nor a DKMS build" "$b/nokbench.log" &&
		grep -q "make install KVER=9.9.9-kbench-test" "$b/nokbench.log"
	tap $? "kit: a kernel kbench was not built for is an error naming it, where it looked and the fix" "$b/nokbench.log"
	staged make -C "$b/mod-$first_k/mybench" KDIR="$b/no-such-dir" >"$b/nokdir.log" 2>&1
	[ $? = 2 ] && grep -q "KDIR=$b/no-such-dir is not a kernel build tree" "$b/nokdir.log"
	tap $? "kit: a KDIR that is no kernel tree is an error naming it" "$b/nokdir.log"
	PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR=$b/nowhere make -C "$b/mod-$first_k/mybench" \
		KDIR="$first_kdir" >"$b/nopc.log" 2>&1
	[ $? = 2 ] && grep -q "kbench's build kit not found" "$b/nopc.log"
	tap $? "kit: without kbench.pc the generated Makefile says how to point at it" "$b/nopc.log"
fi

# ---- the variant: the code before a change as mybench_old.ko ----------------
# variant-old: the generated module with a body of known length (5 adds, a
# dec and a jnz: 7 instructions an iteration) built with KBENCH_VARIANT=old;
# variant-new: the same with one add more (8), built as usual.  The VM
# loads both and compares them in one run (x86_64: the body is x86 asm).
# body N FILE: mybench_run() in FILE as a loop of N adds, a dec and a jnz
body() {
	python3 - "$1" "$2" <<'PY'
import re, sys
n, path = int(sys.argv[1]), sys.argv[2]
src = open(path).read()
adds = ''.join('\t\t     "\\tadd %%rdx, %%rax\\n"\n' for _ in range(n))
fn = ('static noinline void mybench_run(unsigned int iterations, void *data)\n'
      '{\n\tif (!iterations)\n\t\treturn;\n\tasm volatile("1:\\n"\n' + adds +
      '\t\t     "\\tdec %0\\n"\n\t\t     "\\tjnz 1b\\n"\n'
      '\t\t     : "+r" (iterations) : : "rax", "rdx", "cc");\n'
      '\tWRITE_ONCE(mybench_sink, iterations);\n}\n')
out, k = re.subn(r'static noinline void mybench_run\(unsigned int iterations, void \*data\)\n\{\n.*?\n\}\n',
                 lambda m: fn, src, count=1, flags=re.S)
if k != 1:
	sys.exit('no mybench_run() in ' + path)
open(path, 'w').write(out)
PY
}
if [ -n "$first_kver" ]; then
	vo=$b/variant-old
	vn=$b/variant-new
	mkdir -p "$vo" "$vn"
	cp "$b/mod-$first_k/mybench/Makefile" "$b/mod-$first_k/mybench/mybench.c" "$vo/"
	cp "$b/mod-$first_k/mybench/Makefile" "$b/mod-$first_k/mybench/mybench.c" "$vn/"
	body 5 "$vo/mybench.c"
	body 6 "$vn/mybench.c"
	sed -n '/^static noinline void mybench_run/,/^}/p' "$vn/mybench.c" | sed 's/^/# new: /'
	staged make -C "$vo" KDIR="$first_kdir" KBENCH_VARIANT=old W=1 >"$b/variant-old.log" 2>&1 &&
		! grep -i -E 'warning|error' "$b/variant-old.log" &&
		[ -f "$vo/mybench_old.ko" ] && [ ! -e "$vo/mybench.ko" ] &&
		[ "$(modinfo -F name "$vo/mybench_old.ko")" = mybench_old ] &&
		grep -q -a -F '%s_old' "$vo/mybench_old.ko"
	tap $? "$first_k: make KBENCH_VARIANT=old: mybench_old.ko (module mybench_old, routines named NAME_old), no warning" "$b/variant-old.log"
	[ "$(grep -c 'add %%rdx, %%rax' "$vo/mybench.c")" = 5 ] &&
		[ "$(grep -c 'add %%rdx, %%rax' "$vn/mybench.c")" = 6 ] &&
		staged make -C "$vn" KDIR="$first_kdir" W=1 >"$b/variant-new.log" 2>&1 &&
		! grep -i -E 'warning|error' "$b/variant-new.log" &&
		[ "$(modinfo -F name "$vn/mybench.ko")" = mybench ] &&
		! grep -q -a -F '%s_old' "$vn/mybench.ko"
	tap $? "$first_k: the changed code (one add more an iteration) built as usual: mybench.ko, routine names as written" "$b/variant-new.log"
	staged make -C "$vo" KDIR="$first_kdir" KBENCH_VARIANT=Old-1 >"$b/variant-bad.log" 2>&1
	[ $? = 2 ] && grep -q "KBENCH_VARIANT=Old-1: use a-z, 0-9 and _, at most 15 characters" "$b/variant-bad.log"
	tap $? "kit: a KBENCH_VARIANT that cannot end a routine's name is an error naming it" "$b/variant-bad.log"
fi

# ---- kbenchctl --asm in the kernel: the module built for 6.1 with the kit ----
asm_code='add %rax, %rbx; imul %rcx, %rdx; nop'
# shellcheck disable=SC2016 # assembly: $ is an immediate
asm_bad='movabs $0xdead000000000000, %rax; mov (%rax), %rbx'
if [ -n "$first_kver" ]; then
	rm -rf "$b/asm-kmod"
	(cd "$b" && KDIR=$first_kdir staged "$stage$prefix/bin/kbenchctl" run \
		--asm "$asm_code" --unroll 10 --keep "$b/asm-kmod") >"$b/asm.log" 2>&1 &&
		grep -q "kbench_asm.ko built for kernel $first_kver, not the running $(uname -r): kept in $b/asm-kmod, not loaded" "$b/asm.log" &&
		[ "$(modinfo -F vermagic "$b/asm-kmod/kbench_asm.ko" | cut -d' ' -f1)" = "$first_kver" ]
	tap $? "kbenchctl run --asm for $first_kver: the module built with the kit, kept, not loaded into another kernel" "$b/asm.log"
	# the --user object, built and kept here (and measured here: this
	# host's figures are not asserted), reused in the VM under icount
	rm -rf "$b/asm-user"
	staged "$stage$prefix/bin/kbenchctl" run --asm "$asm_code" --unroll 10 --user \
		--samples 5 --keep "$b/asm-user" >"$b/asm-user.log" 2>&1 &&
		[ -f "$b/asm-user/kbench_asm.so" ]
	tap $? "kbenchctl run --asm --user --keep DIR: the shared object built and kept for the VM" "$b/asm-user.log"
	# a snippet that faults (a load from a non-canonical address: #GP),
	# each statement with its exception table entry
	rm -rf "$b/asm-fault"
	(cd "$b" && KDIR=$first_kdir staged "$stage$prefix/bin/kbenchctl" run \
		--asm "$asm_bad" --unroll 10 --keep "$b/asm-fault") >"$b/asm-fault.log" 2>&1 &&
		[ "$(grep -c '^9992:' "$b/asm-fault/kbench_asm_body.S")" = 2 ] &&
		[ "$(grep -c '_ASM_EXTABLE(9992b, 9990f)' "$b/asm-fault/kbench_asm_body.S")" = 2 ]
	tap $? "kbenchctl run --asm for $first_kver: a label and an exception table entry for each statement of the snippet" "$b/asm-fault.log"
	# signed for a kernel that loads only signed modules: a throwaway key
	rm -rf "$b/asm-sign" && mkdir -p "$b/asm-sign" &&
		openssl req -new -nodes -utf8 -sha256 -days 1 -batch -x509 -outform DER \
			-out "$b/asm-sign/cert.der" -keyout "$b/asm-sign/key.pem" \
			-subj "/CN=kbench kit test/" >"$b/asm-sign.log" 2>&1 &&
		(cd "$b" && KDIR=$first_kdir staged "$stage$prefix/bin/kbenchctl" run \
			--asm "$asm_code" --unroll 10 --keep "$b/asm-sign/k" \
			--sign-key "$b/asm-sign/key.pem" --sign-cert "$b/asm-sign/cert.der") >>"$b/asm-sign.log" 2>&1 &&
		[ "$(modinfo -F signer "$b/asm-sign/k/kbench_asm.ko")" = "kbench kit test" ] &&
		[ "$(modinfo -F sig_hashalgo "$b/asm-sign/k/kbench_asm.ko")" = \
		  "$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$first_kdir/include/config/auto.conf")" ]
	tap $? "kbenchctl run --asm --sign-key KEY --sign-cert CERT for $first_kver: the module signed by that key with the kernel's CONFIG_MODULE_SIG_HASH (modinfo's signer)" "$b/asm-sign.log"
fi

# ---- in the VM: the generated module loads, lists, sweeps, unloads ----------
if [ "$vm" = 0 ]; then
	skip "VM: mybench" "--no-vm"
elif [ -z "$first_kver" ] || [ ! -f "$b/mod-$first_k/mybench/mybench.ko" ]; then
	skip "VM: mybench" "no module was built"
else
	cat >"$b/guest.sh" <<'EOF'
# kbench is not under /lib/modules here: insmod it, so that `make load`
# finds it loaded (it runs modprobe otherwise); no pkg-config: KBENCH_MK
insmod /lib/kbench/kbench.ko; echo "@@insmod-kbench $?"
PATH=/extra:$PATH	# make
cd /extra/mybench || exit 1
mk=KBENCH_MK=/extra/kbench.mk
make load "$mk"; echo "@@insmod-mybench $?"
echo "@@list"; kbenchctl list; echo "@@rc $?"
echo "@@list-json"; kbenchctl --json list; echo "@@rc $?"
echo "@@sweep"; make run "$mk" RUN_ARGS="--arg 64,256,1024 --samples 20"; echo "@@rc $?"
echo "@@sweep-json"; kbenchctl --json run mybench --arg 64,256,1024 --samples 20; echo "@@rc $?"
echo "@@variant-unload"; make unload "$mk"; echo "@@rc $?"
# the variant beside the changed code, compared in one interleaved run
if [ -f /extra/variant-old/mybench_old.ko ]; then
	echo "@@variant-load"; (cd /extra/variant-old && make load "$mk" KBENCH_VARIANT=old) &&
		(cd /extra/variant-new && make load "$mk"); echo "@@rc $?"
	echo "@@variant-list"; kbenchctl list; echo "@@rc $?"
	echo "@@variant-compare"; kbenchctl --json compare mybench_old:64 mybench:64 --samples 20; echo "@@rc $?"
	echo "@@variant-text"; kbenchctl compare mybench_old:64 mybench:64 --samples 20; echo "@@rc $?"
	(cd /extra/variant-old && make unload "$mk" KBENCH_VARIANT=old)
fi
# --asm in the kernel: the module built on the host, reused from --keep
if [ -f /extra/asm-kmod/kbench_asm.ko ]; then
	echo "@@asm"; kbenchctl --json run --asm 'add %rax, %rbx; imul %rcx, %rdx; nop' \
		--unroll 10 --keep /extra/asm-kmod --iterations 1000 --samples 50; echo "@@rc $?"
	grep -q '^kbench_asm ' /proc/modules; echo "@@asm-after $?"
fi
# --user: the object built on the host, reused from --keep
if [ -f /extra/asm-user/kbench_asm.so ]; then
	echo "@@asm-user"; kbenchctl --json run --asm 'add %rax, %rbx; imul %rcx, %rdx; nop' \
		--unroll 10 --user --unit core --keep /extra/asm-user --iterations 1000 --samples 50; echo "@@rc $?"
fi
# a snippet that faults: caught by its exception table entries
if [ -f /extra/asm-fault/kbench_asm.ko ]; then
	echo "@@asm-fault"; kbenchctl run --asm 'movabs $0xdead000000000000, %rax; mov (%rax), %rbx' \
		--unroll 10 --keep /extra/asm-fault --iterations 100 --samples 10 2>&1; echo "@@rc $?"
	grep -q '^kbench_asm ' /proc/modules; echo "@@asm-fault-after $?"
fi
echo "@@rmmod"; (cd /extra/variant-new 2>/dev/null && make unload "$mk"); rmmod kbench; echo "@@rc $?"
grep -q -E '^(kbench|mybench) ' /proc/modules; echo "@@loaded-after $?"
pattern='WARNING|BUG:|kernel BUG|Oops|lockup|RCU stall|rcu: INFO|scheduling while atomic|sleeping function called from invalid context|Call Trace'
echo "@@dmesg"; dmesg | grep -v -i 'command line' | grep -E "$pattern"; echo "@@rc $?"
EOF
	# the staged kbench.ko (6.12's modules_install compresses it)
	vk=$b/vm-kmod
	mkdir -p "$vk"
	cp "$stage/lib/modules/$first_kver/updates"/kbench.ko* "$vk/"
	for z in "$vk"/kbench.ko.*; do
		case $z in
		*.xz) xz -d "$z" ;;
		*.zst) zstd -q -d --rm "$z" ;;
		*.gz) gzip -d "$z" ;;
		esac
	done
	tests/vm/run --kernel "$first_k" --icount --no-load --no-build \
		--kmod-dir "$vk" \
		--add "$b/mod-$first_k/mybench" --add "$stage$prefix/share/kbench/kbench.mk" \
		--add "$b/variant-old" --add "$b/variant-new" \
		${first_kver:+--add "$b/asm-kmod" --add "$b/asm-fault" --add "$b/asm-user"} \
		--add "$(command -v make)" --add "$b/guest.sh" \
		-- sh /extra/guest.sh >"$b/vm.log" 2>"$b/vm.err"
	echo "# VM exit status $?"
	sed -n '/^@@list$/,/^@@rc/p;/^@@sweep$/,/^@@rc/p' "$b/vm.log" | sed 's/^/# vm: /'
	python3 - "$b/vm.log" <<'EOF' >"$b/vm.tap"
import json, re, sys
text = open(sys.argv[1]).read()
parts = {}
for m in re.finditer(r'^@@(\S+)(?: (\d+))?\n(.*?)(?=^@@|\Z)', text, re.M | re.S):
	parts.setdefault(m.group(1), (m.group(2), m.group(3)))
def rc(name):
	# the status printed after a section: the @@rc that follows it
	i = text.find('@@' + name + '\n')
	m = re.compile(r'^@@rc (\d+)$', re.M).search(text, i)
	return int(m.group(1)) if i >= 0 and m else None
res = []
def t(ok, what):
	res.append((ok, what))
t(parts.get('insmod-kbench', ('x',))[0] == '0' and parts.get('insmod-mybench', ('x',))[0] == '0',
  'insmod kbench.ko (the staged install), then make load: mybench.ko')
lst = parts.get('list', (None, ''))[1]
t(rc('list') == 0 and re.search(r'^mybench\s+mybench\s+bytes 1\.\.1M \(256\)', lst, re.M) is not None,
  "kbenchctl list: 'mybench  mybench  bytes 1..1M (256)'")
try:
	j = json.loads(parts['list-json'][1].split('@@')[0])
	r = [x for x in j if x['name'] == 'mybench'][0]
	ok = (r['module'] == 'mybench' and r['arg'] == {'unit': 'bytes', 'min': 1, 'max': 1048576, 'default': 256}
	      and r['description'] == 'sum of arg bytes')
except Exception as e:
	print('# list json:', e)
	ok = False
t(rc('list-json') == 0 and ok, 'kbenchctl --json list: mybench, its module and its argument {bytes, 1, 1048576, 256}')
t(rc('sweep') == 0 and 'sweep of mybench over bytes 64,256,1024' in parts.get('sweep', (None, ''))[1],
  'make run RUN_ARGS="--arg 64,256,1024 --samples 20": the sweep runs')
try:
	j = json.loads(parts['sweep-json'][1])
	rows = j['sweep']
	pts = [(x['arg'], x['net_cycles_per_iter']) for x in rows]
	for a, c in pts:
		print('# arg %d: net cycles/iter min %s median %s max %s' % (a, c['min'], c['median'], c['max']))
	ok = [a for a, _ in pts] == [64, 256, 1024] and all(
		c['min'] == c['median'] == c['max'] and x['valid'] == 20 and x['status'] == 'complete'
		for (a, c), x in zip(pts, rows))
	(a0, c0), (a1, c1), (a2, c2) = [(a, c['median']) for a, c in pts]
	k = (c1 - c0) / (a1 - a0)
	ok = ok and k == int(k) and k >= 1 and (c2 - c1) == k * (a2 - a1) and \
		all(r['bytes_per_iter'] == a for r, a in zip(rows, (a0, a1, a2)))
	print('# per iteration: %d x bytes + %d instructions, exactly' % (k, c0 - k * a0))
except Exception as e:
	print('# sweep json:', e)
	ok = False
t(rc('sweep-json') == 0 and ok,
  'under icount the sweep is exact: every sample equal, cycles/iter = k x bytes + c with integer k (bytes_per_iter = arg)')
t(rc('variant-unload') == 0, 'make unload: mybench')
t(rc('variant-load') == 0 and re.search(r'^mybench_old\s+mybench_old\s', parts.get('variant-list', (None, ''))[1], re.M)
  is not None and re.search(r'^mybench\s+mybench\s', parts.get('variant-list', (None, ''))[1], re.M) is not None,
  'the variant and the changed code loaded side by side: kbenchctl list shows routine mybench_old of module mybench_old and mybench of mybench')
try:
	j = json.loads(parts['variant-compare'][1])
	c = j['comparison']
	ra, rb = j['routines'][0], j['routines'][1]
	ma, mb = ra['net_cycles_per_iter']['median'], rb['net_cycles_per_iter']['median']
	print('# variant compare: mybench_old:64 %s, mybench:64 %s cycles/iter, %+.4f%%, %s' %
	      (ma, mb, c['median_rel_diff_pct'], c['verdict']))
	ok = (c['a'] == 'mybench_old' and c['b'] == 'mybench' and ma == 7 and mb == 8 and
	      abs(c['median_rel_diff_pct'] - 100.0 / 7) < 1e-9 and
	      c['rel_diff_ci95_lo_pct'] == c['rel_diff_ci95_hi_pct'] == c['median_rel_diff_pct'] and
	      c['verdict'] == 'slower')
except Exception as e:
	print('# variant compare json:', e)
	ok = False
t(rc('variant-compare') == 0 and ok,
  'under icount compare mybench_old:64 mybench:64 in one interleaved run is exact: 7 vs 8 instructions, +14.29% with a CI of width 0, slower')
t(rc('variant-text') == 0 and 'mybench is 14.3% slower than mybench_old (95% CI 14.3\u201314.3%)' in parts.get('variant-text', (None, ''))[1],
  "the same compare as text: 'mybench is 14.3% slower than mybench_old (95% CI 14.3-14.3%)'")
try:
	j = json.loads(parts['asm'][1])
	corr = j['corrected_cycles_per_iter']['median']
	print('# --asm in the kernel: %s per copy, loop %s per copy, corrected %s' %
	      (j['stats']['median_cycles'], j['asm']['loop_per_copy'], corr))
	ok = (j['side'] == 'kernel' and j['routine'] == 'asm1' and j['asm']['unroll'] == 10 and
	      j['stats']['median_cycles'] == 3.2 and j['asm']['loop_per_copy'] == 0.2 and corr == 3)
except Exception as e:
	print('# asm json:', e)
	ok = False
t(rc('asm') == 0 and ok and parts.get('asm-after', ('0',))[0] == '1',
  'under icount kbenchctl run --asm (3 instructions) --unroll 10 in the kernel: the kept module loaded, exactly 3.2 per copy (the loop 0.2), corrected 3, unloaded after')
try:
	j = json.loads(parts['asm-user'][1])
	print('# --asm --user: %s core cycles per copy, loop %s, ticks per cycle %s' %
	      (j['stats']['median_cycles'], j['asm']['loop_per_copy'], j['core']['ticks_per_cycle']))
	ok = (j['side'] == 'user' and j['stats']['median_cycles'] == 3.2 and
	      j['asm']['loop_per_copy'] == 0.2 and j['core']['ticks_per_cycle'] == 1)
except Exception as e:
	print('# asm-user json:', e)
	ok = False
t(rc('asm-user') == 0 and ok,
  'under icount kbenchctl run --asm (3 instructions) --unroll 10 --user --unit core: the kept object, exactly 1 tick a core cycle, 3.2 core cycles per copy (the loop 0.2)')
t(rc('asm-fault') == 1 and 'faulted in the kernel, caught by its exception table entry' in parts.get('asm-fault', (None, ''))[1] and
  parts.get('asm-fault-after', ('0',))[0] == '1',
  'kbenchctl run --asm with a load from a non-canonical address in the kernel: the #GP caught by the exception table, exit 1 and the message, the module unloaded (and dmesg clean below: no oops)')
t(rc('rmmod') == 0 and parts.get('loaded-after', ('0',))[0] == '1', 'make unload, rmmod kbench: neither left')
t(rc('dmesg') == 1, 'dmesg clean (no warning, BUG, Oops, stall, Call Trace)')
for ok, what in res:
	print(('ok' if ok else 'not ok') + ' - VM ' + what)
EOF
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) tap 0 "${line#ok - }" ;;
		"not ok - "*) tap 1 "${line#not ok - }" "$b/vm.err" ;;
		*) echo "$line" ;;
		esac
	done <"$b/vm.tap"
	[ -s "$b/vm.tap" ] || tap 1 "VM: no result" "$b/vm.err"
fi

echo "1..$n"
[ "$nfail" = 0 ]
exit
}
