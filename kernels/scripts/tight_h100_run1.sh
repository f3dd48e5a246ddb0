#!/usr/bin/env bash
# Issue 20, device call 1 on the H100: the §1 probes (MSHR merging, L1 allocation under many warps,
# 8-byte elements, warp drift, CTA dispatch at blocks 512/768/1024), then the tiled kernels
# (sgemm-tiled, stencil-smem) under 8 block orders at 2048, 4096, 8192 and a non-square size, DRAM
# bytes both from `cbi bench --metrics` (CUPTI range profiler) and from ncu.
#
# usage: bash tight_h100_run1.sh DIR   (DIR holds bin/cbi and the probe binaries; results go to
# $OUT as log.txt plus tar.gz files)
set -uo pipefail
dir=${1:?DIR}
bin=$dir/bin
out=${OUT:?}
w=/tmp/tight; rm -rf $w; mkdir -p $w/probes $w/tiled
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
exec > >(tee $out/log.txt) 2>&1

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
ncu --version | tail -1
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,\
l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,\
lts__t_sector_hit_rate.pct,dram__bytes_read.sum
NCU="ncu --cache-control all --clock-control none --print-units base --csv"

step "probes: MSHR merging, L1 under many warps, 8-byte elements (ncu, cold caches per launch)"
for p in mshr_merge l1_warps elem8; do
  timeout 120 $NCU --metrics $M --log-file $w/probes/ncu-$p.csv $bin/$p > $w/probes/$p.txt
  echo "$p exit $?"; cat $w/probes/$p.txt | head -40
done
timeout 60 $NCU --metrics l1tex__data_pipe_lsu_wavefronts_mem_lg.sum --log-file $w/probes/ncu-elem8-wavefronts.csv \
  $bin/elem8 > /dev/null; echo "elem8 wavefronts exit $?"

step "probes: CTA dispatch order at blocks 512, 768, 1024; warp drift in matmul double"
timeout 60 $bin/cta_sm $w/probes matmul:1024:512 matmul:1024:768 matmul:1024:1024 \
  stencil:4096:512 stencil:4096:768 stencil:4096:1024; echo "cta_sm exit $?"
timeout 60 $bin/warp_drift $w/probes 1024 512 64 1024 512 0 1024 1024 128 1024 256 32; echo "warp_drift exit $?"
tar -C $w -czf $out/probes.tar.gz probes

orders=linear,column:4,column:8,column:16,column:64,tile:8x8,tile:1x8,zigzag:16
step "sgemm-tiled, 8 block orders, CUPTI counters"
for s in 2048 4096 8192 6144x4096:3072; do
  size=${s%%:*}; depth=${s#*:}; [ "$depth" = "$s" ] && depth=0; tag=${size}d${depth}
  timeout 150 $bin/cbi bench --kernel sgemm-tiled --size $size --depth $depth --block-order $orders \
    --metrics --max-seconds 0.5 --format json --output $w/tiled/sgemm-$tag.json
  echo "sgemm $tag exit $?"
done
step "stencil-smem 9x9 float, 8 block orders, CUPTI counters"
for size in 2048 4096 8192 12000x4000; do
  timeout 100 $bin/cbi bench --kernel stencil-smem --size $size --stencil 9x9 --block-order $orders \
    --metrics --max-seconds 0.5 --format json --output $w/tiled/smem-$size.json
  echo "smem $size exit $?"
done
tar -C $w -czf $out/tiled.tar.gz tiled

step "ncu on the same configurations (the checked launch, cold caches, clocks left alone)"
for s in 2048 4096 8192 6144x4096:3072; do
  size=${s%%:*}; depth=${s#*:}; [ "$depth" = "$s" ] && depth=0; tag=${size}d${depth}
  timeout 150 $NCU --metrics $M -k regex:^sgemm_tiled --log-file $w/tiled/ncu-sgemm-$tag.csv \
    $bin/cbi bench --kernel sgemm-tiled --size $size --depth $depth --block-order $orders --no-time \
    --format csv > $w/tiled/ncu-sgemm-$tag.bench.csv 2> $w/tiled/ncu-sgemm-$tag.log
  echo "ncu sgemm $tag exit $?"
done
for size in 2048 4096 8192 12000x4000; do
  timeout 80 $NCU --metrics $M -k regex:^stencil_smem --log-file $w/tiled/ncu-smem-$size.csv \
    $bin/cbi bench --kernel stencil-smem --size $size --stencil 9x9 --block-order $orders --no-time \
    --format csv > $w/tiled/ncu-smem-$size.bench.csv 2> $w/tiled/ncu-smem-$size.log
  echo "ncu smem $size exit $?"
done
tar -C $w -czf $out/tiled.tar.gz tiled

step "repeat: CUPTI at 8192 and the non-square size (run-to-run spread)"
for s in 8192 6144x4096:3072; do
  size=${s%%:*}; depth=${s#*:}; [ "$depth" = "$s" ] && depth=0; tag=${size}d${depth}
  timeout 100 $bin/cbi bench --kernel sgemm-tiled --size $size --depth $depth --block-order $orders \
    --metrics --no-check --no-time --format json --output $w/tiled/sgemm-$tag-rep2.json
  echo "sgemm rep2 $tag exit $?"
done
timeout 100 $NCU --metrics $M -k regex:^sgemm_tiled --log-file $w/tiled/ncu-sgemm-8192d0-rep2.csv \
  $bin/cbi bench --kernel sgemm-tiled --size 8192 --block-order $orders --no-time --format csv > /dev/null 2>&1
echo "ncu rep2 exit $?"
tar -C $w -czf $out/tiled.tar.gz tiled
step "done"
