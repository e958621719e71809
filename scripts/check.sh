#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The body of `make check`: lint, unit tests, the netlink spec checks (the
# generated family is what the spec generates, the uapi only grows) and the
# VM selftests on every kernel, with and without icount, and on the debug
# kernel (KASAN, lockdep, kmemleak, UBSAN: tests/vm/debug-check.sh around
# the selftests and the stress suite, trimmed).  Every suite prints
# TAP; this script streams it, keeps a log per suite under build/check/, and
# ends with exactly one summary line:
#     N passed, N failed, N skipped
# A suite that exits non-zero without a `not ok` line of its own, or prints
# no TAP line at all, is counted as one failure (it crashed).  KTAP nests:
# the kselftest runner prints one result per test program and each
# program's subtests as "# ok N ..." under it; the subtests are counted (a
# program's own line only when it has none, and a "not ok" program whose
# subtests all passed as one failure more: it crashed after them).
#
# VM suites per x86_64 kernel: vm-K-icount (tests/selftests/run.sh under
# icount: the exact assertions), ksft-K (the kselftest package,
# `make kselftest-install`, run by the kernel's own run_kselftest.sh -c
# kbench in plain TCG: tests/vm/ksft.sh; it replaces run.sh's plain run),
# ynl-K, conc-K (concurrent runs on 2 vCPUs, plain TCG, with a killed
# requester, rmmod and a CPU going offline: tests/ynl/concurrent.sh),
# stress-K; on the debug kernel ksft-debug under debug-check.sh, conc-debug
# and atomic-debug (kbench_atomic_test.sh, which warns on purpose, in a
# boot of its own: debug-check.sh wants the whole log clean; elsewhere it
# runs in the collection, judging the log it wrote).
# Unless --skip builtin: builtin-6.12, a linux-source-6.12
# tinyconfig kernel with the in-tree series (scripts/intree.sh) and
# CONFIG_KBENCH=y, cached (scripts/builtin-kernel.sh), booted with no
# kbench.ko: the package's tests against the built-in kbench.
# Unless --skip pnmi (or arch): pnmi-arm64-icount and pnmi-arm64-plain,
# arm64's pseudo-NMIs on a tinyconfig linux-source-6.1 built with
# CONFIG_ARM64_PSEUDO_NMI (scripts/pnmi-kernel.sh), in the arm64 chain.
#
# The debug, built-in and pseudo-NMI kernels are built first (or found
# cached), side by side.  lint, the spec, twins and layers run from the
# build on at idle priority.  Then suites run in chains (those
# that share build outputs, in order), up to --jobs chains at once
# (default: one per CPU; more fill the CPU time plain-TCG guests leave
# idle, but the debug kernel's plain-TCG figures did not hold beside
# three: see tests/README.md); each suite's log is printed whole when it
# ends, and a table of every suite's times ends the run
# (build/check/times).  On the first kernel the kselftest package runs
# with --host-load busy loops on the host beside the other chains
# (default 1 where --jobs is at most the CPUs, else 0: more chains than
# CPUs load the host already; 0 or --skip load: no busy loop).  The table gives each
# suite's wall and CPU seconds, its VM boots and their seconds to /init
# (tests/vm/run's KBENCH_VM_BOOT_LOG), and ends with the run's boot count
# and total boot time.
#
# Usage: scripts/check.sh [--kernels "6.1 6.12 6.12-rt debug"]
#                         [--modes "icount plain"] [--jobs N] [--host-load N]
#                         [--skip lint,unit,spec,vm,ynl,conc,results,fuzz,smt,kit,atomic,builtin,pnmi,load,bench,prebuild,...] [--selftest-args "..."]
#   --kernels debug --skip lint,unit,spec,host,dkms,svg,bench,arch   (make
#   check-debug): only the debug kernel; it is built first if not cached
#   (scripts/debug-kernel.sh, ~4 min on 2 cores), inside suite debug-config.
# Env:   KBENCH_CHECK_JOBS, KBENCH_CHECK_HOST_LOAD,
#        KBENCH_CHECK_KERNELS, KBENCH_CHECK_MODES, KBENCH_CHECK_SKIP,
#        KBENCH_SELFTEST_ARGS work the same; KBENCH_CHECK_VM_TIMEOUT (1200 s)
#        bounds each VM suite, KBENCH_CHECK_DEBUG_TIMEOUT (1800 s) each
#        suite on the debug kernel.
# Exit status: 0 if nothing failed, 1 otherwise.
set -uo pipefail
# The whole script is one block, so bash reads it completely before running
# it: editing the file while a run is under way cannot break that run.
{

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

kernels=${KBENCH_CHECK_KERNELS:-6.1 6.12 6.12-rt debug}
modes=${KBENCH_CHECK_MODES:-icount plain}
archs=${KBENCH_CHECK_ARCHS:-x86_64 arm64 ppc64le}
skip=${KBENCH_CHECK_SKIP:-}
selftest_args=${KBENCH_SELFTEST_ARGS:-}
ncpu=$(nproc 2>/dev/null || echo 1)
# chains at once: one per CPU unless told
jobs=${KBENCH_CHECK_JOBS:-$ncpu}
# busy loops on the host for the loaded-host run of the kselftest package:
# one, beside the other chain's VM on 2 CPUs, leaves the VM about 2/3 of a
# CPU (two cost 700 CPU seconds more for the same pass; tests/README.md).
# Unset, it follows --jobs (below): more chains than CPUs are that load.
host_load=${KBENCH_CHECK_HOST_LOAD:-}
# The concurrent runs and their races (conc) run on every kernel: the
# module's start, release and rmmod paths meet each kernel's genetlink,
# kthread and notifier code (6.1, 6.12, 6.12-rt and the debug kernel).
# Suites that test kbench's own code paths, not the kernel's, run on the kernels that differ most rather than on all: the
# stress suite (6.1, 6.12-rt, debug); the kselftest package and the kernel's
# ynl CLI on 6.1 (its genetlink core), 6.12-rt (6.12's) and debug, and on
# 6.12 the package runs against kbench built in (builtin-6.12).  The exact
# assertions (icount) run on all three Debian kernels.
conc_kernels=${KBENCH_CHECK_CONC_KERNELS:-6.1 6.12 6.12-rt debug}
stress_kernels=${KBENCH_CHECK_STRESS_KERNELS:-6.1 6.12-rt debug}
ksft_kernels=${KBENCH_CHECK_KSFT_KERNELS:-6.1 6.12-rt debug}
ynl_kernels=${KBENCH_CHECK_YNL_KERNELS:-6.1 6.12-rt debug}
# Tests of userspace that no second kernel changes: kbenchctl's options and
# output (kbench_cli_test.sh: 128 s of the debug kernel's 420) run in the
# package on the first kernel (loaded host) and the built-in kernel (which
# autoloads nothing) and under icount on the first kernel; the fuzz of the
# netlink policy under icount on the first kernel only (every kernel's
# package fuzzes in plain TCG).  KBENCH_CHECK_DUP_TESTS=1 runs them all.
if [ "${KBENCH_CHECK_DUP_TESTS:-0}" = 1 ]; then
	ksft_skip_more=""
	icount_skip_more=""
else
	ksft_skip_more="kbench_cli_test.sh"
	icount_skip_more="kbench_cli_test.sh,kbench_fuzz_test.sh"
fi
# Per VM suite: a bound for a hung suite, not a speed; suites run side by
# side on a loaded host (ksft-debug took 972 s so, 449 s alone).
vm_timeout=${KBENCH_CHECK_VM_TIMEOUT:-1200}
debug_timeout=${KBENCH_CHECK_DEBUG_TIMEOUT:-1800}
while [ $# -gt 0 ]; do
	case "$1" in
	--kernels) kernels=$2; shift 2 ;;
	--modes) modes=$2; shift 2 ;;
	--archs) archs=$2; shift 2 ;;
	--skip) skip=$2; shift 2 ;;
	--selftest-args) selftest_args=$2; shift 2 ;;
	--jobs|-j) jobs=$2; shift 2 ;;
	--host-load) host_load=$2; shift 2 ;;
	-h|--help) sed -n '3,63p' "$0"; exit 0 ;;
	*) echo "check.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
