#!/usr/bin/env bash
# The two grant-table lock configurations that only the benchmark uses
# (base, split-locks) must keep building and working: build all three
# bench variants and run each briefly (the bench checks every status and
# that every one-element unmap invalidated its VMID exactly once).
# VERIFIES: REQ-GNT-020
set -u
cd "$(dirname "$0")/../.."
build="${BUILD:-$(pwd)/build}"
log="$build/test-logs/gnttab-configs-build.log"
mkdir -p "$(dirname "$log")"
if ! make --no-print-directory -j2 bench-gnttab-bins > "$log" 2>&1; then
	echo "FAIL: gnttab-configs: build (log $log)"
	exit 0
fi
for c in base split percpu; do
	out=$("$build/host/bench/bench_gnttab-$c" "$c" 2 200 2>&1)
	if [[ "$out" =~ ^$c,2,[0-9]+$ ]]; then
		echo "PASS: gnttab-configs: $c builds, maps and unmaps ($out ops/s)"
	else
		echo "FAIL: gnttab-configs: $c: $out"
	fi
done
out=$("$build/host/bench/bench_gnttab-percpu" reference 2 200 --reference 2>&1)
if [[ "$out" =~ ^reference,2,[0-9]+$ ]]; then
	echo "PASS: gnttab-configs: nothing-shared reference runs"
else
	echo "FAIL: gnttab-configs: reference: $out"
fi
