#!/usr/bin/env bash
# Installs the real components Docport's tests and `make run` need, idempotently:
#   - Debian packages: PostgreSQL, etcd, Chromium, Go toolchain (to build kube-apiserver)
#   - kube-apiserver built from Debian's `kubernetes` source package, cached under
#     ~/.cache/docport/kube-apiserver/<source-version>/ (see ../shared/notes/test-environment.md)
# Fast when everything is already there: it only checks.
set -euo pipefail

CACHE_DIR="${DOCPORT_CACHE_DIR:-$HOME/.cache/docport}"
PACKAGES=(postgresql etcd-server chromium golang-go rsync jq golang-github-modern-go-reflect2-dev dpkg-dev openssl golang-github-masterminds-sprig-dev golang-gopkg-yaml.v2-dev python3.11-doc zip unzip)

log() { printf '[deps] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to run: $*  (run as root or install sudo)"; exit 1; fi
}

missing_packages() {
  local p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

ensure_deb_src() {
  if ! grep -rqs 'deb-src' /etc/apt/sources.list.d/ /etc/apt/sources.list; then
    log "enabling Debian source lists (needed for 'apt-get source kubernetes')"
    as_root tee /etc/apt/sources.list.d/docport-deb-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    as_root apt-get update -qq
  fi
}

install_packages() {
  local missing
  missing="$(missing_packages | tr '\n' ' ')"
  if [ -n "${missing// /}" ]; then
    log "installing Debian packages: $missing"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends $missing >/dev/null
  fi
}

# Version of Debian's kubernetes source package; the cache is keyed by it.
kube_source_version() {
  apt-cache showsrc kubernetes 2>/dev/null | awk '/^Version:/ {print $2; exit}'
}

build_kube_apiserver() {
  local marker="$CACHE_DIR/kube-apiserver/current"
  if [ -x "$marker/kube-apiserver" ]; then return; fi
  ensure_deb_src
  local version; version="$(kube_source_version)"
  if [ -z "$version" ]; then log "cannot find Debian source package 'kubernetes' (apt-cache showsrc)"; exit 1; fi
  local dest="$CACHE_DIR/kube-apiserver/$version"
  if [ ! -x "$dest/kube-apiserver" ]; then
    local scratch; scratch="$(mktemp -d "${TMPDIR:-/tmp}/docport-kube-build.XXXXXX")"
    log "building kube-apiserver from Debian source $version in $scratch (about 6-10 minutes, once)"
    (
      cd "$scratch"
      apt-get source -qq kubernetes >/dev/null 2>&1
      cd "$(find . -maxdepth 1 -mindepth 1 -type d -name 'kubernetes-*' | head -1)"
      # Go >= 1.18 crashes the vendored reflect2 v1.0.1 at the first JSON map encode: use Debian's 1.0.2.
      rm -rf vendor/github.com/modern-go/reflect2/*
      cp /usr/share/gocode/src/github.com/modern-go/reflect2/*.go /usr/share/gocode/src/github.com/modern-go/reflect2/*.s \
        vendor/github.com/modern-go/reflect2/
      export GOPATH="$PWD/.go" CGO_ENABLED=0 HOME="$scratch" GOFLAGS=-mod=vendor GOCACHE="$scratch/gocache"
      mkdir -p .go/src/k8s.io && ln -sfn ../../.. .go/src/k8s.io/kubernetes
      make WHAT=cmd/kube-apiserver >"$scratch/build.log" 2>&1 || { tail -40 "$scratch/build.log" >&2; exit 1; }
      mkdir -p "$dest"
      cp _output/bin/kube-apiserver "$dest/kube-apiserver.tmp" && mv "$dest/kube-apiserver.tmp" "$dest/kube-apiserver"
    )
    rm -rf "$scratch"
  fi
  ln -sfn "$version" "$marker"
  log "kube-apiserver ready: $dest/kube-apiserver"
}

mkdir -p "$CACHE_DIR"
install_packages
build_kube_apiserver
command -v kubectl >/dev/null || { log "kubectl missing: installing Debian's kubernetes-client"; DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq kubernetes-client >/dev/null; }
log "system dependencies ready"
