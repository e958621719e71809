#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/intree.sh [--built] KSRC [OUTDIR]: apply kbench to a kernel source
# tree as CONFIG_KBENCH and write the change as a `git format-patch` series.
# --built: KSRC holds a build's outputs (scripts/builtin-kernel.sh reusing
# a built tree): the series takes only the files this script adds or
# changes.
#
#   1/4 uapi: the netlink family's header and YNL spec
#       include/uapi/linux/kbench.h, Documentation/netlink/specs/kbench.yaml,
#       the MAINTAINERS entry (each patch adds its files to it)
#   2/4 kernel: kbench itself
#       kernel/kbench/ (kmod/*.[ch], a Makefile from kmod/Kbuild),
#       include/linux/kbench.h, include/kbench/ (the engine shared with
#       userspace), CONFIG_KBENCH in lib/Kconfig.debug ("Kernel Testing and
#       Coverage"), kernel/Makefile, MAINTAINERS
#   3/4 selftests: tools/testing/selftests/kbench/ on lib.mk, in TARGETS;
#       the tests from tests/selftests/Makefile's lists, but the ones that
#       need kbenchctl or libkbench (userspace of this repository)
#   4/4 Documentation/dev-tools/kbench.rst and its index entry
#
# KSRC is modified: committed into its git history (a tree that is not a
# git repository gets one, its current state as the first commit).  The
# series goes to OUTDIR (default build/intree-patches); commit messages
# carry a Signed-off-by placeholder to be replaced by the sender's own
# (KBENCH_SIGNOFF="Name <mail>" sets it).
# Exit status: 0 done, 1 failed, 2 usage.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
prog=intree.sh
die() { echo "$prog: $*" >&2; exit "${2:-1}"; }

built=0
if [ "${1:-}" = --built ]; then
	built=1
	shift
fi
ksrc=${1:-}
[ -n "$ksrc" ] && [ -f "$ksrc/Makefile" ] && [ -f "$ksrc/lib/Kconfig.debug" ] ||
	die "usage: scripts/intree.sh [--built] KSRC [OUTDIR] (KSRC: a kernel source tree)" 2
ksrc=$(cd "$ksrc" && pwd)
out=${2:-$top/build/intree-patches}
signoff=${KBENCH_SIGNOFF:-"REPLACE ME <replace.me@example.org>"}
in=$top/scripts/intree

# maint_add PATH: an F: line in the KBENCH entry of MAINTAINERS, in order
maint_add() {
	python3 - "$ksrc/MAINTAINERS" "$1" <<'PY'
import sys
path, f = sys.argv[1], sys.argv[2]
lines = open(path).read().split("\n")
i = lines.index("KBENCH MICRO-BENCHMARK HARNESS")
j = i
while lines[j]:
    j += 1
body = lines[i + 1:j]
files = sorted([l for l in body if l.startswith("F:\t")] + ["F:\t" + f])
lines[i + 1:j] = [l for l in body if not l.startswith("F:\t")] + files
open(path, "w").write("\n".join(lines))
PY
}

g() { git -C "$ksrc" "$@"; }
# add -f: Debian's linux-source ignores everything at its top level
# The author is the Signed-off-by identity: checkpatch wants the author's
# own sign-off.  Replace both before sending.
gcommit() { # subject body-file
	if [ "$built" = 1 ]; then
		# the files that were not there when it started (not the
		# build's outputs, which Debian's .gitignore hides as well),
		# and the tracked ones it changed
		tree_files | LC_ALL=C comm -13 "$msgs/before" - |
			g add -f --pathspec-from-file=-
		g add -u
	else
		g add -A -f
	fi
	g -c user.name="${signoff% <*}" -c user.email="$(echo "$signoff" | sed 's/.*<\(.*\)>.*/\1/')" \
		commit -q -F - <<-MSG
	$1

	$(cat "$2")

	Signed-off-by: $signoff
	MSG
}

