#!/usr/bin/env bash
# Issue 20 §4, the one device call on the H200: what the h200 device row assumed (SMs, L2, clock,
# copy bandwidth, L1 capacity and latencies), the §1 probes, the tiled kernels at 8192 under the 8
# block orders (CUPTI and ncu), and a validation subset of the held-out naive set
# (tight_heldout.sh groups M2 M3 M5 S1 S3 S5).
#
# usage: bash tight_h200_run.sh DIR   (DIR holds bin/ and tight_heldout.sh; results in $OUT)
set -uo pipefail
dir=${1:?DIR}
bin=$dir/bin
out=${OUT:?}
w=/tmp/h200; rm -rf $w; mkdir -p $w/probes $w/tiled
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
exec > >(tee $out/log.txt) 2>&1

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
python3 -c "import torch; p=torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, 'SMs, L2', p.L2_cache_size, 'bytes')"
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,\
l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,\
lts__t_sector_hit_rate.pct,dram__bytes_read.sum
NCU="ncu --cache-control all --clock-control none --print-units base --csv"

step "probes: L1 capacity and latencies (l1_chase), CTA placement, MSHR, L1 under many warps"
timeout 60 $bin/l1_chase > $w/probes/chase-default.csv; echo "l1_chase exit $?"
timeout 60 $bin/cta_sm $w/probes; echo "cta_sm exit $?"
for p in mshr_merge l1_warps; do
  timeout 90 $NCU --metrics $M --log-file $w/probes/ncu-$p.csv $bin/$p > $w/probes/$p.txt
  echo "$p exit $?"
done
tar -C $w -czf $out/probes.tar.gz probes

orders=linear,column:4,column:8,column:16,column:64,tile:8x8,tile:1x8,zigzag:16
step "tiled at 8192: CUPTI, then ncu"
timeout 120 $bin/cbi bench --kernel sgemm-tiled --size 8192 --block-order $orders --metrics \
  --max-seconds 0.5 --format json --output $w/tiled/sgemm-8192d0.json; echo "sgemm exit $?"
timeout 60 $bin/cbi bench --kernel stencil-smem --size 8192 --stencil 9x9 --block-order $orders \
  --metrics --max-seconds 0.5 --format json --output $w/tiled/smem-8192.json; echo "smem exit $?"
timeout 120 $NCU --metrics $M -k regex:^sgemm_tiled --log-file $w/tiled/ncu-sgemm-8192d0.csv \
  $bin/cbi bench --kernel sgemm-tiled --size 8192 --block-order $orders --no-time --format csv \
  > /dev/null 2>&1; echo "ncu sgemm exit $?"
timeout 60 $NCU --metrics $M -k regex:^stencil_smem --log-file $w/tiled/ncu-smem-8192.csv \
  $bin/cbi bench --kernel stencil-smem --size 8192 --stencil 9x9 --block-order $orders --no-time \
  --format csv > /dev/null 2>&1; echo "ncu smem exit $?"
tar -C $w -czf $out/tiled.tar.gz tiled

step "held-out naive subset"
OUT=$w bash $dir/tight_heldout.sh $dir 'M2|M3|M5|S1|S3|S5'
cp $w/heldout.tar.gz $out/heldout.tar.gz
step "done"
