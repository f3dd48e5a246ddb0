#!/usr/bin/env bash
# 2026-11-29 (docs/results/tight/y-set.md, issue 20 §3): a fresh tiled set on the device (SET: lines
# "kernel WxH depth", the two tiled kernels under 8 block orders, cbi bench --metrics: CUPTI after an
# L2 flush, the checked kernels), then predicted with main's model on the device's CPU cores
# (predict_tiled_all.sh, full device). The smem stencil is 9x9 in both.
# usage: OUT=... bash tiled_fresh_run.sh DIR SET DEVICE [STEPS]   (DIR holds cbi.gz and
#   predict_tiled_all.sh; STEPS: any of measure predict, default both)
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd); set=$(cd "$(dirname "${2:?SET}")" && pwd)/$(basename "$2")
device=${3:?DEVICE}; steps=${4:-measure predict}; out=${OUT:?}
w=/tmp/tiled; mkdir -p $w/meas $w/pred
gunzip -c $dir/cbi.gz > $w/cbi && chmod +x $w/cbi
log() { echo "$*" | tee -a $out/tiled-log.txt; }
pack() { tar -C $w -czf $out/tiled.tar.gz meas pred; }
log "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader) $(date -u)"
log "$($w/cbi --version | head -1)"
if [[ " $steps " == *" measure "* ]]; then
  while read -r kernel size depth; do
    a=(--kernel $kernel --size $size --block-order linear,column:4,column:8,column:16,column:64,tile:8x8,tile:1x8,zigzag:16
      --metrics --max-seconds 0.3 --format json)
    name=sgemm-$size-d$depth
    [ "$kernel" = stencil-smem ] && a+=(--stencil 9x9) && name=smem-$size
    [ "$depth" != 0 ] && a+=(--depth $depth)
    timeout 150 $w/cbi bench "${a[@]}" --output $w/meas/$name.json > $w/meas/$name.log 2>&1
    log "measure $name exit $? $(date -u +%T)"; pack
  done < $set
fi
if [[ " $steps " == *" predict "* ]]; then
  timeout ${PREDICT_SECONDS:-420} bash $dir/predict_tiled_all.sh $w/cbi $w/pred $device $(nproc) - $set \
    > $w/pred/log.txt 2>&1
  log "predict exit $? $(date -u +%T) ($(wc -l < $w/pred/after.rows 2>/dev/null) rows)"
fi
pack
