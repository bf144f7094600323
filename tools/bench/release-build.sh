# Sourced by the benches (paths.sh, io.sh): the Bulkhead images they measure.
# What the product ships: release builds (CONFIG_DEBUG=n: -O2, no lock-order
# check), like the Debian Xen it is compared with. The default build keeps its
# debug configuration; the bench configurations live next to it.
# $1 build dir, $2 y|n for CONFIG_XPFO; BENCH_BOARD (default qemu-virt) picks
# the board's defconfig.
release_build() {
	if [ ! -f "$1/.config" ]; then
		local frags=tools/bench/release.config
		[ "$2" = y ] || frags+=" tools/bench/xpfo-off.config"
		make -s O="$1" "${BENCH_BOARD:-qemu-virt}_defconfig" CONFIG_FRAGMENTS="$frags" > /dev/null ||
			return 1
	fi
	make -s -j2 O="$1" hyp > /dev/null || return 1
	grep -q '^# CONFIG_DEBUG is not set' "$1/.config" &&
		grep -q '^# CONFIG_LOCK_CHECK is not set' "$1/.config" &&
		{ [ "$2" = n ] || grep -q '^CONFIG_XPFO=y' "$1/.config"; } &&
		{ [ "$2" = y ] || grep -q '^# CONFIG_XPFO is not set' "$1/.config"; } ||
		{ echo "release-build: $1 is not a release xpfo=$2 configuration" >&2; return 1; }
}
