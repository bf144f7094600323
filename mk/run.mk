# make run: build the configured hypervisor (default qemu-virt_defconfig) and
# the test partitions, then boot the demo configuration on the board's QEMU
# machine: virt, or the Xilinx models (boards/xilinx/).
#
#   make run [BOARD=xilinx-zcu102|xilinx-versal-virt] [RUN_DTSI=dts/...dtsi]
#            [RUN_CPU=cortex-a53] [RUN_TIMEOUT=seconds, 0 = none]
#
# BOARD= configures that board's defconfig in build/<board> (Makefile). The
# ZCU102 boots with the vendor's device tree, which make fetch provides.
# QEMU's exit status is the hypervisor's verdict (semihosting SYS_EXIT):
# 0 when every partition shut down cleanly, non-zero when one crashed.

# The demo: four partitions; Versal's model has two CPUs, so two there.
RUN_DTSI ?= $(if $(filter y,$(CONFIG_BOARD_XILINX_VERSAL_VIRT)),dts/xilinx-versal-virt-demo.dtsi,dts/qemu-virt-demo.dtsi)
RUN_CPU ?= cortex-a57
RUN_TIMEOUT ?= 120
run_gic = $(if $(filter y,$(CONFIG_GICV2)),2,3)
run_machine = $(if $(filter y,$(CONFIG_BOARD_XILINX_ZCU102)),xlnx-zcu102,$(if \
	$(filter y,$(CONFIG_BOARD_XILINX_VERSAL_VIRT)),xlnx-versal-virt,virt))

.PHONY: run run-build
run-build:
	$(Q)bash ci/deps.sh
	$(Q)$(MAKE) --no-print-directory olddefconfig
	$(Q)$(MAKE) --no-print-directory hyp guests run-fetch

# The vendor tree the ZCU102 boots with (a fresh make: the configuration is read).
.PHONY: run-fetch
run-fetch:
	$(if $(filter xlnx-zcu102,$(run_machine)),$(Q)$(MAKE) --no-print-directory fetch)

run: run-build
	$(Q)$(MAKE) --no-print-directory run-qemu

# A fresh make, so that the configuration just written is the one read.
.PHONY: run-qemu
run-qemu:
	$(Q)GUESTDIR=$(GUEST_DIR) bash tools/qemu/run.sh -M $(run_machine) -g $(run_gic) \
		-c $(RUN_CPU) -t $(RUN_TIMEOUT) \
		-k $(BUILD)/bulkhead.bin -l $(BUILD)/run/$(notdir $(basename $(RUN_DTSI))).log \
		$(RUN_DTSI)