skipped() { [[ ",$skip," == *",$1,"* ]]; }
# on_kernel LIST K: K in LIST, or (a run of other kernels, such as
# --kernels 6.12) no kernel of LIST in the run: then every kernel
on_kernel() {
	local x
	[[ " $1 " == *" $2 "* ]] && return 0
	for x in $1; do
		[[ " $kernels " == *" $x "* ]] && return 1
	done
	return 0
}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "check.sh: --jobs wants a number, 1 or more" >&2; exit 2; }
if [ -z "$host_load" ]; then
	host_load=1
	[ "$jobs" -le "$ncpu" ] || host_load=0
fi
# the VMs that suites boot themselves (results, kit, ...) get the same
# bound as those given --timeout here (results-tcg went over the default
# 300 s beside the other chains)
export KBENCH_VM_TIMEOUT=$vm_timeout
[[ "$host_load" =~ ^[0-9]+$ ]] || { echo "check.sh: --host-load wants a number of busy loops" >&2; exit 2; }

logdir=$top/build/check
rm -rf "$logdir"
mkdir -p "$logdir"

passed=0
failed=0
nskipped=0
crashed=()
t_all=$(date +%s)

phase() { echo "# ==== $(date '+%F %T') $*"; }

# ktap_count LOG: "passed skipped failed" of a (K)TAP log, nested subtests
# counted as described above.
ktap_count() {
	awk '
	function add(kind, nested) {
		if (nested) { if (kind == "f") nf++; else if (kind == "s") ns++; else np++ }
		else if (kind == "f") F++; else if (kind == "s") S++; else P++
	}
	function kind(line) {
		if (line ~ /^not ok( |$)/) return "f"
		if (tolower(line) ~ /^ok( |$).*#[[:space:]]*skip/) return "s"
		return "p"
	}
	/^# (not )?ok( |$)/ { add(kind(substr($0, 3)), 1); next }
	/^(not )?ok( |$)/ {
		k = kind($0)
		if (np + ns + nf == 0) add(k, 0)
		else {
			P += np; S += ns; F += nf
			if (k == "f" && nf == 0) F++
		}
		np = ns = nf = 0
		next
	}
	END { printf "%d %d %d\n", P, S, F }' "$1"
}

# children_cpu: sets cpu_now to the CPU seconds (user + sys) of this
# shell's waited-for children so far.  Call it as it is, not in $() or a
# pipe: `times` must run in this shell (a forked one has no children).
children_cpu() {
	local f=$logdir/.times.$BASHPID
	times >"$f"
	cpu_now=$(awk 'NR == 2 {
		c = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); c += a[1] * 60 + a[2] }
		printf "%d\n", c + 0.5 }' "$f")
	rm -f "$f"
}

