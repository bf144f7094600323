#!/usr/bin/env bash
# Runs every test and prints one closing line "N passed, M failed, K skipped".
#
# Host programs under build/host/{tests,stress}: cmocka programs report in
# TAP (ok / not ok / ok # SKIP); others print "PASS: name" / "FAIL: name" /
# "SKIP: name (why)". Scenario suites are tests/*/run.sh, which print the
# same lines. A program that dies without reporting a failure counts as one
# failure. Nothing in a default suite may skip: a skip fails the run too, so
# CI cannot be green while a test did not run.
set -u
BUILD="${BUILD:-$(pwd)/build}"
LOGDIR="$BUILD/test-logs"
mkdir -p "$LOGDIR"
passed=0
failed=0
skipped=0
failures=()
skips=()

count() { # $1 = name, $2 = log, $3 = exit code
	local p f k
	p=$(grep -E '^(ok [0-9]+|PASS: )' "$2" | grep -cvE '^ok [0-9]+.*# *SKIP' || true)
	f=$(grep -cE '^(not ok [0-9]+|FAIL: )' "$2" || true)
	k=$(grep -cE '^(SKIP: |ok [0-9]+.*# *SKIP)' "$2" || true)
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL: $1 exited with status $3" >> "$2"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + k))
	if [ "$f" -ne 0 ]; then
		failures+=("$1 (log: $2)")
		grep -E '^(not ok|FAIL: )' "$2" | sed 's/^/    /' | head -20
	fi
	if [ "$k" -ne 0 ]; then
		skips+=("$1 (log: $2)")
		grep -E '^(SKIP: |ok [0-9]+.*# *SKIP)' "$2" | sed 's/^/    /' | head -20
	fi
	printf '%-40s %4d passed %4d failed %4d skipped %5d s\n' "$1" "$p" "$f" "$k" "${4:-0}"
}

run_prog() { # $1 = name, $2.. = command
	local name="$1" log="$LOGDIR/${1//\//_}.log" rc t0=$SECONDS
	shift
	CMOCKA_MESSAGE_OUTPUT=TAP timeout "${TEST_TIMEOUT:-600}" "$@" > "$log" 2>&1
	rc=$?
	count "$name" "$log" "$rc" $((SECONDS - t0))
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
if [ "${#skips[@]}" -ne 0 ]; then
	echo "skipped (a default suite may not skip; this run fails):"
	printf '  %s\n' "${skips[@]}"
fi
echo "time: $SECONDS s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$skipped" -eq 0 ] && [ "$passed" -gt 0 ]