if [ ! -d "$ksrc/.git" ]; then
	g init -q
	g add -A -f
	g -c user.name="kbench intree.sh" -c user.email="kbench@localhost" \
		commit -q -m "base: $(make -s -C "$ksrc" kernelversion 2>/dev/null || echo source)"
fi
if [ "$built" = 1 ]; then
	[ -z "$(g status --porcelain)" ] || die "$ksrc has uncommitted changes"
else
	[ -z "$(g status --porcelain --ignored)" ] || die "$ksrc has uncommitted or build files (they would enter the series; --built takes only what this script adds or changes)"
fi
[ ! -e "$ksrc/kernel/kbench" ] || die "$ksrc already has kernel/kbench"
base=$(g rev-parse HEAD)
msgs=$(mktemp -d)
trap 'rm -rf "$msgs"' EXIT
# --built: what the tree holds before the series (gcommit adds the rest)
tree_files() { (cd "$ksrc" && find . -path ./.git -prune -o -type f -print | LC_ALL=C sort); }
[ "$built" = 0 ] || tree_files >"$msgs/before"

# ---- 1: uapi and spec ---------------------------------------------------------
install -D -m 644 "$top/include/uapi/linux/kbench.h" "$ksrc/include/uapi/linux/kbench.h"
install -D -m 644 "$top/Documentation/netlink/specs/kbench.yaml" \
	"$ksrc/Documentation/netlink/specs/kbench.yaml"
# MAINTAINERS: the entry, with what each patch adds
python3 - "$ksrc/MAINTAINERS" <<'PY'
import sys
path = sys.argv[1]
s = open(path).read()
entry = """KBENCH MICRO-BENCHMARK HARNESS
M:	REPLACE ME <replace.me@example.org>
S:	Maintained
F:	Documentation/netlink/specs/kbench.yaml
F:	include/uapi/linux/kbench.h

"""
anchor = "\nKCONFIG\n"
if anchor not in s:
    sys.exit("MAINTAINERS: no KCONFIG entry to insert before")
open(path, 'w').write(s.replace(anchor, "\n" + entry + "KCONFIG\n", 1))
PY
cat >"$msgs/1" <<'MSG'
Add the generic netlink family of kbench, a harness that measures kernel
code in CPU counter ticks with interrupts off: its YNL spec and the uapi
header it describes.  Attributes are numbered from 1 and only ever
appended; every value is 32 or 64 bits wide and every integer attribute
is bounded by the family's policy.

The spec is the single description of the family: the kernel's policy
tables and the selftests' attribute tables are generated from it with
tools/net/ynl/ynl-gen-c.py.
MSG
gcommit "uapi: add the kbench generic netlink family" "$msgs/1"

# ---- 2: the core --------------------------------------------------------------
mkdir -p "$ksrc/kernel/kbench" "$ksrc/include/kbench"
# (not the *.mod.c that an out-of-tree build of kmod/ leaves there, nor
# the test bed's injected delays, which only its builds compile)
for f in "$top"/kmod/*.c "$top"/kmod/*.h; do
	case "$f" in *.mod.c|*/kbench_fault.c) continue ;; esac
	install -m 644 "$f" "$ksrc/kernel/kbench/"