# run_suite NAME CMD...: run CMD with its output in build/check/NAME.log,
# count its TAP lines into NAME.result ("passed skipped failed crashed
# seconds cpu-seconds").  Suites run in chains, several chains at once (below): each
# suite's log is printed whole when it ends, under a lock, so that the
# output of two suites never interleaves.
run_suite() {
	local name=$1; shift
	local log=$logdir/$name.log t0 rc p f s c=0 dt cpu0 cpu nb bs
	t0=$(date +%s)
	children_cpu
	cpu0=$cpu_now
	KBENCH_VM_BOOT_LOG=$logdir/$name.boots "$@" </dev/null >"$log" 2>&1
	rc=$?
	children_cpu
	cpu=$((cpu_now - cpu0))
	read -r p s f < <(ktap_count "$log")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - $name crashed: exit status $rc" >>"$log"
		f=$((f + 1))
		c=1
	elif [ $((p + s + f)) = 0 ]; then
		echo "not ok - $name printed no TAP result (exit status $rc)" >>"$log"
		f=$((f + 1))
		c=1
	fi
	dt=$(( $(date +%s) - t0 ))
	# its VM boots (tests/vm/run's boot log): how many, seconds to /init
	read -r nb bs < <(awk '{ n++; if ($4 != "-") t += $4 }
		END { printf "%d %.0f\n", n, t }' "$logdir/$name.boots" 2>/dev/null ||
		echo "0 0")
	echo "$p $s $f $c $dt $cpu ${nb:-0} ${bs:-0}" >"$logdir/$name.result"
	{
		flock 9
		phase "suite $name: $*"
		cat "$log"
		phase "suite $name: exit $rc, $p passed, $f failed, $s skipped, $dt s, CPU $cpu s"
	} 9>"$logdir/.out"
}

