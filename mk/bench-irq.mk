# make bench-irq: interrupt latency (virtual timer, assigned SPI, event
# upcall) in instructions under QEMU icount, Bulkhead and Xen 4.17, alone and
# with interference (tools/bench/irq.sh; figures in docs/performance.md).

.PHONY: bench-irq
bench-irq:
	$(Q)BUILD=$(BUILD) bash tools/bench/irq.sh
