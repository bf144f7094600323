#!/usr/bin/env bash
# Fast, enforced part of the certification evidence (docs/safety/README.md):
# MISRA C:2012 against the deviation register, the requirements matrix, the
# worst-case stack bound, the absence of recursion and loop bounds. Inputs (stack-usage
# objects, the qemu-virt configuration) come from `make test-build`.
# The full report with coverage, Spin and test results is `make evidence`.
# VERIFIES: REQ-EVD-001 REQ-EVD-002 REQ-EVD-003 REQ-EVD-005
set -u
BUILD="${BUILD:-$(pwd)/build}"
python3 tools/evidence/evidence.py --build "$BUILD" --fast
rc=$?
python3 tests/evidence/selftest.py || rc=1
exit $rc
