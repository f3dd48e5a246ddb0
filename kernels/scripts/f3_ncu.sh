#!/usr/bin/env bash
# 2026-11-29, third stop (docs/results/tight/l1-issue.md §7): ncu sections (memory tables, warp
# states, scheduler) on the half matmul F3 at column:32, column:8 and column:4, main's cbi.
# usage: OUT=... bash f3_ncu.sh   (in a folder holding cbi-before.gz)
set -uo pipefail
w=/tmp/f3; mkdir -p $w; gunzip -c cbi-before.gz > $w/cbi && chmod +x $w/cbi
for o in column:32 column:8 column:4; do
  timeout 120 ncu --clock-control none --csv --page details --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --kernel-name regex:matmul_remap --launch-skip 3 --launch-count 1 \
    $w/cbi bench --kernel matmul --size 1152x1536 --depth 600 --type half --block 192 --order $o --max-seconds 0.05 --format csv > $OUT/f3-${o/:/}.txt 2>&1
  echo "$o exit $?" >> $OUT/log.txt
done
