#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Install the Debian packages psssp needs, only those that are missing.
# Idempotent: a second run installs nothing and exits 0.
set -euo pipefail

packages=(
  opensm libopensm-dev ibsim-utils libumad2sim0 infiniband-diags libibumad-dev
  libboost-graph-dev cmake ninja-build make g++ libgtest-dev
  clang libclang-rt-14-dev clang-format
  python3 python3-pytest python3-pytest-xdist python3-pytest-timeout python3-matplotlib
  graphviz chromium
  libcli11-dev nlohmann-json3-dev libre2-dev pkg-config
  debhelper dpkg-dev fakeroot lintian
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
