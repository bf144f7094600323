#!/usr/bin/env bash
# make bench-evtchn: sends/s and event-lock profile of the three
# CONFIG_EVTCHN_LOCK_* choices and the nothing-shared reference, T = 1, 2,
# 4 ... up to the core count. Writes build/bench/evtchn.csv and evtchn.png,
# then prints the lock profile of every configuration at the largest T.
# VERIFIES: REQ-EVT-026
set -euo pipefail
BIN="$1"   # directory with bench_evtchn-{domain,channel,lockless}
OUT="$2"   # build/bench
MS="${BENCH_MS:-1000}"
mkdir -p "$OUT"
ncpu=$(nproc)
threads=()
for ((t = 1; t <= ncpu && t <= 16; t *= 2)); do threads+=("$t"); done
[ "${threads[-1]}" -eq "$ncpu" ] || [ "$ncpu" -gt 16 ] || threads+=("$ncpu")
csv="$OUT/evtchn.csv"
echo "config,threads,sends_per_sec,lock_acquisitions,lock_contended" > "$csv"
for t in "${threads[@]}"; do
	"$BIN/bench_evtchn-domain" domain-lock "$t" "$MS" >> "$csv"
	"$BIN/bench_evtchn-channel" channel-lock "$t" "$MS" >> "$csv"
	"$BIN/bench_evtchn-lockless" channel-lock+lockless-unmask "$t" "$MS" >> "$csv"
	"$BIN/bench_evtchn-lockless" reference "$t" "$MS" --reference >> "$csv"
done
cat "$csv"
if command -v gnuplot >/dev/null; then
	gnuplot <<GP
set datafile separator ","
set terminal png size 900,560
set output "$OUT/evtchn.png"
set title "Event-channel send + unmask throughput ($ncpu cores, $(uname -m))"
set xlabel "sender threads T (vCPUs of one partition)"
set ylabel "sends/s (each with the receiver's unmask)"
set key left top
set logscale x 2
set yrange [0:*]
plot for [c in "domain-lock channel-lock channel-lock+lockless-unmask reference"] \
	"< grep '^".c.",' $csv" using 2:3 with linespoints title c
GP
	echo "wrote $csv and $OUT/evtchn.png"
else
	echo "wrote $csv (gnuplot missing: no plot)"
fi
t="${threads[-1]}"
echo "lock profile at T=$t (event-channel classes; wait in spins):"
"$BIN/bench_evtchn-domain" domain-lock "$t" "$MS" --profile 2>&1 >/dev/null | grep -E "lock profile|evtchn"
"$BIN/bench_evtchn-channel" channel-lock "$t" "$MS" --profile 2>&1 >/dev/null | grep -E "lock profile|evtchn"
"$BIN/bench_evtchn-lockless" channel-lock+lockless-unmask "$t" "$MS" --profile 2>&1 >/dev/null |
	grep -E "lock profile|evtchn"
