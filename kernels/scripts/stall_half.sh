#!/usr/bin/env bash
# 2026-11-28 seventh stop (docs/results/tight/l-set.md §5): what holds the half naive matmul's
# cache-friendly orders at 1.57 cycles a warp load an SM: ncu's warp-state and scheduler sections
# on K4's half matmul (column:64, column:8, tile:16) and, beside it, K5's float (column:256).
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd); out=${OUT:?}
gunzip -c $dir/cbi.gz > /tmp/cbi && chmod +x /tmp/cbi
one() { local label=$1; shift
  timeout 120 ncu --clock-control none --csv --print-units base --section WarpStateStats \
    --section SchedulerStats --section LaunchStats --section Occupancy -k regex:remap --launch-skip 1 --launch-count 1 \
    /tmp/cbi bench --no-check --min-samples 2 "$@" > /tmp/ncu-$label.csv 2> /tmp/ncu-$label.err
  echo "$label: exit $? $(date -u +%H:%M:%S)"
  grep '^"' /tmp/ncu-$label.csv | sed "s/^/\"$label\",/" >> $out/stall.csv
}
for o in column:64 column:8 tile:16 linear; do
  one "K4-$o" --kernel matmul --size 1856x1152 --depth 384 --type half --block 192 --order $o
done
for o in column:256 column:8; do
  one "K5-$o" --kernel matmul --size 1408x1088 --depth 832 --type float --block 512 --order $o
done
one "K8-linear" --kernel stencil --size 4032x2560 --stencil 9x9 --type float --block 384 --order linear
