#!/usr/bin/env bash
# Fast, enforced part of the certification evidence (docs/safety/README.md):
# MISRA C:2012 against the deviation register, the requirements matrix, the
# worst-case stack bound, the absence of recursion, loop bounds and the coverage
# targets. Inputs (stack-usage objects, the coverage build of the unit tests,
# the qemu-virt configuration) come from `make test-build`.
# The full report with Spin and test results is `make evidence`.
# VERIFIES: REQ-EVD-001 REQ-EVD-002 REQ-EVD-003 REQ-EVD-005 REQ-EVD-006
set -u
BUILD="${BUILD:-$(pwd)/build}"
python3 tools/evidence/evidence.py --build "$BUILD" --fast
rc=$?
python3 tests/evidence/selftest.py || rc=1
exit $rc
