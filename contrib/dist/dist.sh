#!/usr/bin/env bash
# dist.sh: static nccllog binaries for cluster nodes.
#
#   contrib/dist/dist.sh [-o DIR] [--version V] [--platforms "linux/amd64 linux/arm64"]
#
# Builds cmd/nccllog for each platform with CGO_ENABLED=0, so the binary links no C library
# and starts on any Linux node whatever its glibc (Grace nodes are linux/arm64), with
# -trimpath and the version stamped (default: `git describe --tags --always --dirty`, or
# "unknown" outside a checkout). Writes DIR/nccllog-VERSION-OS-ARCH and DIR/SHA256SUMS
# (default DIR: dist/), then checks what it can on this machine: each binary is static (no
# ELF interpreter), and the one for this machine's platform runs and prints its version.
set -euo pipefail
export LC_ALL=C

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/dist"
version=""
platforms="linux/amd64 linux/arm64"

die() { echo "dist.sh: $*" >&2; exit 1; }
usage() { sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	-o | --out) [ $# -ge 2 ] || die "$1 needs a directory"; out=$2; shift ;;
	--version) [ $# -ge 2 ] || die "$1 needs a value"; version=$2; shift ;;
	--platforms) [ $# -ge 2 ] || die "$1 needs a list"; platforms=$2; shift ;;
	*) echo "dist.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
if [ -z "$version" ]; then
	version=$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo unknown)
fi
commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || true)
if [ -n "$commit" ] && [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	commit="$commit, with uncommitted changes"
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

here="$(go env GOOS)/$(go env GOARCH)"
built=()
for p in $platforms; do
	goos=${p%/*} goarch=${p#*/}
	bin="$out/nccllog-$version-$goos-$goarch"
	(cd "$root" && CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath \
		-ldflags "-s -w -X main.stampedVersion=$version -X 'main.stampedCommit=$commit'" -o "$bin" ./cmd/nccllog)
	if command -v readelf >/dev/null && readelf -l "$bin" 2>/dev/null | grep -q 'program interpreter'; then
		die "$bin is dynamically linked"
	fi
	if [ "$p" = "$here" ]; then
		"$bin" version | grep -qF "nccllog $version" || die "$bin does not report version $version"
	fi
	built+=("$(basename "$bin")")
done
(cd "$out" && sha256sum "${built[@]}" >SHA256SUMS)
printf '%s\n' "${built[@]/#/$out/}"
