#!/usr/bin/env bash
# The Node.js every make target runs on: the machine's `node` when it is .node-version's release line
# (Node 24 LTS) at that version or newer (24.22.3 mends the server's view of a client certificate's
# chain, which 24.21.0 lost: nodejs/node#65579), else that exact version brought in from the npm registry, which publishes
# each release's binary as the package node-<os>-<arch> (what the `node` package's install script
# fetches; taken directly here, so no install script runs). The package is pinned by version and by
# the sha512 the registry publishes for it, and its binary unpacked once into
# _output/node/v<version>/bin/node.
#
#   hack/install-node.sh --dir      prints the directory of the node to run (nothing is installed)
#   hack/install-node.sh            installs the pinned node when that directory is the pinned one
#   hack/install-node.sh --pinned   installs the pinned node whatever the machine has and prints its
#                                   directory (what the container image's local base is made of)
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(tr -d ' \n\r' < .node-version)"
# <version> <os>-<arch> <integrity>, as `npm view node-<os>-<arch>@<version> dist.integrity` prints it.
pins=(
  "24.22.3 linux-x64 sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA=="
  "24.22.3 linux-arm64 sha512-IZx0J52/1NDwAsY2iyWR9nlPIYuYviTWetjj8+ElvYQh2+XRhLfCfkbFEF/2O5vGI2hcUbyPNHV+nz342FbJXw=="
)
pinned="_output/node/v$version/bin"

machine_node_fits() {
  command -v node >/dev/null 2>&1 || return 1
  # Same major, and no older than the pinned release within it; a newer major is taken as it is.
  node -e '
    const [want, have] = [process.argv[1], process.versions.node].map((v) => v.split(".").map(Number));
    const fits = have[0] > want[0] || (have[0] === want[0] && (have[1] > want[1] || (have[1] === want[1] && have[2] >= want[2])));
    process.exit(fits ? 0 : 1);' "$version" 2>/dev/null
}

# The pinned one once installed, so a checkout keeps the node it was built and tested with.
if [ -x "$pinned/node" ] || ! machine_node_fits || [ "${1:-}" = --pinned ]; then dir="$pinned"; else dir="$(dirname "$(command -v node)")"; fi
if [ "${1:-}" = --dir ]; then
  echo "$dir"
  exit 0
fi
print_pinned() { if [ "${1:-}" = --pinned ]; then echo "$(pwd)/$pinned"; fi; }
if [ "$dir" != "$pinned" ] || [ -x "$pinned/node" ]; then print_pinned "$@"; exit 0; fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64) platform=linux-arm64 ;;
  *) echo "install-node: no pinned Node $version for $(uname -s) $(uname -m); install Node ${version%%.*} or newer by hand" >&2; exit 1 ;;
esac
integrity=""
for pin in "${pins[@]}"; do
  read -r v p i <<<"$pin"
  if [ "$v" = "$version" ] && [ "$p" = "$platform" ]; then integrity="$i"; fi
done
if [ -z "$integrity" ]; then
  echo "install-node: hack/install-node.sh pins no sha512 for node-$platform@$version (.node-version)" >&2
  exit 1
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "install-node: Node $version is needed and npm, which fetches it, is not on PATH" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "install-node: the machine's node is older than $version; fetching node-$platform@$version from the npm registry" >&2
tarball="$(cd "$work" && npm pack --silent "node-$platform@$version")"
actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | base64 -w0)"
if [ "$actual" != "$integrity" ]; then
  echo "install-node: node-$platform@$version does not match its pinned sha512 ($actual)" >&2
  exit 1
fi
tar -xzf "$work/$tarball" -C "$work" package/bin/node package/LICENSE
dest="${pinned%/bin}"
mkdir -p "$dest.tmp/bin"
install -m 0755 "$work/package/bin/node" "$dest.tmp/bin/node"
install -m 0644 "$work/package/LICENSE" "$dest.tmp/LICENSE"
"$dest.tmp/bin/node" --version >/dev/null
rm -rf "$dest" && mv "$dest.tmp" "$dest"
echo "install-node: installed Node $version in $dest" >&2
print_pinned "$@"
