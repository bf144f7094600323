/* SPDX-License-Identifier: MIT */
/*
 * The xenbus device states every split driver's two ends publish in their
 * xenstore "state" node (Xen's io/xenbus.h), as decimal numbers.
 */
#ifndef PUBLIC_IO_XENBUS_H
#define PUBLIC_IO_XENBUS_H

enum xenbus_state {
	XenbusStateUnknown = 0,      /* no node (or not a number) */
	XenbusStateInitialising = 1,
	XenbusStateInitWait = 2,     /* backend: features written, waiting for the frontend */
	XenbusStateInitialised = 3,  /* frontend: rings and event channels written */
	XenbusStateConnected = 4,
	XenbusStateClosing = 5,
	XenbusStateClosed = 6,
	XenbusStateReconfiguring = 7,
	XenbusStateReconfigured = 8
};

#endif
