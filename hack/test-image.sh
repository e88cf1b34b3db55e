#!/usr/bin/env bash
# The image test (`make test-image`, run by .ci/run after `make test`): builds deploy/image/Containerfile
# here, where no registry image can be pulled, and runs the programs from it.
#
#  1. Local bases, made once and cached (files under _output/image, images in buildah's storage):
#     Debian bookworm minbase from debootstrap, and Node 24 and npm from the npm registry, each
#     pinned by version and sha512.
#       BUILD_IMAGE: minbase + node + npm, what the build stage needs for npm ci and tsc.
#       BASE_IMAGE:  node at /nodejs/bin/node (where distroless keeps it) and the shared libraries
#                    it links, /etc/passwd and /tmp: a distroless-like root, no shell, no npm.
#  2. `make image` (hack/build-image.sh) against them.
#  3. In the image, with `buildah run --isolation chroot` (which shares the host's network):
#     apiserver --version, controller-manager --help, the API server against an etcd on the host's
#     loopback with its certificates and token file mounted read-only, /readyz and kubectl from the
#     host, the controller manager finishing a namespace deletion, SIGTERM draining the server.
#     `buildah run` has no read-only root option, so the containers' writable layers are checked
#     instead: nothing may have been written outside the mounted volumes.
#  4. Fails on a file the image should not hold (compilers, npm, a shell, .ts sources, tests,
#     source maps) or a root user; reports the image's size and the time from start to /readyz.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Node of .node-version, pinned by hack/install-node.sh (the one `make` runs on).
NODE_VERSION=$(tr -d ' \n\r' < .node-version)
NPM_VERSION=11.19.0 # the build base's npm (the image holds none)
NPM_INTEGRITY=sha512-SDd/hHg3KqHE5Ht2NHWxNYNtqCQ2pXAPLl6OtQhPyED5PHsRfrOtO199MZTIG2cQoQ1ZRI9t28shrD+2cr3AAw==
case "$(uname -m)" in
  x86_64) deb_arch=amd64 ;;
  aarch64 | arm64) deb_arch=arm64 ;;
  *) echo "test-image: no Debian architecture for $(uname -m)" >&2; exit 1 ;;
esac
cache=_output/image
image=${IMAGE:-localhost/orch-image-test}
# The bases' tags name what they hold and this script's own digest, so a changed recipe makes them anew.
recipe=$(sha256sum "$0" | cut -c1-8)
build_base=localhost/orch-build-base:node$NODE_VERSION-npm$NPM_VERSION-$recipe
run_base=localhost/orch-node-base:$NODE_VERSION-$recipe
node_in_image=/nodejs/bin/node
run=(buildah run --isolation chroot)

passed=0
pass() { passed=$((passed + 1)); printf 'test-image: ok %d - %s\n' "$passed" "$*"; }
fail() {
  printf 'test-image: FAIL - %s\n' "$*" >&2
  echo "image: $passed passed, 1 failed"
  exit 1
}
say() { printf 'test-image: %s\n' "$*"; }

