# AArch64 EL2 hypervisor image: build/bulkhead.bin (arm64 Image) and
# build/bulkhead.elf, plus build/compile_commands.json for tools.
#
# Sources are picked up by wildcard so files other work adds are built:
# common/*.c common/*/*.c (common/lib too), arch/arm/*.c *.S and the
# configured board's board.c (CONFIG_BOARD "vendor-board").

HYP_DIR := $(BUILD)/hyp
HYP_BOARD := $(patsubst "%",%,$(CONFIG_BOARD))
HYP_BOARD_DIR := boards/$(firstword $(subst -, ,$(HYP_BOARD)))/$(patsubst $(firstword $(subst -, ,$(HYP_BOARD)))-%,%,$(HYP_BOARD))

HYP_C_SRCS := $(wildcard common/*.c common/*/*.c arch/arm/*.c) \
	$(if $(HYP_BOARD),$(wildcard $(HYP_BOARD_DIR)/*.c))
HYP_S_SRCS := $(wildcard arch/arm/*.S)
HYP_OBJS := $(patsubst %.c,$(HYP_DIR)/%.o,$(HYP_C_SRCS)) \
	$(patsubst %.S,$(HYP_DIR)/%.o,$(HYP_S_SRCS))

HYP_CC := $(CROSS_COMPILE)gcc
# Release builds (what ships and what the benches measure): -O2. Debug builds
# (the default configuration, the one REQ-ARM-001's 128 KiB budget is held
# to): -Os throughout, as firmware such as TF-A is built; -Og made the image
# about 11 KiB larger, and no bench measures a debug build.
HYP_OPT := $(if $(filter y,$(CONFIG_DEBUG)),-Os,-O2)
# The compiler's own header directory, asked for once and only when a rule
# uses it: reading the makefiles runs no tool, so `make test` on a machine
# without the cross compiler gets as far as ci/deps.sh installing it.
HYP_CC_INC = $(eval HYP_CC_INC := $$(shell $$(HYP_CC) -print-file-name=include))$(HYP_CC_INC)
HYP_CPPFLAGS = -nostdinc -isystem $(HYP_CC_INC) \
	-I$(SRCTREE)/include -I$(SRCTREE)/arch/arm/include -I$(BUILD)/include
HYP_CFLAGS := -std=c11 -ffreestanding -fno-builtin-printf -Wall -Wextra -Werror $(HYP_OPT) -g \
	-mgeneral-regs-only -mstrict-align -mno-outline-atomics -march=armv8-a \
	-fno-stack-protector -fstack-usage -fcallgraph-info=su -fno-omit-frame-pointer -momit-leaf-frame-pointer \
	-fno-pie -fno-pic -fno-common -ffunction-sections -fdata-sections
HYP_CFLAGS += $(HYP_EXTRA_CFLAGS)
# Cold code: run at boot, at a partition's restart, on the fatal path, or
# as a debug check (device-tree parsing, the configuration checks, building
# and restarting partitions, CPU bring-up, panic, the XPFO walk, the lock
# profile, the lock-order check, console formatting and output), the grant
# table's frames and the event channels' set-up (ports, bind, close, status;
# send and unmask are in evtchn/hypercall.c), the guest's distributor and
# redistributor registers (routing and SGIs are in vgic_route.c), and the calls a guest makes while it sets
# itself up or that are refused (vcpu_op, PSCI, physmap, the balloon's
# reservations, the grant table's table-wide sub-ops, memory_op refusals,
# the xenstore set-up). Optimised for size, so the image stays in its
# 128 KiB as bindings grow; the trap, hypercall, grant map/unmap/copy,
# event and vGIC paths keep HYP_OPT.
HYP_COLD_SRCS := $(wildcard common/fdt.c common/dom0less*.c common/hwdesc*.c \
	common/domain_build.c common/fdt_build.c common/boot_setup.c common/mm_boot.c \
	common/setup.c common/domain_restart.c common/summary.c common/xpfo_check.c \
	common/lock_profile.c common/version.c common/lib/vsnprintf.c \
	arch/arm/setup.c arch/arm/machine.c arch/arm/smp.c arch/arm/panic.c \
	arch/arm/xpfo_walk.c arch/arm/uart_*.c common/xenstore.c common/evtchn/static.c \
	common/evtchn/reset.c common/gnttab/reset.c common/memory/refused.c common/vcpu_op.c \
	arch/arm/vpsci.c common/domain.c common/memory/physmap.c common/memory/reservation.c \
	common/gnttab/misc.c common/gnttab/table.c common/evtchn/port.c common/evtchn/ops.c common/console.c arch/arm/vgic_regs.c \
	common/lock_check.c)
$(patsubst %.c,$(HYP_DIR)/%.o,$(HYP_COLD_SRCS)): HYP_CFLAGS += -Os
HYP_ASFLAGS := -D__ASSEMBLER__ -march=armv8-a -g
HYP_LDFLAGS := -nostdlib -static -no-pie -Wl,--gc-sections -Wl,--build-id=none \
	-Wl,-z,noexecstack -Wl,--no-warn-rwx-segments

.PHONY: hyp
all: hyp
hyp: $(BUILD)/bulkhead.bin $(BUILD)/compile_commands.json

$(HYP_DIR)/%.o: %.c $(BUILD)/include/generated/autoconf.h arch/arm/arm.mk
	@mkdir -p $(dir $@)
	$(Q)$(HYP_CC) $(HYP_CPPFLAGS) $(HYP_CFLAGS) -MMD -MP -c $< -o $@

$(HYP_DIR)/%.o: %.S $(BUILD)/include/generated/autoconf.h arch/arm/arm.mk
	@mkdir -p $(dir $@)
	$(Q)$(HYP_CC) $(HYP_CPPFLAGS) $(HYP_ASFLAGS) -MMD -MP -c $< -o $@

# xen_version changeset and compile date: the commit the image is built from
# (reproducible: the same commit gives the same strings). Rewritten only when
# they change, so only common/version.o rebuilds.
HYP_BUILDINFO := $(BUILD)/include/generated/buildinfo.h
HYP_GIT_INFO := $(shell git -C $(SRCTREE) log -1 --date=format:'%a %b %e %H:%M:%S %Y %z' \
	--format='%cd git:%h' 2>/dev/null)$(if $(shell git -C $(SRCTREE) status --porcelain -uno 2>/dev/null),-dirty)
HYP_GIT_DATE := $(shell git -C $(SRCTREE) log -1 --date=format:'%a %b %e %H:%M:%S UTC %Y' \
	--format='%cd' 2>/dev/null)
.PHONY: FORCE
$(HYP_BUILDINFO): FORCE
	@mkdir -p $(dir $@)
	@printf '#define BULKHEAD_CHANGESET "%s"\n#define BULKHEAD_COMPILE_DATE "%s"\n' \
		"$(or $(HYP_GIT_INFO),unavailable)" "$(HYP_GIT_DATE)" > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(HYP_DIR)/common/version.o: $(HYP_BUILDINFO)
$(HYP_DIR)/common/version.o: HYP_CFLAGS += -include $(HYP_BUILDINFO)

$(HYP_DIR)/bulkhead.ld: arch/arm/bulkhead.lds.in $(BUILD)/include/generated/autoconf.h
	@mkdir -p $(dir $@)
	$(Q)$(HYP_CC) $(HYP_CPPFLAGS) -ffreestanding -D__ASSEMBLER__ -E -P -x c $< -o $@

$(BUILD)/bulkhead.elf: $(HYP_OBJS) $(HYP_DIR)/bulkhead.ld
	$(Q)$(HYP_CC) $(HYP_LDFLAGS) -T $(HYP_DIR)/bulkhead.ld -o $@ $(HYP_OBJS) -lgcc \
		-Wl,-Map,$(BUILD)/bulkhead.map

$(BUILD)/bulkhead.bin: $(BUILD)/bulkhead.elf
	$(Q)$(CROSS_COMPILE)objcopy -O binary $< $@
	@$(CROSS_COMPILE)size $< | tail -1 | \
		awk '{ printf "bulkhead.bin: text %d data %d bss %d (text+data %d bytes)\n", $$1, $$2, $$3, $$1 + $$2 }'

# compile_commands.json from the same flags the rules use (no bear needed).
hyp_comma := ,
hyp_cc_args = $(subst " ","$(hyp_comma)",$(strip $(patsubst %,"%",$(1))))
hyp_cc_entry = {"directory":"$(SRCTREE)","file":"$(SRCTREE)/$(1)","output":"$(HYP_DIR)/$(basename $(1)).o","arguments":[$(call hyp_cc_args,$(HYP_CC) $(HYP_CPPFLAGS) $(2) -c $(SRCTREE)/$(1) -o $(HYP_DIR)/$(basename $(1)).o)]}
$(BUILD)/compile_commands.json: $(BUILD)/include/generated/autoconf.h arch/arm/arm.mk
	$(file >$@,[)
	$(foreach s,$(HYP_C_SRCS),$(file >>$@,$(call hyp_cc_entry,$(s),$(HYP_CFLAGS)),))
	$(foreach s,$(HYP_S_SRCS),$(file >>$@,$(call hyp_cc_entry,$(s),$(HYP_ASFLAGS)),))
	$(file >>$@,{"directory":"$(SRCTREE)","file":"$(SRCTREE)/Makefile","arguments":["true"]}])
	$(Q)cp $@ $(SRCTREE)/compile_commands.json

-include $(HYP_OBJS:.o=.d)
