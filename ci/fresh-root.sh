#!/usr/bin/env bash
# Runs a command in a brand-new Debian 12 root, where a new user starts:
# nothing installed but a minimal base system with git and make, and a
# fresh clone of this checkout's HEAD inside. CI (.ci/run) runs `make test`
# this way, so a missing install or fetch step fails CI instead of hiding
# behind what the CI machine happens to carry.
#
#   ci/fresh-root.sh [COMMAND...]      default: make test
#
# The pristine base (debootstrap --variant=minbase bookworm, plus git, make
# and ca-certificates, from the mirror this machine's apt sources name) is
# built once and kept as a tarball in $FRESH_ROOT_CACHE (default
# /var/cache/bulkhead-ci); every run unpacks a new copy, clones the
# repository into it, runs COMMAND there as root, and removes it. Downloaded
# .deb files are kept between runs in the same cache (apt still installs
# every package anew in each root; only the download is saved).
#
# Needs root, debootstrap (installed when missing) and about 4 GB of disk.
# Without them it says so loudly and runs COMMAND here instead (exit 0 of a
# plain run then proves less: see the warning). FRESH_ROOT=0 asks for the
# plain run. The exit status is COMMAND's.
set -euo pipefail

top=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
cd "$top"
[ $# -gt 0 ] || set -- make test

plain() { # $1 = why, $2.. = the command
	local why=$1
	shift
	{
		echo "================================================================"
		echo "ci/fresh-root.sh: WARNING: $why"
		echo "ci/fresh-root.sh: running '$*' on this machine instead: packages it"
		echo "ci/fresh-root.sh: already carries can hide a missing install step."
		echo "================================================================"
	} >&2
	exec "$@"
}

[ "${FRESH_ROOT:-1}" != 0 ] || plain "FRESH_ROOT=0: no fresh root" "$@"
[ "$(id -u)" -eq 0 ] || plain "not root: cannot build a fresh Debian root" "$@"
if ! command -v debootstrap > /dev/null; then
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } \
		> /dev/null 2>&1; then
		plain "debootstrap is missing and could not be installed" "$@"
	fi
fi

cache=${FRESH_ROOT_CACHE:-/var/cache/bulkhead-ci}
base="$cache/bookworm-base.tar"
mkdir -p "$cache/archives"

mirror() { # the first Debian (non-security) archive this machine's apt sources name
	local u
	u=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources 2> /dev/null |
		awk '{ print $2 }' | grep -v security | head -n 1)
	[ -n "$u" ] || u=$(grep -hsE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2> /dev/null |
		awk '{ print $2 }' | grep -v security | head -n 1)
	echo "$u"
}

start=$(date +%s)
if [ ! -s "$base" ]; then
	m=$(mirror)
	[ -n "$m" ] || plain "no Debian mirror in this machine's apt sources" "$@"
	b=$(mktemp -d /var/tmp/bulkhead-base.XXXXXX)
	echo "ci/fresh-root.sh: building the pristine Debian 12 base once (debootstrap, $m)" >&2
	if ! debootstrap --variant=minbase --include=git,make,ca-certificates bookworm "$b" "$m" \
		> "$cache/debootstrap.log" 2>&1; then
		rm -rf "$b"
		plain "debootstrap failed (see $cache/debootstrap.log)" "$@"
	fi
	# The same sources as this machine: main, updates and security.
	rm -f "$b/etc/apt/sources.list"
	cp /etc/apt/sources.list "$b/etc/apt/" 2> /dev/null || true
	for f in /etc/apt/sources.list.d/*; do
		[ -f "$f" ] && cp "$f" "$b/etc/apt/sources.list.d/"
	done
	rm -rf "$b/var/cache/apt/archives"/*.deb
	tar -C "$b" -cf "$base.tmp" . && mv "$base.tmp" "$base"
	rm -rf "$b"
fi

root=$(mktemp -d /var/tmp/bulkhead-root.XXXXXX)
mounts=()
cleanup() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount -l "${mounts[i]}" 2> /dev/null || true
	done
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$base"
bind() { # $1 = source, $2 = mount point inside the root
	mkdir -p "$root$2"
	mount "${@:3}" "$1" "$root$2"
	mounts+=("$root$2")
}
bind proc /proc -t proc
bind sys /sys -t sysfs
bind /dev /dev --bind
bind /dev/pts /dev/pts --bind
bind "$cache/archives" /var/cache/apt/archives --bind
cp /etc/resolv.conf "$root/etc/resolv.conf" 2> /dev/null || true

name=$(basename "$top")
mkdir -p "$root/work"
git clone -q --no-local "$top" "$root/work/$name"
git -C "$root/work/$name" checkout -q --detach "$(git rev-parse HEAD)"
echo "ci/fresh-root.sh: $(git rev-parse --short HEAD) in a new Debian 12 root ($root): $*" >&2

set +e
chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 CI="${CI:-true}" \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	bash -c 'cd "/work/$0" && exec "$@"' "$name" "$@" < /dev/null
rc=$?
set -e
# The logs outlive the root, for a look after a failure.
if [ -d "$root/work/$name/build/test-logs" ]; then
	rm -rf "$top/build/fresh-root-logs" && mkdir -p "$top/build"
	cp -a "$root/work/$name/build/test-logs" "$top/build/fresh-root-logs"
fi
echo "ci/fresh-root.sh: exit $rc after $(( $(date +%s) - start )) s" >&2
exit $rc
