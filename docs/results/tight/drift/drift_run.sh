#!/usr/bin/env bash
# 2026-11-29 (issue 20 §3): the tiled SGEMM's CTAs in time (sgemm_steps) and a fresh H200 SGEMM set
# (set.txt, 8 block orders, cbi bench --metrics), predicted with main's model ("before").
# usage: OUT=... bash drift_run.sh DIR STEPS   (STEPS: any of probe measure before after)
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd); steps=${2:-probe measure before}; out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
w=/tmp/drift; mkdir -p $w/steps $w/meas $w/pred
for b in cbi cbi-after; do [ -f $dir/$b.gz ] && gunzip -c $dir/$b.gz > $w/$b && chmod +x $w/$b; done
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
date -u
pack() { tar -C $w -czf $out/drift.tar.gz steps meas pred; }
if [[ " $steps " == *" probe "* ]]; then
  timeout 200 $dir/sgemm_steps $w/steps 8192 8192 8192 linear 8192 8192 8192 column:64 \
    8192 8192 8192 column:16 8192 8192 8192 column:8 4096 4096 4096 linear \
    1408 1536 32768 linear 1408 3072 32768 linear 1408 4608 32768 linear
  echo "probe exit $? $(date -u +%T)"; pack
  timeout 60 $w/cbi bench --kernel sgemm-tiled --size 2048 --max-seconds 0.05 --format json \
    --output $w/meas/resources-2048.json > /dev/null; echo "resources exit $?"
fi
if [[ " $steps " == *" measure "* ]]; then
  while read -r kernel size depth; do
    a=(--kernel $kernel --size $size --block-order linear,column:4,column:8,column:16,column:64,tile:8x8,tile:1x8,zigzag:16 --metrics --max-seconds 0.3 --format json)
    [ "$depth" != 0 ] && a+=(--depth $depth)
    timeout 150 $w/cbi bench "${a[@]}" --output $w/meas/sgemm-$size-d$depth.json > $w/meas/sgemm-$size-d$depth.log 2>&1
    echo "measure $size d$depth exit $? $(date -u +%T)"; pack
  done < $dir/set.txt
fi
for s in before after; do
  [[ " $steps " == *" $s "* ]] || continue
  bin=$w/cbi; [ $s = after ] && bin=$w/cbi-after
  mkdir -p $w/pred/$s
  { timeout 450 bash $dir/predict_tiled_all.sh $bin $w/pred/$s h200 16 - $dir/set.txt > $w/pred/$s/log.txt 2>&1
    echo "predict $s exit $? $(date -u +%T)"; } &
  if [ $s = after ]; then
    mkdir -p $w/pred/h100-after
    timeout 450 bash $dir/predict_tiled_all.sh $bin $w/pred/h100-after h100 8 - $dir/set-h100.txt > $w/pred/h100-after/log.txt 2>&1
    echo "predict h100 after exit $? $(date -u +%T)"
  fi
  wait %1 2>/dev/null; pack # (a bare `wait` also waits for the tee of `exec >(...)`: it hung call 3)
done
pack
