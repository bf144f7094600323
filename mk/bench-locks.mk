# make bench-locks: wait and hold times of the grant active-entry lock, the
# maptrack free lists and the event-channel lock, ticket lock against a
# test-and-set lock (issue 19). Six -O2 host libraries with
# CONFIG_LOCK_TIMING (and CONFIG_LOCK_TAS for the contrast); results in
# $(BUILD)/bench/locks.csv, locks-bound.csv, locks.png (docs/performance.md).

BENCH_LOCKS_CONFIGS := gnttab-percpu-ticket gnttab-percpu-tas gnttab-split-ticket \
	gnttab-split-tas evtchn-ticket evtchn-tas
BENCH_LOCKS_BIN := $(HOST_DIR)/bench

$(foreach c,$(BENCH_LOCKS_CONFIGS),$(eval $(call host_variant,bench-locks-$(c),tests/bench/locks-$(c).defconfig,-O2)))

$(BENCH_LOCKS_BIN)/bench_locks-%: tests/bench/bench_locks.c $(HOST_DIR)/bench-locks-%/libbulkhead.a
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(bench-locks-$*_HOST_CFLAGS) -o $@ $< \
		$(HOST_DIR)/bench-locks-$*/libbulkhead.a -lpthread

.PHONY: bench-locks bench-locks-bins
bench-locks-bins: $(foreach c,$(BENCH_LOCKS_CONFIGS),$(BENCH_LOCKS_BIN)/bench_locks-$(c))
bench-locks: bench-locks-bins
	$(Q)bash tests/bench/bench-locks.sh $(BENCH_LOCKS_BIN) $(BUILD)/bench