phase "build"
if ! make -s all; then
	echo "not ok - build (make all) failed"
	failed=$((failed + 1))
	crashed+=(build)
fi
if ! make -s -C tests/selftests OUT="$top/build/selftests"; then
	echo "not ok - build (selftests) failed"
	failed=$((failed + 1))
	crashed+=(build-selftests)
fi
if ! make -s -C tests/stress OUT="$top/build/stress"; then
	echo "not ok - build (stress helpers) failed"
	failed=$((failed + 1))
	crashed+=(build-stress)
fi

# ---- the chains ---------------------------------------------------------------
# Suites that share build outputs (a package directory, a kernel's build)
# run in order within one chain; chains share nothing but the locked builds
# of tests/vm/run, so up to $jobs of them run at once (default: one per
# CPU).  Every suite that times in plain TCG is built to stand a loaded
# host (tests/README.md, "A loaded host"), which is what this is.

# The native suites that neither time anything nor boot a VM: lint, the
# spec and the layers.  They run beside everything from the build on, at
# idle priority (SCHED_IDLE, else nice 19; in the run's own session, so
# the kernel's autogroups weigh them as that, not as a session of their
# own): they take the CPU time that the kernels' builds and the chains
# leave (a guest waiting out a test's injected delay, a build's serial
# steps), and never slow a chain's plain-TCG figures.  Nothing in them
# waits on a clock, so however long they wait for a CPU they pass.
chain_idle() {
	chrt --idle -p 0 "$BASHPID" >/dev/null 2>&1 ||
		renice -n 19 -p "$BASHPID" >/dev/null 2>&1 || true
	skipped lint || run_suite lint scripts/lint.sh
	skipped spec || run_suite spec-generated scripts/ynl-gen.sh --check
	skipped spec || run_suite spec-abi tests/spec/abi.sh
	skipped spec || run_suite spec-mutations tests/spec/test-ynl-gen.sh
	skipped host || run_suite twins tests/host/twins.sh
	skipped host || run_suite layers tests/host/layers.sh
	return 0
}

# The native suites that time real silicon (the unit tests' --user runs,
# the walkthrough): a chain of their own, at the chains' priority.
chain_native() {
	skipped unit || run_suite unit make -s -C tests/unit check
	skipped host || run_suite walkthrough tests/host/walkthrough.sh
	return 0
}

# The native suites' second half, a chain of its own: the two halves end
# the run side by side (one chain of them all left a CPU idle for its
# last 6 minutes).  Both only read the tree's build (make all, above).
chain_nativeb() {
	skipped dkms || run_suite dkms scripts/dkms-test.sh
	skipped svg || run_suite svg tests/svg/svg-test.sh
	skipped bench || run_suite bench bench/build.sh
	skipped fuzz || run_suite fuzz-resfile tests/fuzz/resfile.sh 200000
	if ! skipped kit; then
		local kit_kernels kit_args
		# shellcheck disable=SC2086  # the kernels are words
		kit_kernels=$(printf '%s\n' $kernels | grep -vx debug | tr '\n' ' ')
		kit_args=(--kernels "$kit_kernels")
		skipped vm && kit_args+=(--no-vm)
		[ -n "${kit_kernels// /}" ] && run_suite kit tests/kit/run.sh "${kit_args[@]}"
	fi
	return 0
}

