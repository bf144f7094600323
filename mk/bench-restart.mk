# make bench-restart: crash-to-restart time of a partition in instructions,
# deterministic under QEMU -icount shift=0 (tools/bench/restart.sh,
# docs/performance.md). Writes $(BUILD)/bench/restart.csv.

.PHONY: bench-restart
bench-restart: run-build
	$(Q)BUILD=$(BUILD) bash tools/bench/restart.sh
