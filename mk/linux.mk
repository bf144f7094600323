# Linux partitions: the static test programs (tools/linux/progs/*.c, each
# /bin/<name> in the initramfs) and the initramfs itself
# (tools/linux/mkinitramfs.sh: busybox-static, the Xen modules of the
# fetched kernel, /init). tests/linux and make run-linux use them.
#
#   make linux-initramfs     -> $(BUILD)/linux/initramfs.cpio

LINUX_CC := $(CROSS_COMPILE)gcc
LINUX_PROG_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -static -s -Wl,--build-id=none
LINUX_PROGS := $(patsubst tools/linux/progs/%.c,$(BUILD)/linux/progs/%,$(wildcard tools/linux/progs/*.c))
LINUX_INITRAMFS := $(BUILD)/linux/initramfs.cpio

$(BUILD)/linux/progs/%: tools/linux/progs/%.c mk/linux.mk
	@mkdir -p $(dir $@)
	$(Q)$(LINUX_CC) $(LINUX_PROG_CFLAGS) -o $@ $<

.PHONY: linux-progs linux-initramfs
linux-progs: $(LINUX_PROGS)

# fetch.sh is quiet once the cache is complete; the cpio is rebuilt only when an input changes.
linux-initramfs: $(LINUX_PROGS)
	$(Q)bash tools/fetch/fetch.sh
	$(Q)$(MAKE) --no-print-directory $(LINUX_INITRAMFS)

$(LINUX_INITRAMFS): $(LINUX_PROGS) tools/linux/init tools/linux/mkinitramfs.sh tools/linux/newc.py \
		$(wildcard $(shell tools/fetch/path.sh manifest 2>/dev/null))
	$(Q)bash tools/linux/mkinitramfs.sh -o $@ $(addprefix -p ,$(LINUX_PROGS))

# The virtual-disk scenarios' initramfs (tests/linux/scenarios/blk*.scn):
# xen-blkfront and ext4 (which mounts ext2) instead of the Xen device
# modules, and tools/linux/scripts/blktest.
#
#   make linux-blk-initramfs -> $(BUILD)/linux/initramfs-blk.cpio
LINUX_BLK_INITRAMFS := $(BUILD)/linux/initramfs-blk.cpio
LINUX_BLK_MODS := xen-blkfront crc32c_generic ext4
LINUX_SCRIPTS := $(wildcard tools/linux/scripts/*)

.PHONY: linux-blk-initramfs
linux-blk-initramfs: $(LINUX_PROGS)
	$(Q)bash tools/fetch/fetch.sh
	$(Q)$(MAKE) --no-print-directory $(LINUX_BLK_INITRAMFS)

$(LINUX_BLK_INITRAMFS): $(LINUX_PROGS) $(LINUX_SCRIPTS) tools/linux/init \
		tools/linux/mkinitramfs.sh tools/linux/newc.py mk/linux.mk \
		$(wildcard $(shell tools/fetch/path.sh manifest 2>/dev/null))
	$(Q)bash tools/linux/mkinitramfs.sh -o $@ -m "$(LINUX_BLK_MODS)" \
		$(addprefix -p ,$(LINUX_PROGS) $(LINUX_SCRIPTS))

# make run-linux: Linux (a shell) beside a bare-metal partition on QEMU;
# Ctrl-A three times switches console input between them (dts/linux-demo.dtsi).
RUN_LINUX_DTSI ?= dts/linux-demo.dtsi
.PHONY: run-linux
run-linux: run-build linux-initramfs
	$(Q)ln -sfn "$$(tools/fetch/path.sh linux-image)" $(BUILD)/guests/linux.bin
	$(Q)ln -sfn $(LINUX_INITRAMFS) $(BUILD)/guests/linux-initramfs.bin
	$(Q)$(MAKE) --no-print-directory run-qemu RUN_DTSI=$(RUN_LINUX_DTSI) RUN_TIMEOUT=0
