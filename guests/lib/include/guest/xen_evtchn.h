/* SPDX-License-Identifier: MIT */
/*
 * Event channels from the guest side, polled rather than taken as
 * interrupts: the vCPU's upcall mask stays set and a wait is SCHEDOP_poll
 * on the port. Either ABI: 2-level (shared_info bitmaps) or FIFO (event
 * array + control block), chosen by evt_setup().
 */
#ifndef GUEST_XEN_EVTCHN_H
#define GUEST_XEN_EVTCHN_H

#include <stdbool.h>
#include <stdint.h>
#include <public/event_channel.h>

/* Map shared_info; with fifo, also init_control + one array page. 0 or -errno. */
long evt_setup(bool fifo);
bool evt_is_fifo(void);
long evt_alloc_unbound(domid_t remote, evtchn_port_t *port);
long evt_bind_interdomain(domid_t remote, evtchn_port_t rport, evtchn_port_t *lport);
long evt_send(evtchn_port_t port);
long evt_close(evtchn_port_t port);
/* EVTCHNSTAT_* of a local port, or -errno. */
long evt_status(evtchn_port_t port);
bool evt_pending(evtchn_port_t port);
void evt_clear(evtchn_port_t port);
/*
 * Sleep in SCHEDOP_poll until one of ports[0..n) is pending or about ticks
 * (of the counter; 0: no timeout) have passed; whether one is pending. It
 * may return early (the hypervisor's idle safety net): callers loop on
 * their own condition. The caller clears a port before it re-checks the
 * state the port signals, then polls: no wake-up is lost.
 */
bool evt_poll(const evtchn_port_t *ports, unsigned int n, uint64_t ticks);
/* Wait until port is pending, then clear it; false after timeout_ms (0: none). */
bool evt_wait(evtchn_port_t port, uint64_t timeout_ms);

#endif
