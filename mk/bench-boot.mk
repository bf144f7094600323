# make bench-boot: boot time of the demo configuration in instructions,
# deterministic under QEMU -icount shift=0 (see docs/performance.md).
# Writes $(BUILD)/bench/boot.csv and $(BUILD)/bench/boot.png.

.PHONY: bench-boot
bench-boot: run-build
	$(Q)BUILD=$(BUILD) bash tools/bench/boot.sh $(RUN_DTSI)
