#!/usr/bin/env bash
# Prints the path of a fetched artifact (see fetch.sh), or says how to get it
# and exits 1.
#
#   tools/fetch/path.sh NAME
#   NAME: cache linux-image linux-modules linux-dtbs linux-config
#         linux-version (the release string itself) busybox xen manifest
set -euo pipefail
CACHE="${BULKHEAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bulkhead}"
rel() { cat "$CACHE/linux/VERSION" 2> /dev/null; }
case ${1:-} in
cache) p=$CACHE ;;
linux-image) p=$CACHE/linux/Image ;;
linux-modules) p=$CACHE/linux/lib/modules/$(rel) ;;
linux-dtbs) p=$CACHE/linux/dtbs ;;
linux-config) p=$CACHE/linux/config ;;
linux-version)
	rel || { echo "path.sh: no kernel in $CACHE (run make fetch)" >&2; exit 1; }
	exit 0
	;;
busybox) p=$CACHE/busybox/busybox ;;
xen) p=$CACHE/xen/xen-4.17-arm64 ;;
manifest) p=$CACHE/manifest.txt ;;
*) sed -n '2,8p' "$0" >&2; exit 2 ;;
esac
[ -e "$p" ] || { echo "path.sh: no $1 at $p (run make fetch)" >&2; exit 1; }
echo "$p"
