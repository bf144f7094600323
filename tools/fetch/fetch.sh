#!/usr/bin/env bash
# make fetch: the real artifacts the tests and benches use, downloaded from
# Debian's arm64 archive with apt-get download, checked against the SHA256
# that the archive's signed index publishes, and unpacked into the cache.
#
#   tools/fetch/fetch.sh          fetch what is missing (quiet when done)
#   FETCH_UPDATE=1 fetch.sh       take the archive's newest versions again
#
# Cache: $BULKHEAD_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/bulkhead:
#   apt/                     a private apt state that knows arm64 (no root
#                            needed; the system's apt state is not touched)
#   debs/                    the downloaded .deb files
#   linux/Image              the Debian arm64 kernel, an uncompressed Image
#   linux/VERSION            its release (e.g. 6.1.0-57-arm64)
#   linux/config             its build configuration
#   linux/lib/modules/<rel>  its modules, with modules.dep from depmod
#   linux/dtbs/              the vendor device trees it ships (xilinx/...)
#   busybox/busybox          static arm64 busybox
#   xen/xen-4.17-arm64       Xen 4.17's arm64 Image; xen/VERSION
#   manifest.txt             package, version, sha256, file: what is there
#
# The sources are the machine's own apt sources (/etc/apt/sources.list and
# sources.list.d); the package list is tools/fetch/packages. Once the
# manifest matches that list, nothing touches the network: everything runs
# offline from the cache.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LIST="$HERE/packages"
CACHE="${BULKHEAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bulkhead}"
MANIFEST="$CACHE/manifest.txt"
say() { echo "fetch: $*" >&2; }
die() { echo "fetch: $*" >&2; exit 1; }

list_sum=$(grep -vE '^\s*(#|$)' "$LIST" | awk '{print $1, $2}' | sha256sum | cut -c1-16)

complete() { # the manifest is for this list and every output is in place
	[ -f "$MANIFEST" ] && grep -qx "# list $list_sum" "$MANIFEST" || return 1
	local f
	for f in linux/Image linux/VERSION linux/dtbs busybox/busybox xen/xen-4.17-arm64; do
		[ -e "$CACHE/$f" ] || return 1
	done
	[ -f "$CACHE/linux/lib/modules/$(cat "$CACHE/linux/VERSION")/modules.dep" ]
}

if [ "${FETCH_UPDATE:-0}" != 1 ] && complete; then
	exit 0
fi

mkdir -p "$CACHE"
exec 9> "$CACHE/.lock"
flock 9 # several checkouts may share one cache
if [ "${FETCH_UPDATE:-0}" != 1 ] && complete; then
	exit 0
fi

for c in apt-get apt-cache dpkg-deb sha256sum; do
	command -v "$c" > /dev/null || die "needs $c (Debian's apt and dpkg)"
done
DEPMOD=$(command -v depmod || echo /usr/sbin/depmod)
[ -x "$DEPMOD" ] || die "needs depmod (package kmod; ci/deps.sh installs it)"

# A private apt state: arm64 only, the system's sources and keys, no lock on
# the system's state, so a user without root can fetch too.
A="$CACHE/apt"
mkdir -p "$A/lists/partial" "$A/archives/partial" "$CACHE/debs"
: > "$A/status"
APT=(-o "Dir::State=$A" -o "Dir::State::Lists=$A/lists" -o "Dir::State::status=$A/status"
     -o "Dir::Cache=$A" -o "Dir::Cache::archives=$A/archives"
     -o APT::Architecture=arm64 -o "APT::Architectures::=arm64"
     -o APT::Sandbox::User="$(id -un)" -o Debug::NoLocking=1 -o Acquire::Languages=none)

say "updating the arm64 package index from this machine's apt sources"
apt-get "${APT[@]}" -qq update > "$A/update.log" 2>&1 ||
	die "apt-get update failed (no network? see $A/update.log)"

# candidate PACKAGE: the version apt would take, or nothing
candidate() {
	apt-cache "${APT[@]}" policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }' | grep -v none || true
}

# resolve PACKAGE: a metapackage (linux-image-arm64) becomes the package it
# depends on, so one exact kernel is fetched.
resolve() {
	local dep
	case $1 in
	linux-image-arm64)
		dep=$(apt-cache "${APT[@]}" depends "$1" 2>/dev/null |
			awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
		[ -n "$dep" ] || die "cannot resolve $1 to a kernel package"
		echo "$dep"
		;;
	*) echo "$1" ;;
	esac
}

