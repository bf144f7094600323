#!/usr/bin/env bash
# Spin models: every docs/models/*.pml is generated, compiled and searched
# exhaustively. A model names its own flags in comment lines:
#   cc: <gcc flags for pan.c>     pan: <flags for ./pan>
# PASS only when spin reports no errors and the search completed.
# VERIFIES: REQ-GNT-019 (docs/models/maptrack.pml)
# VERIFIES: REQ-GNT-021 (docs/models/unmap_flush.pml)
# VERIFIES: REQ-EVT-028 (docs/models/evtchn_send_close.pml, docs/models/fifo_link.pml)
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="${BUILD:-$root/build}/spin"
mkdir -p "$work"
command -v spin >/dev/null || { echo "FAIL: spin not installed (ci/deps.sh)"; exit 1; }
for model in "$root"/docs/models/*.pml; do
	[ -f "$model" ] || continue
	name=$(basename "$model" .pml)
	dir="$work/$name"
	rm -rf "$dir" && mkdir -p "$dir"
	cc_flags=$(sed -n 's/^[ *]*cc: *\(.*\)$/\1/p' "$model" | head -1)
	pan_flags=$(sed -n 's/^[ *]*pan: *\(.*\)$/\1/p' "$model" | head -1)
	if ! (cd "$dir" && spin -a "$model" > spin.log 2>&1 &&
	      gcc -O2 $cc_flags -o pan pan.c > cc.log 2>&1 &&
	      timeout 120 ./pan $pan_flags > pan.log 2>&1); then
		: # pan exits 0 even with errors; the checks below decide
	fi
	if grep -q "errors: 0" "$dir/pan.log" 2>/dev/null &&
	   ! grep -qE "^pan:[0-9]+:|assertion violated|max search depth too small" "$dir/pan.log"; then
		echo "PASS: spin $name ($(grep -m1 -o '[0-9e+.]* states, stored' "$dir/pan.log"))"
	else
		echo "FAIL: spin $name (see $dir)"
		tail -15 "$dir/pan.log" 2>/dev/null || cat "$dir/spin.log" "$dir/cc.log"
	fi
done
