#!/usr/bin/env bash
# 2026-11-29 (docs/results/tight/dram-pages.md): main's GPU model on every measured H200
# configuration of the naive kernels (CFGS: kernel|size|stencil|depth|type|block|order a line),
# full device, one `cbi simulate --model gpu --format json` each, 16 at once, so that each
# prediction's bounds (replay, issue, DRAM, L1, L2) can be set against the measured time.
# usage: OUT=... bash predict_bounds.sh DIR CFGS DEADLINE_S (DIR holds cbi.gz)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd); cfgs=${2:?CFGS}; deadline=${3:-500}; out=${OUT:?}
w=/tmp/pb; mkdir -p $w/json; gunzip -c $src/cbi.gz > $w/cbi && chmod +x $w/cbi
t0=$(date +%s)
one() { # LINE
  IFS='|' read -r k s st d t b o <<<"$1"
  [ $(($(date +%s) - T0)) -gt "$DEADLINE" ] && return 0
  local a="--workload $k --size $s --type $t --block $b --order $o" f
  [ -n "$st" ] && a="$a --stencil $st"
  [ -n "$d" ] && a="$a --depth $d"
  f=$(echo "$1" | tr '|:' '__')
  # shellcheck disable=SC2086
  timeout 120 $W/cbi simulate --model gpu --device h200 --jobs 1 $a --format json \
    --output $W/json/$f.json 2> $W/json/$f.err || echo "fail $1" >> $W/fail.txt
}
export -f one; export T0=$t0 DEADLINE=$deadline W=$w
xargs -P $(nproc) -d '\n' -I{} bash -c 'one "$@"' _ {} < $cfgs
echo "done $(ls $w/json/*.json | wc -l) json, $(cat $w/fail.txt 2>/dev/null | wc -l) failed, $(($(date +%s) - t0)) s" | tee $out/pb-log.txt
tar -C $w -czf $out/pb.tar.gz json $(ls $w/fail.txt 2>/dev/null | xargs -r basename)
