#!/usr/bin/env bash
# 2026-11-28 (docs/results/tight/l2-bw.md): the L2 read probe again with the shapes its fit did not
# see, then the fresh naive groups R1-R11 (h100_r_groups.sh) measured on the H100 after the L2 read
# change, and predicted with DIR/cbi (that change) and the h100 row on the machine's CPU cores.
# usage: OUT=... bash h100_r_run.sh DIR   (DIR: cbi, l2_bw, l2_bw_run.sh, fix_run.sh,
#                                         h100_r_groups.sh). Results: $OUT/l2bw.csv,
#                                         $OUT/l2bw-ncu.csv, $OUT/fix.tar.gz, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
t0=$(date +%s)
bash "$dir/l2_bw_run.sh" "$dir"
GROUPS_FILE=h100_r_groups.sh DEVICE=h100 DEADLINE=$((540 - ($(date +%s) - t0))) \
  bash "$dir/fix_run.sh" "$dir" "measure after"
echo "h100_r_run: $(($(date +%s) - t0)) s"
