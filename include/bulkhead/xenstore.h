/* SPDX-License-Identifier: MIT */
/*
 * The hypervisor's part of the xenstore partition (Xen's dom0less xenstore
 * set-up): each client's ring page at GUEST_MAGIC_BASE + 1 page, its store
 * event channel, grant reference 1 giving the page to the xenstore
 * partition, HVM_PARAM_STORE_PFN reading ~0 until the store has introduced
 * it, and the /xenstore node through which the store learns its clients.
 * docs/xenstore.md.
 */
#ifndef BULKHEAD_XENSTORE_H
#define BULKHEAD_XENSTORE_H

#include <bulkhead/types.h>
#include <public/xen.h>
#include <public/arch-arm.h>

struct domain;
struct domain_config;
struct dom0less_config;
struct fdt_writer;

#define XENSTORE_RING_GFN ((GUEST_MAGIC_BASE >> PAGE_SHIFT) + XENSTORE_PFN_OFFSET)
#define XENSTORE_PFN_LATE (~(uint64_t)0U)   /* "not yet": Linux waits for the store event */
/* Version of the /xenstore node the store partition reads. */
#define XENSTORE_DT_VERSION U(1)

/* Boot: the partitions of the configuration (names, sizes, who serves, who is served). */
void xenstore_configure(const struct dom0less_config *c);
/* The xenstore partition's domid, 0 when there is none. */
domid_t xenstore_server(void);
/* A client's store port: the lowest one none of its static channels uses. */
uint32_t xenstore_port_of(const struct domain_config *cfg);
/* RAM the partition sees: a client gives its last page to the ring. */
uint64_t domain_guest_ram(const struct domain *d);
/* The ring page in d's stage 2 (creation and restart; nothing for others). */
int xenstore_map_ring(struct domain *d);
/*
 * A client's store connection, fresh: STORE_PFN ~0, a zeroed ring page
 * asking for reconnection (XENSTORE_RECONNECT, its port in evtchn_port),
 * grant ref 1 for the store, its port unbound for the store; then
 * VIRQ_DOM_EXC tells the store. At boot once every partition exists, and
 * after each restart of the client.
 */
int xenstore_domain_setup(struct domain *d);
int xenstore_setup_all(void);
/* d stopped (shut down, crashed or restarting): VIRQ_DOM_EXC to the store. */
void xenstore_domain_stopped(const struct domain *d);
/* The store partition's /xenstore node (its own device tree only). */
void xenstore_write_dt(struct fdt_writer *w, const struct domain *d);
/*
 * HVM_PARAM_STORE_PFN / STORE_EVTCHN of d as caller asks for them: its own,
 * or a client's when caller is the store (which alone may set a client's
 * STORE_PFN, to the ring's gfn). Returns 1 when the index is not a store
 * param, else 0 or -errno.
 */
int xenstore_hvm_param(const struct domain *caller, struct domain *d, bool set, uint32_t index,
		       uint64_t *value);

#endif
