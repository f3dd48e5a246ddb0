#!/usr/bin/env bash
# 2026-11-29, fourth stop (docs/results/tight/miss-lines.md): the l1_miss_lines probe on the
# device, then ncu (memory tables, warp states) on three of its configurations.
# usage: OUT=... bash l1_miss_lines_run.sh   (in a folder holding l1_miss_lines.gz)
set -uo pipefail
w=/tmp/ml; mkdir -p $w; gunzip -c l1_miss_lines.gz > $w/l1_miss_lines && chmod +x $w/l1_miss_lines
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/probe-log.txt
cuobjdump -sass $w/l1_miss_lines | grep -E "LDG|FADD|BRA" | head -40 > $OUT/sass.txt
timeout 200 $w/l1_miss_lines > $OUT/l1_miss_lines.csv 2>> $OUT/probe-log.txt; echo "probe exit $? $(date -u +%T)" >> $OUT/probe-log.txt
for c in "64 1 1 0" "64 8 1 0" "64 8 1 1" "64 8 8 0"; do
  timeout 100 ncu --clock-control none --csv --page details --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    $w/l1_miss_lines $c > $w/ncu-${c// /_}.txt 2>&1
  echo "ncu $c exit $?" >> $OUT/probe-log.txt
done
tar czf $OUT/ncu.tar.gz -C $w $(cd $w && ls ncu-*.txt)
