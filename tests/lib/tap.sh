# SPDX-License-Identifier: GPL-2.0
#
# TAP for the shell suites (scripts/check.sh counts the `ok` / `not ok`
# lines).  Source it, then:
#   tap STATUS DESCRIPTION [DIAGNOSTIC-FILE]   ok / not ok (with the file's
#                                              last 30 lines as comments)
#   skip DESCRIPTION REASON                    ok ... # SKIP REASON
#   echo "1..$n"; [ "$nfail" = 0 ]            at the end
# shellcheck shell=bash

n=0
nfail=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		nfail=$((nfail + 1))
		[ -n "${3:-}" ] && [ -s "$3" ] && sed 's/^/# /' "$3" | tail -n 30
	fi
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
