#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The ways kbench gets onto a machine, tested on this one without loading
# anything into its kernel.  Prints TAP.
#
#   install   `make install DESTDIR=...` puts exactly the expected files
#             (kbenchctl, man page, headers, kbench.pc, bash completion,
#             the build kit's kbench.mk and Module.symvers, modules under
#             updates/); a program builds with
#             `pkg-config --cflags kbench`; the completion completes;
#             `make uninstall` removes every file again.
#   sign      `make sign` with a throwaway key (openssl): the signature is
#             appended, names the signer, is sha256, verifies against the
#             module (openssl cms), and a second `make sign` adds nothing.
#   dkms      dkms add/build/install/remove of dkms.conf against Debian's
#             6.1 headers (KVER below; /lib/modules/KVER from the
#             linux-image package); DKMS keeps kbench's Module.symvers, and
#             a module written by `kbenchctl new` with the kit of `make
#             install-user` (staged) builds against the DKMS build; then
#             the DKMS-built modules boot in the 6.1 VM: the kernel
#             autoloads kbench through its genl family alias, kbenchctl (as
#             root) runs modprobe itself when the kernel's autoload is off,
#             and the client module loads, lists its routine and unloads.
#
# Usage: scripts/dkms-test.sh [--no-vm]
# Env:   KBENCH_DKMS_KVER (default: the newest /usr/src/linux-headers-6.1.*-amd64)
# Leaves nothing behind: dkms remove --all, /usr/src/kbench-VERSION and a
# DKMS signing key it made are removed.  Refuses (skips) when kbench is
# already registered with dkms, so it never touches a real installation.
set -uo pipefail
# contains GREP-ARGS...: stdin matches; reads all of it first (with pipefail,
# `cmd | grep -q` fails at random: grep leaves at the first match and cmd
# dies of SIGPIPE writing the rest)
contains() { local in; in=$(cat); grep -q "$@" <<<"$in"; }
{

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
vm=1
[ "${1:-}" = --no-vm ] && vm=0

# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"

tmp=$(mktemp -d)
dkms_src=""
dkms_key_made=0
# shellcheck disable=SC2317  # called by the trap
cleanup() {
	if [ -n "$dkms_src" ]; then
		dkms remove kbench/"$version" --all >/dev/null 2>&1
		rm -rf "$dkms_src"
	fi
	[ "$dkms_key_made" = 1 ] && rm -f /var/lib/dkms/mok.key /var/lib/dkms/mok.pub
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
kver=${KBENCH_DKMS_KVER:-$(ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null |
	sort -V | tail -n1 | sed 's,.*/linux-headers-,,')}

echo "# kbench $version, kernel $kver"
if ! make -s all KVER="$kver" >"$tmp/build.log" 2>&1; then
	tap 1 "make all KVER=$kver" "$tmp/build.log"
	exit 1
fi

# ---- make install / uninstall ----------------------------------------------
dest=$tmp/dest
prefix=/usr/local
make -s install DESTDIR="$dest" KVER="$kver" >"$tmp/install.log" 2>&1
tap $? "make install DESTDIR=... exits 0" "$tmp/install.log"

(cd "$dest" && find . -type f | sed 's,^\./,,' | LC_ALL=C sort) >"$tmp/files"
cat >"$tmp/expected" <<EOF
lib/modules/$kver/updates/kbench.ko
lib/modules/$kver/updates/kbench_example.ko
lib/modules/$kver/updates/kbench_measure_example.ko
lib/modules/$kver/updates/kbench_prims.ko
${prefix#/}/bin/kbenchctl
${prefix#/}/include/kbench.h
${prefix#/}/include/kbench/linux/kbench.h
${prefix#/}/include/kbench/uapi/linux/kbench.h
${prefix#/}/lib/kbench/$kver/Module.symvers
${prefix#/}/lib/libkbench.a
${prefix#/}/lib/libkbench.so.1.0.0
${prefix#/}/lib/pkgconfig/kbench.pc
${prefix#/}/share/bash-completion/completions/kbenchctl
${prefix#/}/share/kbench/kbench.mk
${prefix#/}/share/man/man3/kbench_counter_get.3
${prefix#/}/share/man/man3/kbench_counter_select.3
${prefix#/}/share/man/man3/kbench_cpus_result_free.3
${prefix#/}/share/man/man3/kbench_events_result_free.3
${prefix#/}/share/man/man3/kbench_measure.3
${prefix#/}/share/man/man3/kbench_measure_cpus.3
${prefix#/}/share/man/man3/kbench_measure_events.3
${prefix#/}/share/man/man3/kbench_measure_net_cycles.3
${prefix#/}/share/man/man3/kbench_request_init.3
${prefix#/}/share/man/man3/kbench_result_free.3
${prefix#/}/share/man/man3/libkbench.3
${prefix#/}/share/man/man8/kbenchctl.8
EOF
LC_ALL=C sort -o "$tmp/expected" "$tmp/expected"
diff -u "$tmp/expected" "$tmp/files" >"$tmp/diff"
tap $? "install: exactly the $(wc -l <"$tmp/expected") expected files" "$tmp/diff"
[ "$(readlink "$dest$prefix/lib/libkbench.so")" = libkbench.so.1.0.0 ] &&
	[ "$(readlink "$dest$prefix/lib/libkbench.so.1")" = libkbench.so.1.0.0 ] &&
	objdump -p "$dest$prefix/lib/libkbench.so.1.0.0" | contains 'SONAME *libkbench.so.1$'
tap $? "install: libkbench.so -> libkbench.so.1 (the soname) -> libkbench.so.1.0.0"

[ -x "$dest$prefix/bin/kbenchctl" ] &&
	cmp -s include/uapi/linux/kbench.h "$dest$prefix/include/kbench/uapi/linux/kbench.h" &&
	[ "$(modinfo -F vermagic "$dest/lib/modules/$kver/updates/kbench.ko" | cut -d' ' -f1)" = "$kver" ]
tap $? "install: kbenchctl executable, uapi header intact, module built for $kver"

man -l "$dest$prefix/share/man/man8/kbenchctl.8" 2>"$tmp/man.err" | contains 'KBENCH_NO_AUTOLOAD'
tap $? "install: the man page renders" "$tmp/man.err"
MANPATH=$dest$prefix/share/man man -P cat 3 kbench_measure 2>"$tmp/man3.err" |
	contains 'kbench_measure_net_cycles'
tap $? "install: man 3 kbench_measure finds libkbench(3)" "$tmp/man3.err"

# a userspace program of the ABI, built only from the installed files
cat >"$tmp/abi.c" <<'EOF'
#include <stdio.h>
#include <linux/kbench.h>
int main(void)
{
	printf("%s %d %d\n", KBENCH_GENL_NAME, KBENCH_GENL_VERSION, KBENCH_CMD_RUN);
	return 0;
}
EOF
pc() { PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=$dest$prefix/lib/pkgconfig \
	PKG_CONFIG_SYSROOT_DIR=$dest pkg-config "$@"; }
cflags=$(pc --cflags kbench 2>"$tmp/pc.err" | sed "s/ *$//")
# shellcheck disable=SC2086  # the flags are words
{ [ "$cflags" = "-I$dest$prefix/include/kbench/uapi -I$dest$prefix/include" ] &&
	gcc -Wall -Wextra -Werror $cflags -o "$tmp/abi" "$tmp/abi.c" &&
	"$tmp/abi" | contains '^kbench 1 '; } >>"$tmp/pc.err" 2>&1
tap $? "kbench.pc: Cflags '$cflags' build a program including <linux/kbench.h>" "$tmp/pc.err"

# a libkbench program from the installed files only, static and shared
cat >"$tmp/lib.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include <kbench.h>
static void loop(unsigned int n, void *data)
{
	volatile unsigned int i;

	(void)data;
	for (i = 0; i < n; i++)
		;
}
int main(void)
{
	double t = kbench_measure_net_cycles(loop, 100, NULL, 50);

	printf("%f\n", t);
	return !(isfinite(t) && t > 0);
}
EOF
libs=$(pc --libs kbench 2>>"$tmp/pc.err" | sed "s/ *$//")
# shellcheck disable=SC2046,SC2086  # the flags are words
{ [ "$libs" = "-L$dest$prefix/lib -lkbench" ] &&
	gcc -Wall -Wextra -Werror $cflags -static -o "$tmp/lib-static" \
		"$tmp/lib.c" $(pc --static --libs kbench) &&
	"$tmp/lib-static" &&
	gcc -Wall -Wextra -Werror $cflags -o "$tmp/lib-shared" "$tmp/lib.c" $libs &&
	LD_LIBRARY_PATH=$dest$prefix/lib "$tmp/lib-shared" &&
	LD_LIBRARY_PATH=$dest$prefix/lib ldd "$tmp/lib-shared" |
		contains 'libkbench.so.1 =>'
} >>"$tmp/pc.err" 2>&1
tap $? "kbench.pc: Libs '$libs' link a libkbench program statically and shared; both run" "$tmp/pc.err"

# the completion, sourced as bash-completion would, on the installed binary
# (PATH: the installed kbenchctl; no module here, so built-in routine names)
comp() { # WORDS...: print COMPREPLY for the last word
	PATH=$dest$prefix/bin:$PATH bash -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_kbenchctl; printf "%s\n" "${COMPREPLY[@]}"' \
		comp "$dest$prefix/share/bash-completion/completions/kbenchctl" "$@"
}
c1=$(comp kbenchctl "" | tr '\n' ' ')
c2=$(comp kbenchctl run --s | tr '\n' ' ')
c3=$(comp kbenchctl compare add_chain m | tr '\n' ' ')
c4=$(comp kbenchctl help co | tr '\n' ' ')
echo "# completions: '' -> $c1; run --s -> $c2; compare add_chain m -> $c3; help co -> $c4"
# expected: the subcommands (.SS) of the installed man page, and the --s*
# options of its `kbenchctl run` synopsis: a source independent of the help
# text the completion reads
man8=$dest$prefix/share/man/man8/kbenchctl.8
x1=$(sed -n 's/^\.SS \([a-z][a-z-]*\)$/\1/p' "$man8" | sort | tr '\n' ' ')
x2=$(sed -n '/^\.B kbenchctl run$/,/^\.\(br\|PP\)$/p' "$man8" |
	sed 's/\\f[BIRP]//g; s/\\//g' | grep -o -- '--s[a-z-]*' | sort -u | tr '\n' ' ')
echo "# expected from kbenchctl.8: subcommands $x1; run --s -> $x2"
[ -n "$x1" ] && [ -n "$x2" ] &&
	[ "$(printf '%s\n' $c1 | sort | tr '\n' ' ')" = "$x1" ] &&
	[ "$(printf '%s\n' $c2 | sort | tr '\n' ' ')" = "$x2" ] &&
	[ "$c3" = "mul_chain " ] && [ "$c4" = "compare " ]
tap $? "bash completion: subcommands, options (from 'kbenchctl help'), built-in routine names"
# with a module loaded: the names of 'kbenchctl --json list' (a stand-in
# kbenchctl answers it as the real one does in the VM)
mkdir -p "$tmp/fakebin"
cat >"$tmp/fakebin/kbenchctl" <<EOF
#!/bin/sh
[ "\$*" = "--json list" ] || exec "$dest$prefix/bin/kbenchctl" "\$@"
[ "\$KBENCH_NO_AUTOLOAD" = 1 ] || exit 3
printf '[\n  {\n    "name": "foo",\n    "module": "kbench_example"\n  },\n  {\n    "name": "foobar",\n    "module": "kbench_example"\n  }\n]\n'
EOF
chmod +x "$tmp/fakebin/kbenchctl"
c5=$(comp "$tmp/fakebin/kbenchctl" run f | tr '\n' ' ')
echo "# completions with a module: run f -> $c5"
[ "$c5" = "foo foobar " ]
tap $? "bash completion: routine names from 'kbenchctl --json list', never autoloading"

make -s uninstall DESTDIR="$dest" KVER="$kver" >"$tmp/uninstall.log" 2>&1 &&
	[ -z "$(find "$dest" -type f -o -type l)" ] &&
	[ ! -e "$dest$prefix/include/kbench" ]
tap $? "make uninstall removes every installed file" "$tmp/uninstall.log"

# ---- make sign ---------------------------------------------------------------
sd=$tmp/sign
mkdir -p "$sd"
cp kmod/kbench.ko kmod/kbench_example.ko kmod/kbench_measure_example.ko kmod/kbench_prims.ko "$sd/"
if ! command -v openssl >/dev/null; then
	for t in "make sign" "sign: magic" "sign: signer" "sign: verifies" \
		"sign: content" "sign: not twice" "sign: usage"; do
		skip "$t" "openssl not installed"
	done
elif openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 -sha256 \
	-subj "/CN=kbench throwaway test key/" -outform DER \
	-keyout "$sd/key.pem" -out "$sd/cert.der" >"$tmp/openssl.log" 2>&1; then
	make -s sign KVER="$kver" KEY="$sd/key.pem" CERT="$sd/cert.der" SIGN_DIR="$sd" \
		>"$tmp/sign.log" 2>&1
	tap $? "make sign KEY=... CERT=... exits 0" "$tmp/sign.log"
	[ "$(tail -c 28 "$sd/kbench.ko")" = "~Module signature appended~" ] &&
		[ "$(tail -c 28 "$sd/kbench_example.ko")" = "~Module signature appended~" ] &&
		[ "$(tail -c 28 "$sd/kbench_measure_example.ko")" = "~Module signature appended~" ]
	tap $? "sign: '~Module signature appended~' ends all three modules"
	[ "$(modinfo -F signer "$sd/kbench.ko")" = "kbench throwaway test key" ] &&
		[ "$(modinfo -F sig_hashalgo "$sd/kbench.ko")" = sha256 ]
	tap $? "sign: modinfo names the signer, hash sha256"
	# layout: module | PKCS#7 | struct module_signature (12 bytes, sig_len
	# big-endian last) | magic (28 bytes)
	python3 - "$sd/kbench.ko" "$sd" <<'EOF' >"$tmp/cms.log" 2>&1 &&
import struct, sys
d = open(sys.argv[1], 'rb').read()
siglen = struct.unpack('>I', d[-28 - 4:-28])[0]
end = len(d) - 28 - 12
open(sys.argv[2] + '/sig.p7', 'wb').write(d[end - siglen:end])
open(sys.argv[2] + '/content', 'wb').write(d[:end - siglen])
EOF
	openssl x509 -inform DER -in "$sd/cert.der" -out "$sd/cert.pem" >>"$tmp/cms.log" 2>&1 &&
		openssl cms -verify -binary -noverify -inform DER -in "$sd/sig.p7" \
			-content "$sd/content" -certfile "$sd/cert.pem" -out /dev/null >>"$tmp/cms.log" 2>&1
	tap $? "sign: the signature verifies against the module with the certificate" "$tmp/cms.log"
	cmp -s "$sd/content" kmod/kbench.ko
	tap $? "sign: the signed content is the unsigned module, unchanged"
	size=$(stat -c %s "$sd/kbench.ko")
	make -s sign KVER="$kver" KEY="$sd/key.pem" CERT="$sd/cert.der" SIGN_DIR="$sd" \
		>"$tmp/sign2.log" 2>&1 && grep -q 'already signed' "$tmp/sign2.log" &&
		[ "$(stat -c %s "$sd/kbench.ko")" = "$size" ]
	tap $? "sign: a signed module is not signed twice" "$tmp/sign2.log"
	make -s sign KVER="$kver" SIGN_DIR="$sd" >"$tmp/sign3.log" 2>&1
	[ $? = 2 ] && grep -q 'usage: make sign KEY=' "$tmp/sign3.log"
	tap $? "sign: without KEY/CERT, a usage message and status 2" "$tmp/sign3.log"
else
	tap 1 "openssl: make a throwaway signing key" "$tmp/openssl.log"
fi

# ---- dkms ----------------------------------------------------------------------
dkms_built_for() { # KVER MODULE...: dkms's build of each is for KVER
	local k=$1 m ko
	shift
	for m in "$@"; do
		ko=$(ls "/var/lib/dkms/kbench/$version/$k/$(uname -m)/module/$m.ko"* \
			2>/dev/null | head -n1)
		[ -n "$ko" ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$k" ] ||
			return 1
	done
}
dkms_skip() {
	local t
	for t in "dkms add" "dkms build" "dkms install" "kit: a module against the DKMS build" \
		"VM: modules from dkms" "VM: the kit's module" "dkms remove --all"; do
		skip "$t" "$1"
	done
}
exec 9>/run/lock/kbench-dkms-test.lock 2>/dev/null || exec 9>"$tmp/lock"
if [ "$(id -u)" != 0 ]; then
	dkms_skip "needs root"
elif ! command -v dkms >/dev/null; then
	dkms_skip "dkms not installed (scripts/deps.sh)"
elif [ ! -d "/lib/modules/$kver/kernel" ]; then
	dkms_skip "/lib/modules/$kver missing (linux-image-$kver)"
elif ! flock -w 600 9; then
	dkms_skip "another dkms test holds the lock"
elif dkms status kbench 2>/dev/null | contains .; then
	dkms_skip "kbench is already registered with dkms: $(dkms status kbench | head -n1)"
elif [ -e "/usr/src/kbench-$version" ]; then
	dkms_skip "/usr/src/kbench-$version exists and is not ours"
else
	[ -e /var/lib/dkms/mok.key ] || dkms_key_made=1
	# the source tree as a release would ship it: dkms.conf, kmod/, include/
	st=$tmp/kbench-$version
	# (kmod/Makefile's copy lists the module's sources, subfolders
	# included, the same list an out-of-tree build copies)
	mkdir -p "$st"
	cp dkms.conf "$st/"
	make -s -C kmod copy OUT="$st/kmod" >"$tmp/dkms-copy.log" 2>&1 ||
		cat "$tmp/dkms-copy.log" >&2
	cp kmod/Makefile kmod/dkms-post-build.sh "$st/kmod/"
	cp -r include "$st/"
	dkms_src=/usr/src/kbench-$version
	dkms add "$st" >"$tmp/dkms-add.log" 2>&1 &&
		dkms status kbench/"$version" | contains ': added'
	tap $? "dkms add: kbench/$version added from $dkms_src" "$tmp/dkms-add.log"

	dkms build kbench/"$version" -k "$kver" >"$tmp/dkms-build.log" 2>&1 &&
		dkms status kbench/"$version" -k "$kver" | contains ': built' &&
		dkms_built_for "$kver" kbench kbench_example kbench_measure_example kbench_prims
	tap $? "dkms build -k $kver: kbench.ko and the example modules for $kver" "$tmp/dkms-build.log"

	dkms install kbench/"$version" -k "$kver" >"$tmp/dkms-install.log" 2>&1 &&
		dkms status kbench/"$version" -k "$kver" | contains ': installed' &&
		[ "$(modinfo -k "$kver" -F filename kbench)" = "/lib/modules/$kver/updates/dkms/kbench.ko" ] &&
		grep -q '^updates/dkms/kbench_example.ko: updates/dkms/kbench.ko' \
			"/lib/modules/$kver/modules.dep"
	tap $? "dkms install: in /lib/modules/$kver/updates/dkms, depmod knows both" "$tmp/dkms-install.log"

	# the build kit against the DKMS build: `make install-user` (staged;
	# no modules, no Module.symvers of its own), `kbenchctl new mybench`
	# with its pkg-config, built for $kver: kbench.mk finds the
	# Module.symvers that dkms.conf's POST_BUILD kept
	ud=$tmp/udest
	client=$tmp/client
	mkdir -p "$client"
	kit() { PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR=$ud$prefix/lib/pkgconfig \
		PKG_CONFIG_SYSROOT_DIR=$ud "$@"; }
	{ [ -f "/var/lib/dkms/kbench/kernel-$kver-$(uname -m)/Module.symvers" ] &&
		make -s install-user DESTDIR="$ud" KVER="$kver" &&
		[ -f "$ud$prefix/share/kbench/kbench.mk" ] && [ ! -e "$ud$prefix/lib/kbench" ] &&
		[ ! -e "$ud/lib/modules" ] &&
		(cd "$client" && kit "$ud$prefix/bin/kbenchctl" new mybench) &&
		kit make -C "$client/mybench" KDIR="/lib/modules/$kver/build" W=1 &&
		[ "$(modinfo -F vermagic "$client/mybench/mybench.ko" | cut -d' ' -f1)" = "$kver" ]
	} >"$tmp/kit.log" 2>&1 && ! grep -i -q warning "$tmp/kit.log"
	tap $? "kit: DKMS keeps Module.symvers; kbenchctl new mybench with the kit of make install-user builds against it for $kver (W=1, no warning)" "$tmp/kit.log"
	client_ko=()
	[ -f "$client/mybench/mybench.ko" ] && client_ko=(--add "$client/mybench/mybench.ko")

	if [ "$vm" = 0 ] || [ "$(uname -m)" != x86_64 ]; then
		skip "VM: modules from dkms" "--no-vm"
		skip "VM: the kit's module" "--no-vm"
	else
		# In the guest: install the DKMS-built modules where modprobe looks,
		# then (1) the kernel loads kbench on the family lookup through
		# MODULE_ALIAS_GENL_FAMILY; (2) with the kernel's autoload off,
		# kbenchctl runs modprobe itself and says so.
		# shellcheck disable=SC2016  # expanded in the guest
		guest='m=/lib/modules/$(uname -r)
mkdir -p $m/updates/dkms && cp /lib/kbench/*.ko $m/updates/dkms/ && depmod || exit 3
KBENCH_NO_AUTOLOAD=1 kbenchctl list >/tmp/o 2>&1; echo "alias rc=$?"
grep -q "^add_chain " /tmp/o && echo "alias listed add_chain"
rmmod kbench || exit 3
echo /bin/false >/proc/sys/kernel/modprobe
kbenchctl info >/tmp/o 2>/tmp/e; echo "modprobe rc=$?"
sed "s/^/stderr: /" /tmp/e
grep "^version:" /tmp/o
grep -q "^kbench " /proc/modules && echo "kbench loaded"
insmod /extra/mybench.ko && echo "client loaded"
kbenchctl list | grep -q "^mybench *mybench *bytes 1..1M (256)" && echo "client listed"
rmmod mybench && echo "client unloaded"'
		tests/vm/run --kernel "$kver" --no-load --timeout 300 \
			--kmod-dir "/lib/modules/$kver/updates/dkms" "${client_ko[@]}" -- "$guest" \
			>"$tmp/vm.log" 2>&1
		rc=$?
		sed 's/^/# vm: /' "$tmp/vm.log" | grep -v '^# vm: kernel:' | tail -n 12
		[ "$rc" = 0 ] && grep -qx 'alias rc=0' "$tmp/vm.log" &&
			grep -qx 'alias listed add_chain' "$tmp/vm.log" &&
			grep -qx 'modprobe rc=0' "$tmp/vm.log" &&
			grep -qx 'stderr: kbenchctl: loading the kbench module' "$tmp/vm.log" &&
			grep -qx "version:          $version" "$tmp/vm.log" &&
			grep -qx 'kbench loaded' "$tmp/vm.log"
		tap $? "VM $kver: DKMS-built kbench autoloads (family alias) and kbenchctl runs modprobe as root"
		grep -qx 'client loaded' "$tmp/vm.log" && grep -qx 'client listed' "$tmp/vm.log" &&
			grep -qx 'client unloaded' "$tmp/vm.log"
		tap $? "VM $kver: the kit's module built against the DKMS build loads, lists its routine and unloads"
	fi

	dkms remove kbench/"$version" --all >"$tmp/dkms-remove.log" 2>&1 &&
		! dkms status kbench | contains . &&
		[ ! -e "/lib/modules/$kver/updates/dkms/kbench.ko" ] &&
		! grep -q kbench "/lib/modules/$kver/modules.dep"
	tap $? "dkms remove --all: no kbench left in dkms or /lib/modules/$kver" "$tmp/dkms-remove.log"
	rm -rf "$dkms_src"
	dkms_src=""
fi

echo "1..$n"
[ "$nfail" = 0 ]
exit
}
