# Host unit tests (cmocka), stress tests (ThreadSanitizer) and the runner.
#
# tests/unit/test_*.c    one cmocka program each, linked with the debug library
# tests/stress/stress_*.c one program each, built with -fsanitize=thread
# tests/*/run.sh         scenario suites (QEMU, Spin, evidence): PASS:/FAIL: lines

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(HOST_DIR)/tests/%,$(UNIT_SRCS))
UNIT_HARNESS := tests/unit/harness.c
STRESS_SRCS := $(wildcard tests/stress/stress_*.c)
STRESS_BINS := $(patsubst tests/stress/%.c,$(HOST_DIR)/stress/%,$(STRESS_SRCS))

$(HOST_DIR)/tests/%: tests/unit/%.c $(UNIT_HARNESS) tests/unit/harness.h $(HOST_DIR)/debug/libbulkhead.a
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(debug_HOST_CFLAGS) -Itests/unit -o $@ $< $(UNIT_HARNESS) \
		$(HOST_DIR)/debug/libbulkhead.a -lcmocka -lpthread

$(HOST_DIR)/stress/%: tests/stress/%.c $(HOST_DIR)/tsan/libbulkhead.a
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(tsan_HOST_CFLAGS) -Itests/unit -Itests/stress -o $@ $< \
		$(HOST_DIR)/tsan/libbulkhead.a -lpthread

.PHONY: test test-build unit
unit: $(UNIT_BINS)

test-build: $(UNIT_BINS) $(STRESS_BINS)

# The artifacts first; without them (no network and no cache) the tests that
# need them fail and say why, the others still run.
test:
	$(Q)bash ci/deps.sh
	$(Q)bash tools/fetch/fetch.sh || echo "make test: make fetch failed; the tests that need its artifacts will fail" >&2
	$(Q)$(MAKE) --no-print-directory test-build
	$(Q)bash tests/run-tests.sh
