/* SPDX-License-Identifier: MIT */
/*
 * Lock classes in their one legal acquisition order (docs/locking.md).
 * A CPU may only take a lock whose class is greater than the innermost one
 * it holds; the exception is a class marked pairable, of which two may be
 * held at once when taken in ascending address order.
 */
#ifndef BULKHEAD_LOCK_CLASS_H
#define BULKHEAD_LOCK_CLASS_H

enum lock_class {
	LOCK_CLASS_NONE = 0,
	LOCK_CLASS_DOMAIN,          /* partition lifecycle (restart, reset) */
	LOCK_CLASS_EVTCHN_DOMAIN,   /* per-partition event lock: alloc/bind/close */
	LOCK_CLASS_GNTTAB,          /* grant-table rwlock (or the single lock) */
	LOCK_CLASS_GNTTAB_ACTIVE,   /* active grant entry */
	LOCK_CLASS_EVTCHN,          /* event channel (pairable) */
	LOCK_CLASS_EVTCHN_QUEUE,    /* FIFO per-vCPU priority queue (pairable) */
	LOCK_CLASS_MAPTRACK,        /* maptrack pool or per-vCPU free list */
	LOCK_CLASS_P2M,             /* stage-2 table updates outside the grant window */
	LOCK_CLASS_VUART,           /* emulated PL011 of one partition */
	LOCK_CLASS_VGIC,            /* virtual interrupt state of one vCPU */
	LOCK_CLASS_CONSOLE,         /* console ring and UART */
	LOCK_CLASS_NR
};

#endif
