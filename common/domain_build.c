/* SPDX-License-Identifier: MIT */
/* Loading a partition's image: placeholder until the boot work lands. */
#include <bulkhead/domain.h>
#include <public/errno.h>

int domain_load(struct domain *d)
{
	(void)d;
	return -XEN_ENOSYS;
}
