#!/usr/bin/env bash
# 2026-11-28 (docs/results/tight/l2-bw.md): the H100 groups N1-N9 (h100_groups.sh, measured
# 2026-11-27) and, in the time left, the H200 groups Z1-Z9 (final_groups.sh, measured 2026-11-26)
# predicted with DIR/cbi (main with the L2 read bound) on the machine's CPU cores; no GPU use.
# usage: OUT=... bash h100_n_predict.sh DIR   (DIR: cbi, fix_run.sh, h100_groups.sh,
#                                             final_groups.sh). Results: $OUT/fix.tar.gz, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
t0=$(date +%s)
GROUPS_FILE=h100_groups.sh DEVICE=h100 DEADLINE=330 bash "$dir/fix_run.sh" "$dir" after
GROUPS_FILE=final_groups.sh DEVICE=h200 DEADLINE=$((510 - ($(date +%s) - t0))) \
  bash "$dir/fix_run.sh" "$dir" after
echo "h100_n_predict: $(($(date +%s) - t0)) s"
