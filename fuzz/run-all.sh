#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Runs every fuzz target for SECONDS each, seeded from the reader test data.
# Exits non-zero as soon as a target finds a crash (the reproducer is left in
# BUILD_DIR/fuzz-artifacts/). Usage: fuzz/run-all.sh BUILD_DIR SECONDS
set -euo pipefail
build=${1:?usage: run-all.sh BUILD_DIR SECONDS}
seconds=${2:?usage: run-all.sh BUILD_DIR SECONDS}
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../core/formats/testdata
artifacts=$build/fuzz-artifacts
mkdir -p "$artifacts"

# Seed corpus per target: the real captures of its format, and the edge cases
# in fuzz/seeds/ (values just above a limit).
declare -A seeds=(
  [ibnetdiscover]="$data/*.topo $data/*.ibnetdiscover $data/*.ibnetdiscover-g $here/seeds/ibnetdiscover/*"
  [ibsim_net]="$data/*.net $data/net.* $data/*.ibnetdiscover $here/seeds/ibsim_net/*"
  [subnet_lst]="$data/*.opensm-subnet.lst"
  [lft_dump]="$data/*.opensm-lfts.dump $data/*.dump_fts $data/*.dump_fts-n $data/*.ibroute"
  [fdbs]="$data/*.opensm.fdbs"
  [sl_file]="$here/seeds/sl_file/*"
  [sl2vl]="$here/seeds/sl2vl/*"
  [layer_table]="$here/seeds/layer_table/*"
)

status=0
for target in ibnetdiscover ibsim_net subnet_lst lft_dump fdbs sl_file sl2vl layer_table; do
  binary=$build/fuzz/fuzz_$target
  [ -x "$binary" ] || { echo "missing $binary (build target 'fuzzers')" >&2; exit 2; }
  corpus=$build/fuzz-corpus/$target
  mkdir -p "$corpus"
  # shellcheck disable=SC2086  # the seed patterns are globs
  cp -n ${seeds[$target]} "$corpus"/ 2>/dev/null || true
  echo "== fuzz_$target for ${seconds}s"
  if ! "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="$artifacts/${target}-" -print_final_stats=0 "$corpus" \
      >"$build/fuzz-$target.log" 2>&1; then
    echo "fuzz_$target FAILED; see $build/fuzz-$target.log and $artifacts" >&2
    tail -40 "$build/fuzz-$target.log" >&2
    status=1
  else
    grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs" "$build/fuzz-$target.log" | tail -1 || true
  fi
done
exit $status
