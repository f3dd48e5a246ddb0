#!/usr/bin/env bash
# 2026-11-29, fourth stop (docs/results/tight/miss-lines.md §6): kernels/probes/l2_bw on the H200.
# usage: OUT=... bash l2bw_h200_run.sh   (in a folder holding l2_bw.gz)
set -uo pipefail
w=/tmp/l2; mkdir -p $w; gunzip -c l2_bw.gz > $w/l2_bw && chmod +x $w/l2_bw
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader > $OUT/log.txt
timeout 165 $w/l2_bw > $OUT/l2bw.csv 2>> $OUT/log.txt; echo "exit $? $(date -u +%T)" >> $OUT/log.txt
