# SPDX-License-Identifier: GPL-2.0
#
# kbench top-level Makefile.
#
#   make            kmod/kbench.ko (+ the example modules) for the running
#                   kernel's headers, else Debian's 6.1 headers; user/kbenchctl
#   make deps       install the Debian packages (scripts/deps.sh; root)
#   make demo       deps, build, boot Debian 6.1 in qemu twice (icount: exact;
#                   plain TCG: host noise) and show what kbench is for
#   make check      deps, lint, unit tests, VM selftests on 6.1, 6.12 and
#                   6.12-rt with and without icount, faults and load, the
#                   same on the debug kernel (KASAN, lockdep, kmemleak,
#                   UBSAN), and arm64 and ppc64le (ARCHS); ends
#                   "N passed, N failed"
#   make check-debug  only the debug kernel's suites (KASAN, lockdep,
#                   kmemleak, UBSAN; built and cached on first use)
#   make lint       checkpatch --strict, W=1 and sparse (scripts/lint.sh)
#   make gen        regenerate the family from its netlink spec with the
#                   kernel's ynl-gen-c: include/uapi/linux/kbench.h,
#                   kmod/kbench_nl_gen.[ch] (scripts/ynl-gen.sh)
#   make install    kbenchctl, man page, bash completion, headers, kbench.pc,
#                   libkbench (PREFIX=/usr/local, DESTDIR), the build kit
#                   for benchmark modules (kbench.mk, kbench's Module.symvers
#                   for KVER), the modules into /lib/modules/KVER/updates
#                   and depmod (not with DESTDIR)
#   make install-lib  only libkbench, its headers, man pages and kbench.pc
#   make install-user  all but the modules and Module.symvers (kbench.ko
#                   from DKMS: dkms.conf keeps its Module.symvers for the kit)
#   make uninstall  remove exactly those files (same PREFIX/DESTDIR/KVER)
#   make sign KEY=key.pem CERT=cert.der   sign kmod/*.ko (sha256, sign-file)
#   make kselftest-install INSTALL_PATH=DIR   the kselftest package: the
#                   kernel's run_kselftest.sh and kselftest/, kselftest-list.txt
#                   (kbench:TEST), DIR/kbench/ (tests, settings, kbenchctl,
#                   modules/ built for KVER); run `./run_kselftest.sh -c kbench`
#                   there as root (scripts/kselftest-install.sh)
#   make clean
#
# Variables: KVER (kernel release to build the module for), KDIR (its build
# tree), VM_KERNEL (kernel the demo boots: 6.1, 6.12, 6.12-rt or a release),
# CHECK_KERNELS / CHECK_MODES / ARCHS (what make check boots).

KVER ?=
KDIR ?=
VM_KERNEL ?= 6.1
CHECK_KERNELS ?= 6.1 6.12 6.12-rt debug
CHECK_MODES ?= icount plain
ARCHS ?= x86_64 arm64 ppc64le

KMOD_ARGS := $(if $(KVER),KVER=$(KVER)) $(if $(KDIR),KDIR=$(KDIR))

all: kmod user

kmod:
	$(MAKE) -C kmod $(KMOD_ARGS)

user:
	$(MAKE) -C user

deps:
	scripts/deps.sh

demo: deps
	$(MAKE) all
	scripts/demo.sh --kernel $(VM_KERNEL)

check: deps
	scripts/check.sh --kernels "$(CHECK_KERNELS)" --modes "$(CHECK_MODES)" \
		--archs "$(ARCHS)"

check-debug: deps
	scripts/check.sh --kernels debug --skip lint,unit,spec,host,dkms,svg,bench,arch

lint:
	scripts/lint.sh

kselftest-install:
	@test -n "$(INSTALL_PATH)" || \
		{ echo "usage: make kselftest-install INSTALL_PATH=DIR [KVER=...] [KDIR=...]" >&2; exit 2; }
	scripts/kselftest-install.sh "$(INSTALL_PATH)" "$(KVER)" "$(KDIR)"

gen:
	scripts/ynl-gen.sh