# download PACKAGE VERSION: prints the checked .deb's path
download() {
	local pkg=$1 ver=$2 want got f
	want=$(apt-cache "${APT[@]}" show "$pkg=$ver" 2>/dev/null | awk '/^SHA256:/ { print $2; exit }')
	[ -n "$want" ] || die "the archive publishes no SHA256 for $pkg $ver"
	f=$(find "$CACHE/debs" -maxdepth 1 -name "${pkg}_*_arm64.deb" -print | while read -r d; do
		[ "$(dpkg-deb -f "$d" Version)" = "$ver" ] && echo "$d"; done | head -n 1)
	if [ -z "$f" ]; then
		say "downloading $pkg $ver"
		(cd "$CACHE/debs" && apt-get "${APT[@]}" -qq download "$pkg=$ver" > /dev/null 2>&1) ||
			die "apt-get download $pkg=$ver failed"
		f=$(find "$CACHE/debs" -maxdepth 1 -name "${pkg}_*_arm64.deb" -print | while read -r d; do
			[ "$(dpkg-deb -f "$d" Version)" = "$ver" ] && echo "$d"; done | head -n 1)
		[ -n "$f" ] || die "apt-get download left no $pkg .deb"
	fi
	got=$(sha256sum "$f" | cut -d' ' -f1)
	if [ "$got" != "$want" ]; then
		rm -f "$f"
		die "$pkg $ver: sha256 $got, the archive says $want (removed)"
	fi
	echo "$f"
}

unpack_linux() { # $1 = .deb
	local t="$CACHE/linux.new" rel vmlinuz
	rm -rf "$t" && mkdir -p "$t/x"
	dpkg-deb -x "$1" "$t/x"
	vmlinuz=$(find "$t/x/boot" -maxdepth 1 -name 'vmlinuz-*' | head -n 1)
	[ -n "$vmlinuz" ] || die "no /boot/vmlinuz in $1"
	rel=${vmlinuz##*/vmlinuz-}
	if gzip -t "$vmlinuz" 2> /dev/null; then gzip -dc "$vmlinuz" > "$t/Image"; else cp "$vmlinuz" "$t/Image"; fi
	cp "$t/x/boot/config-$rel" "$t/config"
	mkdir -p "$t/lib/modules"
	mv "$t/x/lib/modules/$rel" "$t/lib/modules/$rel"
	mv "$t/x/usr/lib/linux-image-$rel" "$t/dtbs"
	"$DEPMOD" -b "$t" "$rel" || die "depmod failed for $rel"
	echo "$rel" > "$t/VERSION"
	rm -rf "$t/x" "$CACHE/linux"
	mv "$t" "$CACHE/linux"
}

unpack_busybox() {
	local t="$CACHE/busybox.new"
	rm -rf "$t" && mkdir -p "$t/x"
	dpkg-deb -x "$1" "$t/x"
	mv "$t/x/bin/busybox" "$t/busybox"
	rm -rf "$t/x" "$CACHE/busybox"
	mv "$t" "$CACHE/busybox"
}

unpack_xen() {
	local t="$CACHE/xen.new"
	rm -rf "$t" && mkdir -p "$t/x"
	dpkg-deb -x "$1" "$t/x"
	mv "$t/x/boot/xen-4.17-arm64" "$t/xen-4.17-arm64"
	dpkg-deb -f "$1" Version > "$t/VERSION"
	rm -rf "$t/x" "$CACHE/xen"
	mv "$t" "$CACHE/xen"
}

manifest="# list $list_sum"$'\n'
while read -r name spec _ <&3; do
	case $name in '' | '#'*) continue ;; esac
	pkg=$(resolve "${spec%%=*}")
	ver=${spec#*=}
	[ "$ver" = "$spec" ] && ver=$(candidate "$pkg")
	[ -n "$ver" ] || die "no arm64 candidate for $pkg in this machine's apt sources"
	deb=$(download "$pkg" "$ver")
	"unpack_$name" "$deb"
	manifest+="$name $pkg $ver $(sha256sum "$deb" | cut -d' ' -f1) ${deb##*/}"$'\n'
done 3< "$LIST"
printf '%s' "$manifest" > "$MANIFEST.new" && mv "$MANIFEST.new" "$MANIFEST"
complete || die "unpacked, but the cache is incomplete (bug)"
say "done: $(grep -v '^#' "$MANIFEST" | awk '{ printf "%s %s; ", $2, $3 }')cache $CACHE"
