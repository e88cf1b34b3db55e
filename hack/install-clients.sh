#!/usr/bin/env bash
# Makes sure the real clients the integration tests drive are present: kubectl on PATH and the
# Python kubernetes client importable by Debian's /usr/bin/python3 (the only interpreter Debian's
# python3-kubernetes installs into). Installs Debian's packages for whichever is missing; quiet
# when both are already there. (@kubernetes/client-node comes with `npm ci`.)
set -euo pipefail
missing=()
if ! /usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1; then missing+=(python3-kubernetes); fi
if ! command -v kubectl >/dev/null 2>&1; then missing+=(kubernetes-client); fi
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-clients: missing ${missing[*]} and no apt-get to install them with; install them by hand" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-clients: installing Debian's ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have no package lists yet (or stale ones naming versions the mirror dropped).
if ! $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
/usr/bin/python3 -c 'import kubernetes' >/dev/null 2>&1 || { echo "install-clients: /usr/bin/python3 still cannot import kubernetes" >&2; exit 1; }
command -v kubectl >/dev/null 2>&1 || { echo "install-clients: kubectl still not on PATH after install" >&2; exit 1; }
