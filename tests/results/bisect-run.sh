#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The command of `git bisect run` in the bisect test (and the worked example
# of Documentation/examples.md): build the test module from the commit checked out in the
# current directory, boot the test VM under icount, measure against the
# saved baseline and say good or bad.
#
#   git bisect run tests/results/bisect-run.sh BASELINE.json
#
# git bisect run reads the exit status: 0 good, 1-127 bad except 125,
# 125 "cannot test this commit" (skip), 128 and above abort the bisection.
# kbenchctl diff --bisect exits 0 (no regression), 1 (regressed), 125
# (inconclusive: skip) or 2 (unusable input); so everything that is not a
# verdict - a failed build, a VM that did not boot, a run that failed, a
# timeout (124) or a signal - becomes 125 here, never "bad" and never an
# abort.  Under icount runs repeat exactly, so single runs are trusted
# (--trust-single); on real hardware save --runs 3 or more instead.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
baseline=${1:?usage: bisect-run.sh BASELINE.json}
out=$top/build/bisect/module-$(git rev-parse --short HEAD)
kver=${KBENCH_BISECT_KVER:-}

make -s -C "$top/tests/results" MODSRC="$PWD" OUT="$out" ${kver:+KVER=$kver} \
	>/dev/null 2>&1 || exit 125
"$top/tests/vm/run" --icount --no-build ${kver:+--kernel $kver} \
	--add "$out/kbench_difftest.ko" --add "$baseline" -- \
	'insmod /extra/kbench_difftest.ko || exit 125
	 kbenchctl run kbench_diff_test --samples 100 --iterations 1000 \
		--save /tmp/new.json >/dev/null 2>&1 || exit 125
	 kbenchctl diff --bisect --trust-single /extra/'"$(basename "$baseline")"' /tmp/new.json' >&2
rc=$?
case $rc in
0 | 1) exit $rc ;;	# kbenchctl diff's verdict
*) exit 125 ;;		# not measured: skip this commit
esac
