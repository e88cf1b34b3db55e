#!/usr/bin/env bash
# `make image`: builds deploy/image/Containerfile with whichever of buildah, podman or docker is
# present (CONTAINER_TOOL picks one), tags it <IMAGE>:<version> and <IMAGE>:<revision>, and prints
# its size. BUILD_IMAGE, BASE_IMAGE, NODE and SOURCE_MAPS pass through to the recipe when set.
set -euo pipefail
cd "$(dirname "$0")/.."
image=${IMAGE:-orch}
version=$(node -p 'require("./package.json").version')
revision=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "$revision" != unknown ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then revision+=-dirty; fi
source_url=$(git config --get remote.origin.url 2>/dev/null || true)
licenses=$(node -p 'require("./package.json").license || "NOASSERTION"')

tool=${CONTAINER_TOOL:-}
if [ -z "$tool" ]; then
  for candidate in buildah podman docker; do
    # docker's client alone cannot build: it needs an engine behind it.
    if command -v "$candidate" >/dev/null 2>&1 && { [ "$candidate" != docker ] || docker info >/dev/null 2>&1; }; then tool=$candidate; break; fi
  done
fi
[ -n "$tool" ] || { echo "build-image: none of buildah, podman or a running docker engine found" >&2; exit 1; }

args=(-f deploy/image/Containerfile -t "$image:$version" -t "$image:$revision"
  --build-arg "VERSION=$version" --build-arg "REVISION=$revision"
  --build-arg "SOURCE=$source_url" --build-arg "LICENSES=$licenses")
for arg in BUILD_IMAGE BASE_IMAGE NODE SOURCE_MAPS; do
  if [ -n "${!arg:-}" ]; then args+=(--build-arg "$arg=${!arg}"); fi
done
case $tool in
  # chroot isolation runs the build's steps where no OCI runtime may start containers; the cached
  # layers keep the npm ci step until the lock file changes.
  buildah) buildah bud --isolation "${BUILDAH_ISOLATION:-chroot}" --layers --force-rm "${args[@]}" . ;;
  *) "$tool" build "${args[@]}" . ;;
esac

case $tool in
  docker) size="$(($(docker image inspect --format '{{.Size}}' "$image:$version") / 1000000)) MB" ;;
  *) size=$("$tool" images --noheading --format '{{.Size}}' "$image:$version" | sed -n 1p) ;;
esac
echo "built $image:$version and $image:$revision with $tool ($size unpacked)"
