# make bench-evtchn: event-channel lock configurations compared (issue 4).
# Three non-debug -O2 host libraries with lock profiling, one per
# CONFIG_EVTCHN_LOCK_* choice, and the bench program linked against each;
# results in $(O)/bench/ (see docs/performance.md, "bench-evtchn").

BENCH_EVTCHN_CONFIGS := domain channel lockless
BENCH_EVTCHN_BIN := $(HOST_DIR)/bench

$(foreach c,$(BENCH_EVTCHN_CONFIGS),$(eval $(call host_variant,bench-evtchn-$(c),tests/bench/evtchn-$(c).defconfig,-O2)))

$(BENCH_EVTCHN_BIN)/bench_evtchn-%: tests/bench/bench_evtchn.c $(HOST_DIR)/bench-evtchn-%/libbulkhead.a
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(bench-evtchn-$*_HOST_CFLAGS) -o $@ $< \
		$(HOST_DIR)/bench-evtchn-$*/libbulkhead.a -lpthread

.PHONY: bench-evtchn
bench-evtchn: $(foreach c,$(BENCH_EVTCHN_CONFIGS),$(BENCH_EVTCHN_BIN)/bench_evtchn-$(c))
	$(Q)bash tests/bench/bench-evtchn.sh $(BENCH_EVTCHN_BIN) $(BUILD)/bench
