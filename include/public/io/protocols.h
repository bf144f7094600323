/* SPDX-License-Identifier: MIT */
/* The "protocol" node of a split driver's frontend: the ring's ABI (Xen's io/protocols.h). */
#ifndef PUBLIC_IO_PROTOCOLS_H
#define PUBLIC_IO_PROTOCOLS_H

#define XEN_IO_PROTO_ABI_ARM    "arm-abi"
#define XEN_IO_PROTO_ABI_NATIVE XEN_IO_PROTO_ABI_ARM

#endif
