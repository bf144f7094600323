# make bench-paths: hypercall, grant and event path lengths in instructions
# under QEMU -icount shift=0 on Bulkhead (xpfo on and off) and Xen 4.17
# (tools/bench/paths.sh; figures in docs/performance.md). BOARD=xilinx-zcu102:
# the same on QEMU's ZCU102 model, into build/xilinx-zcu102/bench/.

.PHONY: bench-paths
bench-paths: fetch
	$(Q)BUILD=$(BUILD) BENCH_BOARD=$(or $(BOARD),qemu-virt) bash tools/bench/paths.sh
