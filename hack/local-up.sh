#!/usr/bin/env bash
# Starts a local control plane on loopback: etcd, the API server and the controller manager, with
# their state under _output/local. Stops them all on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
# The node the checkout is built for (see the Makefile), also when this script is run by hand.
PATH="$(realpath -m "$(bash hack/install-node.sh --dir)"):$PATH"
LOCAL=_output/local
ETCD_PORT=${ETCD_PORT:-2379}
ETCD_PEER_PORT=${ETCD_PEER_PORT:-2380}
API_PORT=${API_PORT:-6443}
CM_PORT=${CM_PORT:-10257}
# API_DOMAIN=k8s.io serves upstream's group names, so stock kubectl's typed commands (create role,
# auth can-i, auth whoami) work unchanged.
API_DOMAIN=${API_DOMAIN:-orch.io}
# Privileged containers are allowed, as kubeadm's control plane allows them (kube-apiserver's own
# default refuses them); ALLOW_PRIVILEGED=false runs with the server's default, as upstream's
# local-up-cluster.sh takes the same variable.
ALLOW_PRIVILEGED=${ALLOW_PRIVILEGED:-true}
# Stock kubectl asks authentication.k8s.io for `auth whoami`; under another domain the same review
# is posted by hand.
if [ "$API_DOMAIN" = k8s.io ]; then
  WHOAMI="kubectl --kubeconfig $LOCAL/admin.kubeconfig auth whoami"
else
  WHOAMI="echo '{\"apiVersion\":\"authentication.$API_DOMAIN/v1\",\"kind\":\"SelfSubjectReview\"}' | kubectl --kubeconfig $LOCAL/admin.kubeconfig create --raw /apis/authentication.$API_DOMAIN/v1/selfsubjectreviews -f -"
fi
mkdir -p "$LOCAL/etcd" "$LOCAL/certs"
PKI="$LOCAL/pki"
# Client CA, the admin's client certificate (system:masters), service account keys, a token file.
node _output/dist/hack/local-pki.js "$PKI"

pids=()
cleanup() {
  trap - EXIT INT TERM
  echo "stopping the local control plane"
  # Last started first: the controller manager releases its lease while the API server still serves.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null || true
    wait "${pids[i]}" 2>/dev/null || true
  done
}
trap cleanup EXIT INT TERM

echo "starting etcd on 127.0.0.1:$ETCD_PORT (data in $LOCAL/etcd, log in $LOCAL/etcd.log)"
etcd --name local --data-dir "$LOCAL/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "local=http://127.0.0.1:$ETCD_PEER_PORT" \
  --experimental-watch-progress-notify-interval 5s >"$LOCAL/etcd.log" 2>&1 &
pids+=($!)

echo "starting the API server on https://127.0.0.1:$API_PORT (log in $LOCAL/apiserver.log)"
# Authorization and admission as kubeadm runs them: a joined node's kubeconfig may do what a
# kubelet does (Node) and no more (NodeRestriction); everyone else is RBAC's.
_output/bin/apiserver --bind-address 127.0.0.1 --secure-port "$API_PORT" --cert-dir "$LOCAL/certs" \
  --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
  --client-ca-file "$PKI/ca.crt" --token-auth-file "$PKI/tokens.csv" --enable-bootstrap-token-auth \
  --requestheader-client-ca-file "$PKI/front-proxy-ca.crt" --requestheader-allowed-names front-proxy-client \
  --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
  --requestheader-extra-headers-prefix X-Remote-Extra- \
  --proxy-client-cert-file "$PKI/front-proxy-client.crt" --proxy-client-key-file "$PKI/front-proxy-client.key" \
  --service-account-issuer "https://127.0.0.1:$API_PORT" --service-account-key-file "$PKI/sa.pub" \
  --service-account-signing-key-file "$PKI/sa.key" --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
  --allow-privileged="$ALLOW_PRIVILEGED" --api-domain "$API_DOMAIN" >"$LOCAL/apiserver.log" 2>&1 &
pids+=($!)

