# make bench-gnttab: grant-table lock configurations compared (issue 3).
# Three non-debug -O2 host libraries, one per CONFIG_GNTTAB_LOCK_* choice,
# and the bench program linked against each; results in $(O)/bench/.

BENCH_GNTTAB_CONFIGS := base split percpu
BENCH_GNTTAB_BIN := $(HOST_DIR)/bench

$(foreach c,$(BENCH_GNTTAB_CONFIGS),$(eval $(call host_variant,bench-gnttab-$(c),tests/bench/gnttab-$(c).defconfig,-O2)))

$(BENCH_GNTTAB_BIN)/bench_gnttab-%: tests/bench/bench_gnttab.c $(HOST_DIR)/bench-gnttab-%/libbulkhead.a
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(bench-gnttab-$*_HOST_CFLAGS) -o $@ $< \
		$(HOST_DIR)/bench-gnttab-$*/libbulkhead.a -lpthread

.PHONY: bench-gnttab bench-gnttab-bins
bench-gnttab-bins: $(foreach c,$(BENCH_GNTTAB_CONFIGS),$(BENCH_GNTTAB_BIN)/bench_gnttab-$(c))
bench-gnttab: bench-gnttab-bins
	$(Q)bash tests/bench/bench-gnttab.sh $(BENCH_GNTTAB_BIN) $(BUILD)/bench
