#!/usr/bin/env bash
# 2026-11-29, third stop (docs/results/tight/l1-issue.md §8): the l1_matmul probe on the device.
# usage: OUT=... bash l1_matmul_run.sh   (in a folder holding l1_matmul.gz)
set -uo pipefail
w=/tmp/mm; mkdir -p $w; gunzip -c l1_matmul.gz > $w/l1_matmul && chmod +x $w/l1_matmul
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/probe-log.txt
timeout 120 $w/l1_matmul > $OUT/l1_matmul.csv 2>> $OUT/probe-log.txt; echo "exit $? $(date -u +%T)" >> $OUT/probe-log.txt
