# The xenstore partition's store (guests/xenstore/xs_*.c) on the host:
#
#   tests/xenstore/test_*.c  cmocka programs, built with ASan and UBSan into
#                            $(HOST_DIR)/tests/ (run by tests/run-tests.sh)
#   tests/fuzz/fuzz_xenstore.c  libFuzzer harness of the message parser
#
# The partition image itself comes from guests/guests.mk like any guest.

XS_SRCS := $(wildcard guests/xenstore/xs_*.c)
XS_HDRS := $(wildcard guests/xenstore/*.h) include/public/io/xs_wire.h
XS_HOST_CFLAGS := $(HOST_CFLAGS_COMMON) -DXS_HOST -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
XS_TEST_SRCS := $(wildcard tests/xenstore/test_*.c)
XS_TEST_BINS := $(patsubst tests/xenstore/%.c,$(HOST_DIR)/tests/%,$(XS_TEST_SRCS))
XS_TEST_LIB := tests/xenstore/xst.c

$(HOST_DIR)/tests/test_xs_%: tests/xenstore/test_xs_%.c $(XS_TEST_LIB) tests/xenstore/xst.h \
		$(XS_SRCS) $(XS_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(XS_HOST_CFLAGS) -o $@ $< $(XS_TEST_LIB) $(XS_SRCS) -lcmocka

test-build: $(XS_TEST_BINS)
.PHONY: xenstore-tests
xenstore-tests: $(XS_TEST_BINS)

$(FUZZ_BIN_DIR)/fuzz_xenstore: tests/fuzz/fuzz_xenstore.c $(XS_SRCS) $(XS_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -DXS_HOST -I$(SRCTREE)/include -O1 -g \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-DXS_ARENA_BYTES='(128U * 1024U)' -DXS_MAX_NODES=512U \
		-o $@ $< $(XS_SRCS)

fuzz-bins: $(FUZZ_BIN_DIR)/fuzz_xenstore
