#!/usr/bin/env bash
# Split block I/O scenarios (tests/qemu/scenarios/blk-*.scn) as a `make test`
# suite: 1 and 3 frontends in each data mode, malformed and crashed frontends.
set -u
cd "$(dirname "$0")/../.."
mapfile -t names < <(cd tests/qemu/scenarios && ls blk-*.scn | sed 's/\.scn$//')
TIMEOUT="${TIMEOUT:-90}" bash tests/qemu/scenarios.sh "${names[@]}"
