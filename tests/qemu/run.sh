#!/usr/bin/env bash
# QEMU scenario suite, as tests/run-tests.sh runs it: every scenario in
# tests/qemu/scenarios/ on its GIC/CPU combinations (see scenarios.sh),
# except those another suite owns and runs already (tests/blkio: blk-*,
# tests/robust: hostile and restart), so none runs twice in make test.
set -u
cd "$(dirname "$0")/../.."
mapfile -t names < <(cd tests/qemu/scenarios && ls ./*.scn | sed 's|^\./||; s/\.scn$//' |
	grep -vE '^(blk-.*|hostile|restart)$')
exec bash tests/qemu/scenarios.sh "${names[@]}" "$@"