# ---- install ----------------------------------------------------------------
# kbenchctl, its man page and bash completion, the headers for module authors
# and userspace (with kbench.pc), libkbench, and the modules through the
# kernel's own modules_install into /lib/modules/KVER/updates (then depmod,
# unless staged into DESTDIR), and the build kit for benchmark modules:
# kbench.mk (DATADIR/kbench/) and kbench's Module.symvers for the kernel it
# was built for (LIBDIR/kbench/KVER/).  The kbench headers keep the source
# tree's layout under include/kbench/ so that neither lands in the shared
# <linux/...> namespace:
#   module authors:  include $$(pkg-config --variable=mkfile kbench)
#                    (kbenchctl new NAME writes such a module)
#   userspace:       $$(pkg-config --cflags kbench)  ->  #include <linux/kbench.h>
#   libkbench:       $$(pkg-config --cflags --libs kbench)  ->  #include <kbench.h>
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DATADIR ?= $(PREFIX)/share
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL ?= install
DEPMOD ?= depmod

# The release the module is built for, chosen as kmod/Makefile chooses it.
INST_KVER := $(or $(KVER),$(shell if [ -d /lib/modules/$$(uname -r)/build ]; \
	then uname -r; else ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | \
	sort -V | tail -n1 | sed 's,.*/linux-headers-,,'; fi))
INST_KDIR := $(or $(KDIR),$(if $(wildcard /lib/modules/$(INST_KVER)/build),\
	/lib/modules/$(INST_KVER)/build,/usr/src/linux-headers-$(INST_KVER)))
KBENCH_VERSION := $(shell sed -n 's/.*KBENCH_VERSION[[:space:]]*"\(.*\)".*/\1/p' \
	include/kbench/version.h)
MODULES := kbench kbench_example kbench_measure_example kbench_prims
# What modules_install leaves: the .ko, compressed if the kernel says so.
MOD_INSTALLED = $(foreach m,$(MODULES),$(foreach z,.ko .ko.gz .ko.xz .ko.zst,\
	$(DESTDIR)/lib/modules/$(INST_KVER)/updates/$(m)$(z)))

# LIB_O: where libkbench is built (user/lib by default; the selftests
# stage a cross-built copy elsewhere).
LIB_O ?=
LIB_ARGS = PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) LIBDIR=$(LIBDIR) \
	INCLUDEDIR=$(INCLUDEDIR) MANDIR=$(MANDIR) $(if $(LIB_O),O=$(LIB_O))

install-lib:
	$(MAKE) -C user/lib $(LIB_ARGS) install
	$(INSTALL) -D -m 644 include/uapi/linux/kbench.h \
		$(DESTDIR)$(INCLUDEDIR)/kbench/uapi/linux/kbench.h
	$(INSTALL) -d $(DESTDIR)$(PKGCONFIGDIR)
	sed -e 's,@PREFIX@,$(PREFIX),g' -e 's,@INCLUDEDIR@,$(INCLUDEDIR),g' \
	    -e 's,@LIBDIR@,$(LIBDIR),g' -e 's,@VERSION@,$(KBENCH_VERSION),g' \
	    -e 's,@DATADIR@,$(DATADIR),g' -e 's,@KVER@,$(INST_KVER),g' \
	    kbench.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/kbench.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/kbench.pc

# Everything but the modules: kbenchctl, the headers and the build kit's
# kbench.mk (kbench.ko and its Module.symvers come from `install` or DKMS).
install-user: user install-lib
	$(INSTALL) -D -m 755 user/kbenchctl $(DESTDIR)$(BINDIR)/kbenchctl
	$(INSTALL) -D -m 644 Documentation/kbenchctl.8 \
		$(DESTDIR)$(MANDIR)/man8/kbenchctl.8
	$(INSTALL) -D -m 644 include/linux/kbench.h \
		$(DESTDIR)$(INCLUDEDIR)/kbench/linux/kbench.h
	$(INSTALL) -D -m 644 scripts/kbenchctl-completion.bash \
		$(DESTDIR)$(BASHCOMPDIR)/kbenchctl
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/kbench
	sed -e 's,@MKFILE@,$(DATADIR)/kbench/kbench.mk,g' \
	    -e 's,@KBUILD_INCLUDE@,$(INCLUDEDIR)/kbench,g' \
	    -e 's,@SYMVERSDIR@,$(LIBDIR)/kbench,g' \
	    kbench.mk.in >$(DESTDIR)$(DATADIR)/kbench/kbench.mk
	chmod 644 $(DESTDIR)$(DATADIR)/kbench/kbench.mk

