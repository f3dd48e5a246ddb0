#!/usr/bin/env bash
# 2026-11-28 (docs/results/tight/lrc-cap.md): the fresh groups Q1-Q11 (h100_q_groups.sh, measured
# in the call before, after the last model change) predicted with DIR/cbi (main's model with the
# L2 request coalescer's read limit) on the machine's CPU cores; no GPU use.
# usage: OUT=... bash q_predict_run.sh DIR   (DIR: cbi, fix_run.sh, h100_q_groups.sh)
# Results: $OUT/fix.tar.gz, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
GROUPS_FILE=h100_q_groups.sh DEVICE=h100 DEADLINE=${DEADLINE:-500} bash "$dir/fix_run.sh" "$dir" after \
  > /dev/null 2>&1
tail -14 $OUT/log.txt