# The debug kernel: its .config checked (built first if not cached), then
# the selftests (quick fuzz: 2000 messages, root and unprivileged) and the
# stress suite (10 reloads, 5 signals) under tests/vm/debug-check.sh,
# which loads and unloads kbench around them and asks kmemleak, lockdep and
# the log; then the kernel's ynl CLI against it.  KASAN under TCG is slow:
# hence the trimmed counts.  Three chains: the build and the package, then
# (waiting on the build's lock, and started later) the stress, atomic and
# ynl suites, and the concurrent runs.
chain_debug() {
	local t0

	t0=$(date +%s)
	run_suite debug-config scripts/debug-kernel.sh --check
	phase "debug kernel ready after $(( $(date +%s) - t0 )) s"
	# the kselftest package, run by run_kselftest.sh under debug-check.sh
	# (which loads kbench.ko first: the package's kbench_load.sh finds it)
	on_kernel "$ksft_kernels" debug &&
	KBENCH_FUZZ_COUNT=2000 KBENCH_KSFT_SKIP=$ksft_skip_more \
		run_suite ksft-debug tests/vm/ksft.sh \
		--kernel debug --timeout "$debug_timeout" \
		--add tests/vm/debug-check.sh --wrap /extra/debug-check.sh
	phase "kernel debug: $(( $(date +%s) - t0 )) s wall for: config, selftests"
}

chain_debugb() {
	skipped stress || ! on_kernel "$stress_kernels" debug ||
		run_suite stress-debug tests/vm/run --kernel debug --no-load \
			--timeout "$debug_timeout" --add tests/vm/debug-check.sh \
			--add build/stress/sigrun --add build/stress/stress.sh \
			-- /extra/debug-check.sh /extra/stress.sh 10 5
	# kbench_measure() from atomic context: one warning on purpose, so a
	# boot of its own, outside debug-check.sh (whose log must be clean);
	# the suite checks the log itself (lockdep, KASAN, ...)
	skipped atomic ||
		run_suite atomic-debug tests/vm/run --kernel debug \
			--timeout "$debug_timeout" \
			-- /selftests/kbench_atomic_test.sh
	# the kernel's ynl CLI: KASAN/UBSAN reports and warnings panic the VM
	skipped ynl || ! on_kernel "$ynl_kernels" debug ||
		run_suite ynl-debug tests/ynl/run.sh --kernel debug \
			--timeout "$debug_timeout"
}

# concurrent runs and their faults under debug-check.sh
chain_debugc() {
	skipped conc || ! on_kernel "$conc_kernels" debug ||
		# the races' injected delays under KASAN: 21 min measured
		# beside other VMs, so more room than the other debug suites
		run_suite conc-debug tests/ynl/concurrent.sh --faults \
			--kernel debug --timeout "$((debug_timeout * 5 / 3))"
}

# One Debian kernel K, plain TCG: the kselftest package as CI farms run it
# (on the first kernel with the host loaded by $host_load busy loops), the
# kernel's own ynl CLI with only our spec, concurrent runs on 2 vCPUs and
# their faults, and the stress suite (faults and load need 2 vCPUs and real
# time: plain mode only).  The exact assertions under icount
# (tests/selftests/run.sh): chain_icount.
chain_kernel() {
	local k=$1 tk fuzz ksft_skip
	tk=$(date +%s)
	# The package's plain runs give the module the hard limit (20 ms): the
	# suites assert what a run answers, not how long a host takes; the
	# bound itself is tested with a routine over any limit
	# (kbench_window_test.sh) and under icount.  run.sh's --quick: a
	# shorter fuzz.  On the first kernel the package runs once, with the
	# host loaded by $host_load more busy loops: a pass there implies one
	# on a quieter host, and nothing is measured twice.
	if [[ " $modes " == *" plain "* ]] && on_kernel "$ksft_kernels" "$k"; then
		fuzz=
		[[ " $selftest_args " == *" --quick "* ]] && fuzz=2000
		if [ "$k" = "$first_kernel" ] && [ "$host_load" != 0 ] &&
		   ! skipped load; then
			KBENCH_FUZZ_COUNT=$fuzz \
			KBENCH_MODULE_ARGS=max_window_us=20000 \
				run_suite "ksft-$k-load$host_load" \
				tests/vm/ksft.sh --kernel "$k" \
				--timeout "$vm_timeout" --host-load "$host_load"
		else
			ksft_skip=$ksft_skip_more
			[ "$k" = "$first_kernel" ] && ksft_skip=
			KBENCH_FUZZ_COUNT=$fuzz KBENCH_KSFT_SKIP=$ksft_skip \
			KBENCH_MODULE_ARGS=max_window_us=20000 \
				run_suite "ksft-$k" tests/vm/ksft.sh \
				--kernel "$k" --timeout "$vm_timeout"
		fi
	fi
	skipped ynl || ! on_kernel "$ynl_kernels" "$k" ||
		run_suite "ynl-$k" tests/ynl/run.sh --kernel "$k" \
			--timeout "$vm_timeout"
	skipped conc || ! on_kernel "$conc_kernels" "$k" ||
		run_suite "conc-$k" tests/ynl/concurrent.sh --faults \
			--kernel "$k" --timeout "$vm_timeout"
	skipped stress || ! on_kernel "$stress_kernels" "$k" ||
		run_suite "stress-$k" tests/vm/run --kernel "$k" \
			--timeout "$vm_timeout" \
			--add build/stress/sigrun --add build/stress/stress.sh \
			-- /extra/stress.sh
	phase "kernel $k: $(( $(date +%s) - tk )) s wall for: the package, ynl, conc, stress"
}

