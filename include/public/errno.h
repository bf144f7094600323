/* SPDX-License-Identifier: MIT */
/* Xen error numbers: hypercalls return their negation in x0. */
#ifndef PUBLIC_ERRNO_H
#define PUBLIC_ERRNO_H

#define XEN_EPERM      1
#define XEN_ENOENT     2
#define XEN_ESRCH      3
#define XEN_EINTR      4
#define XEN_EIO        5
#define XEN_ENXIO      6
#define XEN_E2BIG      7
#define XEN_EBADF      9
#define XEN_EAGAIN     11
#define XEN_ENOMEM     12
#define XEN_EACCES     13
#define XEN_EFAULT     14
#define XEN_EBUSY      16
#define XEN_EEXIST     17
#define XEN_EXDEV      18
#define XEN_ENODEV     19
#define XEN_EINVAL     22
#define XEN_EFBIG      27
#define XEN_ENOSPC     28
#define XEN_EDOM       33
#define XEN_ERANGE     34
#define XEN_EILSEQ     84
#define XEN_ENOSYS     38
#define XEN_ENOBUFS    105
#define XEN_EOVERFLOW  75
#define XEN_EOPNOTSUPP 95

#endif
