# Host builds of the common code: one static library per variant.
#   debug  - unit tests (lock-order checking and lock profiling on)
#   tsan   - stress tests under ThreadSanitizer
#   cov    - coverage (gcov), for the evidence report
# Bench variants are declared by the benches themselves (tests/bench/bench.mk).

HOST_CC ?= gcc
HOST_DIR := $(BUILD)/host
HOST_CFLAGS_COMMON := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -g \
	-I$(SRCTREE)/include -I$(SRCTREE)/arch/host/include
# Pure-C parts of arch/arm that the host runs as they are.
ARM_HOST_SHARED := arch/arm/p2m.c arch/arm/vgic_state.c arch/arm/vgic_regs.c arch/arm/vgic_route.c \
	arch/arm/xpfo_walk.c
HOST_SRCS := $(filter-out common/lib/string.c,$(wildcard common/*.c common/*/*.c)) \
	$(wildcard arch/host/*.c) $(ARM_HOST_SHARED)

# host_variant(name, defconfig, cflags); <name>_HOST_CC overrides HOST_CC
# for that variant only (the fuzz variant is built with clang).
define host_variant
$(HOST_DIR)/$(1)/include/generated/autoconf.h: $(2) Kconfig $(wildcard */Kconfig */*/Kconfig)
	$(call kconfig_gen,$(HOST_DIR)/$(1),$(SRCTREE)/$(2))
$(1)_HOST_OBJS := $(patsubst %.c,$(HOST_DIR)/$(1)/obj/%.o,$(HOST_SRCS))
$(1)_HOST_CFLAGS := $(3) $(HOST_CFLAGS_COMMON) -I$(HOST_DIR)/$(1)/include
$(HOST_DIR)/$(1)/obj/%.o: %.c $(HOST_DIR)/$(1)/include/generated/autoconf.h
	@mkdir -p $$(dir $$@)
	$(Q)$$(or $$($(1)_HOST_CC),$$(HOST_CC)) $$($(1)_HOST_CFLAGS) -MMD -MP -c $$< -o $$@
$(HOST_DIR)/$(1)/libbulkhead.a: $$($(1)_HOST_OBJS)
	$(Q)rm -f $$@ && ar rcs $$@ $$^
-include $$($(1)_HOST_OBJS:.o=.d)
endef

$(eval $(call host_variant,debug,tests/host_defconfig,-O1))
$(eval $(call host_variant,tsan,tests/host_defconfig,-O1 -fsanitize=thread))
# Atomic counters: the tests run vCPUs as threads, and racy counts corrupt gcov data.
$(eval $(call host_variant,cov,tests/host_defconfig,-O0 --coverage -fprofile-update=atomic))

.PHONY: host-lib
host-lib: $(HOST_DIR)/debug/libbulkhead.a
