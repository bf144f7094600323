# AArch64 EL2 hypervisor image. Filled in by the foundation work.
.PHONY: hyp
all: hyp
hyp: $(BUILD)/include/generated/autoconf.h