# The same kernel under icount: a chain of its own (one vCPU, CPU-bound),
# beside the plain one; the module build is shared under its lock.
chain_icount() {
	local k=$1 more=()
	[ "$k" != "$first_kernel" ] && [ -n "$icount_skip_more" ] &&
		more=(--skip "$icount_skip_more")
	# shellcheck disable=SC2086
	[[ " $modes " == *" icount "* ]] &&
		run_suite "vm-$k-icount" tests/vm/run --kernel "$k" --icount \
			--timeout "$vm_timeout" \
			-- /selftests/run.sh "${more[@]}" $selftest_args
	return 0
}

# kbench built in: a linux-source-6.12 tinyconfig kernel with the in-tree
# series (scripts/intree.sh) and CONFIG_KBENCH=y, built and W=1-checked
# (=y and =m) once and cached (scripts/builtin-kernel.sh), booted with
# nothing loaded and kbench.max_window_us=2000 on its command line:
# tests/vm/builtin-check.sh around the kselftest package.
chain_builtin() {
	local tb bdir
	tb=$(date +%s)
	run_suite builtin-kernel scripts/builtin-kernel.sh --tap
	phase "built-in kernel ready after $(( $(date +%s) - tb )) s"
	if bdir=$(scripts/builtin-kernel.sh --quiet); then
		KBENCH_FUZZ_COUNT=2000 run_suite builtin-6.12 tests/vm/ksft.sh \
			--kernel-dir "$bdir" --timeout "$vm_timeout" \
			--append kbench.max_window_us=2000 \
			--add tests/vm/builtin-check.sh \
			--wrap "/extra/builtin-check.sh 2000"
	fi
}

# Saved results and diff, on the first kernel: the test module in two
# versions under icount, git bisect run over five versions (three icount
# boots), the module before and
# after a slowdown in plain TCG (replicated runs); then the environment
# report and tune with SMT siblings (4 vCPUs as 2 cores x 2 threads: tune takes a
# sibling offline and reset brings it back).
chain_results() {
	local rk=$first_kernel
	if ! skipped results; then
		run_suite "results-icount-$rk" tests/results/run.sh icount --kernel "$rk"
		run_suite "results-bisect-$rk" tests/results/run.sh bisect --kernel "$rk"
		# plain TCG beside the other chains: replicated runs of the
		# module before and after a several-fold slowdown, so only
		# the direction is asserted, with no figure or time (one
		# boot, bounded by KBENCH_RESULTS_TCG_TIMEOUT, 600 s)
		run_suite "results-tcg-$rk" tests/results/run.sh tcg --kernel "$rk"
	fi
	if ! skipped smt && [ "$rk" != debug ]; then
		run_suite "env-smt-$rk" tests/vm/run --kernel "$rk" --smp 4 --smt \
			--timeout "$vm_timeout" -- /selftests/kbench_env_test.sh
	fi
}

