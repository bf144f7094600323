#!/usr/bin/env bash
# Robustness scenarios in make test: a hostile partition next to a victim's
# ping-pong, and partition restart (see docs/requirements/robustness.md).
# The scenario files name the requirements they verify.
set -u
cd "$(dirname "$0")/../.."
scns=()
for s in hostile restart; do
	[ -f "tests/qemu/scenarios/$s.scn" ] && scns+=("$s")
done
exec bash tests/qemu/scenarios.sh "${scns[@]}"
