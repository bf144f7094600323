# make run: build the configured hypervisor (default qemu-virt_defconfig) and
# the test partitions, then boot the demo configuration on QEMU virt.
#
#   make run [RUN_DTSI=dts/...dtsi] [RUN_CPU=cortex-a53] [RUN_TIMEOUT=seconds, 0 = none]
#
# QEMU's exit status is the hypervisor's verdict (semihosting SYS_EXIT):
# 0 when every partition shut down cleanly, non-zero when one crashed.

RUN_DTSI ?= dts/qemu-virt-demo.dtsi
RUN_CPU ?= cortex-a57
RUN_TIMEOUT ?= 120
run_gic = $(if $(filter y,$(CONFIG_GICV2)),2,3)

.PHONY: run run-build
run-build:
	$(Q)bash ci/deps.sh
	$(Q)$(MAKE) --no-print-directory olddefconfig
	$(Q)$(MAKE) --no-print-directory hyp guests

run: run-build
	$(Q)$(MAKE) --no-print-directory run-qemu

# A fresh make, so that the configuration just written is the one read.
.PHONY: run-qemu
run-qemu:
	$(Q)bash tools/qemu/run.sh -g $(run_gic) -c $(RUN_CPU) -t $(RUN_TIMEOUT) \
		-k $(BUILD)/bulkhead.bin -l $(BUILD)/run/$(notdir $(basename $(RUN_DTSI))).log \
		$(RUN_DTSI)