chain_arch() {
	local a=$1 ta
	ta=$(date +%s)
	# shellcheck disable=SC2086
	run_suite "arch-$a" scripts/check-arch.sh --modes "$modes" "$a" \
		$selftest_args
	phase "arch $a: $(( $(date +%s) - ta )) s wall for: $modes"
	[ "$a" != arm64 ] || skipped pnmi || chain_pnmi
}

# arm64's pseudo-NMIs, which no Debian arm64 kernel has: the test bed's
# tinyconfig linux-source-6.1 with CONFIG_ARM64_PSEUDO_NMI
# (scripts/pnmi-kernel.sh, prebuilt with the other kernels), booted on a
# GICv3 with irqchip.gicv3_pseudo_nmi=1 (tests/vm/run --kernel pnmi), and
# kbench_pnmi_test.sh told that it is (KBENCH_PNMI_EXPECT=1: on any other
# kernel it fails): the PMU's interrupt raised in windows on purpose, the
# exact counts and median under icount, the counts in plain TCG on 2
# vCPUs.  After arch-arm64, whose cross build (build/cross/arm64) it
# shares; the same test ran there on Debian's kernel, asserting the
# opposite.
chain_pnmi() {
	local m tp opt
	tp=$(date +%s)
	run_suite pnmi-kernel scripts/pnmi-kernel.sh --tap
	for m in $modes; do
		opt=()
		[ "$m" = icount ] && opt=(--icount)
		run_suite "pnmi-arm64-$m" tests/vm/run --arch arm64 --kernel pnmi \
			"${opt[@]}" --timeout "$vm_timeout" \
			-- KBENCH_PNMI_EXPECT=1 /selftests/kbench_pnmi_test.sh
	done
	phase "pseudo-NMI kernel (arm64): $(( $(date +%s) - tp )) s wall for: $modes"
}

# The chains, longest first (measured cold on a fresh 2-CPU machine), so
# that the last to start are the short ones.
# The debug kernel's second and third chains wait on its build: they start
# after the arch and built-in chains, by which time it is mostly done.
first_kernel=${kernels%% *}
chains=()
debug=0
skipped vm || [[ " $kernels " != *" debug "* ]] || debug=1
[ $debug = 1 ] && chains+=("debug")
if ! skipped arch; then
	# ppc64le's is the longest (its icount run alone ~10 min)
	for a in ppc64le arm64 $archs; do
		[[ " $archs " == *" $a "* ]] || continue
		[ "$a" = x86_64 ] || [[ " ${chains[*]} " == *" arch $a "* ]] ||
			chains+=("arch $a")
	done
fi
if ! skipped vm; then
	skipped builtin || chains+=("builtin")
	[ $debug = 1 ] && chains+=("debugc")
	for k in $kernels; do
		[ "$k" = debug ] || chains+=("icount $k")
	done
	[ $debug = 1 ] && chains+=("debugb")
	for k in $kernels; do
		[ "$k" = debug ] || chains+=("kernel $k")
	done
	chains+=("results")
fi
# the native suites last, in two chains: they end the run side by side
chains+=("native" "nativeb")

# the run's phases, for the table: build, kernels, chains
t_build=$(( $(date +%s) - t_all ))
t_kernels=0

chain_idle &

