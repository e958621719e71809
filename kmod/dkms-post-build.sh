#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dkms.conf's POST_BUILD: keep kbench's Module.symvers next to the modules
# DKMS saved for this kernel, where kbench.mk (the build kit of benchmark
# modules) finds it through the kernel-KVER-ARCH link:
#   /var/lib/dkms/kbench/VERSION/KVER/ARCH/Module.symvers
# DKMS runs it in /var/lib/dkms/kbench/VERSION/build; `dkms remove` deletes
# the file with the rest of KVER/ARCH.
# Usage: kmod/dkms-post-build.sh KVER ARCH
set -eu
kver=${1:?usage: dkms-post-build.sh KVER ARCH}
arch=${2:?usage: dkms-post-build.sh KVER ARCH}
cp kmod/Module.symvers "../$kver/$arch/Module.symvers"
