#!/usr/bin/env bash
# 2026-11-29 call 3: the SGEMM as one kernel for every block order (new) against main's kernel
# template per order (old), checked and timed by cbi bench with CUPTI counters; the kernel tests;
# then cbi tune (main) on the Y groups the second call did not reach.
set -uo pipefail
d=$(cd "$(dirname "$0")" && pwd); out=${OUT:?}; w=/tmp/c3; mkdir -p $w
for b in cbi cbi-new; do gunzip -c $d/$b.gz > $w/$b && chmod +x $w/$b; done
gunzip -c $d/test_kernels_gpu.gz > $w/test_kernels_gpu && chmod +x $w/test_kernels_gpu
log() { echo "$*" | tee -a $out/c3-log.txt; }
log "$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader) $(date -u)"
orders=linear,column:4,column:8,column:16,column:64,tile:8x8,tile:1x8,zigzag:16
for rep in 1 2; do
  for size in "3584x2560 --depth 5120" "6144"; do
    for b in cbi cbi-new; do
      name=$b-$(echo $size | cut -d' ' -f1)-r$rep
      timeout 120 $w/$b bench --kernel sgemm-tiled --size $size --block-order $orders --metrics \
        --max-seconds 0.3 --format json --output $w/$name.json > $w/$name.log 2>&1
      log "$name exit $? $(date -u +%T)"
    done
  done
  tar -C $w -czf $out/c3.tar.gz --exclude=cbi --exclude=cbi-new --exclude=test_kernels_gpu .
done
timeout 150 $w/test_kernels_gpu > $w/test_kernels_gpu.log 2>&1; log "test_kernels_gpu exit $?"
tail -3 $w/test_kernels_gpu.log | tee -a $out/c3-log.txt
tar -C $w -czf $out/c3.tar.gz --exclude=cbi --exclude=cbi-new --exclude=test_kernels_gpu .
cd $d && OUT=$out GROUPS_FILE=h200_y_groups.sh bash l_run.sh . "tune" "Y8|Y9|Y10|Y11" 150
