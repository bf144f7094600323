/*
 * Batched grant unmap against TLBs and the granter (common/gnttab/unmap.c,
 * reset.c). One mapping of one granted frame in a mapper partition with
 * NV vCPUs, each with its own TLB. The mapper's unmap is in three steps:
 * phase 1 under the granter's lock (stage-2 entry removed, maptrack
 * UNMAPPING), one invalidation of every TLB of the VMID with no lock, phase
 * 3 under the lock (pin dropped, entry freed). Meanwhile the granter either
 * reuses the frame as soon as the pin is gone (a guest following the
 * protocol: GTF_reading/writing cleared with the last pin), or restarts:
 * under its write lock it revokes mappings not UNMAPPING (entry removed,
 * pin dropped) and invalidates the holder's VMID before dropping the lock,
 * then waits for every pin and scrubs (reuses) the frame.
 * Checked: no vCPU reaches the frame through its stage-2 entry or a TLB
 * entry after the granter reused it (assert in access), the mapping is
 * released exactly once (pin never negative), and at the end nothing is
 * pinned and no TLB holds the translation.
 * VERIFIES: REQ-GNT-021
 * cc: -DSAFETY
 * pan: -m100000
 */
#define NV 2

bit entry;        /* the mapper's stage-2 entry */
bit tlb[NV];      /* what each mapper vCPU's TLB caches */
byte pin;
byte mt;          /* maptrack: 0 free, 1 mapped, 2 unmapping, 3 revoked */
bit lk;           /* the granter's table lock */
bit reused;       /* the granter has reused (or scrubbed) the frame */
byte done;

inline lock()   { atomic { lk == 0 -> lk = 1 } }
inline unlock() { lk = 0 }

inline flush_all()
{
	atomic { byte i = 0; do :: i < NV -> tlb[i] = 0; i++ :: else -> break od }
}

/* A load or store through the mapping: the TLB first, then a walk. */
proctype vcpu(byte me)
{
	byte n = 0;
	do
	:: n < 3 ->
		atomic {
			if
			:: tlb[me] -> assert(!reused)
			:: !tlb[me] && entry -> tlb[me] = 1; assert(!reused)
			:: else -> skip  /* a translation fault: the guest's own problem */
			fi
		};
		n++
	:: else -> break
	od;
	atomic { done++ }
}

/* GNTTABOP_unmap_grant_ref of the one handle (a chunk of one). */
proctype unmapper()
{
	bit owed = 0;

	lock();
	if
	:: mt == 1 -> entry = 0; mt = 2; owed = 1
	:: else -> skip          /* revoked or gone: nothing to invalidate */
	fi;
	if :: mt == 3 -> mt = 0 :: else -> skip fi;   /* revoked: free the handle */
	unlock();
	if
	:: owed ->
		flush_all();
		lock();
		assert(pin > 0);
		pin--;
		mt = 0;
		unlock()
	:: else -> skip
	fi;
	atomic { done++ }
}

/* The granter: either a protocol-following reuse, or a restart. */
proctype granter()
{
	if
	:: true ->
		/* end_foreign_access succeeds only with no pin; then the page is its own. */
		atomic { pin == 0 -> reused = 1 }
	:: true ->
		lock();
		if
		:: mt == 1 -> entry = 0; mt = 3; pin--; flush_all()
		:: else -> skip      /* UNMAPPING: its holder drops the pin itself */
		fi;
		unlock();
		(pin == 0);
		reused = 1
	fi;
	atomic { done++ }
}

init
{
	atomic {
		entry = 1; pin = 1; mt = 1;
		run vcpu(0); run vcpu(1); run unmapper(); run granter()
	}
	done == NV + 2;
	assert(pin == 0 && entry == 0 && mt == 0);
	assert(tlb[0] == 0 && tlb[1] == 0);
}
