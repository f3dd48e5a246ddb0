#!/usr/bin/env bash
# 2026-11-29 (docs/results/tight/dram-pages.md): the DRAM order and issue probe (dram_pages); the
# double 3x3 stencil of Y9 under the same orders with the remap's divisions (div) and without
# (fast), which changes its instructions and not its pattern; then the fresh DRAM-bound naive
# stencil groups D1-D6 (h200_d_groups.sh) measured with CUPTI counters after an L2 flush
# (fix_run.sh's measure step).
# usage: OUT=... bash dram_pages_run.sh DIR (DIR holds cbi.gz, dram_pages.gz, fix_run.sh,
# h200_d_groups.sh)
set -uo pipefail
src=$(cd "${1:?DIR}" && pwd); out=${OUT:?}; w=/tmp/dp; mkdir -p $w
for b in cbi dram_pages; do gunzip -c $src/$b.gz > $w/$b && chmod +x $w/$b; done
cp $src/fix_run.sh $src/h200_d_groups.sh $w/
log() { echo "$*" >> $out/probe-log.txt; }
log "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader) $(date -u)"
log "$($w/cbi --version | head -1)"
timeout 200 $w/dram_pages > $out/dram_pages.csv 2>> $out/probe-log.txt
log "dram_pages exit $? $(date -u +%T)"
timeout 120 $w/cbi bench --kernel stencil --stencil 3x3 --type double --size 5760x1600 --block 192 \
  --order linear,column:32,column:256,column:1024,tile:16 --remap-math div,fast --max-seconds 0.3 \
  --format csv --output $out/y9-remap-math.csv 2>> $out/probe-log.txt
log "y9 remap-math exit $? $(date -u +%T)"
GROUPS_FILE=h200_d_groups.sh DEADLINE=330 bash $w/fix_run.sh $w measure . > /dev/null 2>&1
log "fix_run exit $? $(date -u +%T)"