done
install -m 644 "$top/include/linux/kbench.h" "$ksrc/include/linux/kbench.h"
# the engine's headers and schema.h (the X-macro list of the result's
# fields that kbench_schema.c expands)
for f in "$top"/include/kbench/*.h; do
	install -m 644 "$f" "$ksrc/include/kbench/"
done
# In a kernel tree userspace (the selftests) has the uapi header as
# <linux/kbench.h> from usr/include (headers_install), the kernel as
# <uapi/linux/kbench.h>; the relative include serves the installed
# libkbench layout only, and would bring the header in twice.
python3 - "$ksrc/include/kbench/world.h" <<'PY'
import sys
path = sys.argv[1]
s = open(path).read()
old = '#include "../uapi/linux/kbench.h"\n'
if old not in s:
    sys.exit("include/kbench/world.h: no relative uapi include")
s = s.replace(old, "#ifdef __KERNEL__\n#include <uapi/linux/kbench.h>\n#else\n"
              "#include <linux/kbench.h>\n#endif\n", 1)
open(path, "w").write(s)
PY
# kmod/Kbuild without the out-of-tree parts: the include path of the
# engine headers (in-tree they are include/kbench/), the examples and the
# test bed's modules.
{
	echo "# SPDX-License-Identifier: GPL-2.0"
	sed -n '/^# Kernel API feature tests/,/^$/p' "$top/kmod/Kbuild"
	echo "ccflags-y += -I\$(src)"
	echo
	echo "obj-\$(CONFIG_KBENCH) += kbench.o"
	sed -n '/^kbench-y :=/,/^kbench_example-y/p' "$top/kmod/Kbuild" | sed '$d'
} >"$ksrc/kernel/kbench/Makefile"
grep -q '^kbench-y :=' "$ksrc/kernel/kbench/Makefile" || die "kmod/Kbuild: no kbench-y list"
# kernel/Makefile: next to the other obj-$(CONFIG_...) += dir/ lines
sed -i '0,/^obj-\$(CONFIG_KCSAN) += kcsan\//s//&\nobj-$(CONFIG_KBENCH) += kbench\//' \
	"$ksrc/kernel/Makefile"
grep -q 'CONFIG_KBENCH' "$ksrc/kernel/Makefile" || die "kernel/Makefile: no anchor (obj-\$(CONFIG_KCSAN))"
for f in include/kbench/ include/linux/kbench.h kernel/kbench/; do maint_add "$f"; done
# lib/Kconfig.debug: first in "Kernel Testing and Coverage", after KUnit
python3 - "$ksrc/lib/Kconfig.debug" "$in/Kconfig" <<'PY'
import sys
path, frag = sys.argv[1], open(sys.argv[2]).read()
s = open(path).read()
anchor = 'menu "Kernel Testing and Coverage"\n\nsource "lib/kunit/Kconfig"\n\n'
if anchor not in s:
    sys.exit('lib/Kconfig.debug: no "Kernel Testing and Coverage" menu with KUnit')
open(path, 'w').write(s.replace(anchor, anchor + frag, 1))
PY
cat >"$msgs/2" <<'MSG'
kbench answers one question as exactly as the hardware allows: how many
cycles does a piece of kernel code take, with nothing else on the CPU.
refscale and locktorture measure fixed primitives under load; kbench
measures any routine a module registers, sample by sample: each sample
is one window with preemption and interrupts disabled on a chosen CPU,
timed with the CPU's own counter (TSC, CNTVCT, timebase) so that the
counter reads and the call cancel out.  Suspicious samples (NMIs, CPU
changes, a counter going backwards, a stretched reference span) are
flagged, excluded and counted; the summary is integer only, and
statistics are left to userspace.

Every window is bounded by max_window_us (kbench.max_window_us= on the
command line when built in), and the bound is checked before a window
can break it; routine owners are pinned during a run and CPU hotplug
never waits for routine code.  Measuring needs CAP_PERFMON or
CAP_SYS_ADMIN.  Modules register routines with kbench_register_routine()
or measure their own code with kbench_measure(); both are exported, so
they work against a built-in kbench as against kbench.ko.

The sampling engine lives in include/kbench/: self-contained headers
that userspace compiles too, so that kernel and userspace timings of the
same loop use one method.
MSG
gcommit "kernel: add kbench, cycle-exact micro-benchmarks with interrupts off" "$msgs/2"

# ---- 3: selftests ---------------------------------------------------------------
st=$ksrc/tools/testing/selftests/kbench
mkdir -p "$st/modules"
lists=$(make -s --no-print-directory -C "$top/tests/selftests" print-lists)
# what needs this repository's userspace (kbenchctl, libkbench) stays out
drop="kbench_lib_test kbench_cli_test.sh kbench_event_cli_test.sh kbench_env_test.sh kbench_compare_test.sh"
drop="$drop kbench_window_test.sh kbench_hazard_test.sh kbench_cpus_test.sh kbench_nmi_test.sh kbench_pnmi_test.sh"
drop="$drop kbench_setup_mem_test.sh kbench_core_test.sh kbench_asm_test.sh kbench_abort_test.sh run.sh"
for l in $drop; do lists=$(echo "$lists" | sed "s/ $l\b//"); done
# the modules the tests load (kbench_example, kbench_setup_test,
# kbench_atomic_test), built
# against the kernel by lib.mk's TEST_GEN_MODS_DIR into modules/
lists=$(printf '%s\nTEST_GEN_MODS_DIR := modules\n' "$lists")
awk -v lists="$lists" '$0 == "@TESTLISTS@" { print lists; next } { print }' \
	"$in/selftests.mk" >"$st/Makefile"
for f in $(make -s --no-print-directory -C "$top/tests/selftests" print-sources); do
	case " $drop " in *" $(basename "$f" .c) "*|*" $(basename "$f") "*) continue ;; esac
	cp -p "$f" "$st/"
done
install -m 644 "$top/kmod/examples/kbench_example.c" "$top/kmod/tests/kbench_setup_test.c" \
	"$top/kmod/tests/kbench_atomic_test.c" "$st/modules/"
install -m 644 "$in/modules.mk" "$st/modules/Makefile"
printf '%s\n' kbench_nl_tables.c kbench_nl_tables.h kbench-fuzz $(echo "$lists" |
	sed -n 's/^TEST_GEN_PROGS :=//p') | sed '/^$/d' | sort -u >"$st/.gitignore"
sed -i '0,/^TARGETS += kcmp$/s//TARGETS += kbench\n&/' "$ksrc/tools/testing/selftests/Makefile"
grep -q '^TARGETS += kbench$' "$ksrc/tools/testing/selftests/Makefile" ||
	die "tools/testing/selftests/Makefile: no anchor (TARGETS += kcmp)"
maint_add tools/testing/selftests/kbench/
cat >"$msgs/3" <<'MSG'
Add the kselftests of kbench: the generic netlink interface (every
rejection checked for its errno and its extended ACK message), the
sampling method, concurrency, CPU hotplug, the in-kernel API through a
test module, and a netlink fuzzer run as root and unprivileged.  The
attribute tables the tests and the fuzzer use are generated from the
family's YNL spec at build time.

The first test loads kbench.ko unless kbench is built in or already
loaded, and the last unloads it again.  Assertions of exact instruction
counts hold only where one counter tick is one instruction (qemu
-icount); they run when kbench_icount=1 is on the kernel command line or
KBENCH_EXACT=1 is set, and skip otherwise, as tests that need several
CPUs or a PMU skip without them.
MSG
gcommit "selftests: kbench: add netlink, method and fuzz tests" "$msgs/3"

# ---- 4: documentation -----------------------------------------------------------
install -m 644 "$in/kbench.rst" "$ksrc/Documentation/dev-tools/kbench.rst"
sed -i '0,/^   kcov$/s//   kbench\n&/' "$ksrc/Documentation/dev-tools/index.rst"
grep -q '^   kbench$' "$ksrc/Documentation/dev-tools/index.rst" ||
	die "Documentation/dev-tools/index.rst: no anchor (kcov)"
maint_add Documentation/dev-tools/kbench.rst
cat >"$msgs/4" <<'MSG'
Describe what kbench measures and how (the two-window difference that
cancels fixed costs, flagged samples), its safety bounds, how it is
configured built in and as a module, how modules register routines, and
how its selftests run, including which assertions need an
instruction-counting emulator.
MSG
gcommit "Documentation: dev-tools: add kbench" "$msgs/4"

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
g format-patch -q -o "$out" "$base..HEAD" >/dev/null
ls "$out"/*.patch
