#!/bin/bash
# Regenerates the ibsim/OpenSM captures in this folder: runs ibsim on NET,
# OpenSM once (-o) with LMC, then ibnetdiscover and dump_fts against the
# simulated fabric. Usage: capture.sh NET OUTPREFIX [LMC]
set -euo pipefail
net=$1 out=$2 lmc=${3:-0}
work=$(mktemp -d)
export IBSIM_SOCKNAME=psssp-capture-$$
preload=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
ibsim -s -n "$net" >"$work/ibsim.log" 2>&1 &
sim=$!
trap 'kill $sim 2>/dev/null || true; wait $sim 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 1
LD_PRELOAD=$preload OSM_TMP_DIR=$work OSM_CACHE_DIR=$work \
  timeout 60 opensm -o -D 0x43 -s 0 -e -f "$work/osm.log" -l "$lmc" >/dev/null 2>&1 || true
LD_PRELOAD=$preload ibnetdiscover >"$out.ibnetdiscover" 2>/dev/null
LD_PRELOAD=$preload dump_fts >"$out.dump_fts" 2>/dev/null
LD_PRELOAD=$preload ibnetdiscover -g >"$out.ibnetdiscover-g" 2>/dev/null
LD_PRELOAD=$preload dump_fts -n >"$out.dump_fts-n" 2>/dev/null
# ibroute addressed by the LID of the first switch in the LFT dump.
swlid=$(sed -n 's/^Unicast lids .* of switch Lid \([0-9]*\) .*/\1/p' "$work/opensm-lfts.dump" | head -1)
LD_PRELOAD=$preload ibroute "$swlid" >"$out.ibroute" 2>/dev/null
cp "$work/opensm-lfts.dump" "$out.opensm-lfts.dump"
cp "$work/opensm.fdbs" "$out.opensm.fdbs"
cp "$work/opensm-subnet.lst" "$out.opensm-subnet.lst"
cp "$work/guid2lid" "$out.guid2lid" 2>/dev/null || true
