# SPDX-License-Identifier: GPL-2.0
# bash completion for kbenchctl(8); installed by `make install` as
# $(PREFIX)/share/bash-completion/completions/kbenchctl.
#
# Subcommands and their options are read from kbenchctl's own help, so the
# completion follows the binary it completes.  Routine names come from
# `kbenchctl --json list` when the module is loaded (never autoloaded from
# here: KBENCH_NO_AUTOLOAD=1), else from the built-in routines.  Saved
# result names are the *.json files of $XDG_DATA_HOME/kbench (or
# ~/.local/share/kbench), offered with the files of the current directory.

_kbenchctl_routines()
{
	local cmd=$1 json names
	json=$(KBENCH_NO_AUTOLOAD=1 "$cmd" --json list 2>/dev/null) && names=$(
		printf '%s\n' "$json" | grep -o '"name": *"[^"]*"' |
			sed 's/.*"\([^"]*\)"$/\1/')
	[ -n "$names" ] || names="empty add_chain mul_chain load_l1 ktime_get rdtsc"
	printf '%s\n' "$names"
}

_kbenchctl_results()
{
	local dir=${XDG_DATA_HOME:-}
	[[ "$dir" == /* ]] || dir=$HOME/.local/share
	compgen -f -- "$1"
	for f in "$dir"/kbench/*.json; do
		[ -e "$f" ] || continue
		f=${f##*/}
		printf '%s\n' "${f%.json}"
	done
}

_kbenchctl_subcommands()
{
	"$1" --help 2>/dev/null |
		sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
}

_kbenchctl()
{
	local cur prev cmd sub i w opts
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=${COMP_WORDS[0]}
	command -v "$cmd" >/dev/null 2>&1 || cmd=kbenchctl

	# the subcommand: the first word that is not a global option
	sub=
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case "$w" in
		--color) ((i++)) ;;	# its value is not the subcommand
		-*) ;;
		*) sub=$w; break ;;
		esac
	done

	if [ -z "$sub" ]; then
		if [ "$prev" = --color ]; then
			mapfile -t COMPREPLY < <(compgen -W 'auto never always' -- "$cur")
		elif [[ "$cur" == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W '--json --color --help --version' -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "help $(_kbenchctl_subcommands "$cmd")" -- "$cur")
		fi
		return 0
	fi

	case "$prev" in
	--color)
		mapfile -t COMPREPLY < <(compgen -W 'auto never always' -- "$cur")
		return 0 ;;
	--svg|--state|--output|-o)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		compopt -o filenames 2>/dev/null
		return 0 ;;
	--save|--baseline)
		mapfile -t COMPREPLY < <(compgen -W "$(_kbenchctl_results "$cur")" -- "$cur")
		return 0 ;;
	--commit)
		[ "$sub" = export ] && return 0	# a full hash
		mapfile -t COMPREPLY < <(compgen -W "HEAD $(git for-each-ref --format='%(refname:short)' 2>/dev/null)" -- "$cur")
		return 0 ;;
	--format|-f)
		[ "$sub" = export ] &&
			mapfile -t COMPREPLY < <(compgen -W "gbench kcidb lkp bmf gab" -- "$cur")
		return 0 ;;
	--fail-on)
		if [ "$sub" = history ]; then
			mapfile -t COMPREPLY < <(compgen -W "regressed inconclusive" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "regressed changed" -- "$cur")
		fi
		return 0 ;;
	--order)
		mapfile -t COMPREPLY < <(compgen -W "commit given" -- "$cur")
		return 0 ;;
	--fit)
		mapfile -t COMPREPLY < <(compgen -W "auto 1 logn n nlogn n2 n3" -- "$cur")
		return 0 ;;
	--arg)
		return 0 ;;	# a value or a sweep (kbenchctl list)
	--match)
		return 0 ;;
	--between)
		# run --runs R --between CMD: a shell command
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		return 0 ;;
	--runs)
		mapfile -t COMPREPLY < <(compgen -W "3 5 10" -- "$cur")
		return 0 ;;
	--cpu)
		mapfile -t COMPREPLY < <(compgen -W "$(seq 0 $(($(getconf _NPROCESSORS_CONF 2>/dev/null || echo 1) - 1)))" -- "$cur")
		return 0 ;;
	--cpus)
		mapfile -t COMPREPLY < <(compgen -W "all 1..$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" -- "$cur")
		return 0 ;;
	--*)
		# any other option with a value (its help says --name VALUE)
		"$cmd" help "$sub" 2>/dev/null |
			grep -q -- "^ *\(-[a-z], \)\?$prev [A-Z]" && return 0 ;;
	esac

	if [[ "$cur" == -* ]]; then
		opts=$("$cmd" help "$sub" 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
		mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
		return 0
	fi
	case "$sub" in
	help)
		[ "$COMP_CWORD" -eq $((i + 1)) ] &&
			mapfile -t COMPREPLY < <(compgen -W "$(_kbenchctl_subcommands "$cmd")" -- "$cur") ;;
	run|compare)
		mapfile -t COMPREPLY < <(compgen -W "$(_kbenchctl_routines "$cmd")" -- "$cur") ;;
	diff|export|history)
		mapfile -t COMPREPLY < <(compgen -W "$(_kbenchctl_results "$cur")" -- "$cur") ;;
	new)	# NAME, then DIR
		if [ "$COMP_CWORD" -eq $((i + 2)) ]; then
			mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			compopt -o filenames 2>/dev/null
		fi ;;
	esac
	return 0
}
complete -F _kbenchctl kbenchctl
