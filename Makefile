# Bulkhead: static-partitioning hypervisor for AArch64.
#
#   make run          boot the default partitions on QEMU
#   make test         every test; ends with "N passed, M failed"
#   make <board>_defconfig, menuconfig, savedefconfig, all, image, bench-*
#   make run BOARD=xilinx-zcu102 (or any board: its defconfig, in build/<board>)
#
# Everything is built under $(O) (default build/).

SHELL := /bin/bash
# BOARD=<vendor>-<board>: that board's defconfig, built in build/<vendor>-<board>.
ifneq ($(BOARD),)
O ?= build/$(BOARD)
DEFAULT_DEFCONFIG := $(BOARD)_defconfig
endif
O ?= build
BUILD := $(abspath $(O))
SRCTREE := $(abspath .)
CROSS_COMPILE ?= aarch64-linux-gnu-
DEFAULT_DEFCONFIG ?= qemu-virt_defconfig
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

export BUILD SRCTREE CROSS_COMPILE

.DEFAULT_GOAL := all
.PHONY: all run test deps menuconfig savedefconfig clean distclean help olddefconfig

help:
	@sed -n '2,8p' Makefile

deps:
	$(Q)bash ci/deps.sh

# ---------------------------------------------------------------- Kconfig
# kconfig_gen(outdir, defconfig-file): .config and autoconf.h in outdir.
define kconfig_gen
	$(Q)mkdir -p $(1)/include/config $(1)/include/generated
	$(Q)cd $(1) && srctree=$(SRCTREE) KCONFIG_CONFIG=.config \
		kconfig-conf --defconfig=$(2) $(SRCTREE)/Kconfig >/dev/null
	$(Q)cd $(1) && srctree=$(SRCTREE) KCONFIG_CONFIG=.config \
		kconfig-conf --silentoldconfig $(SRCTREE)/Kconfig
endef

# "<vendor>-<board>_defconfig" -> boards/<vendor>/<board>/defconfig
board_defconfig = $(SRCTREE)/boards/$(firstword $(subst -, ,$(1)))/$(patsubst $(firstword $(subst -, ,$(1)))-%,%,$(1))/defconfig

# CONFIG_FRAGMENTS: Kconfig fragments merged over the board's defconfig, the
# later winning (tools/kconfig/merge.sh); the result is checked against them.
CONFIG_FRAGMENTS ?=
%_defconfig:
	$(Q)test -f $(call board_defconfig,$*) || { echo "no board $* ($(call board_defconfig,$*))"; exit 1; }
	$(Q)mkdir -p $(BUILD)
	$(Q)bash tools/kconfig/merge.sh $(BUILD)/defconfig.merged $(call board_defconfig,$*) \
		$(abspath $(CONFIG_FRAGMENTS))
	$(call kconfig_gen,$(BUILD),$(BUILD)/defconfig.merged)
	$(Q)$(if $(CONFIG_FRAGMENTS),bash tools/kconfig/merge.sh -c $(BUILD)/.config $(abspath $(CONFIG_FRAGMENTS)))
	@echo "configured $* in $(O)/.config$(if $(CONFIG_FRAGMENTS), with $(CONFIG_FRAGMENTS))"

$(BUILD)/.config:
	$(Q)$(MAKE) --no-print-directory $(DEFAULT_DEFCONFIG)

# olddefconfig first: a symbol or choice entry added since .config was written
# takes its default instead of stopping silentoldconfig at a prompt.
$(BUILD)/include/generated/autoconf.h: $(BUILD)/.config Kconfig $(wildcard */Kconfig */*/Kconfig)
	$(Q)cd $(BUILD) && srctree=$(SRCTREE) KCONFIG_CONFIG=.config \
		kconfig-conf -s --olddefconfig $(SRCTREE)/Kconfig < /dev/null
	$(Q)cd $(BUILD) && srctree=$(SRCTREE) KCONFIG_CONFIG=.config \
		kconfig-conf --silentoldconfig $(SRCTREE)/Kconfig

olddefconfig: $(BUILD)/include/generated/autoconf.h

menuconfig: $(BUILD)/.config
	$(Q)cd $(BUILD) && srctree=$(SRCTREE) KCONFIG_CONFIG=.config kconfig-mconf $(SRCTREE)/Kconfig

savedefconfig: $(BUILD)/.config
	$(Q)cd $(BUILD) && srctree=$(SRCTREE) KCONFIG_CONFIG=.config \
		kconfig-conf --savedefconfig=defconfig $(SRCTREE)/Kconfig
	@echo "wrote $(O)/defconfig"

-include $(BUILD)/include/config/auto.conf

# ------------------------------------------------------------ sub-makes
include arch/host/host.mk
include arch/arm/arm.mk
include guests/guests.mk
include tests/tests.mk
-include $(wildcard mk/*.mk)

clean:
	rm -rf $(BUILD)/hyp $(BUILD)/host $(BUILD)/guests $(BUILD)/tests

distclean:
	rm -rf $(BUILD)
