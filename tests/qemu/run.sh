#!/usr/bin/env bash
# QEMU scenario suite, as tests/run-tests.sh runs it: every scenario in
# tests/qemu/scenarios/ on its GIC/CPU combinations (see scenarios.sh).
exec bash "$(dirname "$0")/scenarios.sh" "$@"
