# make fetch: the Debian arm64 packages the tests and benches use (the Linux
# kernel with its modules and vendor device trees, busybox-static, Xen 4.17),
# downloaded once into $(FETCH_CACHE) and checked against the archive's
# SHA256 (tools/fetch/fetch.sh). Idempotent and silent once done; every
# target that needs an artifact depends on it.

FETCH_CACHE := $(or $(BULKHEAD_CACHE),$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/bulkhead)
export BULKHEAD_CACHE := $(FETCH_CACHE)

.PHONY: fetch
fetch:
	$(Q)bash ci/deps.sh
	$(Q)bash tools/fetch/fetch.sh