for _ in $(seq 1 120); do
  if curl -fsS --cacert "$LOCAL/certs/apiserver.crt" "https://127.0.0.1:$API_PORT/readyz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "${pids[1]}" 2>/dev/null; then echo "the API server exited; see $LOCAL/apiserver.log"; tail -20 "$LOCAL/apiserver.log"; exit 1; fi
  sleep 0.5
done

ca=$(base64 -w0 < "$LOCAL/certs/apiserver.crt")
# A kubeconfig for the local server; the user entry (indented YAML under `user:`) comes on stdin.
kubeconfig_with() { # <file> <user name>
  cat > "$1" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority-data: $ca
users:
- name: $2
  user:
$(cat)
contexts:
- name: local
  context:
    cluster: local
    user: $2
    namespace: default
current-context: local
KUBECONFIG
  chmod 600 "$1"
}
# A kubeconfig for a user authenticating with a client certificate of $PKI.
kubeconfig() { # <file> <user> <cert> <key>
  printf '    client-certificate-data: %s\n    client-key-data: %s\n' "$(base64 -w0 < "$3")" "$(base64 -w0 < "$4")" | kubeconfig_with "$1" "$2"
}
# The admin authenticates with a client certificate in system:masters; the same user also has a
# static token (the first column of $PKI/tokens.csv) for tools that want one.
kubeconfig "$LOCAL/admin.kubeconfig" admin "$PKI/admin.crt" "$PKI/admin.key"
# The controller manager runs as system:kube-controller-manager (bound by the bootstrap policy).
kubeconfig "$LOCAL/controller-manager.kubeconfig" controller-manager "$PKI/controller-manager.crt" "$PKI/controller-manager.key"
# The same admin through an exec credential plug-in (hack/exec-credential-plugin.sh prints the
# static token of tokens.csv as an ExecCredential): an example of client-go's exec protocol, whose
# group kubectl knows only by upstream's name.
kubeconfig_with "$LOCAL/admin-exec.kubeconfig" admin-exec <<USER
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: $PWD/hack/exec-credential-plugin.sh
      args:
      - $PWD/$PKI/tokens.csv
      interactiveMode: Never
USER

echo "starting the controller manager, health and metrics on https://127.0.0.1:$CM_PORT (log in $LOCAL/controller-manager.log)"
_output/bin/controller-manager --kubeconfig "$LOCAL/controller-manager.kubeconfig" --bind-address 127.0.0.1 --secure-port "$CM_PORT" \
  --cert-dir "$LOCAL/controller-manager-certs" --root-ca-file "$LOCAL/certs/apiserver.crt" \
  --service-account-private-key-file "$PKI/sa.key" \
  --controllers '*,tokencleaner,bootstrapsigner' \
  --cluster-signing-cert-file "$PKI/ca.crt" --cluster-signing-key-file "$PKI/ca.key" \
  --api-domain "$API_DOMAIN" >"$LOCAL/controller-manager.log" 2>&1 &
pids+=($!)

# A bootstrap token (24 hours) and kubeadm's bindings, so that a machine can join with
# _output/bin/join: bootstrappers may ask for node client certificates and have them approved.
admin_curl() { # <method> <path> <json>
  curl -fsS -o /dev/null --cacert "$LOCAL/certs/apiserver.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
    -X "$1" -H 'Content-Type: application/json' --data "$3" "https://127.0.0.1:$API_PORT$2"
}
key_domain=$API_DOMAIN; [[ $API_DOMAIN == k8s.io ]] && key_domain=kubernetes.io  # as api/domain.ts derives keys
read -r token_id token_secret < <(node -e 'const r = (n) => Array.from(require("node:crypto").randomBytes(n), (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join(""); console.log(r(6), r(16))')
b64() { printf '%s' "$1" | base64 -w0; }
admin_curl POST /api/v1/namespaces/orch-system/secrets "{\"metadata\":{\"name\":\"bootstrap-token-$token_id\"},\"type\":\"bootstrap.$key_domain/token\",\"data\":{
  \"token-id\":\"$(b64 "$token_id")\",\"token-secret\":\"$(b64 "$token_secret")\",
  \"expiration\":\"$(b64 "$(date -u -d '+24 hours' +%Y-%m-%dT%H:%M:%SZ)")\",\"description\":\"$(b64 'made by make run')\",
  \"usage-bootstrap-authentication\":\"$(b64 true)\",\"usage-bootstrap-signing\":\"$(b64 true)\"}}"
