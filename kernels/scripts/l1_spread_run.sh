#!/usr/bin/env bash
# 2026-11-29, third stop (docs/results/tight/l1-issue.md §7): the l1_spread probe on the device.
# usage: OUT=... bash l1_spread_run.sh   (in a folder holding l1_spread.gz)
set -uo pipefail
w=/tmp/sp; mkdir -p $w; gunzip -c l1_spread.gz > $w/l1_spread && chmod +x $w/l1_spread
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/probe-log.txt
timeout 120 $w/l1_spread > $OUT/l1_spread.csv 2>> $OUT/probe-log.txt; echo "exit $? $(date -u +%T)" >> $OUT/probe-log.txt
