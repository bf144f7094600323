# EL1 test partitions. Filled in by the foundation work.
.PHONY: guests
