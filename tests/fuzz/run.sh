#!/usr/bin/env bash
# libFuzzer harnesses (tests/fuzz/README.md): replay the committed corpus,
# then fuzz each harness for FUZZ_SECONDS (default 30 s each
# in make test, which must stay well inside CI's 30 minutes with every
# harness; make fuzz runs 60 s each, FUZZ_SECONDS=600 make fuzz for long runs). New inputs go to
# build/fuzz/corpus/<harness>, crashes to build/fuzz/artifacts/; the
# committed corpus is never modified.
# VERIFIES: REQ-FUZ-001 REQ-FUZ-002 REQ-FUZ-003
set -u
BUILD="${BUILD:-$(pwd)/build}"
SECS="${FUZZ_SECONDS:-30}"
BIN="$BUILD/host/fuzz-bin"
OUT="$BUILD/fuzz"
rc=0
shopt -s nullglob
bins=("$BIN"/fuzz_*)
if [ "${#bins[@]}" -eq 0 ]; then
	echo "FAIL: fuzz: no harnesses under $BIN (make fuzz-bins)"
	exit 1
fi
for b in "${bins[@]}"; do
	name=$(basename "$b")
	name=${name#fuzz_}
	seeds="tests/fuzz/corpus/$name"
	work="$OUT/corpus/$name"
	log="$OUT/$name.log"
	mkdir -p "$work" "$OUT/artifacts"
	common=(-timeout=10 -rss_limit_mb=2048 -max_len=4096 -artifact_prefix="$OUT/artifacts/$name-")
	if [ -d "$seeds" ]; then
		files=("$seeds"/*)
		if timeout 300 "$b" "${common[@]}" -runs=0 "${files[@]}" > "$log.replay" 2>&1; then
			echo "PASS: fuzz/$name-corpus (${#files[@]} inputs replayed)"
		else
			echo "FAIL: fuzz/$name-corpus: an input of $seeds fails (log $log.replay)"
			grep -m3 -E 'ERROR|SUMMARY|panic' "$log.replay" | sed 's/^/  /'
			rc=1
		fi
	else
		echo "FAIL: fuzz/$name-corpus: no seed corpus $seeds"
		rc=1
	fi
	[ -d "$seeds" ] || seeds=
	if timeout $((SECS + 120)) "$b" "${common[@]}" -max_total_time="$SECS" \
		-print_final_stats=1 "$work" ${seeds:+"$seeds"} > "$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "PASS: fuzz/$name (${runs:-?} runs in ${SECS}s)"
	else
		echo "FAIL: fuzz/$name: crash or hang (log $log; reproducer in $OUT/artifacts/)"
		grep -m3 -E 'ERROR|SUMMARY|panic' "$log" | sed 's/^/  /'
		rc=1
	fi
done
exit $rc
