# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tests/vm/arch.sh - the foreign architectures of tests/vm/run (--arch),
# sourced by it.  Everything comes from build/cross/ARCH/ (see
# scripts/cross-setup.sh and scripts/cross-build.sh): Debian's kernel for
# ARCH, its busybox-static, and kbench cross-built for it.
#
#   arm64    qemu-system-aarch64 -M virt -cpu max: console ttyAMA0 (PL011);
#            --kernel pnmi: the test bed's pseudo-NMI kernel instead
#            (scripts/pnmi-kernel.sh, built once and cached) on -M
#            virt,gic-version=3 with irqchip.gicv3_pseudo_nmi=1, kbench.ko
#            and the test modules built against its tree into
#            build/cross/arm64/pnmi/kmod
#   ppc64le  qemu-system-ppc64 -M pseries (POWER9): console hvc0 (spapr-vty)
#
# The guest's layout and /init are the x86 ones: COMMAND's stdout and
# stderr are ttyS1 and ttyS2, here ports 2 and 3 of a 4-port PCI 16550 card
# (the 8250 driver numbers its ports from ttyS0 on these machines).
#
# Under -icount shift=0 one instruction is one nanosecond of guest time, so
# a counter at F Hz advances F/1e9 per instruction: arm64's CNTVCT (62.5 MHz
# in qemu's virt machine) once every 16 instructions, the POWER timebase
# (512 MHz) 0.512 times per instruction.  x86's TSC is 1 per instruction.

# arch_setup: after option parsing; sets the kernel and the tools.
arch_setup() {
	local env=$top/build/cross/$arch/env
	if [ ! -f "$env" ]; then
		echo "$prog: $arch: preparing build/cross/$arch (scripts/cross-setup.sh)" >&2
		"$top/scripts/cross-setup.sh" "$arch" >&2 ||
			die "scripts/cross-setup.sh $arch failed"
	fi
	# shellcheck disable=SC1090
	. "$env"
	pnmi_dir=""
	case "$kernel" in
	"" | 6.1 | "$XKVER") ;;
	pnmi)
		[ "$arch" = arm64 ] || die "--kernel pnmi is arm64 only"
		pnmi_dir=$("$top/scripts/pnmi-kernel.sh" --quiet) ||
			vmfail "the pseudo-NMI kernel could not be built (scripts/pnmi-kernel.sh)"
		;;
	*) die "--arch $arch: only Debian's $XKVER (or, arm64, pnmi) is prepared (not '$kernel')" ;;
	esac
	if [ -n "$pnmi_dir" ]; then
		kernel=$(cat "$pnmi_dir/release")
		xvmlinuz=$pnmi_dir/Image
		append="irqchip.gicv3_pseudo_nmi=1${append:+ $append}"
	else
		kernel=$XKVER
		xvmlinuz=$XVMLINUZ
	fi
	qemu_bin=$XQEMU
	case "$arch" in
	arm64) vm_console=ttyAMA0 ;;
	ppc64le) vm_console=hvc0 ;;
	esac
}

# arch_busybox: the target's busybox; applets are listed by the host's
# busybox of the same Debian version (the target's cannot run here).
arch_busybox() {
	busybox_list=$busybox
	busybox=$XBUSYBOX
	[ -x "$busybox" ] || die "$busybox missing (scripts/cross-setup.sh $arch)"
}

# arch_paths: where the cross-built pieces are.
arch_paths() {
	st_out=$top/build/cross/$arch/selftests
	kbenchctl=$top/build/cross/$arch/src/user/kbenchctl
	[ -n "$kmod_dir" ] || xkmod_dir=$top/build/cross/$arch${pnmi_dir:+/pnmi}/kmod
}

arch_build() {
	locked "$top/build/cross/$arch/.build.lock" \
		"$top/scripts/cross-build.sh" --quiet "$arch" ||
		vmfail "cross build for $arch failed"
	[ -n "$pnmi_dir" ] && [ -z "$kmod_dir" ] || return 0
	mkdir -p "$top/build/cross/$arch/pnmi"
	locked "$top/build/cross/$arch/pnmi/.build.lock" quiet_make -C "$top/kmod" \
		KDIR="$pnmi_dir/linux" ARCH="$XKARCH" CROSS_COMPILE="$XCROSS" \
		OUT="$xkmod_dir" KBENCH_TEST_MODULES=m ||
		vmfail "module build for the pseudo-NMI kernel failed"
}

# arch_qemu: the qemu command line (replaces the x86 one).
arch_qemu() {
	local mach cpu_opt
	case "$arch" in
	arm64)
		mach=virt
		# pseudo-NMIs need a GICv3 (virt's default is a GICv2)
		[ -z "$pnmi_dir" ] || mach+=,gic-version=3
		# pauth-impdef: TCG's fast pointer-auth hash (the kernel uses
		# pointer authentication; QARMA would slow every call).
		cpu_opt=${KBENCH_VM_CPU:-max,pauth-impdef=on}
		;;
	ppc64le)
		# TCG implements none of the speculation-control workarounds;
		# say so instead of letting qemu warn.  x-vof: qemu's small
		# Open Firmware instead of SLOF (boots in a fraction of the time).
		mach=pseries,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken
		mach+=,cap-ccf-assist=off,x-vof=on
		cpu_opt=${KBENCH_VM_CPU:-power9}
		;;
	esac
	qemu=("$qemu_bin" -machine "$mach" -accel tcg -cpu "$cpu_opt"
		-smp "$smp_opt" -m "$mem" -display none -monitor none -no-reboot
		-nodefaults -net none
		-kernel "$vmlinuz" -initrd "$run/initramfs.cpio" -append "$cmdline"
		-chardev "file,id=con,path=$run/console"
		-chardev "file,id=out,path=$run/stdout"
		-chardev "file,id=err,path=$run/stderr"
		-chardev null,id=nul0 -chardev null,id=nul3)
	case "$arch" in
	arm64) qemu+=(-serial chardev:con) ;;
	ppc64le)
		qemu+=(-device spapr-vty,chardev=con)
		# VOF leaves the NVRAM blank, which Linux reports with a
		# WARNING; SLOF would format it.  Give it one free partition
		# (signature 0x7f, checksum 0x29, 0x1000 blocks of 16 bytes).
		{ printf '\177\051\020\000wwwwwwwwwwww'
		  head -c $((65536 - 16)) /dev/zero; } >"$run/nvram"
		qemu+=(-drive "if=none,id=nvram,format=raw,file=$run/nvram"
		       -global spapr-nvram.drive=nvram)
		;;
	esac
	qemu+=(-device pci-serial-4x,chardev1=nul0,chardev2=out,chardev3=err,chardev4=nul3)
	[ "$icount" = 1 ] && qemu+=(-icount shift=0,sleep=off)
	return 0
}
