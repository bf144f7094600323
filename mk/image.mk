# Flashable images: FIT + boot.scr + SD card image, and booting them on QEMU
# through Debian's U-Boot (docs/flashing.md).
#
#   make image        $(O)/bulkhead.itb, $(O)/boot.scr, $(O)/sdcard.img
#   make run-uboot    QEMU virt + u-boot-qemu booting $(O)/sdcard.img
#
# Inputs (override on the command line):
#   IMAGE_DTSI        partitions (dts/*.dtsi, GUEST() placeholders) for QEMU
#                     boards (default RUN_DTSI, the `make run` demo)
#   IMAGE_HYP         hypervisor arm64 Image         (default $(O)/bulkhead.bin)
#   IMAGE_HYP_ADDR    its load = entry address       (default CONFIG_HYP_LOAD_ADDR)
#   IMAGE_DTB         system device tree blob        (default: composed, below)
#   IMAGE_MODULES     "ADDR FILE" per /chosen module (default: composed, below)
#   KEY_DIR, KEY_NAME sign the FIT configuration with KEY_DIR/KEY_NAME.{key,crt}
#                     and write $(O)/u-boot-pubkey.dtb (public key, required)
#   UBOOT_DTB         U-Boot control DT to add the key to (default: an empty one)
#   BOOT_FILES        extra files for the FAT partition (board firmware)

IMAGE_HYP ?= $(BUILD)/bulkhead.bin
IMAGE_HYP_ADDR ?= $(CONFIG_HYP_LOAD_ADDR)
IMAGE_DIR ?= $(BUILD)
IMAGE_DTSI ?= $(RUN_DTSI)
UBOOT_BIOS ?= /usr/lib/u-boot/qemu_arm64/u-boot.bin
RUN_CPU ?= cortex-a57
RUN_TIMEOUT ?= 120
image_gic = $(if $(filter y,$(CONFIG_GICV2)),2,3)

# The system device tree is the one `make run` boots with -kernel: the
# machine's tree (QEMU's own on virt and Versal, the vendor's on the ZCU102)
# plus the partitions of IMAGE_DTSI, every module at the address
# tools/qemu/mkdtb.sh gives it. Its loader list (the QEMU -device loader
# arguments) becomes the FIT manifest, so both boot paths put every module at
# the same address.
image_machine = $(if $(filter y,$(CONFIG_BOARD_XILINX_ZCU102)),-M xlnx-zcu102 -m 2G,$(if \
	$(filter y,$(CONFIG_BOARD_XILINX_VERSAL_VIRT)),-M xlnx-versal-virt -m 2G -k $(IMAGE_HYP),-s 4 -m 1G))
ifneq ($(filter y,$(CONFIG_BOARD_QEMU_VIRT) $(CONFIG_BOARD_XILINX_ZCU102) $(CONFIG_BOARD_XILINX_VERSAL_VIRT)),)
IMAGE_DTB ?= $(IMAGE_DIR)/image/system.dtb
IMAGE_MODULES ?= $(IMAGE_DIR)/image/system.modules
$(IMAGE_DIR)/image/system.dtb: $$(IMAGE_DTSI) tools/qemu/mkdtb.sh guests FORCE
	@mkdir -p $(dir $@)
	$(Q)tools/qemu/mkdtb.sh $(image_machine) -g $(image_gic) -c $(RUN_CPU) -G $(GUEST_DIR) \
		-o $@ $(IMAGE_DTSI)
	$(Q)sed -n 's/^loader,file=\([^,]*\),addr=\([^,]*\),.*/\2 \1/p' $(@:.dtb=.loader) \
		> $(IMAGE_MODULES)
$(IMAGE_MODULES): $(IMAGE_DTB)
else ifneq ($(CONFIG_BOARD),)
# Hardware boards: dts/<board>.dts is the whole system device tree (hardware
# and /chosen, with fixed module addresses), dts/<board>.modules names the
# partition image at each address. Partition images are board-independent.
image_board := $(patsubst "%",%,$(CONFIG_BOARD))
IMAGE_SHRINK := -S
IMAGE_DTB ?= $(IMAGE_DIR)/image/system.dtb
IMAGE_MODULES ?= $(IMAGE_DIR)/image/system.modules
$(IMAGE_DIR)/image/system.dtb: dts/$(image_board).dts FORCE
	@mkdir -p $(dir $@)
	$(Q)dtc -I dts -O dtb -o $@ $<
$(IMAGE_DIR)/image/system.modules: dts/$(image_board).modules guests
	@mkdir -p $(dir $@)
	$(Q)sed -n 's|^\(0x[0-9a-fA-F]*\)[[:space:]]\{1,\}\([A-Za-z0-9_-]\{1,\}\)$$|\1 $(GUEST_DIR)/\2.bin|p' \
		$< > $@
endif

