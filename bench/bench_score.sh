#!/usr/bin/env bash
# Benchmark of psssp-sim score: 5000 bisect runs on a 16-ary 3-tree (4096
# hosts, 768 switches, d-mod-k LFTs), end to end through the CLI (reading the
# ibsim net file, guid2lid and a 220 MB opensm-lfts.dump included), then the
# in-memory scoring rate over 1k / 4k / 32k hosts. Prints wall time, runs/s
# and peak RSS (/usr/bin/time -v). Usage: bench/bench_score.sh [THREADS]
# (default 2); PSSSP_BUILD names the build directory (default build).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PSSSP_BUILD:-build}
[[ $BUILD = /* ]] || BUILD=$ROOT/$BUILD
SIM=$BUILD/simulator/psssp-sim
GEN=$BUILD/simulator/bench_score_gen
THREADS=${1:-2}
RUNS=${RUNS:-5000}
WORK=${BENCH_DIR:-$(mktemp -d)}
for b in "$SIM" "$GEN"; do [[ -x $b ]] || { echo "missing $b (cmake --build $BUILD --target psssp-sim bench_score_gen)" >&2; exit 1; }; done

echo "== inputs: 16-ary 3-tree"
[[ -f $WORK/t16x3.lfts ]] || "$GEN" 16 3 "$WORK/t16x3"
ls -l "$WORK"/t16x3.* | awk '{print "  " $5 " bytes  " $9}'

echo "== psssp-sim score, $RUNS bisect runs, $THREADS threads"
/usr/bin/time -v "$SIM" score "$WORK/t16x3.net" --lids "$WORK/t16x3.guid2lid" \
  --routes "$WORK/t16x3.lfts" --runs "$RUNS" --threads "$THREADS" 2>"$WORK/time.txt" | sed -n '1,4p'
grep -E "Elapsed|Maximum resident|User time|System time" "$WORK/time.txt" | sed 's/^\s*/  /'

echo "== psssp-sim score --json, reading vs scoring time"
"$SIM" score "$WORK/t16x3.net" --lids "$WORK/t16x3.guid2lid" --routes "$WORK/t16x3.lfts" \
  --runs "$RUNS" --threads "$THREADS" --json |
  /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print("  read %.2f s, score %.2f s (%.0f runs/s), total %.2f s" % (d["parse_seconds"], d["score_seconds"], d["runs"]/d["score_seconds"], d["seconds"]))'

echo "== psssp-sim check (16.7M host pairs)"
/usr/bin/time -v "$SIM" check "$WORK/t16x3.net" --lids "$WORK/t16x3.guid2lid" \
  --routes "$WORK/t16x3.lfts" --threads "$THREADS" 2>"$WORK/time.txt" | sed -n '1,3p'
grep -E "Elapsed|Maximum resident" "$WORK/time.txt" | sed 's/^\s*/  /'

echo "== in-memory scoring rate, $THREADS threads (no files)"
for kn in "32 2" "16 3" "32 3"; do
  /usr/bin/time -f "  peak RSS %M KB" "$GEN" $kn --in-process "${SCALE_RUNS:-1000}" "$THREADS" 2>&1 | sed 's/^/  /'
done
echo "(16k hosts has no k-ary n-tree with <=254-port switches and a sane LFT size; 64k hosts"
echo " exceed the 48K unicast LID space of one subnet)"
