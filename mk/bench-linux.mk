# make bench-linux: Debian's Linux as a partition (alone, and beside a bare-metal one)
# under QEMU -icount shift=0 (deterministic): instructions from hypervisor
# entry to Linux's first console line and to /init, and the event round
# trip between Linux's xenpeer and the bare-metal partition (median, p99,
# max over 1,000), GICv3 and GICv2 (tools/bench/linux.sh; figures in
# docs/performance.md). Writes $(BUILD)/bench/linux-boot.csv, linux-rtt.csv,
# linux-rtt-samples.csv and linux.png.

.PHONY: bench-linux
bench-linux:
	$(Q)BUILD=$(BUILD) bash tools/bench/linux.sh $(BUILD)/bench
