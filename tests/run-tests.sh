#!/usr/bin/env bash
# Runs every test and prints one closing line "N passed, M failed".
#
# Host programs under build/host/{tests,stress}: cmocka programs report in
# TAP (ok / not ok); others print "PASS: name" / "FAIL: name". Scenario
# suites are tests/*/run.sh, which print the same PASS/FAIL lines. A program
# that dies without reporting a failure counts as one failure.
set -u
BUILD="${BUILD:-$(pwd)/build}"
LOGDIR="$BUILD/test-logs"
mkdir -p "$LOGDIR"
passed=0
failed=0
failures=()

count() { # $1 = name, $2 = log, $3 = exit code
	local p f
	p=$(grep -cE '^(ok [0-9]+|PASS: )' "$2" || true)
	f=$(grep -cE '^(not ok [0-9]+|FAIL: )' "$2" || true)
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL: $1 exited with status $3" >> "$2"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		failures+=("$1 (log: $2)")
		grep -E '^(not ok|FAIL: )' "$2" | sed 's/^/    /' | head -20
	fi
	printf '%-40s %4d passed %4d failed\n' "$1" "$p" "$f"
}

run_prog() { # $1 = name, $2.. = command
	local name="$1" log="$LOGDIR/${1//\//_}.log" rc
	shift
	CMOCKA_MESSAGE_OUTPUT=TAP timeout "${TEST_TIMEOUT:-600}" "$@" > "$log" 2>&1
	rc=$?
	count "$name" "$log" "$rc"
}

for t in "$BUILD"/host/tests/test_*; do
	[ -x "$t" ] || continue
	run_prog "unit/$(basename "$t")" "$t"
done
for t in "$BUILD"/host/stress/stress_*; do
	[ -x "$t" ] || continue
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" run_prog "stress/$(basename "$t")" "$t"
done
for s in tests/*/run.sh; do
	[ -f "$s" ] || continue
	suite=$(basename "$(dirname "$s")")
	[ "$suite" = "." ] && continue
	if [ -n "${TEST_SUITES:-}" ] && ! [[ " $TEST_SUITES " == *" $suite "* ]]; then continue; fi
	run_prog "suite/$suite" bash "$s"
done

if [ "${#failures[@]}" -ne 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
