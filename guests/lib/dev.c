/* SPDX-License-Identifier: MIT */
/* Assigned devices found in the partition's own device tree (guest/dev.h). */
#include <guest/dev.h>
#include <guest/fdt.h>
#include <guest/rt.h>

#define IRQ_TYPE_SPI 0U

bool dev_find(const char *compat, struct dev_info *d)
{
	int node = fdt_compatible(rt.dtb, -1, compat);
	const uint8_t *irq;
	uint32_t len;

	if (node < 0 || !fdt_reg(rt.dtb, node, 0, &d->base, &d->size))
		return false;
	d->intid = 0U;
	d->edge = false;
	irq = fdt_prop(rt.dtb, node, "interrupts", &len);
	if (irq && len >= 12U) {
		uint32_t type = (uint32_t)fdt_cells(irq, 1);
		uint32_t num = (uint32_t)fdt_cells(irq + 4, 1);
		uint32_t flags = (uint32_t)fdt_cells(irq + 8, 1);

		d->intid = num + (type == IRQ_TYPE_SPI ? 32U : 16U);
		d->edge = (flags & 3U) != 0U;
	}
	return true;
}

static uint32_t id_bytes(uint64_t base, uint64_t off)
{
	uint32_t v = 0U;
	unsigned int i;

	for (i = 0U; i < 4U; i++)
		v |= (mmio_read32(base + off + 4U * i) & 0xffU) << (8U * i);
	return v;
}

uint32_t dev_periph_id(uint64_t base)
{
	return id_bytes(base, 0xfe0U);
}

uint32_t dev_cell_id(uint64_t base)
{
	return id_bytes(base, 0xff0U);
}
