# Boot path: test device trees and the build-time configuration checker.
#
#   make check-dtb DTB=system.dtb [MODULES="ADDR=FILE ..."]
#                                   check a system device tree (dom0less partitions)
#                                   against this build's Kconfig ($(O)/.config) and, once
#                                   built, its image's place in RAM; fails
#                                   with "dts: <node>: <what>, <limit>" like the boot does
#
# The checker is a host program built from the hypervisor's own parser
# (common/fdt.c, common/dom0less.c), so build time and boot agree.

CHECK_DTB := $(BUILD)/tools/check-dtb
CHECK_DTB_SRCS := tools/check-dtb/check-dtb.c common/fdt.c common/dom0less.c common/dom0less_dev.c common/hwdesc.c \
	common/dom0less_vbd.c common/dom0less_xs.c common/dom0less_shm.c \
	common/lib/vsnprintf.c
BOOT_TEST_DTS := $(wildcard tests/unit/dts/*.dts tests/config/dts/*.dts)
BOOT_TEST_DTBS := $(patsubst %.dts,$(HOST_DIR)/dts/%.dtb,$(notdir $(BOOT_TEST_DTS)))
# Partial device trees (multiboot,device-tree modules) of the config cases.
BOOT_PARTIAL_DTS := $(wildcard tests/config/dts/partial/*.dts)
BOOT_TEST_DTBS += $(patsubst %.dts,$(HOST_DIR)/dts/partial-%.dtb,$(notdir $(BOOT_PARTIAL_DTS)))

$(CHECK_DTB): $(CHECK_DTB_SRCS) $(wildcard include/bulkhead/*.h) \
		tools/check-dtb/include/generated/autoconf.h
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O1 -g \
		-Itools/check-dtb/include -Iinclude -o $@ $(CHECK_DTB_SRCS)

$(HOST_DIR)/dts/%.dtb: tests/unit/dts/%.dts
	@mkdir -p $(dir $@)
	$(Q)dtc -q -I dts -O dtb -o $@ $<

$(HOST_DIR)/dts/partial-%.dtb: tests/config/dts/partial/%.dts
	@mkdir -p $(dir $@)
	$(Q)dtc -q -I dts -O dtb -o $@ $<

# Over-limit trees also leave their "// CONFIG:", "// MODULE:", "// HYP:" and
# "// EXPECT:" lines beside the blob, for tests/unit/test_dom0less.c.
$(HOST_DIR)/dts/%.dtb: tests/config/dts/%.dts tests/config/dts/virt.dtsi mk/boot.mk
	@mkdir -p $(dir $@)
	$(Q)dtc -q -I dts -O dtb -o $@ $<
	$(Q)sed -n 's|^// EXPECT: ||p' $< > $(@:.dtb=.expect)
	$(Q)sed -n 's|^// CONFIG: ||p' $< | tr ' ' '\n' > $(@:.dtb=.config)
	$(Q)sed -n 's|^// MODULE: ||p' $< > $(@:.dtb=.modules)
	$(Q)sed -n 's|^// HYP: ||p' $< > $(@:.dtb=.hyp)

.PHONY: check-dtb boot-test-dtbs
boot-test-dtbs: $(BOOT_TEST_DTBS)
test-build: $(BOOT_TEST_DTBS) $(CHECK_DTB)

check-dtb: $(CHECK_DTB) $(BUILD)/include/generated/autoconf.h
	@test -n "$(DTB)" || { echo "usage: make check-dtb DTB=path/to/system.dtb" >&2; exit 2; }
	$(Q)hyp=; if [ -f $(BUILD)/bulkhead.elf ]; then \
		s=0x$$($(CROSS_COMPILE)nm $(BUILD)/bulkhead.elf | awk '$$3 == "_start" { print $$1 }'); \
		e=0x$$($(CROSS_COMPILE)nm $(BUILD)/bulkhead.elf | awk '$$3 == "_end" { print $$1 }'); \
		hyp="--hyp $$s=$$((e - s))"; fi; \
	$(CHECK_DTB) --config $(BUILD)/include/generated/autoconf.h \
		$(foreach m,$(MODULES),--module $(m)) $$hyp $(DTB)
