#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's walkthrough as a new user runs it without the module: its
# --user commands on this machine's real CPU, checked for the words a user
# relies on (units, verdict words, exit codes, what a message points to),
# never for figures or for how long anything takes.  Prints TAP.
#
# Usage: tests/host/walkthrough.sh
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/tap.sh
. "$top/tests/lib/tap.sh"
kb=$top/user/kbenchctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# saved names go under $HOME/.local/share/kbench: keep them here
export HOME=$tmp XDG_DATA_HOME=$tmp/share KBENCH_NO_AUTOLOAD=1 NO_COLOR=1
cd "$tmp" || exit 1

make -s -C "$top/user" >"$tmp/build" 2>&1
tap $? "kbenchctl builds" "$tmp/build"

# run CMD...: its stdout and stderr in $tmp/out, its exit status in $rc
run() {
	"$kb" "$@" >"$tmp/out" 2>&1
	rc=$?
}
has() { grep -q "$@" "$tmp/out"; }

# "Without the module, --user runs the same routines' userspace twins"
run list
[ $rc = 2 ] && has "kbench module not loaded" && has "kbenchctl list --user"
tap $? "list without the module: exit 2, says so and points to list --user (exit $rc)" "$tmp/out"
run list --user
[ $rc = 0 ] && has '^add_chain ' && has '^add_n  *adds 1\.\.'
tap $? "list --user: the twins, add_n with its argument (exit $rc)" "$tmp/out"
run info --user
[ $rc = 0 ] && has '^user counter: ' && has '^[ !] hypervisor  '
tap $? "info --user: the counter and the environment with its hypervisor line (exit $rc)" "$tmp/out"

# $ kbenchctl run add_chain --user
run run add_chain --user
[ $rc = 0 ] && has '^userspace twins on cpu [0-9]*: .*, ticks of [a-z]* at ' &&
	has '^  median  *[0-9.]* ticks/iter  *[0-9.]* ns/iter   95% CI \[' &&
	has '^  corrected .* ticks/iter .*(the median minus the empty loop)' &&
	has '^  verdict    ' && ! has cycles
tap $? "run add_chain --user: the counter and its rate once, figures in ticks/iter, never cycles, a verdict (exit $rc)" "$tmp/out"
if grep -q '^  hypervisor  *\(none\|unknown\)' < <("$kb" info --user 2>&1); then
	skip "run --user warns about the hypervisor" "no hypervisor seen on this machine"
else
	has '^warning: hypervisor '
	tap $? "run --user on a virtual machine: the hypervisor warning, as for a kernel run" "$tmp/out"
fi

# $ kbenchctl compare add_n:64 add_n:65 --user
# (any verdict: a loaded host can leave one add in 64 inconclusive)
run compare add_n:64 add_n:65 --user
last=$(tail -n 1 "$tmp/out")
[ $rc = 0 ] && has '^add_n:65 - add_n:64: [-+][0-9.]* ticks/iter = ' &&
	[[ "$last" =~ (slower\ than|faster\ than|no\ significant\ difference|no\ difference\ beyond|^inconclusive\ between) ]] &&
	! has cycles
tap $? "compare add_n:64 add_n:65 --user: the difference in ticks/iter, a verdict in words last (exit $rc)" "$tmp/out"

# before/after, saved and diffed as the README says (--runs, one routine:
# here both sides are the same twin, so only the words are checked)
run run add_n:64 --user --runs 3 --save before
r1=$rc
has '^routine  *run  *median ticks/iter  *95% CI of the median ' &&
	has "^add_n:64: geometric mean of the runs' medians [0-9.]* ticks/iter" &&
	! has cyc
r2=$?
run run add_n:64 --user --runs 3 --save after
[ $r1 = 0 ] && [ $rc = 0 ] && [ -s "$tmp/share/kbench/before.json" ] &&
	[ -s "$tmp/share/kbench/after.json" ] && [ $r2 = 0 ]
tap $? "run --runs 3 --save before / after: a table in ticks/iter, never cyc; saved by name under the data directory (exit $r1, $rc)" "$tmp/out"
run diff before after
v=$(sed -n 's/^add_n:64 \[user\] .*  \([a-z ]*\)$/\1/p' "$tmp/out")
case $v in regressed) want=1 ;; improved|"no change"|inconclusive) want=0 ;; *) want=x ;; esac
[ "$rc" = "$want" ] && has '^routine .* old/iter .* new/iter .* verdict$' &&
	has '^add_n:64 \[user\] .* ticks .* ticks ' && ! has cyc
