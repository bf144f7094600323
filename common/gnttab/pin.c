/* SPDX-License-Identifier: MIT */
/*
 * The guest-side grant protocol. The granter owns {flags, domid} and may
 * rewrite it at any moment; the hypervisor only ever changes it with a
 * compare-and-swap that is retried a fixed number of times, so a guest
 * flipping its flags makes its own grant fail instead of stalling a CPU.
 * GTF_reading/GTF_writing stay set while a pin of that kind exists, which
 * is what stops a well-behaved granter from revoking a grant in use.
 */
#include "gnttab_priv.h"

static int16_t gnttab_set_flags(struct grant_table *gt, grant_ref_t ref, domid_t ldom,
				bool readonly, bool map, bool pinned)
{
	uint32_t *word = gnttab_entry_word(gt, ref);
	uint32_t cur = read_atomic(word);
	uint16_t mask = (uint16_t)GTF_type_mask;
	unsigned int tries;

	if (map) {
		mask |= (uint16_t)GTF_sub_page;
	}

	for (tries = 0U; tries < GNTTAB_CMPXCHG_TRIES; tries++) {
		uint16_t flags = (uint16_t)(cur & U(0xffff));
		domid_t domid = (domid_t)(cur >> 16);
		uint32_t want = cur | GTF_reading | (readonly ? 0U : GTF_writing);

		/* An existing pin already proved type and grantee. */
		if (!pinned && (((flags & mask) != GTF_permit_access) || (domid != ldom))) {
			return GNTST_general_error;
		}
		if (!readonly && ((flags & GTF_readonly) != 0U)) {
			return GNTST_general_error;
		}
		if (atomic_cmpxchg(word, &cur, want)) {
			return GNTST_okay;
		}
	}
	/* GCOVR_EXCL_START COV-002 */
	return GNTST_general_error;
}
	/* GCOVR_EXCL_STOP */

void gnttab_clear_flags(struct grant_table *gt, grant_ref_t ref, uint16_t clear)
{
	uint32_t *word = gnttab_entry_word(gt, ref);
	uint32_t cur = read_atomic(word);
	unsigned int tries;

	/*
	 * Giving up leaves the bits set: only the hostile granter is hurt,
	 * its grant looks busy until it rewrites the entry itself.
	 */
	for (tries = 0U; tries < GNTTAB_CMPXCHG_TRIES; tries++) {
		if (atomic_cmpxchg(word, &cur, cur & ~(uint32_t)clear)) {
			break;
		}
	}
}

/* The granter's frame: its own RAM, writable unless the pin is read-only. */
static int16_t gnttab_frame(struct domain *rd, gfn_t gfn, bool readonly, mfn_t *mfn)
{
	enum p2m_type t;

	if (p2m_lookup(&rd->p2m, gfn, mfn, &t) != 0) {
		return GNTST_bad_page;
	}
	if ((t == p2m_ram_rw) || (readonly && (t == p2m_ram_ro))) {
		return GNTST_okay;
	}
	return GNTST_bad_page;
}

int16_t gnttab_pin(struct domain *rd, struct gnttab_active *act, grant_ref_t ref,
		   domid_t ldom, bool readonly, bool map)
{
	struct grant_table *gt = &rd->gt;
	uint32_t pin = act->pin;
	bool resetting = read_atomic(&gt->resetting);
	int16_t rc;

	if (resetting) {
		return GNTST_bad_domain;
	}
	if ((pin != 0U) && ((act->domid != ldom) || ((pin & GNTPIN_OVERFLOW) != 0U))) {
		return GNTST_general_error;
	}
	if ((pin == 0U) || (!readonly && ((pin & GNTPIN_HSTW_MASK) == 0U))) {
		rc = gnttab_set_flags(gt, ref, ldom, readonly, map, pin != 0U);
		if (rc != GNTST_okay) {
			return rc;
		}
		if (pin == 0U) {
			mfn_t mfn = 0U;
			gfn_t gfn = read_atomic(&gt->shared[ref].frame);

			rc = gnttab_frame(rd, gfn, readonly, &mfn);
			if (rc != GNTST_okay) {
				uint16_t clear = (uint16_t)GTF_reading;

				if (!readonly) {
					clear |= (uint16_t)GTF_writing;
				}
				gnttab_clear_flags(gt, ref, clear);
				return rc;
			}
			act->domid = ldom;
			act->mfn = mfn;
		}
	}
	/* Atomic store: a restart waits for pins to drain without the lock. */
	write_atomic(&act->pin, pin + (readonly ? GNTPIN_HSTR_INC : GNTPIN_HSTW_INC));
	return GNTST_okay;
}

void gnttab_unpin(struct grant_table *gt, struct gnttab_active *act, grant_ref_t ref,
		  bool readonly)
{
	uint16_t clear = 0U;
	uint32_t pin = act->pin - (readonly ? GNTPIN_HSTR_INC : GNTPIN_HSTW_INC);

	write_atomic(&act->pin, pin);
	if (!readonly && ((pin & GNTPIN_HSTW_MASK) == 0U)) {
		clear |= (uint16_t)GTF_writing;
	}
	if (pin == 0U) {
		clear |= (uint16_t)GTF_reading;
	}
	if (clear != 0U) {
		gnttab_clear_flags(gt, ref, clear);
	}
}