for binding in "kubeadm:kubelet-bootstrap system:node-bootstrapper" \
  "kubeadm:node-autoapprove-bootstrap system:certificates.$API_DOMAIN:certificatesigningrequests:nodeclient" \
  "kubeadm:node-autoapprove-certificate-rotation system:certificates.$API_DOMAIN:certificatesigningrequests:selfnodeclient"; do
  set -- $binding
  group=system:bootstrappers; [[ $1 == *rotation ]] && group=system:nodes
  admin_curl POST "/apis/rbac.authorization.$API_DOMAIN/v1/clusterrolebindings" "{\"metadata\":{\"name\":\"$1\"},
    \"roleRef\":{\"apiGroup\":\"rbac.authorization.$API_DOMAIN\",\"kind\":\"ClusterRole\",\"name\":\"$2\"},
    \"subjects\":[{\"kind\":\"Group\",\"apiGroup\":\"rbac.authorization.$API_DOMAIN\",\"name\":\"$group\"}]}" 2>/dev/null || true
done
ca_hash=sha256:$(node -e 'const c = new (require("node:crypto").X509Certificate)(require("node:fs").readFileSync(process.argv[1])); console.log(require("node:crypto").createHash("sha256").update(c.publicKey.export({ type: "spki", format: "der" })).digest("hex"))' "$LOCAL/certs/apiserver.crt")

cat <<MSG

The control plane is up.
  API server:  https://127.0.0.1:$API_PORT
  controller manager: https://127.0.0.1:$CM_PORT/healthz (leader lease orch-system/orch-controller-manager)
  kubeconfig:  $LOCAL/admin.kubeconfig
               $LOCAL/admin-exec.kubeconfig (the same admin, token from the exec plug-in hack/exec-credential-plugin.sh)
  CA:          $LOCAL/certs/apiserver.crt

Credentials (in $PKI): the admin's client certificate (CN orch-admin, O system:masters) is in the
kubeconfig; a static token for the same user is the first field of tokens.csv; service account
tokens are signed with sa.key (issuer https://127.0.0.1:$API_PORT).

Try:
  kubectl --kubeconfig $LOCAL/admin.kubeconfig get namespaces
  $WHOAMI
  kubectl --kubeconfig $LOCAL/admin-exec.kubeconfig get namespaces
  kubectl --kubeconfig $LOCAL/admin.kubeconfig run web --image=nginx && kubectl --kubeconfig $LOCAL/admin.kubeconfig get all
  kubectl --kubeconfig $LOCAL/admin.kubeconfig create serviceaccount demo && kubectl --kubeconfig $LOCAL/admin.kubeconfig create token demo
  curl --cacert $LOCAL/certs/apiserver.crt --cert $PKI/admin.crt --key $PKI/admin.key https://127.0.0.1:$API_PORT/apis/apps/v1/namespaces/default/statefulsets

Join a machine with the bootstrap token (valid 24 hours), then use the node's kubeconfig: as
system:node:demo-node it may do what a kubelet does (the Node authorizer and NodeRestriction).
  _output/bin/join 127.0.0.1:$API_PORT --token $token_id.$token_secret --discovery-token-ca-cert-hash $ca_hash \\
    --node-name demo-node --kubeconfig $LOCAL/demo-node.kubeconfig --api-domain $API_DOMAIN
  kubectl --kubeconfig $LOCAL/admin.kubeconfig get csr
  kubectl --kubeconfig $LOCAL/demo-node.kubeconfig get nodes,pods --all-namespaces

Press Ctrl-C to stop.
MSG
wait -n "${pids[@]}"
echo "a control-plane process exited; see $LOCAL/*.log"
