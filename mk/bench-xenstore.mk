# make bench-xenstore: requests per second and latency (instructions, QEMU
# -icount) of READ and WRITE from one and three clients of the xenstore
# partition, and boot to every client connected (tools/bench/xenstore.sh).
# Writes $(BUILD)/bench/xenstore.csv, xenstore-connect.csv and xenstore.png.

.PHONY: bench-xenstore
bench-xenstore:
	$(Q)BUILD=$(BUILD) bash tools/bench/xenstore.sh $(BUILD)/bench
