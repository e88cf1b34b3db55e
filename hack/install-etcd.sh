#!/usr/bin/env bash
# Makes sure an `etcd` binary is on PATH, installing Debian's etcd-server when none is.
set -euo pipefail
if command -v etcd >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-etcd: no etcd on PATH and no apt-get to install it with; install etcd 3.4+ by hand" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-etcd: installing Debian's etcd-server" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends etcd-server >/dev/null
# Debian's package starts a system etcd on the default ports; ours are started by the scripts themselves.
if command -v systemctl >/dev/null 2>&1; then $sudo systemctl disable --now etcd >/dev/null 2>&1 || true; fi
command -v etcd >/dev/null 2>&1 || { echo "install-etcd: etcd still not on PATH after install" >&2; exit 1; }
