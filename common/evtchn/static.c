/* SPDX-License-Identifier: MIT */
/*
 * Static event channels (dom0less xen,evtchn, Xen 4.17): connected at boot
 * with no toolstack. As in Xen, the first side's port is allocated unbound
 * for the peer, then the peer binds its own port to it, which leaves the
 * peer's port pending.
 */
#include "private.h"
#include <bulkhead/console.h>

static bool evtchn_static_done(struct domain *d, const struct static_evtchn *sc)
{
	struct evtchn *chn;

	if (!evtchn_port_valid(d, sc->local_port)) {
		return false;
	}
	chn = evtchn_from_port(d, sc->local_port);
	return (evtchn_state(chn) == ECS_INTERDOMAIN) && (chn->remote_dom != NULL) &&
	       (chn->remote_dom->domain_id == sc->remote_domid) &&
	       (chn->remote_port == sc->remote_port);
}

int evtchn_bind_static(struct domain *d, const struct static_evtchn *sc)
{
	struct domain *rd = domain_by_id(sc->remote_domid);
	uint32_t port;
	int rc;

	if ((rd == NULL) || (sc->local_port == 0U) || (sc->remote_port == 0U)) {
		return -XEN_EINVAL;
	}
	/* Both partitions list the pair; the first one processed makes it. */
	if (evtchn_static_done(d, sc)) {
		return 0;
	}
	rc = evtchn_alloc_unbound_in(d, sc->local_port, rd->domain_id, &port);
	if (rc == 0) {
		rc = evtchn_bind_interdomain_in(rd, sc->remote_port, d, sc->local_port, &port);
		if (rc != 0) {
			(void)evtchn_close_port(d, sc->local_port);
		}
	}
	if (rc != 0) {
		printk("evtchn: d%u static channel %u -> d%u:%u failed (%d)\n", d->domain_id,
		       sc->local_port, sc->remote_domid, sc->remote_port, rc);
	}
	return rc;
}

int evtchn_alloc_unbound_port(struct domain *d, uint32_t port, domid_t remote)
{
	uint32_t out;

	return evtchn_alloc_unbound_in(d, port, remote, &out);
}

void evtchn_restore_static(struct domain *d)
{
	uint32_t i;

	for (i = 0U; i < d->cfg.nr_static_evtchn; i++) {
		const struct static_evtchn *sc = &d->cfg.static_evtchn[i];
		struct domain *rd = domain_by_id(sc->remote_domid);
		uint32_t port;

		/* The peer's end went back to unbound for d when d was reset. */
		if (rd != NULL) {
			(void)evtchn_bind_interdomain_in(d, sc->local_port, rd, sc->remote_port,
							 &port);
		}
	}
}
