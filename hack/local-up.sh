#!/usr/bin/env bash
# Starts a local control plane on loopback: etcd and the API server, with their state under
# _output/local. Stops both on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
LOCAL=_output/local
ETCD_PORT=${ETCD_PORT:-2379}
ETCD_PEER_PORT=${ETCD_PEER_PORT:-2380}
API_PORT=${API_PORT:-6443}
# API_DOMAIN=k8s.io serves upstream's group names, so stock kubectl's typed commands (create role,
# auth can-i, auth whoami) work unchanged.
API_DOMAIN=${API_DOMAIN:-orch.io}
mkdir -p "$LOCAL/etcd" "$LOCAL/certs"
PKI="$LOCAL/pki"
# Client CA, the admin's client certificate (system:masters), service account keys, a token file.
node _output/dist/hack/local-pki.js "$PKI"

pids=()
cleanup() {
  trap - EXIT INT TERM
  echo "stopping the local control plane"
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
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
_output/bin/apiserver --bind-address 127.0.0.1 --secure-port "$API_PORT" --cert-dir "$LOCAL/certs" \
  --etcd-servers "http://127.0.0.1:$ETCD_PORT" \
  --client-ca-file "$PKI/ca.crt" --token-auth-file "$PKI/tokens.csv" --enable-bootstrap-token-auth \
  --service-account-issuer "https://127.0.0.1:$API_PORT" --service-account-key-file "$PKI/sa.pub" \
  --service-account-signing-key-file "$PKI/sa.key" --authorization-mode RBAC \
  --api-domain "$API_DOMAIN" >"$LOCAL/apiserver.log" 2>&1 &
pids+=($!)

for _ in $(seq 1 120); do
  if curl -fsS --cacert "$LOCAL/certs/apiserver.crt" "https://127.0.0.1:$API_PORT/readyz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "${pids[1]}" 2>/dev/null; then echo "the API server exited; see $LOCAL/apiserver.log"; tail -20 "$LOCAL/apiserver.log"; exit 1; fi
  sleep 0.5
done

ca=$(base64 -w0 < "$LOCAL/certs/apiserver.crt")
# The admin authenticates with a client certificate in system:masters; the same user also has a
# static token (the first column of $PKI/tokens.csv) for tools that want one.
cert=$(base64 -w0 < "$PKI/admin.crt")
key=$(base64 -w0 < "$PKI/admin.key")
cat > "$LOCAL/admin.kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: https://127.0.0.1:$API_PORT
    certificate-authority-data: $ca
users:
- name: admin
  user:
    client-certificate-data: $cert
    client-key-data: $key
contexts:
- name: local
  context:
    cluster: local
    user: admin
    namespace: default
current-context: local
KUBECONFIG

# Pods need their namespace's default service account (ServiceAccount admission). The controller
# manager will make one in every namespace; until it exists, make the one of "default" here.
curl -sS -o /dev/null --cacert "$LOCAL/certs/apiserver.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
  -H 'Content-Type: application/json' -d '{"metadata":{"name":"default"}}' \
  "https://127.0.0.1:$API_PORT/api/v1/namespaces/default/serviceaccounts" || true

cat <<MSG

The control plane is up.
  API server:  https://127.0.0.1:$API_PORT
  kubeconfig:  $LOCAL/admin.kubeconfig
  CA:          $LOCAL/certs/apiserver.crt

Credentials (in $PKI): the admin's client certificate (CN orch-admin, O system:masters) is in the
kubeconfig; a static token for the same user is the first field of tokens.csv; service account
tokens are signed with sa.key (issuer https://127.0.0.1:$API_PORT).

Try:
  kubectl --kubeconfig $LOCAL/admin.kubeconfig get namespaces
  kubectl --kubeconfig $LOCAL/admin.kubeconfig auth whoami
  kubectl --kubeconfig $LOCAL/admin.kubeconfig run web --image=nginx && kubectl --kubeconfig $LOCAL/admin.kubeconfig get all
  kubectl --kubeconfig $LOCAL/admin.kubeconfig create serviceaccount demo && kubectl --kubeconfig $LOCAL/admin.kubeconfig create token demo
  curl --cacert $LOCAL/certs/apiserver.crt --cert $PKI/admin.crt --key $PKI/admin.key https://127.0.0.1:$API_PORT/apis/apps/v1/namespaces/default/statefulsets

Press Ctrl-C to stop.
MSG
wait -n "${pids[@]}"
echo "a control-plane process exited; see $LOCAL/*.log"
