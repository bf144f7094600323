# Host fuzzing with libFuzzer (tests/fuzz/README.md).
#
#   make fuzz            each harness for FUZZ_SECONDS (default 60) seconds
#   make fuzz-bins       build the harnesses (part of test-build)
#
# The common code is built as the `fuzz` host variant with clang,
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage
# instrumentation; `make test` runs tests/fuzz/run.sh (30 seconds each; make fuzz 60 by default).

FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(eval $(call host_variant,fuzz,tests/host_defconfig,-O1 -gline-tables-only -fsanitize=fuzzer-no-link $(FUZZ_SAN)))
fuzz_HOST_CC := $(FUZZ_CC)
# gcc -Wall -Werror (the debug build) is the warning gate; clang's own
# warnings on the same code are not errors here.
$(HOST_DIR)/fuzz/obj/%.o: fuzz_HOST_CFLAGS += -Wno-error

FUZZ_HYPERCALLS := grant_table_op event_channel_op memory_op vcpu_op
FUZZ_BIN_DIR := $(HOST_DIR)/fuzz-bin
# The device-tree harness exists once the boot code's reader does.
FUZZ_BINS := $(patsubst %,$(FUZZ_BIN_DIR)/fuzz_%,$(FUZZ_HYPERCALLS)) \
	$(if $(wildcard common/fdt.c common/dom0less.c),$(FUZZ_BIN_DIR)/fuzz_fdt)
FUZZ_LINK = $(FUZZ_CC) $(fuzz_HOST_CFLAGS) -fsanitize=fuzzer -Itests/fuzz

$(FUZZ_BIN_DIR)/fuzz_fdt: tests/fuzz/fuzz_fdt.c $(HOST_DIR)/fuzz/libbulkhead.a
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_LINK) -o $@ $< $(HOST_DIR)/fuzz/libbulkhead.a -lpthread

$(FUZZ_BIN_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_hypercall.c tests/fuzz/fuzz_hypercall.h \
		$(HOST_DIR)/fuzz/libbulkhead.a
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_LINK) -o $@ $< tests/fuzz/fuzz_hypercall.c $(HOST_DIR)/fuzz/libbulkhead.a -lpthread

.PHONY: fuzz fuzz-bins
fuzz-bins: $(FUZZ_BINS)
test-build: fuzz-bins

FUZZ_SECONDS ?= 60
fuzz: fuzz-bins
	$(Q)BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/run.sh
