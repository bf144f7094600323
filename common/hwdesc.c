/* SPDX-License-Identifier: MIT */
/*
 * The hardware the hypervisor drives, read from the system device tree
 * (devicetree specification v0.4 and the Linux bindings of the GIC
 * (arm,gic.yaml, arm,gic-v3.yaml), the generic timer (arm,arch_timer.yaml),
 * PSCI (arm,psci.yaml) and /chosen/stdout-path (chosen.yaml)). Vendor trees
 * put devices under buses: every address is translated through the
 * parents' `ranges`. Nothing here is recursive; every walk is bounded by the
 * blob's size or by FDT_MAX_DEPTH.
 */
#include <bulkhead/hwdesc.h>
#include <bulkhead/console.h>
#include <bulkhead/lib.h>

#define HW_STEPS(f) ((f)->size_struct / 4U)

struct hw_desc hw_machine;

static int __attribute__((format(printf, 5, 6)))
hw_err(const struct fdt *f, int node, char *err, size_t errlen, const char *fmt, ...)
{
	char path[HW_PATH_LEN];
	va_list ap;
	int n = 0;

	if (node >= 0) {
		if (fdt_node_path(f, node, path, sizeof(path)) < 0) {
			(void)bh_snprintf(path, sizeof(path), "(node at %d)", node);
		}
		n = bh_snprintf(err, errlen, "%s: ", path);
	}
	if ((n >= 0) && ((size_t)n < errlen)) {
		va_start(ap, fmt);
		(void)bh_vsnprintf(&err[n], errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -FDT_ERR_BADVALUE;
}

static bool hw_node_okay(const struct fdt *f, int node)
{
	const char *s;

	/* An absent status means "okay"; "ok" is the old spelling. */
	return (fdt_prop_string(f, node, "status", &s) != 0) || (strcmp(s, "okay") == 0) ||
	       (strcmp(s, "ok") == 0);
}

/* ------------------------------------------------------- addresses */

/*
 * One step up: translate addr in bus's child address space to bus's
 * parent's, through bus's ranges. Empty ranges: identity.
 */
static int hw_ranges_step(const struct fdt *f, int bus, int parent, uint64_t *addr, uint64_t size)
{
	int cac = fdt_address_cells(f, bus);
	int csc = fdt_size_cells(f, bus);
	int pac = fdt_address_cells(f, parent);
	const uint8_t *p;
	uint32_t entry;
	uint32_t i;
	int len;

	p = fdt_getprop(f, bus, "ranges", &len);
	if (p == NULL) {
		return -FDT_ERR_NOTFOUND;
	}
	if (len == 0) {
		return 0;
	}
	if ((cac < 1) || (cac > 2) || (pac < 1) || (pac > 2) || (csc < 1) || (csc > 2)) {
		return -FDT_ERR_BADVALUE;
	}
	entry = ((uint32_t)cac + (uint32_t)pac + (uint32_t)csc) * 4U;
	if (((uint32_t)len % entry) != 0U) {
		return -FDT_ERR_BADVALUE;
	}
	for (i = 0U; i < ((uint32_t)len / entry); i++) {
		const uint8_t *e = &p[i * entry];
		uint64_t child = fdt_read_cells(e, (uint32_t)cac);
		uint64_t par = fdt_read_cells(&e[(uint32_t)cac * 4U], (uint32_t)pac);
		uint64_t span = fdt_read_cells(&e[((uint32_t)cac + (uint32_t)pac) * 4U],
					       (uint32_t)csc);
		if ((*addr >= child) && ((*addr - child) < span) && (size <= span - (*addr - child))) {
			*addr = par + (*addr - child);
			return 0;
		}
	}
	return -FDT_ERR_NOTFOUND;
}

int hw_dt_reg(const struct fdt *f, int node, unsigned int idx, paddr_t *addr, uint64_t *size)
{
	int stack[FDT_MAX_DEPTH + 2U];
	int depth = fdt_ancestors(f, node, stack);
	uint64_t a;
	uint64_t s;
	int level;
	int rc;

	if (depth < 1) {
		return (depth < 0) ? depth : -FDT_ERR_NOTFOUND;
	}
	rc = fdt_reg(f, stack[depth - 1], node, idx, &a, &s);
	/* Up one bus a round, through its ranges, to the root. */
	for (level = depth - 1; (rc == 0) && (level > 0); level--) {
		rc = hw_ranges_step(f, stack[level], stack[level - 1], &a, s);
	}
	if (rc == 0) {
		*addr = a;
		*size = s;
	}
	return rc;
}

/* ------------------------------------------------------ interrupts */

/* The phandle of node's interrupt parent: its own or its nearest ancestor's interrupt-parent. */
static int hw_irq_parent(const struct fdt *f, int node, uint32_t *phandle)
{
	int stack[FDT_MAX_DEPTH + 2U];
	int depth = fdt_ancestors(f, node, stack);
	int level;

	for (level = depth; level >= 0; level--) {
		if (fdt_prop_u32(f, stack[level], "interrupt-parent", phandle) == 0) {
			return 0;
		}
	}
	return -FDT_ERR_NOTFOUND;
}

int hw_dt_irq(const struct fdt *f, int node, int gic, unsigned int idx, uint32_t *intid)
{
	uint32_t cells = 0U;
	uint32_t parent = 0U;
	uint32_t gic_ph = 0U;
	const uint8_t *p;
	uint32_t type;
	uint32_t num;
	int len;

	/* Compared by phandle: no search of the tree for the parent. */
	if ((gic < 0) || (hw_irq_parent(f, node, &parent) != 0) ||
	    ((fdt_prop_u32(f, gic, "phandle", &gic_ph) != 0) &&
	     (fdt_prop_u32(f, gic, "linux,phandle", &gic_ph) != 0)) || (parent != gic_ph)) {
		return -FDT_ERR_NOTFOUND;
	}
	if ((fdt_prop_u32(f, gic, "#interrupt-cells", &cells) != 0) || (cells < 2U) ||
	    (cells > 4U)) {
		return -FDT_ERR_BADVALUE;
	}
	p = fdt_getprop(f, node, "interrupts", &len);
	if (p == NULL) {
		return len;
	}
	if (((uint64_t)idx + 1U) * cells * 4U > (uint32_t)len) {
		return -FDT_ERR_NOTFOUND;
	}
	type = fdt_be32(&p[idx * cells * 4U]);
	num = fdt_be32(&p[(idx * cells * 4U) + 4U]);
	/* GIC binding: cell 0 is 0 for an SPI, 1 for a PPI. */
	if ((type == 0U) && (num < U(988))) {
		*intid = num + 32U;
	} else if ((type == 1U) && (num < 16U)) {
		*intid = num + 16U;
	} else {
		return -FDT_ERR_BADVALUE;
	}
	return 0;
}

/* -------------------------------------------------------------- CPUs */

static int hw_cpus(const struct fdt *f, uint64_t boot_mpidr, struct hw_desc *hw, char *err,
		   size_t errlen)
{
	int cpus = fdt_path(f, "/cpus");
	int n;
	uint32_t steps;
	uint32_t boot = U(0xffffffff);
	uint32_t k = 1U;

	if (cpus < 0) {
		return hw_err(f, -1, err, errlen, "/cpus: no such node");
	}
	n = fdt_first_child(f, cpus);
	for (steps = 0U; (n >= 0) && (steps < HW_STEPS(f)); steps++) {
		const char *dt;
		uint64_t mpidr;
		uint64_t sz;
		const char *em;
		if ((fdt_prop_string(f, n, "device_type", &dt) == 0) && (strcmp(dt, "cpu") == 0) &&
		    hw_node_okay(f, n)) {
			if (fdt_reg(f, cpus, n, 0U, &mpidr, &sz) != 0) {
				return hw_err(f, n, err, errlen, "reg: no MPIDR (#address-cells of /cpus)");
			}
			mpidr &= HW_MPIDR_MASK;
			/* The boot CPU goes to slot 0, the others in tree order. */
			if ((boot == U(0xffffffff)) &&
			    ((boot_mpidr == HW_BOOT_FIRST) || (mpidr == (boot_mpidr & HW_MPIDR_MASK)))) {
				boot = hw->cpus_listed;
				hw->mpidr[0] = mpidr;
				hw->cpu_node[0] = n;
				hw->cpu_psci[0] = (fdt_prop_string(f, n, "enable-method", &em) == 0) &&
						  (strcmp(em, "psci") == 0);
			} else if (k < CONFIG_NR_CPUS) {
				hw->mpidr[k] = mpidr;
				hw->cpu_node[k] = n;
				hw->cpu_psci[k] = (fdt_prop_string(f, n, "enable-method", &em) == 0) &&
						  (strcmp(em, "psci") == 0);
				k++;
			} else {
				/* Listed, but beyond CONFIG_NR_CPUS: never started. */
			}
			hw->cpus_listed++;
		}
		n = fdt_next_sibling(f, n);
	}
	if (boot == U(0xffffffff)) {
		return hw_err(f, cpus, err, errlen, "no cpu node for the boot CPU (MPIDR 0x%llx)",
			      (unsigned long long)(boot_mpidr & HW_MPIDR_MASK));
	}
	hw->nr_cpus = k;
	return 0;
}

static void hw_psci(const struct fdt *f, struct hw_desc *hw)
{
	int n = fdt_path(f, "/psci");
	const char *m;

	hw->psci = HW_PSCI_NONE;
	if ((n >= 0) && hw_node_okay(f, n) && (fdt_prop_string(f, n, "method", &m) == 0)) {
		if (strcmp(m, "smc") == 0) {
			hw->psci = HW_PSCI_SMC;
		} else if (strcmp(m, "hvc") == 0) {
			hw->psci = HW_PSCI_HVC;
		} else {
			/* An unknown conduit: no PSCI. */
		}
	}
}

/* ------------------------------------------------------------ memory */

static int hw_memory(const struct fdt *f, struct hw_desc *hw, char *err, size_t errlen)
{
	int n = fdt_first_child(f, 0);
	int last = -1;
	uint32_t steps;

	for (steps = 0U; (n >= 0) && (steps < HW_STEPS(f)); steps++) {
		const char *dt;
		uint32_t i;
		if ((fdt_prop_string(f, n, "device_type", &dt) == 0) && (strcmp(dt, "memory") == 0) &&
		    hw_node_okay(f, n)) {
			last = n;
			for (i = 0U; i < U(64); i++) {
				uint64_t a;
				uint64_t s;
				int rc = fdt_reg(f, 0, n, i, &a, &s);
				if (rc == -FDT_ERR_NOTFOUND) {
					break;
				}
				if ((rc != 0) || (a + s < a)) {
					return hw_err(f, n, err, errlen, "reg: malformed bank %u", i);
				}
				if (s == 0U) {
					continue;
				}
				if (hw->nr_banks >= DOM0LESS_MAX_BANKS) {
					return hw_err(f, n, err, errlen, "more than %u RAM banks",
						      DOM0LESS_MAX_BANKS);
				}
				hw->banks[hw->nr_banks].base = a;
				hw->banks[hw->nr_banks].size = s;
				hw->nr_banks++;
			}
		}
		n = fdt_next_sibling(f, n);
	}
	if (hw->nr_banks == 0U) {
		return hw_err(f, last, err, errlen, "%sno RAM bank (device_type \"memory\" with a "
			      "non-empty reg)", (last < 0) ? "/: " : "");
	}
	return 0;
}

static int hw_reserved(const struct fdt *f, struct hw_desc *hw, char *err, size_t errlen)
{
	int rm = fdt_path(f, "/reserved-memory");
	int n = (rm >= 0) ? fdt_first_child(f, rm) : rm;
	uint32_t steps;

	for (steps = 0U; (n >= 0) && (steps < HW_STEPS(f)); steps++) {
		uint64_t a;
		uint64_t s;
		/* Pools without a reg (size + alloc-ranges) are for the OS to place: not ours. */
		if (hw_node_okay(f, n) && (hw_dt_reg(f, n, 0U, &a, &s) == 0) && (s != 0U)) {
			if (hw->nr_reserved >= HW_MAX_RESERVED) {
				return hw_err(f, n, err, errlen, "more than %u reserved-memory regions",
					      HW_MAX_RESERVED);
			}
			hw->reserved[hw->nr_reserved].base = a;
			hw->reserved[hw->nr_reserved].size = s;
			hw->nr_reserved++;
		}
		n = fdt_next_sibling(f, n);
	}
	return 0;
}

int hw_carve(struct hw_desc *hw, paddr_t base, uint64_t size)
{
	paddr_t end = base + size;
	uint32_t i = 0U;
	uint32_t steps;

	/* LOOP-BOUND: each round moves to the next bank or drops one: 2 * DOM0LESS_MAX_BANKS. */
	for (steps = 0U; (i < hw->nr_banks) && (steps < (2U * DOM0LESS_MAX_BANKS)); steps++) {
		struct mem_range *b = &hw->banks[i];
		paddr_t bend = b->base + b->size;
		if ((size == 0U) || !mem_range_overlap(b->base, b->size, base, size)) {
			i++;
		} else if ((base > b->base) && (end < bend)) {
			/* In the middle: the bank splits in two. */
			if (hw->nr_banks >= DOM0LESS_MAX_BANKS) {
				return -FDT_ERR_NOSPACE;
			}
			(void)memmove(&hw->banks[i + 2U], &hw->banks[i + 1U],
				      (hw->nr_banks - i - 1U) * sizeof(hw->banks[0]));
			hw->banks[i + 1U].base = end;
			hw->banks[i + 1U].size = bend - end;
			b->size = base - b->base;
			hw->nr_banks++;
			i += 2U;
		} else if (base > b->base) {
			b->size = base - b->base;
			i++;
		} else if (end < bend) {
			b->size = bend - end;
			b->base = end;
			i++;
		} else {
			/* Covered whole: drop the bank; the next one moves here. */
			(void)memmove(b, &hw->banks[i + 1U],
				      (hw->nr_banks - i - 1U) * sizeof(hw->banks[0]));
			hw->nr_banks--;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- GIC */

static bool hw_gic_compatible(const struct fdt *f, int n, uint32_t *version)
{
	static const char *const v2[] = { "arm,gic-400", "arm,cortex-a15-gic", "arm,cortex-a7-gic",
					   "arm,gic-v2" };
	uint32_t i;

	if (fdt_node_compatible(f, n, "arm,gic-v3")) {
		*version = 3U;
		return true;
	}
	for (i = 0U; i < ARRAY_SIZE(v2); i++) {
		if (fdt_node_compatible(f, n, v2[i])) {
			*version = 2U;
			return true;
		}
	}
	return false;
}

static int hw_gic_find(const struct fdt *f, uint32_t *version)
{
	int n = 0;
	int depth = 0;
	uint32_t steps;

	for (steps = 0U; steps < HW_STEPS(f); steps++) {
		n = fdt_next_node(f, n, &depth);
		if (n < 0) {
			break;
		}
		if (fdt_has_prop(f, n, "interrupt-controller") && hw_node_okay(f, n) &&
		    hw_gic_compatible(f, n, version)) {
			return n;
		}
	}
	return -FDT_ERR_NOTFOUND;
}

static int hw_gic_reg(const struct fdt *f, int gic, unsigned int idx, const char *what,
		      uint64_t min, struct mem_range *r, char *err, size_t errlen)
{
	int rc = hw_dt_reg(f, gic, idx, &r->base, &r->size);

	if (rc != 0) {
		return hw_err(f, gic, err, errlen, "reg entry %u (%s): %s", idx, what,
			      fdt_strerror(rc));
	}
	if ((r->size < min) || (PAGE_OFFSET_OF(r->base) != 0U)) {
		return hw_err(f, gic, err, errlen, "%s 0x%llx+0x%llx: not a page-aligned region of "
			      "at least 0x%llx bytes", what, (unsigned long long)r->base,
			      (unsigned long long)r->size, (unsigned long long)min);
	}
	return 0;
}

static int hw_gic(const struct fdt *f, uint32_t want, struct hw_desc *hw, char *err,
		  size_t errlen)
{
	uint32_t version = 0U;
	uint32_t regions = 1U;
	int gic = hw_gic_find(f, &version);
	int rc;

	if (gic < 0) {
		return hw_err(f, -1, err, errlen, "/: no GIC (interrupt-controller compatible "
			      "\"arm,gic-v3\" or \"arm,gic-400\")");
	}
	hw->gic_node = gic;
	hw->gic_version = version;
	if ((want != 0U) && (version != want)) {
		return hw_err(f, gic, err, errlen, "a GICv%u, this build drives GICv%u "
			      "(CONFIG_GICV%u)", version, want, want);
	}
	rc = hw_gic_reg(f, gic, 0U, "GICD", PAGE_SIZE, &hw->gicd, err, errlen);
	if ((rc == 0) && (version == 3U)) {
		(void)fdt_prop_u32(f, gic, "#redistributor-regions", &regions);
		if (regions != 1U) {
			return hw_err(f, gic, err, errlen, "#redistributor-regions = <%u>: one "
				      "redistributor region is supported", regions);
		}
		rc = hw_gic_reg(f, gic, 1U, "GICR", U(0x20000), &hw->gicr, err, errlen);
	} else if (rc == 0) {
		rc = hw_gic_reg(f, gic, 1U, "GICC", U(0x2000), &hw->gicc, err, errlen);
		if (rc == 0) {
			rc = hw_gic_reg(f, gic, 2U, "GICH", PAGE_SIZE, &hw->gich, err, errlen);
		}
		if (rc == 0) {
			rc = hw_gic_reg(f, gic, 3U, "GICV", U(0x2000), &hw->gicv, err, errlen);
		}
	} else {
		/* The GICD entry failed: rc holds it. */
	}
	if (rc != 0) {
		return rc;
	}
	/* The maintenance interrupt: the GIC node's own, on itself. */
	if (hw_dt_irq(f, gic, gic, 0U, &hw->gic_maint_intid) != 0) {
		return hw_err(f, gic, err, errlen, "interrupts: no maintenance interrupt");
	}
	return 0;
}

/* -------------------------------------------------------------- timer */

static int hw_timer(const struct fdt *f, struct hw_desc *hw, char *err, size_t errlen)
{
	int n = 0;
	int depth = 0;
	bool found = false;
	uint32_t steps;
	uint32_t i;

	for (steps = 0U; (steps < HW_STEPS(f)) && !found; steps++) {
		n = fdt_next_node(f, n, &depth);
		if (n < 0) {
			break;
		}
		found = fdt_node_compatible(f, n, "arm,armv8-timer") && hw_node_okay(f, n);
	}
	if (!found) {
		return hw_err(f, -1, err, errlen, "/: no timer compatible \"arm,armv8-timer\"");
	}
	for (i = 0U; i < HW_TIMER_NR; i++) {
		int rc = hw_dt_irq(f, n, hw->gic_node, i, &hw->timer_intid[i]);
		if ((rc != 0) || (hw->timer_intid[i] >= 32U)) {
			return hw_err(f, n, err, errlen, "interrupts: entry %u is not a GIC PPI", i);
		}
	}
	hw->timer_freq_hz = 0U;
	(void)fdt_prop_u32(f, n, "clock-frequency", &hw->timer_freq_hz);
	return 0;
}

/* ------------------------------------------------------------ console */

static const char *const hw_uart_compat[HW_UART_NR][3] = {
	[HW_UART_PL011] = { "arm,pl011", "arm,sbsa-uart", NULL },
	[HW_UART_SCIF] = { "renesas,rcar-gen3-scif", "renesas,scif", NULL },
	[HW_UART_LPUART] = { "fsl,imx8qxp-lpuart", "fsl,imx7ulp-lpuart", "fsl,imx8qm-lpuart" },
	[HW_UART_CADENCE] = { "cdns,uart-r1p12", "xlnx,xuartps", "cdns,uart-r1p8" },
};

const char *hw_uart_name(enum hw_uart uart)
{
	static const char *const names[HW_UART_NR] = {
		[HW_UART_PL011] = "PL011", [HW_UART_SCIF] = "SCIF", [HW_UART_LPUART] = "LPUART",
		[HW_UART_CADENCE] = "Cadence",
	};

	return ((uint32_t)uart < (uint32_t)HW_UART_NR) ? names[uart] : "?";
}

bool hw_uart_matches(enum hw_uart uart, const void *compat, int len)
{
	uint32_t i;

	for (i = 0U; ((uint32_t)uart < (uint32_t)HW_UART_NR) && (i < 3U); i++) {
		const char *c = hw_uart_compat[uart][i];
		if ((c != NULL) && (compat != NULL) && fdt_stringlist_has(compat, len, c)) {
			return true;
		}
	}
	return false;
}

/* /chosen/stdout-path: "/path[:options]" or "alias[:options]". */
static int hw_stdout_node(const struct fdt *f, char *err, size_t errlen)
{
	char path[HW_PATH_LEN];
	int chosen = fdt_path(f, "/chosen");
	const char *s = NULL;
	size_t len = 0U;
	int n;

	if ((chosen < 0) || ((fdt_prop_string(f, chosen, "stdout-path", &s) != 0) &&
			     (fdt_prop_string(f, chosen, "linux,stdout-path", &s) != 0))) {
		return hw_err(f, -1, err, errlen, "/chosen: no stdout-path (the console UART)");
	}
	while ((s[len] != '\0') && (s[len] != ':') && (len < (sizeof(path) - 1U))) {
		path[len] = s[len];
		len++;
	}
	path[len] = '\0';
	if (path[0] != '/') {
		int aliases = fdt_path(f, "/aliases");
		const char *target;
		if ((aliases < 0) || (fdt_prop_string(f, aliases, path, &target) != 0)) {
			return hw_err(f, chosen, err, errlen, "stdout-path \"%s\": no such alias in "
				      "/aliases", path);
		}
		(void)bh_snprintf(path, sizeof(path), "%s", target);
	}
	n = fdt_path(f, path);
	if (n < 0) {
		return hw_err(f, chosen, err, errlen, "stdout-path: no node %s", path);
	}
	return n;
}

static int hw_console(const struct fdt *f, enum hw_uart uart, struct hw_desc *hw, char *err,
		      size_t errlen)
{
	int n = hw_stdout_node(f, err, errlen);
	const char *compat;
	int len;
	int rc;

	if (n < 0) {
		return n;
	}
	hw->uart_node = n;
	compat = fdt_getprop(f, n, "compatible", &len);
	if (!hw_uart_matches(uart, compat, len)) {
		return hw_err(f, n, err, errlen, "console compatible \"%s\", this build's console "
			      "driver is %s (\"%s\")", (compat != NULL) ? compat : "", hw_uart_name(uart),
			      hw_uart_compat[uart][0]);
	}
	hw->uart_type = uart;
	rc = hw_dt_reg(f, n, 0U, &hw->uart_base, &hw->uart_size);
	if ((rc != 0) || (PAGE_OFFSET_OF(hw->uart_base) + hw->uart_size > PAGE_SIZE) ||
	    (hw->uart_size == 0U)) {
		return hw_err(f, n, err, errlen, "reg: not a CPU address in one page (%s)",
			      (rc != 0) ? fdt_strerror(rc) : "size");
	}
	if (hw_dt_irq(f, n, hw->gic_node, 0U, &hw->uart_intid) != 0) {
		return hw_err(f, n, err, errlen, "interrupts: no GIC interrupt");
	}
	return 0;
}

int hw_from_dt(const struct fdt *f, uint64_t boot_mpidr, uint32_t gic_version,
	       enum hw_uart uart, struct hw_desc *hw, char *err, size_t errlen)
{
	int rc;

	(void)memset(hw, 0, sizeof(*hw));
	hw->gic_node = -1;
	hw->uart_node = -1;
	if (errlen != 0U) {
		err[0] = '\0';
	}
	rc = hw_cpus(f, boot_mpidr, hw, err, errlen);
	if (rc == 0) {
		hw_psci(f, hw);
		rc = hw_memory(f, hw, err, errlen);
	}
	if (rc == 0) {
		rc = hw_reserved(f, hw, err, errlen);
	}
	if (rc == 0) {
		rc = hw_gic(f, gic_version, hw, err, errlen);
	}
	if (rc == 0) {
		rc = hw_timer(f, hw, err, errlen);
	}
	if (rc == 0) {
		rc = hw_console(f, uart, hw, err, errlen);
	}
	return rc;
}

/* ---------------------------------------------------------- placement */

int hw_check_placement(const struct fdt *f, const struct hw_desc *hw,
		       const struct dom0less_config *cfg, char *err, size_t errlen)
{
	uint32_t i;
	uint32_t v;

	for (i = 0U; i < cfg->nr_domains; i++) {
		const struct domain_config *d = &cfg->dom[i];
		for (v = 0U; v < d->nr_vcpus; v++) {
			uint32_t p = d->pcpus[v];
			const char *em = NULL;
			if (p >= hw->nr_cpus) {
				return hw_err(f, cfg->node[i], err, errlen, "vCPU %u on physical CPU %u, "
					      "which /cpus does not list (%u CPU%s)", v, p,
					      hw->nr_cpus, (hw->nr_cpus == 1U) ? "" : "s");
			}
			if (p == 0U) {
				continue;
			}
			if (!hw->cpu_psci[p]) {
				char cpu[HW_PATH_LEN];
				(void)fdt_node_path(f, hw->cpu_node[p], cpu, sizeof(cpu));
				(void)fdt_prop_string(f, hw->cpu_node[p], "enable-method", &em);
				return hw_err(f, cfg->node[i], err, errlen, "vCPU %u on physical CPU %u "
					      "(%s): enable-method \"%s\", Bulkhead starts CPUs with "
					      "PSCI", v, p, cpu, (em != NULL) ? em : "");
			}
			if (hw->psci != HW_PSCI_SMC) {
				return hw_err(f, cfg->node[i], err, errlen, "vCPU %u on physical CPU %u: "
					      "no /psci with method \"smc\" to start it", v, p);
			}
		}
	}
	return 0;
}

/* ----------------------------------------------------------- describe */

static void hw_line(void (*out)(const char *line), const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void hw_line(void (*out)(const char *line), const char *fmt, ...)
{
	char line[HW_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	(void)bh_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out(line);
}

void hw_describe(const struct fdt *f, const struct hw_desc *hw, void (*out)(const char *line))
{
	static const char *const psci[] = { "none", "smc", "hvc" };
	char path[HW_PATH_LEN];
	char list[HW_ERR_LEN];
	size_t pos = 0U;
	uint32_t i;

	list[0] = '\0';
	for (i = 0U; (i < hw->nr_cpus) && (pos + 24U < sizeof(list)); i++) {
		int n = bh_snprintf(&list[pos], sizeof(list) - pos, " 0x%llx%s",
				    (unsigned long long)hw->mpidr[i], hw->cpu_psci[i] ? "" : "(no psci)");
		pos += (n > 0) ? (size_t)n : 0U;
	}
	hw_line(out, "hw: cpus: %u of %u listed, MPIDR%s; PSCI %s", hw->nr_cpus, hw->cpus_listed,
		list, psci[(uint32_t)hw->psci % 3U]);
	pos = 0U;
	list[0] = '\0';
	for (i = 0U; (i < hw->nr_banks) && (pos + 40U < sizeof(list)); i++) {
		int n = bh_snprintf(&list[pos], sizeof(list) - pos, " 0x%llx-0x%llx",
				    (unsigned long long)hw->banks[i].base,
				    (unsigned long long)(hw->banks[i].base + hw->banks[i].size - 1U));
		pos += (n > 0) ? (size_t)n : 0U;
	}
	hw_line(out, "hw: memory:%s", list);
	for (i = 0U; i < hw->nr_reserved; i++) {
		hw_line(out, "hw: reserved: 0x%llx-0x%llx", (unsigned long long)hw->reserved[i].base,
			(unsigned long long)(hw->reserved[i].base + hw->reserved[i].size - 1U));
	}
	(void)fdt_node_path(f, hw->gic_node, path, sizeof(path));
	if (hw->gic_version == 3U) {
		hw_line(out, "hw: gic: v3 %s GICD 0x%llx GICR 0x%llx+0x%llx, maintenance INTID %u",
			path, (unsigned long long)hw->gicd.base, (unsigned long long)hw->gicr.base,
			(unsigned long long)hw->gicr.size, hw->gic_maint_intid);
	} else {
		hw_line(out, "hw: gic: v2 %s GICD 0x%llx GICC 0x%llx+0x%llx GICH 0x%llx GICV "
			"0x%llx+0x%llx, maintenance INTID %u", path, (unsigned long long)hw->gicd.base,
			(unsigned long long)hw->gicc.base, (unsigned long long)hw->gicc.size,
			(unsigned long long)hw->gich.base, (unsigned long long)hw->gicv.base,
			(unsigned long long)hw->gicv.size, hw->gic_maint_intid);
	}
	if (hw->timer_freq_hz != 0U) {
		(void)bh_snprintf(list, sizeof(list), ", clock-frequency %u", hw->timer_freq_hz);
	} else {
		list[0] = '\0';
	}
	hw_line(out, "hw: timer: INTID phys %u virt %u hyp %u%s", hw->timer_intid[HW_TIMER_PHYS],
		hw->timer_intid[HW_TIMER_VIRT], hw->timer_intid[HW_TIMER_HYP], list);
	(void)fdt_node_path(f, hw->uart_node, path, sizeof(path));
	hw_line(out, "hw: console: %s %s 0x%llx INTID %u", path, hw_uart_name(hw->uart_type),
		(unsigned long long)hw->uart_base, hw->uart_intid);
}
