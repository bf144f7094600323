/* SPDX-License-Identifier: MIT */
/*
 * Grant tables from the guest side (v1): the table frames are placed at the
 * start of the /hypervisor grant window, entries are written with the flags
 * last, and revocation refuses an entry the peer still has in use.
 */
#ifndef GUEST_XEN_GNTTAB_H
#define GUEST_XEN_GNTTAB_H

#include <stdbool.h>
#include <stdint.h>
#include <public/grant_table.h>

/* Map nr_frames table frames (and nothing else); 0 or -errno. */
long gnt_setup(unsigned int nr_frames);
/* The entry of ref, for inspection (flags, domid, frame). */
volatile struct grant_entry_v1 *gnt_entry(grant_ref_t ref);
/* Offer guest-physical page gfn to domid. */
void gnt_grant(grant_ref_t ref, domid_t domid, uint64_t gfn, bool readonly);
/* Revoke ref: 0, or -EBUSY while the peer has it mapped or is copying. */
long gnt_revoke(grant_ref_t ref);
/* Map dom's ref at host_addr; the GNTST status, handle in *handle. */
int gnt_map(domid_t dom, grant_ref_t ref, uint64_t host_addr, bool readonly,
	    grant_handle_t *handle);
int gnt_unmap(uint64_t host_addr, grant_handle_t handle);
/* GNTTABOP_copy of len bytes from dom's ref (offset) to own gfn (offset). */
int gnt_copy_from(domid_t dom, grant_ref_t ref, uint16_t off, uint64_t gfn, uint16_t doff,
		  uint16_t len);

#endif