install: all install-user
	$(INSTALL) -D -m 644 kmod/Module.symvers \
		$(DESTDIR)$(LIBDIR)/kbench/$(INST_KVER)/Module.symvers
	@# CONFIG_MODULE_SIG_ALL= : the distribution's signing key is not in
	@# its headers; sign with `make sign` first (the signed .ko is copied).
	$(MAKE) -C $(INST_KDIR) M=$(CURDIR)/kmod KBENCH_INCLUDE=$(CURDIR)/include \
		INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=updates \
		CONFIG_MODULE_SIG_ALL= modules_install
	$(if $(DESTDIR),,$(DEPMOD) -a $(INST_KVER))

uninstall:
	$(MAKE) -C user/lib $(LIB_ARGS) uninstall
	rm -f $(DESTDIR)$(BINDIR)/kbenchctl $(DESTDIR)$(MANDIR)/man8/kbenchctl.8 \
		$(DESTDIR)$(INCLUDEDIR)/kbench/linux/kbench.h \
		$(DESTDIR)$(INCLUDEDIR)/kbench/uapi/linux/kbench.h \
		$(DESTDIR)$(PKGCONFIGDIR)/kbench.pc $(DESTDIR)$(BASHCOMPDIR)/kbenchctl \
		$(DESTDIR)$(DATADIR)/kbench/kbench.mk \
		$(DESTDIR)$(LIBDIR)/kbench/$(INST_KVER)/Module.symvers \
		$(MOD_INSTALLED)
	-rmdir $(DESTDIR)$(DATADIR)/kbench $(DESTDIR)$(LIBDIR)/kbench/$(INST_KVER) \
		$(DESTDIR)$(LIBDIR)/kbench 2>/dev/null
	-rmdir $(DESTDIR)$(INCLUDEDIR)/kbench/uapi/linux \
		$(DESTDIR)$(INCLUDEDIR)/kbench/uapi $(DESTDIR)$(INCLUDEDIR)/kbench/linux \
		$(DESTDIR)$(INCLUDEDIR)/kbench \
		$(DESTDIR)/lib/modules/$(INST_KVER)/updates 2>/dev/null
	$(if $(DESTDIR),,$(DEPMOD) -a $(INST_KVER))

# ---- module signing (Secure Boot) ------------------------------------------
# make sign KEY=mok.priv CERT=mok.der [KVER=...] [SIGN_DIR=kmod]: appends a
# sha256 signature to SIGN_DIR/{kbench,kbench_example,kbench_measure_example,kbench_prims}.ko
# with the kernel's scripts/sign-file (Documentation/kbench.rst, "Secure Boot
# and module signing").  A module that already carries a signature is left
# alone.
SIGN_FILE ?= $(firstword $(wildcard $(INST_KDIR)/scripts/sign-file \
	/usr/src/linux-headers-$(INST_KVER)/scripts/sign-file \
	/usr/lib/linux-kbuild-$(shell echo $(INST_KVER) | cut -d. -f1,2)/scripts/sign-file))
SIGN_HASH ?= sha256
SIGN_DIR ?= kmod

sign: kmod
	@test -n "$(KEY)" -a -n "$(CERT)" || \
		{ echo "usage: make sign KEY=private-key.pem CERT=cert.der" >&2; exit 2; }
	@test -n "$(SIGN_FILE)" || \
		{ echo "make sign: no scripts/sign-file for $(INST_KVER)" >&2; exit 1; }
	@for ko in $(foreach m,$(MODULES),$(SIGN_DIR)/$(m).ko); do \
		if tail -c 28 $$ko | grep -q '~Module signature appended~'; then \
			echo "  already signed: $$ko"; continue; fi; \
		echo "  SIGN    $$ko"; \
		$(SIGN_FILE) $(SIGN_HASH) $(KEY) $(CERT) $$ko || exit 1; \
	done

clean:
	-$(MAKE) -C kmod $(KMOD_ARGS) clean
	-$(MAKE) -C user clean
	-$(MAKE) -C tests/unit clean
	-$(MAKE) -C tests/selftests OUT=$(CURDIR)/build/selftests clean
	rm -rf build

.PHONY: all kmod user deps demo check check-debug lint kselftest-install gen install install-lib install-user \
	uninstall sign clean
