# Linux owning assigned devices (tests/linuxpt): an initramfs with the
# virtio-mmio, virtio-blk and ext4 modules and tools/linux/pttest, and the
# ext2 disk image QEMU gives the first virtio-mmio transport.
#
#   make linux-pt-initramfs  -> $(BUILD)/linux/initramfs-pt.cpio, $(BUILD)/linux/pt-disk.img

LINUX_PT_INITRAMFS := $(BUILD)/linux/initramfs-pt.cpio
LINUX_PT_DISK := $(BUILD)/linux/pt-disk.img

.PHONY: linux-pt-initramfs
linux-pt-initramfs:
	$(Q)bash tools/fetch/fetch.sh
	$(Q)$(MAKE) --no-print-directory $(LINUX_PT_INITRAMFS) $(LINUX_PT_DISK)

$(LINUX_PT_INITRAMFS): tools/linux/pttest tools/linux/init tools/linux/mkinitramfs.sh \
		tools/linux/newc.py $(wildcard $(shell tools/fetch/path.sh manifest 2>/dev/null))
	@mkdir -p $(dir $@)
	$(Q)bash tools/linux/mkinitramfs.sh -o $@ -m "virtio_mmio virtio_blk crc32c_generic ext4" \
		-f tools/linux/pttest:/bin/pttest

# 8 MiB of ext2 made without root (mke2fs -d), the same bytes each time.
$(LINUX_PT_DISK): mk/linux-pt.mk
	@mkdir -p $(dir $@) $@.d
	$(Q)printf 'a disk a partition owns\n' > $@.d/hello.txt
	$(Q)rm -f $@ && E2FSPROGS_FAKE_TIME=1 mke2fs -q -t ext2 -b 4096 -m 0 -U clear \
		-E root_owner=0:0,hash_seed=00000000-0000-0000-0000-000000000000 -d $@.d $@ 8M
