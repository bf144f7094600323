# make bench-linux-io: unmodified Linux frontends (xen-blkfront) on the
# bare-metal block backend over xenbus: 1-3 Linux partitions, persistent
# grants offered or not, 4 KiB and 64 KiB O_DIRECT requests at queue depth 1
# and 8, under QEMU -icount (deterministic) and wall clock (medians of REPS
# runs). Writes $(BUILD)/bench/linux-io.csv and linux-io.png. Knobs
# (environment): CLOCKS, FES, PERS, SIZES, QDS, REPS, WINDOW_ICOUNT,
# WINDOW_WALL, T0_ICOUNT, T0_WALL, PLOT_ONLY=1 (tools/bench/linux-io.sh).

.PHONY: bench-linux-io
bench-linux-io: fetch
	$(Q)BUILD=$(BUILD) bash tools/bench/linux-io.sh $(BUILD)/bench
