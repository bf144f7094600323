/* SPDX-License-Identifier: MIT */
/*
 * The storage behind a virtual disk. Here a RAM disk: a region of machine
 * memory the hypervisor gives the backend partition for its disks
 * (docs/device-tree.md, bulkhead,vbd) and, unlike the partition's RAM,
 * does not scrub when the partition restarts, so a backend that restarts
 * finds the disk as it was.
 *
 * A real storage device (an SD/eMMC or NVMe controller assigned to the
 * backend partition with /passthrough) replaces these three functions:
 * read and write become the device's transfers to and from the mapped
 * grant pages (DMA from the page when the device can reach it, a bounce
 * through the partition's RAM otherwise), and flush its cache flush
 * command (NVMe Flush, eMMC FLUSH_CACHE through CMD6). Requests are served one at a time
 * and answered only after these return, so a synchronous driver is enough;
 * one with a queue would answer from its completion instead.
 */
#include "vbd.h"

void vbd_disk_write(struct vbd_disk *dk, uint64_t off, const void *buf, uint32_t len)
{
	memcpy(&dk->base[off], buf, len);
}

void vbd_disk_read(struct vbd_disk *dk, uint64_t off, void *buf, uint32_t len)
{
	memcpy(buf, &dk->base[off], len);
}

void vbd_disk_flush(struct vbd_disk *dk)
{
	/* RAM: every write is done when memcpy returns; order it before the response. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	dk->flushes++;
}