IMAGE_ITS := $(IMAGE_DIR)/bulkhead.its
IMAGE_ITB := $(IMAGE_DIR)/bulkhead.itb
IMAGE_SCR := $(IMAGE_DIR)/boot.scr
IMAGE_SD := $(IMAGE_DIR)/sdcard.img
IMAGE_PUBDTB := $(IMAGE_DIR)/u-boot-pubkey.dtb
IMAGE_TOOLS := $(wildcard tools/image/*)
# mkimage stamps every image with the time: pin it so builds are reproducible.
IMAGE_EPOCH := $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null),315532800)

ifneq ($(KEY_DIR)$(KEY_NAME),)
ifeq ($(KEY_DIR),)
$(error KEY_NAME given without KEY_DIR)
endif
ifeq ($(KEY_NAME),)
$(error KEY_DIR given without KEY_NAME)
endif
IMAGE_SIGN := 1
endif

# `image` configures first, then builds in fresh makes that read the
# configuration just written (which board.c, which UART driver), as `make run`
# does. `image-files` builds from whatever the IMAGE_* variables name.
.PHONY: image image-files run-uboot FORCE
image:
	$(Q)bash ci/deps.sh
	$(Q)$(MAKE) --no-print-directory olddefconfig
	$(Q)$(MAKE) --no-print-directory hyp guests run-fetch
	$(Q)$(MAKE) --no-print-directory image-files

image-files: $(IMAGE_ITB) $(IMAGE_SCR) $(IMAGE_SD)
	@ls -l $(IMAGE_ITB) $(IMAGE_SCR) $(IMAGE_SD) $(if $(IMAGE_SIGN),$(IMAGE_PUBDTB)) | \
		awk '{ printf "  %-10d %s\n", $$5, $$NF }'

# Always regenerated: the module files are named only inside the manifest,
# so make cannot see them change, and the whole pass takes well under a second.
# The build refuses a system device tree the hypervisor would refuse at boot
# (same checker, same message naming the node and the limit). DTB_CHECK=0
# skips it, only to test the hypervisor's own refusal at boot. An image
# around a test payload instead of a configured hypervisor has no Kconfig
# limits to check against.
DTB_CHECK ?= 1
$(IMAGE_ITS): $(IMAGE_HYP) $(IMAGE_DTB) $(IMAGE_MODULES) $(if $(filter 1,$(DTB_CHECK)),$(CHECK_DTB)) FORCE
	$(Q)if [ "$(DTB_CHECK)" = 1 ] && [ -f $(BUILD)/include/generated/autoconf.h ]; then \
		$(CHECK_DTB) --config $(BUILD)/include/generated/autoconf.h $(IMAGE_DTB); fi
	@mkdir -p $(dir $@)
	$(Q)test -n "$(IMAGE_HYP_ADDR)" || { echo "image: no hypervisor load address \
		(CONFIG_HYP_LOAD_ADDR unset; pass IMAGE_HYP_ADDR=)"; exit 1; }
	$(Q)tools/image/mkits.sh -o $@ -H $(IMAGE_HYP) -a $(IMAGE_HYP_ADDR) -d $(IMAGE_DTB) \
		$(if $(wildcard $(IMAGE_MODULES)),-m $(IMAGE_MODULES)) \
		$(if $(IMAGE_SIGN),-k $(KEY_NAME)) -A $(IMAGE_DIR)/fit-addr $(IMAGE_SHRINK)

$(IMAGE_ITB): $(IMAGE_ITS)
ifdef IMAGE_SIGN
	$(Q)test -f $(KEY_DIR)/$(KEY_NAME).key || { echo "image: no $(KEY_DIR)/$(KEY_NAME).key"; exit 1; }
	$(Q)if [ -n "$(UBOOT_DTB)" ]; then dtc -q -I dtb -O dtb -o $(IMAGE_PUBDTB) $(UBOOT_DTB); else \
		echo '/dts-v1/; / { };' | dtc -q -I dts -O dtb -o $(IMAGE_PUBDTB) -; fi
	$(Q)SOURCE_DATE_EPOCH=$(IMAGE_EPOCH) mkimage -q -f $< -k $(KEY_DIR) -K $(IMAGE_PUBDTB) -r $@
else
	$(Q)SOURCE_DATE_EPOCH=$(IMAGE_EPOCH) mkimage -q -f $< $@
endif

$(IMAGE_SCR): $(IMAGE_ITS) tools/image/boot.cmd.in tools/image/mkbootscr.sh
	$(Q)SOURCE_DATE_EPOCH=$(IMAGE_EPOCH) tools/image/mkbootscr.sh $$(cat $(IMAGE_DIR)/fit-addr) $@

$(IMAGE_SD): $(IMAGE_ITB) $(IMAGE_SCR) $(BOOT_FILES) tools/image/mksdcard.sh
	$(Q)SOURCE_DATE_EPOCH=$(IMAGE_EPOCH) tools/image/mksdcard.sh $@ $(IMAGE_ITB) $(IMAGE_SCR) $(BOOT_FILES)

run-uboot: image
	$(Q)$(MAKE) --no-print-directory run-uboot-qemu

.PHONY: run-uboot-qemu
run-uboot-qemu:
	$(Q)QEMU_CPU=$(RUN_CPU) RUN_TIMEOUT=$(RUN_TIMEOUT) UBOOT_BIOS=$(UBOOT_BIOS) \
		tools/image/run-uboot.sh $(IMAGE_SD) $(image_gic)

# U-Boot test payload (tests/uboot): stands in for the hypervisor so the image
# pipeline is tested on its own.
UBOOT_PAYLOAD := $(BUILD)/tests/uboot/payload.bin
UBOOT_PAYLOAD_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -ffreestanding -nostdlib \
	-mstrict-align -mgeneral-regs-only -fno-pie -no-pie -Wl,--build-id=none \
	-Wl,--no-warn-rwx-segments -Wl,--defsym=PAYLOAD_BASE=0x40200000

$(UBOOT_PAYLOAD): tests/uboot/payload/start.S tests/uboot/payload/payload.c \
		tests/uboot/payload/payload.ld
	@mkdir -p $(dir $@)
	$(Q)$(CROSS_COMPILE)gcc $(UBOOT_PAYLOAD_CFLAGS) -T tests/uboot/payload/payload.ld \
		tests/uboot/payload/start.S tests/uboot/payload/payload.c -o $(@:.bin=.elf)
	$(Q)$(CROSS_COMPILE)objcopy -O binary $(@:.bin=.elf) $@

test-build: $(UBOOT_PAYLOAD)
