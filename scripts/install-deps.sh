#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Install the Debian packages of one set, only those that are missing:
#   install-deps.sh [--dry-run] [demo|test]
# demo: what building the tools and the plugin and running compare-engines
# need (make demo); test: everything make test needs, the demo set included
# (the default). --dry-run prints the set's packages, one per line, and
# installs nothing. Idempotent: a second run installs nothing and exits 0.
set -euo pipefail

# Each package once, in the smallest set that needs it. python3-munkres
# satisfies python3-fonttools' "python3-scipy | python3-munkres" (a
# dependency of matplotlib) with the small package, not SciPy and Pythran.
# Graphviz (the report's topology view, optional) is in the test set.
# zlib1g-dev: CoinUtils links with -lz, which its -dev package does not pull.
demo=(
  cmake ninja-build make g++ pkg-config libgtest-dev
  libboost-dev libcli11-dev nlohmann-json3-dev libre2-dev coinor-libclp-dev zlib1g-dev
  opensm libopensm-dev libibumad-dev ibsim-utils libumad2sim0 infiniband-diags
  python3 python3-matplotlib python3-munkres
)
test_only=(
  graphviz
  clang libclang-rt-14-dev clang-format
  python3-pytest python3-pytest-xdist python3-pytest-timeout
  chromium
  build-essential debhelper dpkg-dev fakeroot lintian libboost-graph-dev
  ibutils
  libopenmpi-dev openmpi-bin
)

usage() {
  echo "usage: install-deps.sh [--dry-run] [demo|test]" >&2
  exit 2
}

dry_run=0
set_name=test
[ "${1:-}" = "--dry-run" ] && { dry_run=1; shift; }
[ $# -gt 1 ] && usage
[ $# -eq 1 ] && set_name=$1
case "$set_name" in
  demo) packages=("${demo[@]}") ;;
  test) packages=("${demo[@]}" "${test_only[@]}") ;;
  *) echo "install-deps: unknown set '$set_name' (demo or test)" >&2; usage ;;
esac

if [ $dry_run -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

# One line while apt works; its own output only when it fails.
echo "install-deps: installing ${#missing[@]} packages ($set_name set): ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { "${sudo_cmd[@]}" apt-get update -qq &&
       "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "install-deps: apt-get failed (its output above)" >&2
  exit 1
fi
