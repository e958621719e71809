# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# prog, help, key, base and dir are the sourcing builder's; it reads the
# flags kcache_options sets
# shellcheck disable=SC2034,SC2154
#
# Sourced by the scripts that build and cache a kernel (debug-kernel.sh,
# builtin-kernel.sh, pnmi-kernel.sh): kbench_cache_dir prints the cache's root,
# $KBENCH_CACHE_DIR, else /var/cache/kbench where it can be written, else
# ~/.cache/kbench; kcache_build and kcache_ensure build a kernel once
# into that cache, under a lock.
kbench_cache_dir() {
	if [ -n "${KBENCH_CACHE_DIR:-}" ]; then
		echo "$KBENCH_CACHE_DIR"
	elif mkdir -p /var/cache/kbench 2>/dev/null && [ -w /var/cache/kbench ]; then
		echo /var/cache/kbench
	else
		echo "${XDG_CACHE_HOME:-$HOME/.cache}/kbench"
	fi
}

# The rest is shared by the two builders.  They set prog (for messages)
# and help (the lines of their header that --help prints) before
# kcache_options, and key, base (the cache's directory for this kind of
# kernel) and dir ($base/$key) before kcache_ensure.
quiet=0
jobs=$(nproc 2>/dev/null || echo 2)

# kcache_init PROG HELP CONFIG TARBALL: the builder's name, the lines of
# its header that --help prints, its config fragment (under tests/vm/)
# and the kernel source tarball it builds from; recipe 1 unless it bumps it.
kcache_init() {
	prog=$1
	help=$2
	fragment=$top/tests/vm/$3
	tarball=$4
	recipe=1
}

# kcache_fragment_missing CONFIG: the lines of the builder's fragment that
# the .config CONFIG does not hold (Kconfig dropped them), one a line:
# "CONFIG_X=y (have: CONFIG_X=m)" or "CONFIG_X should be off" (for a
# "# CONFIG_X is not set" line).  Status 1 when there is one.
kcache_fragment_missing() {
	local line sym bad=0
	while IFS= read -r line; do
		case "$line" in
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			! grep -q "^$sym=" "$1" || { echo "$sym should be off"; bad=1; }
			;;
		CONFIG_*=*)
			grep -qxF "$line" "$1" || {
				echo "$line (have: $(grep "^${line%%=*}=" "$1" || echo unset))"
				bad=1
			}
			;;
		esac
	done <"$fragment"
	return $bad
}

# kcache_options "FLAG=VAR ..." "$@": the builder's own flags (each sets
# its variable to 1) and the options both builders take (--quiet, --jobs
# N, --help); exits 2 for any other.
kcache_options() {
	local own=$1 f
	shift
	while [ $# -gt 0 ]; do
		for f in $own; do
			if [ "$1" = "${f%%=*}" ]; then
				printf -v "${f#*=}" 1
				shift
				continue 2
			fi
		done
		case "$1" in
		--quiet|-q) quiet=1 ;;
		--jobs) jobs=${2?}; shift ;;
		--jobs=*) jobs=${1#*=} ;;
		-h|--help) sed -n "${help}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
		*) echo "$prog: unknown option '$1' (see --help)" >&2; exit 2 ;;
		esac
		shift
	done
	[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "$prog: --jobs wants a number" >&2; exit 2; }
}

kcache_say() { [ "$quiet" = 1 ] || echo "$prog: $*" >&2; }
kcache_die() { echo "$prog: $1" >&2; exit "${2:-1}"; }

# kcache_need_tools TOOL...: each on PATH, else exit 2.
kcache_need_tools() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || kcache_die "$t missing (run scripts/deps.sh)" 2
	done
}

# kcache_ready [TOOL...]: the source tarball, the tools every kernel build
# needs, libelf's header and the builder's own TOOLs are there, else exit 2.
# shellcheck disable=SC2120
kcache_ready() {
	[ -r "$tarball" ] || kcache_die "$tarball missing (scripts/deps.sh installs Debian's linux-source packages)" 2
	kcache_need_tools flex bison bc gcc make xz "$@"
	[ -e /usr/include/libelf.h ] || kcache_die "libelf-dev missing (run scripts/deps.sh)" 2
}

# kcache_seed SEED_BASE: the newest complete tree under $base whose
# seed-base stamp is SEED_BASE (built from the same source, fragment and
# compiler), or nothing.
kcache_seed() {
	local d best=
	for d in "$base"/*/; do
		d=${d%/}
		if [ ! -f "$d/complete" ] || [ ! -d "$d/linux/.git" ] ||
			[ "$(cat "$d/seed-base" 2>/dev/null)" != "$1" ]; then
			continue
		fi
		if [ -z "$best" ] || [ "$d/complete" -nt "$best/complete" ]; then
			best=$d
		fi
	done
	echo "$best"
}

# kcache_build WHAT STEPS ERRORS [TAP_FAIL]: run function STEPS under
# set -e in a fresh $dir, its output in $base/$key.log; stamp $dir/complete
# when it succeeds.  A failed or interrupted build leaves no tree behind:
# the log's lines matching the regex ERRORS go to stderr, TAP_FAIL (if
# given) to stdout, and the script exits 1.
kcache_build() {
	local what=$1 steps=$2 errors=$3 tap_fail=${4:-} t0 rc log=$base/$key.log
	t0=$(date +%s)
	kcache_say "building the $what (key $key) in $dir; log: $log"
	rm -rf "$dir"
	mkdir -p "$dir/linux"
	trap 'rm -rf "$dir"' EXIT
	trap 'exit 130' INT TERM
	# A subshell outside any && / || list, so that set -e holds in it.
	set +e
	(
		set -e
		"$steps"
	) >"$log" 2>&1
	rc=$?
	set -e
	if [ "$rc" != 0 ]; then
		[ -z "$tap_fail" ] || echo "$tap_fail"
		echo "$prog: $what build failed; last lines of $log:" >&2
		grep -E "$errors" "$log" | tail -n 20 >&2 || tail -n 20 "$log" >&2
		exit 1
	fi
	echo "key $key built in $(( $(date +%s) - t0 )) s on $(date -u +%FT%TZ) with make -j$jobs" >"$dir/complete"
	trap - EXIT INT TERM
	kcache_say "built in $(( $(date +%s) - t0 )) s: $(cat "$dir/release")"
}

# kcache_ensure BUILD: unless $dir is complete, run function BUILD; one
# builder at a time: the others wait on the lock, then find it complete.
kcache_ensure() {
	[ ! -f "$dir/complete" ] || return 0
	exec 9>"$base/$key.lock"
	if ! flock -n 9; then
		kcache_say "another build of $key is under way; waiting for it"
		flock 9
	fi
	[ -f "$dir/complete" ] || "$1"
	exec 9>&-
}
