#!/usr/bin/env bash
# Builds the gloved Debian package:
#
#   packaging/build-deb.sh [VERSION [OUTDIR]]
#
# VERSION is the package's version and what `gloved version` prints
# (default: from `git describe`, or 0.0.0+git.DATE.COMMIT without a tag);
# OUTDIR is where the .deb goes (default: dist/). GOARCH picks another
# architecture. MAINTAINER overrides the package's Maintainer field. It
# prints the .deb's path.
#
# The binary is static (CGO_ENABLED=0), stripped and stamped with the
# version and the commit (-X main.version, main.commit, main.modified).
# nfpm comes from this directory's own module (go.mod's tool directive),
# so the product's go.mod carries none of its dependencies.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

fail() { echo "build-deb.sh: $*" >&2; exit 1; }

[ $# -le 2 ] || fail "usage: packaging/build-deb.sh [VERSION [OUTDIR]]"
command -v go >/dev/null || fail "go is not on PATH (Go 1.26 builds gloved)"
command -v git >/dev/null || fail "git is not on PATH (the version and commit come from it)"
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || fail "$root is not a git checkout: the commit cannot be stamped"

commit=$(git -C "$root" rev-parse HEAD)
modified=
if [ -n "$(git -C "$root" status --porcelain)" ]; then modified=true; fi

version=${1:-}
if [ -z "$version" ]; then
  if described=$(git -C "$root" describe --tags --match 'v[0-9]*' 2>/dev/null); then
    # v0.3.0 -> 0.3.0; v0.3.0-5-gabc1234 -> 0.3.0+5.gabc1234 (sorts after 0.3.0)
    version=$(sed -E 's/^v//; s/-([0-9]+)-g([0-9a-f]+)$/+\1.g\2/' <<<"$described")
  else
    version="0.0.0+git.$(git -C "$root" log -1 --format=%cd --date=format:%Y%m%d).$(git -C "$root" rev-parse --short=7 HEAD)"
  fi
fi
# Debian's version syntax (deb-version(7)), without an epoch: an upstream
# version starting with a digit, and an optional -revision.
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*(-[A-Za-z0-9.+~]+)?$ ]] ||
  fail "version \"$version\" is not a Debian version: start with a digit; then letters, digits and . + ~ (and one -revision)"

out=${2:-$root/dist}
mkdir -p "$out" || fail "cannot make $out"
out=$(cd "$out" && pwd)

goarch=${GOARCH:-$(go env GOARCH)}
case $goarch in
  # The architectures gloved builds for: the probe's termios calls
  # (TCGETS2, for any baud rate) exist in golang.org/x/sys on these.
  amd64 | arm64 | arm | 386 | riscv64) ;;
  *) fail "GOARCH=$goarch: gloved's package is built for amd64, arm64, arm, 386 and riscv64" ;;
esac
arch=$goarch
if [ "$goarch" = arm ]; then arch=arm${GOARM:-7}; fi # nfpm: arm7 -> armhf

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

echo "building gloved $version ($commit${modified:+, with uncommitted changes}) for linux/$goarch" >&2
(cd "$root" && CGO_ENABLED=0 GOOS=linux GOARCH=$goarch go build -trimpath -buildvcs=false \
  -ldflags "-s -w -X main.version=$version -X main.commit=$commit -X main.modified=$modified" \
  -o "$stage/gloved" ./cmd/gloved)

# The unit as installed: the package's binary is /usr/bin/gloved (the
# repository's unit names /usr/local/bin/gloved, for a hand install).
sed 's#/usr/local/bin/gloved#/usr/bin/gloved#g' "$root/systemd/gloved.service" >"$stage/gloved.service"
grep -q '^ExecStart=/usr/bin/gloved ' "$stage/gloved.service" || fail "systemd/gloved.service: no ExecStart=/usr/local/bin/gloved to point at /usr/bin/gloved"

log=$(VERSION=$version ARCH=$arch STAGE=$stage MAINTAINER=${MAINTAINER:-gloved developers <https://github.com/gloved/gloved>} \
  go -C "$here" tool nfpm package --config nfpm.yaml --packager deb --target "$out/" 2>&1) || fail "nfpm: $log"
deb=$(sed -nE 's/.*created package: (.*\.deb).*/\1/p' <<<"$log")
[ -f "$deb" ] || fail "nfpm made no .deb that it named: $log"
echo "$deb"