tap $? "diff before after: add_n:64 spelt NAME:ARG, old and new in ticks, a verdict word ('$v'), exit 1 only on 'regressed' (exit $rc)" "$tmp/out"
run diff before after --markdown
has '^| routine | old/iter | new/iter | change | 95% CI | p | verdict |$' &&
	has '^| `add_n:64 \[user\]` | [0-9.]* ticks | [0-9.]* ticks |' && ! has cyc
tap $? "diff --markdown: add_n:64 spelt NAME:ARG, a table with ticks in its cells (exit $rc)" "$tmp/out"
run --json diff before after
grep -q '"inconclusive": true' "$tmp/out" && grep -q '"verdict": "no change"' "$tmp/out"
[ $? != 0 ]
tap $? "diff --json: never verdict 'no change' beside inconclusive true" "$tmp/out"
run help diff
! has cycles && has 'files of single and of replicated runs: a change is'
tap $? "help diff: --metric and --threshold in the words the output uses (ticks; one threshold for single and replicated files)" "$tmp/out"

# compare --runs: each run's medians in ticks
run compare add_n:64 add_n:65 --user --runs 2
[ $rc = 0 ] && has "(each run's medians, ticks/iter)$" && ! has cyc
tap $? "compare --runs 2: each run's medians in ticks/iter, never cyc (exit $rc)" "$tmp/out"

# history of a directory, given with a trailing slash as shells complete it
mkdir -p results
run run add_n:64 --user --samples 200 --save results/
[ $rc = 2 ] && has 'a directory: name a file in it (results/NAME.json) or give a NAME'
tap $? "run --save results/: exit 2 before measuring, says to name a file in it (exit $rc)" "$tmp/out"
run run add_n:64 --user --samples 200 --save results/a.json
run history results/
[ $rc = 0 ] && has '^history: 1 file, 1 routine ' && has '^add_n:64 \[user\] (' &&
	has ' results/a.json ' && ! has '//'
tap $? "history results/: 1 file, 1 routine, add_n:64 [user], the path results/a.json (exit $rc)" "$tmp/out"
run diff before nosuch
[ $rc = 2 ] && has nosuch
tap $? "diff with a missing file: exit 2, names it (exit $rc)" "$tmp/out"
run run add_n:65 --user --samples 200 --save other
run diff before other
[ $rc = 2 ] && has 'nothing to compare' && has -e '--match add_n:64=add_n:65' &&
	has '^only in old: add_n:64 \[user\]$'
tap $? "diff of add_n:64 and add_n:65: exit 2, suggests --match add_n:64=add_n:65, spells them NAME:ARG (exit $rc)" "$tmp/out"
run diff before other --match add_n:64=add_n:65
[ $rc = 0 ] || [ $rc = 1 ]
tap $? "diff --match add_n:64=add_n:65: compared (exit $rc)" "$tmp/out"

# exports: the README's gbench form; nothing of the host by default
run export "$tmp/share/kbench/before.json" --format gbench -o before.gbench.json
[ $rc = 0 ] && grep -q '"unit": "[a-z]* ticks"' before.gbench.json &&
	! grep -q '"host_name"' before.gbench.json &&
	grep -q '"withheld": "hostname and kernel command line' before.gbench.json
tap $? "export --format gbench: the unit in ticks, no hostname, says what it withheld (exit $rc)" "$tmp/out"

# errors name the thing and the fix
run run nosuch --user
[ $rc = 2 ] && has "no userspace twin for 'nosuch'"
tap $? "run of an unknown twin: exit 2, names it and the twins (exit $rc)" "$tmp/out"
run -V
[ $rc = 0 ] && grep -q "^kbenchctl $(sed -n 's/.*KBENCH_VERSION[[:space:]]*"\(.*\)".*/\1/p' "$top/include/kbench/version.h") " "$tmp/out"
tap $? "kbenchctl -V: the one version, include/kbench/version.h's (exit $rc)" "$tmp/out"

echo "1..$n"
[ "$nfail" = 0 ]
