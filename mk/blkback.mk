# The block backend's xenbus half (guests/blkback/vbd/, all but the platform)
# on the host: tests/blkback/test_*.c, cmocka programs with ASan and UBSan
# against a fake hypervisor and store (tests/blkback/vbdt.c: grant mappings
# are real aliases of the frontend's pages, read-only ones read-only) and a
# frontend that uses the ring as Linux's xen-blkfront does.

VBD_SRCS := $(wildcard guests/blkback/vbd/vbd_*.c)
VBD_HDRS := guests/blkback/vbd/vbd.h include/public/io/blkif.h include/public/io/ring.h \
	include/public/io/xenbus.h
VBD_HOST_CFLAGS := $(HOST_CFLAGS_COMMON) -DVBD_HOST -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
VBD_TEST_SRCS := $(wildcard tests/blkback/test_*.c)
VBD_TEST_BINS := $(patsubst tests/blkback/%.c,$(HOST_DIR)/tests/%,$(VBD_TEST_SRCS))
VBD_TEST_LIB := tests/blkback/vbdt.c

$(HOST_DIR)/tests/test_vbd_%: tests/blkback/test_vbd_%.c $(VBD_TEST_LIB) tests/blkback/vbdt.h \
		$(VBD_SRCS) $(VBD_HDRS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(VBD_HOST_CFLAGS) -o $@ $< $(VBD_TEST_LIB) $(VBD_SRCS) -lcmocka

test-build: $(VBD_TEST_BINS)
.PHONY: blkback-tests
blkback-tests: $(VBD_TEST_BINS)
