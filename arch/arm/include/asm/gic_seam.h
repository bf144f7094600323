/* SPDX-License-Identifier: MIT */
/* The interrupt-controller calls arm-cpu code makes (INTERFACES.md). */
#ifndef ASM_GIC_SEAM_H
#define ASM_GIC_SEAM_H

#include <asm/gic.h>
#include <asm/vgic.h>

#define SGI_KICK       GIC_SGI_KICK

#endif
