#!/usr/bin/env bash
# Installs the Debian packages the engine builds against (and the sqlite3 CLI the tests use),
# only when something is missing. Needs root or sudo when it has to install.
set -euo pipefail
packages=(libsqlite3-dev zlib1g-dev libsodium-dev sqlite3 pkg-config)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${missing[*]}" >&2
    $sudo apt-get update -qq </dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" </dev/null >/dev/null
fi
python3 -c "import pytest" 2>/dev/null || python3 -m pip install -q pytest </dev/null