# Debian's buildah and debootstrap, installed when missing (a fresh CI machine has neither).
missing=()
command -v buildah >/dev/null 2>&1 || missing+=(buildah)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if ((${#missing[@]})); then
  sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  say "installing Debian's ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/orch-image-test.XXXXXX")
pids=() containers=()
cleanup() {
  local pid ctr
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  for ctr in "${containers[@]}"; do buildah rm "$ctr" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# A package's tarball from the npm registry, fetched once into the cache and checked against its
# pinned sha512 on every use; prints its path.
pinned_tarball() { # <package> <version> <integrity>
  local file="$cache/$1-$2.tgz"
  if [ ! -s "$file" ]; then
    say "fetching $1@$2 from the npm registry" >&2
    (cd "$work" && npm pack --silent "$1@$2" >/dev/null)
    mv "$work/$1-$2.tgz" "$file"
  fi
  local actual
  actual="sha512-$(openssl dgst -sha512 -binary "$file" | base64 -w0)"
  if [ "$actual" != "$3" ]; then rm -f "$file"; fail "$1@$2 does not match its pinned sha512"; fi
  echo "$file"
}
have_image() { buildah inspect --type image "$1" >/dev/null 2>&1; }
new_container() { # <image>: sets REPLY to a new working container of a local image, removed on exit
  REPLY=$(buildah from --pull=never --quiet "$1")
  containers+=("$REPLY")
}
# Writes tar archive $2 of the entries $3... of folder $1, owned by root, for `buildah add`.
pack() { local dir=$1 out=$2; shift 2; tar -C "$dir" --owner=0 --group=0 -cf "$out" "$@"; }

# node (and its licence) as hack/install-node.sh pins and installs it, in $work/node.
unpack_node() {
  [ -x "$work/node/bin/node" ] && return
  local dir
  dir=$(bash hack/install-node.sh --pinned)
  mkdir -p "$work/node/bin"
  install -m 0755 "$dir/node" "$work/node/bin/node"
  install -m 0644 "$dir/../LICENSE" "$work/node/LICENSE"
}

if ! have_image "$build_base"; then
  minbase="$cache/debian-bookworm-minbase-$deb_arch.tar"
  if [ ! -s "$minbase" ]; then
    say "making a Debian bookworm minbase with debootstrap (once; kept in $minbase)"
    mkdir "$work/minbase"
    if ! debootstrap --variant=minbase --arch "$deb_arch" bookworm "$work/minbase" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1; then
      tail -20 "$work/debootstrap.log" >&2
      fail "debootstrap failed"
    fi
    tar -C "$work/minbase" -cf "$minbase.part" . && mv "$minbase.part" "$minbase"
    rm -rf "$work/minbase"
  fi
  say "making $build_base (minbase, node $NODE_VERSION, npm $NPM_VERSION)"
  unpack_node
  npm_tgz=$(pinned_tarball npm "$NPM_VERSION" "$NPM_INTEGRITY")
  stage="$work/build-base"
  mkdir -p "$stage/usr/local/bin" "$stage/usr/local/lib/node_modules/npm"
  install -m 0755 "$work/node/bin/node" "$stage/usr/local/bin/node"
  tar -xzf "$npm_tgz" -C "$stage/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$stage/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$stage/usr/local/bin/npx"
  # The build stage's npm ci trusts what this machine trusts (minbase has no CA bundle; the public
  # node images have Debian's), which includes any TLS proxy between this machine and the registry.
  ca_bundle=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
  [ -f "$ca_bundle" ] || fail "no CA bundle at $ca_bundle for the build stage's npm ci (set NODE_EXTRA_CA_CERTS)"
  install -D -m 0644 "$ca_bundle" "$stage/etc/ssl/certs/ca-certificates.crt"
  pack "$stage" "$work/build-base.tar" usr etc
  ctr=$(buildah from scratch)
  containers+=("$ctr")
  buildah add --quiet "$ctr" "$minbase" / >/dev/null
  buildah add --quiet "$ctr" "$work/build-base.tar" / >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt --cmd /bin/bash "$ctr"
  buildah commit --quiet "$ctr" "$build_base" >/dev/null
fi

if ! have_image "$run_base"; then
  say "making $run_base (node $NODE_VERSION and the libraries it links)"
  unpack_node
  new_container "$build_base"
  ctr=$REPLY
  # The libraries node links, as the Debian loader resolves them, copied as files (tar -h).
  mapfile -t libs < <("${run[@]}" "$ctr" -- ldd /usr/local/bin/node | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
  copyrights=(/usr/share/doc/libc6/copyright /usr/share/doc/libstdc++6/copyright /usr/share/doc/libgcc-s1/copyright)
  stage="$work/run-base"
  mkdir -p "$stage/etc" "$stage/tmp" "$stage/nodejs/bin"
  "${run[@]}" "$ctr" -- tar -chf - "${libs[@]}" "${copyrights[@]}" 2>/dev/null | tar -xf - -C "$stage"
  install -m 0755 "$work/node/bin/node" "$stage/nodejs/bin/node"
  install -m 0644 "$work/node/LICENSE" "$stage/nodejs/LICENSE"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$stage/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' >"$stage/etc/group"
  # glibc's default without this file asks DNS before /etc/hosts.
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$stage/etc/nsswitch.conf"
  chmod 0644 "$stage"/etc/*
  chmod 1777 "$stage/tmp"
  pack "$stage" "$work/run-base.tar" $(cd "$stage" && ls -A)
  ctr=$(buildah from scratch)
  containers+=("$ctr")
  buildah add --quiet "$ctr" "$work/run-base.tar" / >/dev/null
  buildah config --env PATH=/nodejs/bin:/usr/local/bin:/usr/bin:/bin --user 65532:65532 --entrypoint "[\"$node_in_image\"]" "$ctr"
  buildah commit --quiet "$ctr" "$run_base" >/dev/null
fi

say "building the image with make image on $build_base and $run_base"
build_started=$(date +%s)
make --no-print-directory image IMAGE="$image" BUILD_IMAGE="$build_base" BASE_IMAGE="$run_base" NODE="$node_in_image" \
  CONTAINER_TOOL=buildah >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; fail "the image did not build"; }
version=$(node -p 'require("./package.json").version')
ref="$image:$version"
pass "the image built in $(($(date +%s) - build_started))s: $(tail -1 "$work/build.log")"

# --- What the image holds -----------------------------------------------------------------------
new_container "$ref"
ctr=$REPLY
root=$(buildah mount "$ctr")
upper="$(dirname "$root")/diff"
[ -d "$upper" ] || fail "no writable layer at $upper (is buildah's storage driver overlay?)"

forbidden=$(cd "$root" && find . \( -name 'gcc*' -o -name 'g++*' -o -name cc -o -name 'c++' -o -name 'clang*' \
  -o -name tsc -o -name tsgo -o -name typescript -o -name '@typescript' -o -name node-gyp \
  -o -name npm -o -name npx -o -name corepack -o -name 'yarn*' -o -name 'pnpm*' \
  -o -name sh -o -name bash -o -name dash \
  -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' \
  -o -name '*.test.js' -o -name '*.spec.js' -o -name testdata -o \( -type d \( -name test -o -name tests -o -name __tests__ \) \) \
  -o \( -path './app/*' -name testing \) -o -path ./app/test -o -path ./app/hack \) -print | sort)
[ -z "$forbidden" ] || fail "the image holds files it should not: $(echo "$forbidden" | head -20 | tr '\n' ' ')"
pass "no compiler, npm, shell, .ts source, test file or source map in the image"

# The image's configuration: user, entrypoint and labels, one a line.
mapfile -t config < <(buildah inspect --type image "$ref" | node -e '
  const c = JSON.parse(require("node:fs").readFileSync(0, "utf8")).OCIv1.config;
  console.log([c.User ?? "", JSON.stringify(c.Entrypoint ?? []), JSON.stringify(c.Labels ?? {})].join("\n"));')
user=${config[0]} entrypoint=${config[1]} labels=${config[2]}
uid=${user%%:*}
[[ $user =~ ^[0-9]+(:[0-9]+)?$ && $uid != 0 ]] || fail "the image's user is '$user', not a numeric non-root user"
node_path=$(head -1 "$root/usr/local/bin/apiserver" | sed 's/^#!//')
running_uid=$("${run[@]}" "$ctr" -- "$node_path" -e 'process.stdout.write(String(process.getuid()))')
[ "$running_uid" = "$uid" ] || fail "a program in the image runs as uid $running_uid, not $uid"
[ "$entrypoint" = '["/usr/local/bin/apiserver"]' ] || fail "the entrypoint is $entrypoint"
for label in version revision source licenses; do
  [[ $labels == *"\"org.opencontainers.image.$label\""* ]] || fail "no org.opencontainers.image.$label label"
done
pass "runs as user $user (uid $running_uid inside), entrypoint $entrypoint, OCI labels $labels"

out=$("${run[@]}" "$ctr" -- /usr/local/bin/apiserver --version) || fail "apiserver --version failed"
[[ $out == "Kubernetes v1."*"+orch.$version" ]] || fail "apiserver --version printed '$out'"
pass "apiserver --version: $out"
out=$("${run[@]}" "$ctr" -- /usr/local/bin/controller-manager --help) || fail "controller-manager --help failed"
[[ $out == *--kubeconfig* ]] || fail "controller-manager --help does not describe --kubeconfig"
out=$("${run[@]}" "$ctr" -- /usr/local/bin/join --help) || fail "join --help failed"
[[ $out == *--discovery-token-ca-cert-hash* ]] || fail "join --help does not describe --discovery-token-ca-cert-hash"
pass "controller-manager --help and join --help"

# --- The control plane from the image against an etcd on the host's loopback -------------------
read -r etcd_port peer_port api_port cm_port < <(node -e '
  const net = require("node:net");
  Promise.all([0, 1, 2, 3].map(() => new Promise((ok) => { const s = net.createServer().listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => ok(p)); }); })))
    .then((ports) => console.log(ports.join(" ")));')
etcd --name image-test --data-dir "$work/etcd" \
  --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
  --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
  --initial-cluster "image-test=http://127.0.0.1:$peer_port" >"$work/etcd.log" 2>&1 &
pids+=($!)

# Waits until the command succeeds, up to <seconds>; fails with <what> otherwise.
poll() { # <seconds> <what> <command...>
  local deadline=$((SECONDS + $1)) what=$2
  shift 2
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || fail "$what"
    sleep 0.2
  done
}
poll 60 "etcd did not start" curl -fsS "http://127.0.0.1:$etcd_port/health"

# The credentials (client CA, certificates, service account keys, a token file), readable only by
# the image's user; the server's own serving certificate goes to a volume of its own.
pki="$work/pki" certs="$work/certs" cm_certs="$work/cm-certs"
node _output/dist/hack/local-pki.js "$pki" >/dev/null
mkdir -p "$certs" "$cm_certs"
chown -R "$user" "$pki" "$certs" "$cm_certs"

new_container "$ref"
api_ctr=$REPLY
started=$(date +%s%N)
"${run[@]}" -v "$pki:/etc/orch/pki:ro" -v "$certs:/var/run/orch" "$api_ctr" -- /usr/local/bin/apiserver \
  --bind-address 127.0.0.1 --secure-port "$api_port" --cert-dir /var/run/orch \
  --etcd-servers "http://127.0.0.1:$etcd_port" \
  --client-ca-file /etc/orch/pki/ca.crt --token-auth-file /etc/orch/pki/tokens.csv \
  --service-account-issuer "https://127.0.0.1:$api_port" --service-account-key-file /etc/orch/pki/sa.pub \
  --service-account-signing-key-file /etc/orch/pki/sa.key --authorization-mode RBAC >"$work/apiserver.log" 2>&1 &
api_pid=$!
pids+=("$api_pid")
deadline=$((SECONDS + 180))
until curl -fsS --cacert "$certs/apiserver.crt" "https://127.0.0.1:$api_port/readyz" >/dev/null 2>&1; do
  kill -0 "$api_pid" 2>/dev/null || fail "the API server exited: $(tail -20 "$work/apiserver.log")"
  ((SECONDS < deadline)) || fail "the API server was not ready within 180s: $(tail -20 "$work/apiserver.log")"
  sleep 0.1
done
ready_ms=$((($(date +%s%N) - started) / 1000000))
pass "the API server from the image answers /readyz $(printf '%d.%03d' $((ready_ms / 1000)) $((ready_ms % 1000)))s after start"

# kubectl from the host, with the static token of the mounted token file.
kubeconfig() { # <file> <user entry lines>
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: image-test
  cluster:
    server: https://127.0.0.1:$api_port
    certificate-authority-data: $(base64 -w0 <"$certs/apiserver.crt")
users:
- name: user
  user:
$2
contexts:
- name: image-test
  context: {cluster: image-test, user: user}
current-context: image-test
EOF
  chmod 600 "$1"
}
kubeconfig "$work/admin.kubeconfig" "    token: $(cut -d, -f1 "$pki/tokens.csv")"
k() { kubectl --kubeconfig "$work/admin.kubeconfig" "$@"; }
out=$(k get namespaces -o name) || fail "kubectl get namespaces failed"
[[ $out == *namespace/default* ]] || fail "kubectl get namespaces listed: $out"
user_name=$(echo '{"apiVersion":"authentication.orch.io/v1","kind":"SelfSubjectReview"}' |
  k create --raw /apis/authentication.orch.io/v1/selfsubjectreviews -f - | node -p 'JSON.parse(require("node:fs").readFileSync(0, "utf8")).status.userInfo.username') ||
  fail "kubectl could not ask who it is"
[ "$user_name" = orch-admin ] || fail "the token authenticated as '$user_name', not orch-admin"
pass "kubectl from the host: namespaces listed, the token of the mounted token file authenticates as $user_name"

# A namespace deleted while no controller manager runs stays Terminating; the controller manager
# from the image empties it and lets it go.
k create namespace image-test >/dev/null
k -n image-test create configmap doomed --from-literal=key=value >/dev/null
k delete namespace image-test --wait=false >/dev/null
phase=$(k get namespace image-test -o jsonpath='{.status.phase}')
[ "$phase" = Terminating ] || fail "the deleted namespace is $phase, not Terminating"
kubeconfig "$pki/controller-manager.kubeconfig" "    client-certificate-data: $(base64 -w0 <"$pki/controller-manager.crt")
    client-key-data: $(base64 -w0 <"$pki/controller-manager.key")"
chown "$user" "$pki/controller-manager.kubeconfig"
cp "$certs/apiserver.crt" "$pki/apiserver.crt"
new_container "$ref"
cm_ctr=$REPLY
"${run[@]}" -v "$pki:/etc/orch/pki:ro" -v "$cm_certs:/var/run/orch-controller-manager" "$cm_ctr" -- /usr/local/bin/controller-manager \
  --kubeconfig /etc/orch/pki/controller-manager.kubeconfig --bind-address 127.0.0.1 --secure-port "$cm_port" \
  --cert-dir /var/run/orch-controller-manager --root-ca-file /etc/orch/pki/apiserver.crt \
  --service-account-private-key-file /etc/orch/pki/sa.key >"$work/controller-manager.log" 2>&1 &
cm_pid=$!
pids+=("$cm_pid")
gone() { local out; out=$(k get namespace image-test 2>&1) && return 1; [[ $out == *NotFound* ]]; }
poll 120 "the controller manager did not finish deleting the namespace: $(tail -5 "$work/controller-manager.log")" gone
pass "the controller manager from the image finished the namespace deletion"

# SIGTERM drains the servers, which exit 0. `buildah run` does not pass signals on (a signal to it
# kills the chroot), so the signal goes to the program's own process, as a container runtime's
# stop does to the entrypoint: the first process below buildah's chroot helpers.
program_pid() { # <buildah run pid>
  local pid=$1 child
  while child=$(pgrep -P "$pid" | sed -n 1p) && [ -n "$child" ]; do
    pid=$child
    [[ $(cat "/proc/$pid/comm") == *buildah* ]] || { echo "$pid"; return; }
  done
  fail "no program process under buildah run $1"
}
stop() { # <buildah run pid> <what> <log>
  kill -TERM "$(program_pid "$1")"
  local deadline=$((SECONDS + 60))
  while kill -0 "$1" 2>/dev/null; do ((SECONDS < deadline)) || fail "the $2 did not stop within 60s of SIGTERM"; sleep 0.2; done
  wait "$1" || fail "the $2 exited $? on SIGTERM: $(tail -5 "$3")"
  grep -q 'shutting down' "$3" || fail "the $2 did not log its shutdown: $(tail -5 "$3")"
}
stop "$cm_pid" "controller manager" "$work/controller-manager.log"
stop "$api_pid" "API server" "$work/apiserver.log"
pass "SIGTERM drains the API server and the controller manager, both exit 0"

# Read-only root: what the programs wrote outside their volumes would be in the writable layers,
# which may hold only the empty files and folders that buildah mounts the host's name files and
# the volumes on.
for c in "$ctr" "$api_ctr" "$cm_ctr"; do
  layer="$(dirname "$(buildah mount "$c")")/diff"
  written=$(cd "$layer" && find . -mindepth 1 ! -type d ! \( -type f -empty \( -path ./etc/hosts -o -path ./etc/hostname \
    -o -path ./etc/resolv.conf \) \) -print)
  [ -z "$written" ] || fail "a program wrote into the image's root file system: $(echo "$written" | tr '\n' ' ')"
done
pass "nothing written outside the volumes (the writable layers hold only buildah's empty mount targets)"

# --- Size ---------------------------------------------------------------------------------------
buildah push --quiet --compression-format gzip "$ref" "oci:$work/oci:image" >/dev/null
compressed=$(node -e '
  const fs = require("node:fs"), dir = process.argv[1];
  const blob = (d) => JSON.parse(fs.readFileSync(`${dir}/blobs/${d.replace(":", "/")}`, "utf8"));
  const manifest = blob(JSON.parse(fs.readFileSync(`${dir}/index.json`, "utf8")).manifests[0].digest);
  console.log(manifest.layers.reduce((n, l) => n + l.size, manifest.config.size));' "$work/oci")
# A container that never ran shows the image's own files (the others hold buildah's mount targets).
new_container "$ref"
root=$(buildah mount "$REPLY")
unpacked=$(du -sb "$root" | cut -f1)
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
say "image $ref: $(mib "$compressed") compressed (gzip layers), $(mib "$unpacked") unpacked; by top-level folder:"
for entry in "$root"/* "$root"/app/*; do
  [ "$entry" = "$root/app" ] && continue
  printf 'test-image:   %-24s %10s %6d files\n' "${entry#"$root"}" "$(mib "$(du -sb "$entry" | cut -f1)")" "$(find "$entry" -type f | wc -l)"
done
echo "image: $passed passed, 0 failed"
