#!/usr/bin/env bash
# 2026-11-29 call 4 (docs/results/tight/y-set.md §6): the one SGEMM kernel measured at four fresh
# sizes whose last wave is partial (cbi bench --metrics, 8 block orders, checked), then predicted
# with the model after the change (cbi: the solo CTA's faster issue) and before it (cbi-before:
# main's model), full device, on the device's CPU cores.
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd); out=${OUT:?}; w=/tmp/c4; mkdir -p $w/meas $w/pred
for b in cbi cbi-before; do gunzip -c $d/$b.gz > $w/$b && chmod +x $w/$b; done
log() { echo "$*" | tee -a $out/c4-log.txt; }
pack() { tar -C $w -czf $out/c4.tar.gz meas pred; }
log "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader) $(date -u)"
log "$($w/cbi --version | head -1); before: $($w/cbi-before --version | head -1)"
while read -r kernel size depth; do
  a=(--kernel $kernel --size $size --block-order linear,column:4,column:8,column:16,column:64,tile:8x8,tile:1x8,zigzag:16
    --metrics --max-seconds 0.3 --format json)
  [ "$depth" != 0 ] && a+=(--depth $depth)
  timeout 100 $w/cbi bench "${a[@]}" --output $w/meas/sgemm-$size-d$depth.json > $w/meas/sgemm-$size-d$depth.log 2>&1
  log "measure $size d$depth exit $? $(date -u +%T)"; pack
done < $d/set.txt
timeout 300 bash $d/predict_tiled_all.sh $w/cbi $w/pred h200 $(nproc) $w/cbi-before $d/set.txt > $w/pred/log.txt 2>&1
log "predict exit $? $(date -u +%T) ($(cat $w/pred/after.rows | wc -l) after, $(cat $w/pred/before.rows | wc -l) before)"
pack
# The two sizes of call 3 (measured there with the one kernel), predicted with both models too.
mkdir -p $w/pred2
timeout 200 bash $d/predict_tiled_all.sh $w/cbi $w/pred2 h200 $(nproc) $w/cbi-before $d/set2.txt > $w/pred2/log.txt 2>&1
log "predict2 exit $? $(date -u +%T) ($(cat $w/pred2/after.rows | wc -l) after, $(cat $w/pred2/before.rows | wc -l) before)"
tar -C $w -czf $out/c4.tar.gz meas pred pred2
