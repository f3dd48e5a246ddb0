#!/usr/bin/env bash
# 2026-11-29 call 7 (docs/results/tight/y-set.md §8): the smem stencil as one kernel a type for
# every block order (new) against a kernel per order (old, main's), 8 block orders, checked and
# timed with CUPTI counters, alternating; the kernel tests.
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd); out=${OUT:?}; w=/tmp/c7; mkdir -p $w
for b in cbi-old cbi-new test_kernels_gpu; do gunzip -c $d/$b.gz > $w/$b && chmod +x $w/$b; done
log() { echo "$*" | tee -a $out/c7-log.txt; }
log "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader) $(date -u)"
o=linear,column:4,column:8,column:16,column:64,tile:8x8,tile:1x8,zigzag:16
for rep in 1 2; do
  for cfg in "5120 float" "10240x3072 float" "4096 half" "4096 double"; do
    set -- $cfg
    for b in cbi-old cbi-new; do
      n=$b-$1-$2-r$rep
      timeout 60 $w/$b bench --kernel stencil-smem --stencil 9x9 --size $1 --type $2 --block-order $o \
        --metrics --max-seconds 0.2 --format json --output $w/$n.json > $w/$n.log 2>&1
      log "$n exit $? $(date -u +%T)"
    done
  done
  tar -C $w -czf $out/c7.tar.gz --exclude=cbi-old --exclude=cbi-new --exclude=test_kernels_gpu .
done
timeout 120 $w/test_kernels_gpu > $w/test_kernels_gpu.log 2>&1; log "test_kernels_gpu exit $?"
tail -3 $w/test_kernels_gpu.log | tee -a $out/c7-log.txt
tar -C $w -czf $out/c7.tar.gz --exclude=cbi-old --exclude=cbi-new --exclude=test_kernels_gpu .
