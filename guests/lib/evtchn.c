/* SPDX-License-Identifier: MIT */
#include <guest/guest.h>
#include <guest/xen_evtchn.h>

#define EVT_PAGE 4096U

static volatile struct shared_info *shinfo;
static bool use_fifo;
static uint8_t fifo_control[EVT_PAGE] __attribute__((aligned(EVT_PAGE)));
static uint32_t fifo_array[EVT_PAGE / 4U] __attribute__((aligned(EVT_PAGE)));
/* With bootarg shinfo=ram, shared_info replaces this RAM page (as Linux does). */
static uint8_t shinfo_ram[EVT_PAGE] __attribute__((aligned(EVT_PAGE)));

long evt_setup(bool fifo)
{
	/* shared_info goes in the last page of the grant window, clear of frames. */
	uint64_t si = rt.gnttab_base + rt.gnttab_size - EVT_PAGE;
	char where[8] = "";
	long rc;

	if (rt_arg("shinfo", where, sizeof(where)) && (where[0] == 'r')) {
		si = (uint64_t)(uintptr_t)shinfo_ram;
	}

	if (!rt.has_hypervisor_node) {
		return -XEN_ENODEV;
	}
	rc = xen_add_to_physmap(XENMAPSPACE_shared_info, 0, si >> 12);
	if (rc != 0) {
		return rc;
	}
	shinfo = (volatile struct shared_info *)si;
	/* Polled, not interrupt driven. */
	shinfo->vcpu_info[0].evtchn_upcall_mask = 1;
	use_fifo = false;
	if (fifo) {
		struct evtchn_init_control ic = {
			.control_gfn = (uint64_t)(uintptr_t)fifo_control >> 12,
			.offset = 0,
			.vcpu = 0,
		};
		struct evtchn_expand_array ea = {
			.array_gfn = (uint64_t)(uintptr_t)fifo_array >> 12,
		};
		rc = HYPERVISOR_event_channel_op(EVTCHNOP_init_control, &ic);
		if (rc != 0) {
			return rc; /* caller may stay on 2-level, as Linux does */
		}
		rc = HYPERVISOR_event_channel_op(EVTCHNOP_expand_array, &ea);
		if (rc != 0) {
			return rc;
		}
		use_fifo = true;
	}
	return 0;
}

bool evt_is_fifo(void)
{
	return use_fifo;
}

long evt_alloc_unbound(domid_t remote, evtchn_port_t *port)
{
	struct evtchn_alloc_unbound op = { .dom = DOMID_SELF, .remote_dom = remote };
	long rc = HYPERVISOR_event_channel_op(EVTCHNOP_alloc_unbound, &op);

	if (rc == 0) {
		*port = op.port;
	}
	return rc;
}

long evt_bind_interdomain(domid_t remote, evtchn_port_t rport, evtchn_port_t *lport)
{
	struct evtchn_bind_interdomain op = { .remote_dom = remote, .remote_port = rport };
	long rc = HYPERVISOR_event_channel_op(EVTCHNOP_bind_interdomain, &op);

	if (rc == 0) {
		*lport = op.local_port;
	}
	return rc;
}

long evt_send(evtchn_port_t port)
{
	struct evtchn_send op = { .port = port };

	return HYPERVISOR_event_channel_op(EVTCHNOP_send, &op);
}

long evt_close(evtchn_port_t port)
{
	struct evtchn_close op = { .port = port };

	return HYPERVISOR_event_channel_op(EVTCHNOP_close, &op);
}

long evt_status(evtchn_port_t port)
{
	struct evtchn_status op = { .dom = DOMID_SELF, .port = port };
	long rc = HYPERVISOR_event_channel_op(EVTCHNOP_status, &op);

	return (rc != 0) ? rc : (long)op.status;
}

bool evt_pending(evtchn_port_t port)
{
	if (use_fifo) {
		return ((__atomic_load_n(&fifo_array[port], __ATOMIC_ACQUIRE) >>
			 EVTCHN_FIFO_PENDING) & 1U) != 0U;
	}
	return ((__atomic_load_n(&shinfo->evtchn_pending[port / 64U], __ATOMIC_ACQUIRE) >>
		 (port % 64U)) & 1U) != 0U;
}

/* Consume the FIFO queues so later events link (and raise upcalls) again. */
static void evt_fifo_unlink_all(void)
{
	volatile struct evtchn_fifo_control_block *cb =
		(volatile struct evtchn_fifo_control_block *)fifo_control;
	uint32_t ready = __atomic_exchange_n(&cb->ready, 0U, __ATOMIC_ACQ_REL);
	unsigned int q;

	for (q = 0U; q < EVTCHN_FIFO_MAX_QUEUES; q++) {
		uint32_t port;
		unsigned int steps;

		if (((ready >> q) & 1U) == 0U) {
			continue;
		}
		port = cb->head[q];
		for (steps = 0U; (port != 0U) && (port < (EVT_PAGE / 4U)) && (steps < 1024U);
		     steps++) {
			uint32_t old = __atomic_load_n(&fifo_array[port], __ATOMIC_ACQUIRE);
			uint32_t new;

			do {
				new = old & ~((1U << EVTCHN_FIFO_LINKED) | EVTCHN_FIFO_LINK_MASK);
			} while (!__atomic_compare_exchange_n(&fifo_array[port], &old, new, false,
							      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
			port = old & EVTCHN_FIFO_LINK_MASK;
		}
	}
}

void evt_clear(evtchn_port_t port)
{
	if (use_fifo) {
		__atomic_fetch_and(&fifo_array[port], ~(1U << EVTCHN_FIFO_PENDING),
				   __ATOMIC_ACQ_REL);
		evt_fifo_unlink_all();
		return;
	}
	__atomic_fetch_and(&shinfo->evtchn_pending[port / 64U], ~(1UL << (port % 64U)),
			   __ATOMIC_ACQ_REL);
}

/* Xen's system time for a poll timeout: the physical counter in ns. */
static uint64_t evt_ticks_to_ns(uint64_t ticks)
{
	uint64_t f = cntfrq();

	if (f == 0U) {
		return 0U;
	}
	return (ticks / f) * 1000000000U + ((ticks % f) * 1000000000U) / f;
}

bool evt_poll(const evtchn_port_t *ports, unsigned int n, uint64_t ticks)
{
	struct sched_poll poll = {
		.ports = (uint64_t)(uintptr_t)ports,
		.nr_ports = n,
		/* Xen counts from its own boot: there a timeout may end that much later. */
		.timeout = (ticks != 0U) ? evt_ticks_to_ns(cntpct() + ticks) : 0U,
	};
	unsigned int i;

	for (i = 0U; i < n; i++) {
		if (evt_pending(ports[i])) {
			return true;
		}
	}
	(void)HYPERVISOR_sched_op(SCHEDOP_poll, &poll);
	for (i = 0U; i < n; i++) {
		if (evt_pending(ports[i])) {
			return true;
		}
	}
	return false;
}

bool evt_wait(evtchn_port_t port, uint64_t timeout_ms)
{
	uint64_t deadline = (timeout_ms != 0U) ? cntvct() + timer_us_to_ticks(timeout_ms * 1000U) : 0U;

	while (!evt_pending(port)) {
		uint64_t now = cntvct();

		if ((deadline != 0U) && (now > deadline)) {
			return false;
		}
		/* Sleep, not spin: the poll's timeout ends the wait at the deadline. */
		(void)evt_poll(&port, 1U, (deadline != 0U) ? (deadline - now + 1U) : 0U);
	}
	evt_clear(port);
	return true;
}
