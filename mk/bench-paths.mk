# make bench-paths: hypercall, grant and event path lengths in instructions
# under QEMU -icount shift=0 on Bulkhead (xpfo on and off) and Xen 4.17
# (tools/bench/paths.sh; figures in docs/performance.md).

.PHONY: bench-paths
bench-paths: fetch
	$(Q)BUILD=$(BUILD) bash tools/bench/paths.sh
