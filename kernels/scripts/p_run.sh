#!/usr/bin/env bash
# 2026-11-28, fifth stop (docs/results/tight/l1-rate.md): the L1 request-rate probe (l1_rate: cycles
# a warp load that hits, by its shape and the warps an SM), its SASS, then the fresh H200 set
# P1-P11 (h200_p_groups.sh) measured through fix_run.sh (predicted in a later call).
# usage: bash p_run.sh DIR [STEPS]   (DIR: cbi, l1_rate, fix_run.sh, h200_p_groups.sh;
#        STEPS: probe and any of fix_run.sh's steps; default "probe measure")
set -uo pipefail
dir=${1:?DIR}
out=${OUT:?}
steps=${2:-probe measure}
if [[ " $steps " == *" probe "* ]]; then
  CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
  $CUOBJ -sass "$dir/l1_rate" > $out/l1-rate-sass.txt 2>&1; echo "cuobjdump exit $?"
  grep -c LDG $out/l1-rate-sass.txt; grep -cE "LDL|STL" $out/l1-rate-sass.txt
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
  timeout 120 "$dir/l1_rate" > $out/l1-rate.csv; echo "l1_rate exit $?"
  cat $out/l1-rate.csv
  steps=${steps//probe/}
fi
[ -n "${steps// /}" ] && GROUPS_FILE=h200_p_groups.sh DEVICE=h200 bash "$dir/fix_run.sh" "$dir" "$steps"
