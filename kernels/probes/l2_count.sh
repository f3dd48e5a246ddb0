#!/usr/bin/env bash
# Issue 20 §3, the L2 hit rate's counting rule: which sectors lts__t_sector_hit_rate.pct counts for
# the tiled kernels (and two naive ones), split by source unit (the SMs' tex unit; the fabric
# between the L2's two partitions) and by operation (read, write), with each part's tag hits and
# misses, beside DRAM reads and writes. Accel-Sim found that NVIDIA counts a write-allocating store
# as an L2 hit; the smem stencil writes as many sectors as it reads, to an output the L2 never held.
# The L2 request coalescer's counters (lrc__*) beside them: the model merges the smem stencil's
# concurrent halo reads, the H100's L2 tex reads equal its L1 misses there (tiled.md).
# Also the occupancy ncu reports for the two tiled kernels (its Occupancy and LaunchStats sections):
# what limits the CTAs resident on an SM.
#
# usage: bash l2_count.sh CBI   (CBI: the cbi binary; ncu's CSVs packed into $OUT/l2count.tar.gz)
# ncu --cache-control all --clock-control none, one profiled launch per configuration.
set -uo pipefail
cbi=${1:?CBI}
out=${OUT:?}
w=/tmp/l2count; rm -rf $w; mkdir -p $w
want="lts__t_sectors.sum lts__t_sectors_lookup_hit.sum lts__t_sectors_lookup_miss.sum
lts__t_sectors_srcunit_tex.sum lts__t_sectors_srcunit_tex_lookup_hit.sum
lts__t_sectors_srcunit_tex_lookup_miss.sum lts__t_sectors_srcunit_tex_op_read.sum
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
lts__t_sectors_srcunit_tex_op_write.sum lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum
lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum lts__t_sectors_srcunit_ltcfabric.sum
lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum
lts__t_sectors_op_write.sum lts__t_sectors_op_write_lookup_hit.sum lts__t_sectors_op_write_lookup_miss.sum
lts__t_sectors_op_read.sum lts__t_sectors_op_read_lookup_hit.sum lts__t_sectors_op_read_lookup_miss.sum
lts__t_sector_hit_rate.pct dram__bytes_read.sum dram__bytes_write.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum gpu__time_duration.sum
lrc__request_sectors_op_read_coalescable.sum lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
lrc__lts2lrc_sectors_op_read.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum"
ncu --query-metrics --chip gh100 > $w/query.txt 2>&1
M=""
for m in $want; do
  base=${m%.*}
  if grep -qw -- "$base" $w/query.txt; then M="$M,$m"; else echo "not on this ncu: $m"; fi
done
M=${M#,}
echo "metrics: $M"
NCU="ncu --clock-control none --cache-control all --csv --print-units base"
runs=(
  "smem-2048|stencil_smem|--kernel stencil-smem --size 2048 --stencil 9x9 --block-order linear,column:8"
  "smem-8192|stencil_smem|--kernel stencil-smem --size 8192 --stencil 9x9 --block-order linear,column:64"
  "sgemm-2048|sgemm_tiled|--kernel sgemm-tiled --size 2048 --block-order linear,column:8,tile:8x8"
  "sgemm-6144x4096|sgemm_tiled|--kernel sgemm-tiled --size 6144x4096 --depth 3072 --block-order column:16,column:64"
  "sgemm-8192|sgemm_tiled|--kernel sgemm-tiled --size 8192 --block-order linear,column:64"
  "stencil-4096|stencil_remap|--kernel stencil --size 4096 --stencil 9x9 --type float --block 256 --order linear,column:4"
  "matmul-1024|matmul_remap|--kernel matmul --size 1024 --type float --block 256 --order linear"
)
for r in "${runs[@]}"; do
  IFS='|' read -r name kernel args <<<"$r"
  echo "=== $name ($(date -u +%H:%M:%S)): cbi bench $args"
  # shellcheck disable=SC2086
  timeout 90 $NCU --metrics $M -k regex:^$kernel --log-file $w/ncu-$name.csv \
    $cbi bench $args --no-time --format csv > $w/bench-$name.csv 2> $w/bench-$name.log
  echo "exit $?"
done
for k in "sgemm-tiled --size 2048 --block-order linear|sgemm_tiled" \
  "stencil-smem --size 2048 --stencil 9x9 --block-order linear|stencil_smem"; do
  IFS='|' read -r args kernel <<<"$k"
  name=occupancy-${args%% *}
  echo "=== $name ($(date -u +%H:%M:%S))"
  # shellcheck disable=SC2086
  timeout 60 $NCU --section Occupancy --section LaunchStats -k regex:^$kernel \
    --log-file $w/ncu-$name.csv $cbi bench --kernel $args --no-time --format csv > /dev/null 2>&1
  echo "exit $?"
done
tar -C $w -czf $out/l2count.tar.gz .
