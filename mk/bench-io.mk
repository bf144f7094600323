# make bench-io: split block I/O (guests/blkback + blkfront) per mode, request
# size and frontend count, Bulkhead and Xen 4.17 side by side (issue 7).
# Writes $(BUILD)/bench/io.csv and io.png. Knobs (environment): REPS, REQS,
# QD, MODES, SIZES, FES, XEN=0, PLOT_ONLY=1 (see tools/bench/io.sh). Rows carry
# an xpfo column: Bulkhead runs with CONFIG_XPFO=y and =n (issue 8).

.PHONY: bench-io
bench-io: run-build fetch
	$(Q)BUILD=$(BUILD) bash tools/bench/io.sh $(BUILD)/bench

# make bench-io-icount: the same runs under -icount shift=0 (deterministic
# instructions per request, Bulkhead only); io-icount.csv and io-icount.png.
.PHONY: bench-io-icount
bench-io-icount: run-build
	$(Q)ICOUNT=1 BUILD=$(BUILD) bash tools/bench/io.sh $(BUILD)/bench
