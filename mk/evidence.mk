# Certification evidence (docs/safety/README.md).
#
#   make evidence   full report: build/evidence/index.html and summary.txt
#
# `make test` runs the fast, enforced part through tests/evidence/run.sh
# (MISRA with deviations, requirements matrix, stack bound, no recursion,
# loop bounds, coverage targets); test-build prepares its inputs here so the
# run itself compiles nothing.

EVIDENCE_DIR := $(BUILD)/evidence
EVIDENCE_PY := python3 $(SRCTREE)/tools/evidence/evidence.py
# The hypervisor's own configuration: MISRA and the stack bound use its sizes.
EVIDENCE_DEFCONFIG ?= boards/qemu/virt/defconfig
EVIDENCE_CFG := $(EVIDENCE_DIR)/config

$(EVIDENCE_CFG)/include/generated/autoconf.h: $(EVIDENCE_DEFCONFIG) Kconfig $(wildcard */Kconfig */*/Kconfig)
	$(call kconfig_gen,$(EVIDENCE_CFG),$(SRCTREE)/$(EVIDENCE_DEFCONFIG))

# ------------------------------------------------------------ stack usage
# AArch64 objects with -fstack-usage and the call graph, compiled here with
# the qemu-virt configuration (whatever board $(O) is configured for) and
# arch/arm/arm.mk's flags. Until every file of common/ and arch/arm/ compiles
# for AArch64, the host build below stands in and the report says so.
STACK_ARM_DIR := $(EVIDENCE_DIR)/stack-arm
STACK_ARM_SRCS := $(wildcard common/*.c common/*/*.c arch/arm/*.c boards/qemu/virt/*.c)
STACK_ARM_OBJS := $(patsubst %.c,$(STACK_ARM_DIR)/%.o,$(STACK_ARM_SRCS))
# The hypervisor's own flags (arch/arm/arm.mk) with this configuration's
# headers first; warnings are the real build's business.
STACK_ARM_CFLAGS ?= -I$(EVIDENCE_CFG)/include $(filter-out -Werror -fstack-usage,\
	$(or $(HYP_CPPFLAGS) $(HYP_CFLAGS),-std=c11 -O2 -g -ffreestanding -fno-stack-protector \
	-mgeneral-regs-only -mno-outline-atomics -fno-omit-frame-pointer \
	-I$(SRCTREE)/include -I$(SRCTREE)/arch/arm/include))
STACK_FLAGS := -fstack-usage -fcallgraph-info=su

# Rebuild when the flags change, not only when sources do.
$(STACK_ARM_DIR)/.flags: evidence-flags-force
	@mkdir -p $(dir $@)
	@echo '$(STACK_ARM_CFLAGS)' | cmp -s - $@ || echo '$(STACK_ARM_CFLAGS)' > $@
.PHONY: evidence-flags-force

$(STACK_ARM_DIR)/%.o: %.c $(EVIDENCE_CFG)/include/generated/autoconf.h $(STACK_ARM_DIR)/.flags
	@mkdir -p $(dir $@)
	$(Q)$(CROSS_COMPILE)gcc $(STACK_ARM_CFLAGS) $(STACK_FLAGS) -MMD -MP -c $< -o $@
-include $(STACK_ARM_OBJS:.o=.d)

# Host stand-in: the common code at the qemu-virt sizes, -O2.
$(eval $(call host_variant,stack,tools/evidence/host-stack_defconfig,-O2 $(STACK_FLAGS)))
STACK_HOST_OBJS := $(stack_HOST_OBJS)
# The debug build enforces the warnings; -O2 only adds false positives here.
$(HOST_DIR)/stack/obj/%.o: stack_HOST_CFLAGS += -Wno-error

.PHONY: evidence-stack-inputs
evidence-stack-inputs: $(EVIDENCE_CFG)/include/generated/autoconf.h
	@mkdir -p $(EVIDENCE_DIR)
	$(Q)if $(MAKE) --no-print-directory -k $(STACK_ARM_OBJS) > $(EVIDENCE_DIR)/stack-arm.log 2>&1; then \
		echo aarch64 > $(EVIDENCE_DIR)/stack-target; \
	elif $(MAKE) --no-print-directory -k $(STACK_HOST_OBJS) > $(EVIDENCE_DIR)/stack-host.log 2>&1; then \
		echo host > $(EVIDENCE_DIR)/stack-target; \
	else \
		echo none > $(EVIDENCE_DIR)/stack-target; \
	fi

# ------------------------------------------------------------ coverage
# The unit tests linked with the gcov build of the common code.
COV_BINS := $(patsubst tests/unit/%.c,$(HOST_DIR)/cov-tests/%,$(UNIT_SRCS))

$(HOST_DIR)/cov-tests/%: tests/unit/%.c $(UNIT_HARNESS) tests/unit/harness.h $(HOST_DIR)/cov/libbulkhead.a
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(cov_HOST_CFLAGS) -Itests/unit -o $@ $< $(UNIT_HARNESS) \
		$(HOST_DIR)/cov/libbulkhead.a -lcmocka -lpthread

.PHONY: evidence evidence-fast coverage-bins
coverage-bins: $(COV_BINS)

test-build: evidence-stack-inputs coverage-bins $(EVIDENCE_CFG)/include/generated/autoconf.h

# Standalone from a fresh clone: the dependencies first, then every input the
# report reads (the unit tests' device trees among them), as make test has them.
evidence: deps
	$(Q)$(MAKE) --no-print-directory evidence-inputs
	$(Q)test -f $(BUILD)/bench/restart.csv || $(MAKE) --no-print-directory bench-restart
	$(Q)$(EVIDENCE_PY) --build $(BUILD) --full

.PHONY: evidence-inputs
evidence-inputs: evidence-stack-inputs coverage-bins boot-test-dtbs

evidence-fast: evidence-stack-inputs
	$(Q)$(EVIDENCE_PY) --build $(BUILD) --fast
