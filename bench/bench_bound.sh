#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Benchmark of psssp-sim bound (the LP upper bound on eBB).
#   bench/bench_bound.sh table [RUNS]   the bound table of docs/bound.md, on the
#       quality fabrics (bench_quality.py): per fabric compare-engines on RUNS
#       (100) bisect runs, the bound on those runs (any routing, and minimal
#       paths) and psssp's and the best OpenSM engine's share of it (mean eBB
#       over the mean bound, the same runs). ENGINES (bench_quality.py's),
#       ONLY=name,name, BOUND_TIME_LIMIT (seconds per fabric and bound, 600),
#       TIMEOUT (per OpenSM run, 600).
#   bench/bench_bound.sh timing [RUNS]  seconds per matching and peak memory
#       per size, 64 to 4096 hosts (auto: exact up to 256 hosts, approximate
#       with eps 0.02 above): RUNS (4) bisect runs on --threads 2, two runs at
#       a time on a core each; at 4096 hosts also one run on both cores.
#       s/match is the wall time over the runs bounded, s/run each run's own
#       wall time (mean, max), CPU s/run the process's user + system time over
#       the runs; RSS is /usr/bin/time -v's maximum resident set size.
#       TIME_LIMIT (seconds per run, 60) bounds each; runs cut short say so.
#       OPTS are passed to psssp-sim bound (e.g. --minimal).
# PSSSP_BUILD names the build directory (default build); BENCH_DIR keeps the
# generated fabrics. Prints the load average: the machine may be shared.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${PSSSP_BUILD:-build}
[[ $BUILD = /* ]] || BUILD=$ROOT/$BUILD
SIM=$BUILD/simulator/psssp-sim
TOPO=$BUILD/topologies/psssp-topo
WORK=${BENCH_DIR:-$(mktemp -d)}
MODE=${1:-table}
for b in "$SIM" "$TOPO"; do [[ -x $b ]] || { echo "missing $b (cmake --build $BUILD --target psssp-sim psssp-topo)" >&2; exit 1; }; done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

field() {  # field FILE KEY: one value of a psssp-sim --json report
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); print(v[sys.argv[2]])' "$1" "$2"
}

gen() {  # gen NAME TOPOLOGY ARGS...: $WORK/NAME.net once
  local name=$1; shift
  [[ -s $WORK/$name.net ]] || "$TOPO" "$@" -o "$WORK/$name.net" >/dev/null 2>"$WORK/gen.log" ||
    { cat "$WORK/gen.log" >&2; exit 1; }
}

case $MODE in
  table)
    # The quality fabrics (bench_quality.py's FABRICS and ENGINES, not a copy),
    # each through compare-engines, which scores the engines' tables and
    # bounds the same RUNS runs; the minimal-path bound on its fabric.topo.
    RUNS=${2:-100}
    LIMIT=${BOUND_TIME_LIMIT:-600}
    export PSSSP_BUILD=$BUILD
    printf '| fabric (hosts) | LP bound, any routing [95%% CI] | LP bound, minimal paths | psssp eBB | psssp / bound | best OpenSM engine: eBB | its / bound | bound: method, wall s per run |\n'
    printf '|---|---|---|---|---|---|---|---|\n'
    ENGINES=${ENGINES:-$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import bench_quality; print(bench_quality.ENGINES)' "$ROOT/bench")}
    python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import bench_quality
for name, spec in bench_quality.FABRICS: print("%s|%s" % (name, spec))' "$ROOT/bench" |
    while IFS='|' read -r name spec; do
      out=$WORK/cmp-$name
      [[ -n ${ONLY:-} && ,$ONLY, != *,$name,* ]] && continue
      echo "== $name: $spec" >&2
      python3 "$ROOT/scripts/compare-engines" --topology "$spec" --engines "$ENGINES" \
        --runs "$RUNS" --bound-runs "$RUNS" --bound-time-limit "$LIMIT" --no-plot --keep \
        --timeout "${TIMEOUT:-600}" --out "$out" >"$WORK/cmp.log" 2>&1 ||
        { tail -20 "$WORK/cmp.log" >&2; exit 1; }
      "$SIM" bound "$out/work/fabric.topo" --runs "$RUNS" --minimal --time-limit "$LIMIT" \
        --json >"$WORK/min.json" 2>"$WORK/min.log" || echo '{}' >"$WORK/min.json"
      python3 - "$name" "$out/results.json" "$WORK/min.json" <<'PY'
import json, sys
name, d, m = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
b = ((d.get("bound") or {}).get("by_pattern") or {}).get("bisect")
if b is None:
    print("| %s (%s) | not computed: %s | | | | | | |" % (name, d["hosts"],
                                                         (d.get("bound") or {}).get("note")))
    sys.exit(0)
ebb = {e["engine"]: e for e in d["engines"] if e["ebb"] is not None}
ps = ebb.get("psssp")
others = [e for n, e in ebb.items() if n != "psssp" and e["outcome"] == "configured"]
best = max(others, key=lambda e: e["ebb"]) if others else None
loose = ""
if b["runs"] < b["runs_scored"]:
    loose += " (%d of %d runs)" % (b["runs"], b["runs_scored"])
if b["runs_incomplete"]:
    loose += " (%d runs cut short: valid, looser)" % b["runs_incomplete"]
minimal = "%.3f" % m["bound"] if "bound" in m else "-"
if m.get("runs_incomplete"):
    minimal += " (cut short)"
method = b["method"] + (", cut short" if b["runs_incomplete"] else "")
print("| %s (%d) | %.3f [%.3f, %.3f]%s | %s | %s | %s | %s | %s | %s, %.2f |" % (
    name, d["hosts"], b["bound"], b["ci95"][0], b["ci95"][1], loose, minimal,
    "%.3f" % ps["ebb"] if ps else "-", "%.2f" % (ps["ebb"] / b["bound"]) if ps else "-",
    "%s: %.3f" % (best["engine"], best["ebb"]) if best else "-",
    "%.2f" % (best["ebb"] / b["bound"]) if best else "-", method,
    b["seconds"] / max(1, b["runs"])))
PY
    done
    ;;
  timing)
    RUNS=${2:-4}
    TIME_LIMIT=${TIME_LIMIT:-60}
    printf '%-32s %6s %-29s %8s %8s %8s %9s %9s %7s %7s %s\n' fabric hosts method "s/match" \
      "s/run" "max s" "CPU s/run" bound gap "RSS MB" note
    while IFS='|' read -r name label args solo; do
      # shellcheck disable=SC2086
      gen "$name" $args
      for runs in "$RUNS" ${solo:+1}; do
        limit=$((TIME_LIMIT * runs))
        # shellcheck disable=SC2086
        /usr/bin/time -v -o "$WORK/time.txt" "$SIM" bound "$WORK/$name.net" --runs "$runs" \
          --threads 2 --time-limit "$limit" ${OPTS:-} --json >"$WORK/t.json"
        python3 - "$label" "$WORK/t.json" "$WORK/time.txt" "$runs" <<'PY'
import json, re, sys
label, d, runs = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[4])
t = open(sys.argv[3]).read()
def num(key):
    return float(re.search(re.escape(key) + r"[^:]*:\s*([0-9.]+)", t).group(1))
rss, cpu = num("Maximum resident set size"), num("User time") + num("System time")
bounded = max(1, d["runs_bounded"])
method = d["method"] + ("" if runs > 1 else ", 1 run")
note = ""
if d["runs_incomplete"] or d["runs_bounded"] < d["runs"]:
    note = "time limit: %d of %d runs bounded, %d cut short" % (
        d["runs_bounded"], d["runs"], d["runs_incomplete"])
print("%-32s %6d %-29s %8.3f %8.3f %8.3f %9.3f %9.4f %6.2f%% %7.0f %s" % (
    label, d["hosts"], method, d["seconds"] / bounded, d["seconds_per_run"],
    d["seconds_per_run_max"], cpu / bounded, d["bound"], 100 * d["max_gap"], rss / 1024, note))
PY
      done
    done <<'FABRICS'
tree8|2-level tree 8-ary|kary-ntree --k 8 --n 2|
df422|dragonfly 4-2-2|dragonfly --a 4 --p 2 --h 2|
t444|torus 4x4x4|torus --dims 4x4x4 --hosts-per-switch 2|
hc6|hypercube 6|hypercube --dim 6 --hosts-per-switch 4|
t88|torus 8x8, 4 hosts/switch|torus --dims 8x8 --hosts-per-switch 4|
hx88|HyperX 8x8|hyperx --dims 8x8 --hosts-per-switch 4|
t16|torus 16x16, 4 hosts/switch|torus --dims 16x16 --hosts-per-switch 4|
df844|dragonfly 8-4-4|dragonfly --a 8 --p 4 --h 4|
rr128|random 128 switches, degree 8|random-regular --switches 128 --degree 8 --hosts-per-switch 8 --seed 1|
tree16|3-level tree 16-ary|kary-ntree --k 16 --n 3|solo
t32|torus 32x32, 4 hosts/switch|torus --dims 32x32 --hosts-per-switch 4|solo
hc10|hypercube 10, 4 hosts/switch|hypercube --dim 10 --hosts-per-switch 4|solo
rr512|random 512 switches, degree 16|random-regular --switches 512 --degree 16 --hosts-per-switch 8 --seed 1|solo
FABRICS
    ;;
  *)
    echo "usage: bench_bound.sh table|timing [RUNS]" >&2
    exit 2
    ;;
esac
