# EL1 test partitions: every guests/<name>/ (except lib/) with C or assembly
# sources becomes $(BUILD)/guests/<name>.bin, an arm64 Image linked at
# 0x40000000 with the runtime in guests/lib/. Add a directory, get an image.

GUEST_CC := $(CROSS_COMPILE)gcc
GUEST_OBJCOPY := $(CROSS_COMPILE)objcopy
GUEST_DIR := $(BUILD)/guests
GUEST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -ffreestanding -fno-builtin \
	-fno-tree-loop-distribute-patterns -fno-pic -fno-pie -fno-stack-protector \
	-mgeneral-regs-only -mstrict-align -mno-outline-atomics -march=armv8-a \
	-Iguests/lib/include -Iinclude -MMD -MP
GUEST_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=none -Wl,--no-warn-rwx-segments -Wl,-T,guests/lib/guest.ld

GUEST_LIB_SRCS := $(wildcard guests/lib/*.c guests/lib/*.S)
GUEST_LIB_OBJS := $(patsubst guests/%,$(GUEST_DIR)/%.o,$(GUEST_LIB_SRCS))
GUEST_NAMES := $(sort $(filter-out lib,$(patsubst guests/%/,%,$(dir \
	$(wildcard guests/*/*.c guests/*/*.S)))))
GUEST_BINS := $(patsubst %,$(GUEST_DIR)/%.bin,$(GUEST_NAMES))

.PHONY: guests
all: guests
guests: $(GUEST_BINS)

$(GUEST_DIR)/%.c.o: guests/%.c
	@mkdir -p $(dir $@)
	$(Q)$(GUEST_CC) $(GUEST_CFLAGS) -c -o $@ $<

$(GUEST_DIR)/%.S.o: guests/%.S
	@mkdir -p $(dir $@)
	$(Q)$(GUEST_CC) $(GUEST_CFLAGS) -D__ASSEMBLY__ -c -o $@ $<

guest_objs = $(patsubst guests/%,$(GUEST_DIR)/%.o,$(wildcard guests/$(1)/*.c guests/$(1)/*.S \
	guests/$(1)/*/*.c))

# Second expansion: each image depends on the objects of its own directory.
.SECONDEXPANSION:
$(GUEST_DIR)/%.elf: $$(call guest_objs,$$*) \
		$(GUEST_LIB_OBJS) guests/lib/guest.ld
	$(Q)$(GUEST_CC) $(GUEST_CFLAGS) $(GUEST_LDFLAGS) -o $@ \
		$(filter %.o,$^) -lgcc

$(GUEST_DIR)/%.bin: $(GUEST_DIR)/%.elf
	$(Q)$(GUEST_OBJCOPY) -O binary $< $@

# Objects are kept (not intermediates make deletes after the link): the next
# build is incremental and make prints no rm line.
.PRECIOUS: $(GUEST_DIR)/%.elf $(GUEST_DIR)/%.c.o $(GUEST_DIR)/%.S.o
-include $(wildcard $(GUEST_DIR)/*/*.d $(GUEST_DIR)/*/*/*.d)
