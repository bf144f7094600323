#!/usr/bin/env bash
# Merges Kconfig fragments into a defconfig, the later file winning, the way
# Linux's merge_config.sh does: every symbol a fragment sets (CONFIG_X=...,
# or "# CONFIG_X is not set") replaces what came before, so the result says
# each symbol once and never depends on file timestamps.
#
#   merge.sh OUT BASE [FRAGMENT...]    writes OUT
#   merge.sh -c CONFIG FRAGMENT...     checks that the final .config holds
#                                      every value the fragments asked for
set -euo pipefail

sym() { # the symbol a line sets, or nothing
	sed -nE 's/^(CONFIG_[A-Za-z0-9_]+)=.*/\1/p; s/^# (CONFIG_[A-Za-z0-9_]+) is not set.*/\1/p' <<< "$1"
}

if [ "${1:-}" = -c ]; then
	config=$2
	shift 2
	bad=0
	for f in "$@"; do
		while IFS= read -r line; do
			s=$(sym "$line")
			[ -n "$s" ] || continue
			want=$line
			[[ $line == *=n ]] && want="# $s is not set"
			have=$(grep -E "^$s=|^# $s is not set" "$config" || true)
			[ -z "$have" ] && [[ $want == "# "* ]] && continue # an unset symbol that is not visible
			if [ "$have" != "$want" ]; then
				echo "kconfig: $f asks for '$want', the configuration has '${have:-nothing}' (a dependency is missing?)" >&2
				bad=1
			fi
		done < "$f"
	done
	exit $bad
fi

out=$1
shift
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for f in "$@"; do
	[ -f "$f" ] || { echo "kconfig: no fragment $f" >&2; exit 1; }
	while IFS= read -r line; do
		s=$(sym "$line")
		# drop what an earlier file said of this symbol, then take this line
		[ -n "$s" ] && sed -i -E "/^$s=|^# $s is not set/d" "$tmp"
		printf '%s\n' "$line" >> "$tmp"
	done < "$f"
done
mv "$tmp" "$out"
trap - EXIT
