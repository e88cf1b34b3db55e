#!/usr/bin/env bash
# An example exec credential plug-in (client-go's ExecCredential protocol, as kubectl runs it):
# prints an ExecCredential whose status.token is the first token of a static token file
# (--token-auth-file format: token,user,uid,"groups"). `make run` writes a kubeconfig whose user
# runs it with _output/local/pki/tokens.csv. Usage: exec-credential-plugin.sh <token file>
# The token goes to stdout only, where the client reads it; nothing is logged.
set -euo pipefail
file=${1:?usage: exec-credential-plugin.sh <token file>}
if [[ ! -r "$file" ]]; then
  echo "exec-credential-plugin: cannot read the token file $file" >&2
  exit 1
fi
IFS= read -r line < "$file" || true
token=${line%%,*}
token=${token%$'\r'}
# A token fit for a bearer header is also fit for a JSON string: refuse anything else rather than quote it.
if [[ ! "$token" =~ ^[A-Za-z0-9._~+/=-]+$ ]]; then
  echo "exec-credential-plugin: the first line of $file holds no usable token" >&2
  exit 1
fi
# Answer in the version the client asked for (KUBERNETES_EXEC_INFO, which clients always set), v1 of
# client-go's group otherwise.
apiVersion=client.authentication.k8s.io/v1
if [[ "${KUBERNETES_EXEC_INFO:-}" =~ \"apiVersion\":\"([^\"]+)\" ]]; then
  apiVersion=${BASH_REMATCH[1]}
fi
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"%s"}}\n' "$apiVersion" "$token"
