#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Benchmark of psssp-sim score: RUNS (5000) bisect runs end to end through the
# CLI (reading the ibsim net file, guid2lid and the opensm-lfts.dump included)
# on a 32-ary 2-tree (1024 hosts, 64 switches) and a 16-ary 3-tree (4096
# hosts, 768 switches, 220 MB dump), both with d-mod-k LFTs; then psssp-sim
# check; then the in-memory scoring rate up to 32k hosts (whose dump would be
# 7 GB). Each measurement is repeated REPEAT (3) times; the minimum is shown
# with the load average, as the machine may be shared.
# Prints per size: reading (parse) time, scoring time, total wall, runs/s,
# peak RSS (/usr/bin/time -v).
# Usage: bench/bench_score.sh [THREADS] (default 2); PSSSP_BUILD names the
# build directory (default build); BENCH_DIR keeps the generated inputs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PSSSP_BUILD:-build}
[[ $BUILD = /* ]] || BUILD=$ROOT/$BUILD
SIM=$BUILD/simulator/psssp-sim
GEN=$BUILD/bench/bench_score_gen
THREADS=${1:-2}
RUNS=${RUNS:-5000}
REPEAT=${REPEAT:-3}
WORK=${BENCH_DIR:-$(mktemp -d)}
for b in "$SIM" "$GEN"; do [[ -x $b ]] || { echo "missing $b (cmake --build $BUILD --target psssp-sim bench_score_gen)" >&2; exit 1; }; done
load() { cut -d' ' -f1-3 /proc/loadavg; }

# One line per repetition: parse score total runs_per_s rss_kb (from --json and time -v).
score_once() {
  local p=$1
  /usr/bin/time -v "$SIM" score "$p.net" --lids "$p.guid2lid" --routes "$p.lfts" \
    --runs "$RUNS" --threads "$THREADS" --json >"$WORK/score.json" 2>"$WORK/time.txt"
  /usr/bin/python3 - "$WORK/score.json" "$WORK/time.txt" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
w = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3)))
print(d["parse_seconds"], d["score_seconds"], w, d["runs"] / d["score_seconds"], rss,
      d["results"][0]["ebb"])
EOF
}

for kn in "32 2" "16 3"; do
  set -- $kn
  p=$WORK/t$1x$2
  [[ -f $p.lfts ]] || "$GEN" "$1" "$2" "$p" >/dev/null
  echo "== psssp-sim score, $1-ary $2-tree, $RUNS bisect runs, $THREADS threads ($(du -m "$p.lfts" | cut -f1) MB dump)"
  for ((i = 0; i < REPEAT; i++)); do
    echo "$(score_once "$p") $(load)"
  done | /usr/bin/python3 -c '
import sys
rows = [l.split() for l in sys.stdin if l.strip()]
for r in rows:
    print("  read %.3f s  score %.3f s  total wall %.3f s  %6.0f runs/s  peak RSS %6.1f MB  eBB %s  (load %s)"
          % (float(r[0]), float(r[1]), float(r[2]), float(r[3]), int(r[4]) / 1024, r[5], " ".join(r[6:9])))
best = lambda k: min(float(r[k]) for r in rows)
print("  min: read %.3f s, score %.3f s, total wall %.3f s, %.0f runs/s, peak RSS %.1f MB"
      % (best(0), best(1), best(2), max(float(r[3]) for r in rows), best(4) / 1024))'
done

p=$WORK/t16x3
echo "== psssp-sim check, 16-ary 3-tree (16.7M host pairs)"
/usr/bin/time -v "$SIM" check "$p.net" --lids "$p.guid2lid" --routes "$p.lfts" \
  --threads "$THREADS" 2>"$WORK/time.txt" | sed -n '1,3p'
grep -E "Elapsed|Maximum resident" "$WORK/time.txt" | sed 's/^\s*/  /'

echo "== in-memory scoring rate, $THREADS threads (no files; LFTs built in memory)"
for kn in "32 2" "16 3" "32 3"; do
  /usr/bin/time -f "  peak RSS %M KB, load $(load)" "$GEN" $kn --in-process "${SCALE_RUNS:-1000}" "$THREADS" 2>&1 | sed 's/^/  /'
done
echo "(16k hosts has no k-ary n-tree with <=254-port switches and a sane LFT size; 64k hosts"
echo " exceed the 48K unicast LID space of one subnet)"
