# SPDX-License-Identifier: GPL-2.0
#
# kbench top-level Makefile.
#
#   make            kmod/kbench.ko (+ kbench_example.ko) for the running
#                   kernel's headers, else Debian's 6.1 headers; user/kbenchctl
#   make deps       install the Debian packages (scripts/deps.sh; root)
#   make demo       deps, build, boot Debian 6.1 in qemu and show kbenchctl
#   make check      deps, lint, unit tests, VM selftests on 6.1, 6.12 and
#                   6.12-rt with and without icount, faults and load, and
#                   arm64 and ppc64le (ARCHS); ends "N passed, N failed"
#   make lint       checkpatch --strict, W=1 and sparse (scripts/lint.sh)
#   make clean
#
# Variables: KVER (kernel release to build the module for), KDIR (its build
# tree), VM_KERNEL (kernel the demo boots: 6.1, 6.12, 6.12-rt or a release),
# CHECK_KERNELS / CHECK_MODES / ARCHS (what make check boots).

KVER ?=
KDIR ?=
VM_KERNEL ?= 6.1
CHECK_KERNELS ?= 6.1 6.12 6.12-rt
CHECK_MODES ?= icount plain
ARCHS ?= x86_64 arm64 ppc64le

KMOD_ARGS := $(if $(KVER),KVER=$(KVER)) $(if $(KDIR),KDIR=$(KDIR))

DEMO_CMD := for c in info clocks list "run add_chain"; do \
	echo "==== kbenchctl $$c"; kbenchctl $$c || exit; echo; done

all: kmod user

kmod:
	$(MAKE) -C kmod $(KMOD_ARGS)

user:
	$(MAKE) -C user

deps:
	scripts/deps.sh

demo: deps
	$(MAKE) all
	tests/vm/run --kernel $(VM_KERNEL) -- '$(DEMO_CMD)'

check: deps
	scripts/check.sh --kernels "$(CHECK_KERNELS)" --modes "$(CHECK_MODES)" \
		--archs "$(ARCHS)"

lint:
	scripts/lint.sh

install uninstall:
	@echo "make $@: not implemented yet; on a real machine use:" >&2
	@echo "  make && sudo insmod kmod/kbench.ko && user/kbenchctl run add_chain" >&2
	@exit 1

clean:
	-$(MAKE) -C kmod $(KMOD_ARGS) clean
	-$(MAKE) -C user clean
	-$(MAKE) -C tests/unit clean
	-$(MAKE) -C tests/selftests OUT=$(CURDIR)/build/selftests clean
	rm -rf build

.PHONY: all kmod user deps demo check lint install uninstall clean
