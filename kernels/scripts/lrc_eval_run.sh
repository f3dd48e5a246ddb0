#!/usr/bin/env bash
# 2026-11-28 (docs/results/tight/lrc-cap.md): the L2 request coalescer's read limit scored. Two jobs
# at once: the fresh groups Q1-Q11 (h100_q_groups.sh) measured on the GPU with DIR/cbi, and the
# H100 groups R1-R11 (h100_r_groups.sh, measured 2026-11-28 before the change), then N1-N5
# (h100_groups.sh), predicted with DIR/cbi-lrc (the model with the limit) on the CPU cores.
# usage: OUT=... bash lrc_eval_run.sh DIR   (DIR: cbi, cbi-lrc, fix_run.sh and the groups files)
# Results: $OUT/m/ (the measurement: fix.tar.gz, log.txt), $OUT/p/ (the predictions).
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
mkdir -p $OUT/m $OUT/p
cp "$dir/cbi" "$dir/cbi-lrc" # the same binary: fix_run.sh predicts step "lrc" with DIR/cbi-lrc
t0=$(date +%s)
OUT=$OUT/m GROUPS_FILE=h100_q_groups.sh DEADLINE=400 bash "$dir/fix_run.sh" "$dir" measure \
  > /dev/null 2>&1 &
m=$!
OUT=$OUT/p GROUPS_FILE=h100_r_groups.sh DEVICE=h100 DEADLINE=400 bash "$dir/fix_run.sh" "$dir" lrc \
  > /dev/null 2>&1
OUT=$OUT/p GROUPS_FILE=h100_groups.sh DEVICE=h100 DEADLINE=$((470 - ($(date +%s) - t0))) \
  bash "$dir/fix_run.sh" "$dir" lrc 'N[1-5]$' > /dev/null 2>&1
wait $m
echo "lrc_eval_run: $(($(date +%s) - t0)) s"
tail -15 $OUT/m/log.txt; tail -25 $OUT/p/log.txt
