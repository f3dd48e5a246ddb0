#!/usr/bin/env bash
# 2026-11-29 (docs/results/tight/dram-pages.md): ncu's counters on each configuration of the
# dram_pages probe, launched once each in the order of its rows: the warp instructions it issues
# (so that its issue time is the model's: instructions / (SMs x issue_per_cycle)), the DRAM
# bytes read and written, the time and the SM cycles.
# usage: OUT=... bash dram_pages_ncu.sh DIR (DIR holds dram_pages.gz)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd); out=${OUT:?}; w=/tmp/dpn; mkdir -p $w
gunzip -c $src/dram_pages.gz > $w/dram_pages && chmod +x $w/dram_pages
M=smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
M=$M,sm__cycles_elapsed.max,smsp__issue_active.avg.per_cycle_active
timeout 400 ncu --clock-control none --csv --print-units base --metrics $M \
  --log-file $out/dram_pages-ncu.csv $w/dram_pages --ncu > $out/dram_pages-rows.csv 2> $out/ncu-log.txt
echo "ncu exit $? $(date -u +%T)" >> $out/ncu-log.txt