# The kernels first, before any VM: beside a kernel build a 2-vCPU VM
# gets a fraction of one CPU and everything slows more than in proportion
# (a cold run on 2 CPUs: ksft-debug 449 s alone, 1287 s beside the built-in
# kernel's build; the debug kernel's build 400 s alone, 1248 s beside the
# arch chains).  The builds run side by side, each make -j on every CPU:
# one's serial steps (its tarball unpacked, its configuration, vmlinux
# linked, modpost, the image compressed; the cross toolchain's install
# before the pseudo-NMI kernel) leave CPUs the others use, where one at a
# time left them idle.  A cached kernel takes no time here; a failed build
# is reported by its suite (debug-config, builtin-kernel, pnmi-kernel),
# which tries again.  --skip prebuild: builds in chains.
if ! skipped vm && ! skipped prebuild; then
	tp=$(date +%s)
	pre=()
	if [ $debug = 1 ]; then
		scripts/debug-kernel.sh --quiet >"$logdir/prebuild-debug.txt" 2>&1 &
		pre+=("$!:debug kernel:debug-config")
	fi
	if ! skipped builtin; then
		scripts/builtin-kernel.sh --quiet >"$logdir/prebuild-builtin.txt" 2>&1 &
		pre+=("$!:built-in kernel:builtin-kernel")
	fi
	# arm64's pseudo-NMI kernel, cross-compiled (the toolchain is
	# scripts/cross-setup.sh's, which the arm64 chain runs anyway)
	if ! skipped arch && ! skipped pnmi && [[ " $archs " == *" arm64 "* ]]; then
		{ scripts/cross-setup.sh arm64 && scripts/pnmi-kernel.sh --quiet; } \
			>"$logdir/prebuild-pnmi.txt" 2>&1 &
		pre+=("$!:pseudo-NMI kernel:pnmi-kernel")
	fi
	for p in "${pre[@]}"; do
		IFS=: read -r pid what suite <<<"$p"
		wait "$pid" ||
			phase "the $what did not build: suite $suite says why"
	done
	t_kernels=$(( $(date +%s) - tp ))
	phase "kernels built or found cached in $t_kernels s, side by side"
fi

phase "chains: ${#chains[@]}, $jobs at once; host load $host_load"
running=0
live=()
for c in "${chains[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		# a chain's end, not the idle-priority suites'
		wait -n -p ended "${live[@]}"
		keep=()
		for p in "${live[@]}"; do
			[ "$p" = "$ended" ] || keep+=("$p")
		done
		live=("${keep[@]}")
		running=$((running - 1))
	fi
	# shellcheck disable=SC2086  # "kernel 6.1": a chain and its argument
	chain_$c &
	live+=("$!")
	running=$((running + 1))
done
wait

boots=0
boot_s=0
for r in "$logdir"/*.result; do
	[ -e "$r" ] || continue
	read -r p s f c dt cpu nb bs <"$r"
	passed=$((passed + p))
	failed=$((failed + f))
	nskipped=$((nskipped + s))
	boots=$((boots + ${nb:-0}))
	boot_s=$((boot_s + ${bs:-0}))
	[ "$c" = 0 ] || crashed+=("$(basename "$r" .result)")
	printf '%-24s %6s s  CPU %6s s  %4s passed  %3s failed  %3s skipped  %2s boots %4s s\n' \
		"$(basename "$r" .result)" "$dt" "${cpu:-?}" "$p" "$f" "$s" \
		"${nb:-0}" "${bs:-0}"
done >"$logdir/times"
# every VM boot of the run, and its time from qemu's start to /init
cat "$logdir"/*.boots >"$logdir/boots" 2>/dev/null
echo "VM boots: $boots, $boot_s s from qemu's start to /init in all" >>"$logdir/times"
echo "Phases: build $t_build s, kernels $t_kernels s, chains $(( $(date +%s) - t_all - t_build - t_kernels )) s" >>"$logdir/times"
phase "suites (wall seconds each; $jobs at once; boots: VM boots, s: their seconds to /init):"
sed 's/^/#   /' "$logdir/times"

children_cpu
phase "done in $(( $(date +%s) - t_all )) s, CPU $cpu_now s (everything it ran, user + sys); logs in build/check/"
[ ${#crashed[@]} -eq 0 ] || echo "# crashed: ${crashed[*]}"
# Every failed test again, by suite, where the end of a CI log shows it.
for log in "$logdir"/*.log; do
	grep -E '^(# )?not ok( |$)' "$log" |
		sed "s|^|# failed in $(basename "$log" .log): |"
done >"$logdir/failures"
cat "$logdir/failures"
summary="$passed passed, $failed failed, $nskipped skipped"
echo "$summary" >"$logdir/summary"
echo "$summary"
[ "$failed" = 0 ]

exit
}
