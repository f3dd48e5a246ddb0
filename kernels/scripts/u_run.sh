#!/usr/bin/env bash
# 2026-11-28, fourth stop (docs/results/tight/slide.md): the SASS of the naive matmul for half (how
# many loads a warp keeps in flight: MatmulWorkload::sliding_loads_in_flight), then the fresh H200
# set U1-U11 (h200_u_groups.sh) measured and predicted with the sliding window (cbi) and without it
# (cbi-before: main before the change), through fix_run.sh.
# usage: bash u_run.sh DIR [STEPS]   (DIR: cbi, cbi-before, fix_run.sh, h200_u_groups.sh)
set -uo pipefail
dir=${1:?DIR}
out=${OUT:?}
steps=${2:-sass measure after before}
if [[ " $steps " == *" sass "* ]]; then
  CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
  $CUOBJ -sass "$dir/cbi" > /tmp/all.sass 2>/dev/null; echo "cuobjdump exit $?"
  # the half kernel: matmul_remap<__half, Linear>
  awk '/Function : .*matmul_remapI6__half.*Linear6Params/{f=1} f&&/Function : / && !/matmul_remapI6__half.*Linear6Params/{f=0} f' /tmp/all.sass > $out/sass-matmul-half-linear.txt
  awk '/Function : .*matmul_remapIf.*Column/{f=1} f&&/Function : / && !/matmul_remapIf.*Column/{f=0} f' /tmp/all.sass > $out/sass-matmul-float-column.txt
  wc -l $out/sass-*.txt
  steps=${steps//sass/}
fi
GROUPS_FILE=h200_u_groups.sh DEVICE=h200 bash "$dir/fix_run.sh" "$dir" "$steps"
