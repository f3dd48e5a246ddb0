#!/usr/bin/env bash
# 2026-11-29 (docs/results/tight/dram-pages.md §5): the dram_pages probe's copies of every tile
# shape with each row padded by 0, 32 and 96 elements: does the orders' pattern cost come from the
# power-of-two row pitch?
# usage: OUT=... bash dram_pages_pads.sh DIR (DIR holds dram_pages.gz)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd); out=${OUT:?}; w=/tmp/dpp; mkdir -p $w
gunzip -c $src/dram_pages.gz > $w/dram_pages && chmod +x $w/dram_pages
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $out/pads-log.txt
timeout 200 $w/dram_pages --pads > $out/dram_pages-pads.csv 2>> $out/pads-log.txt
echo "exit $? $(date -u)" >> $out/pads-log.txt
