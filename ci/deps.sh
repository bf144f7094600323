#!/usr/bin/env bash
# Installs what `make run` and `make test` need on Debian 12, idempotently.
# Quiet when everything is present; as non-root, says what to install.
set -euo pipefail

# command -> Debian package that provides it
declare -A CMDS=(
	[aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
	[aarch64-linux-gnu-ld]=binutils-aarch64-linux-gnu
	[qemu-system-aarch64]=qemu-system-arm
	[dtc]=device-tree-compiler
	[kconfig-conf]=kconfig-frontends
	[spin]=spin
	[gnuplot]=gnuplot-nox
	[mkimage]=u-boot-tools
	[gcovr]=gcovr
	[cppcheck]=cppcheck
	[clang]=clang
	[mcopy]=mtools
	[mkfs.vfat]=dosfstools
	[sfdisk]=fdisk
	[openssl]=openssl
	[valgrind]=valgrind
	[python3]=python3
	[gcc]=gcc
	[make]=make
	[timeout]=coreutils
	[depmod]=kmod
	[flock]=util-linux
	[cpio]=cpio
)
# files -> package (libraries and firmware that have no command)
declare -A FILES=(
	[/usr/include/cmocka.h]=libcmocka-dev
	[/usr/lib/u-boot/qemu_arm64/u-boot.bin]=u-boot-qemu
	[/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a]=libclang-rt-14-dev
	[/usr/aarch64-linux-gnu/lib/libc.a]=libc6-dev-arm64-cross
)

missing=()
for c in "${!CMDS[@]}"; do
	command -v "$c" >/dev/null 2>&1 || missing+=("${CMDS[$c]}")
done
for f in "${!FILES[@]}"; do
	[ -e "$f" ] || missing+=("${FILES[$f]}")
done
[ "${#missing[@]}" -eq 0 ] && exit 0

mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [ "$(id -u)" -ne 0 ]; then
	echo "ci/deps.sh: missing packages; install them with:" >&2
	echo "  sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "ci/deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# apt's two notes of a root-only chroot (no apt-utils, no _apt sandbox) are
# noise; every other line, and the status, come through.
quiet() {
	local log rc=0
	log=$(mktemp)
	"$@" > /dev/null 2> "$log" || rc=$?
	grep -vE '^(debconf: delaying|W: Download is performed unsandboxed)' "$log" >&2 || true
	rm -f "$log"
	return $rc
}
quiet apt-get update -qq
quiet apt-get install -y -qq --no-install-recommends "${missing[@]}"
