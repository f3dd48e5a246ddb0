#!/usr/bin/env bash
# Issue 20 §2, the held-out set's L1->L2 miss: the H100 reads fewer L2 sectors for the tex unit
# (lts__t_sectors_srcunit_tex_op_read.sum) than the L1 counts load-sector misses (..._lookup_miss),
# down to 0.38 of them in double matmul, where the GPU model reads one per miss. Where do the other
# misses go? Per configuration: the L1's misses, the sectors the crossbar returned to the L1, the L2's
# tex reads and requests, and the L2 sectors that came over the fabric between its two partitions.
#
# usage: bash tight_l2src.sh DIR [lrc]   (DIR holds bin/cbi; ncu's CSVs packed into
# $OUT/l2src.tar.gz, the kernels' rows in $OUT/l2src.csv). With `lrc`: the L2 request coalescer's
# counters (lrc__*: read sectors in and out, and those it coalesced) beside the L1 misses and the
# L2's tex reads, on the same configurations.
set -uo pipefail
cbi=${1:?DIR}/bin/cbi
out=${OUT:?}
w=/tmp/l2src; rm -rf $w; mkdir -p $w
want="l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum
l1tex__m_xbar2l1tex_read_sectors.sum l1tex__m_l1tex2xbar_req.sum lts__t_sectors_srcunit_tex_op_read.sum
lts__t_requests_srcunit_tex_op_read.sum lts__t_sectors_srcunit_ltcfabric.sum lts__t_sectors_srcunit_tex.sum
lts__t_sectors_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
[ "${2:-}" = lrc ] && want="l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
lts__t_sectors_srcunit_tex_op_read.sum lrc__request_sectors_op_read_coalescable.sum
lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum lrc__lts2lrc_sectors_op_read.sum
lrc__xbar2gpc_sectors_op_read.sum lrc__lrc2xbar_sectors_op_read.sum
lrc__xbar2gpc_sectors_op_read_coalescing_achieved_type_hardware.sum"
ncu --query-metrics --chip gh100 > $w/query.txt 2>&1
M=""
for m in $want; do
  base=${m%.sum}
  if grep -qw -- "$base" $w/query.txt; then M="$M,$m"; else echo "not on this ncu: $m"; fi
done
M=${M#,}
# A query this ncu answers differently: the counters the held-out set was measured with.
[ -z "$M" ] && { head -20 $w/query.txt; M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum; }
echo "metrics: $M"
# group | args (the held-out groups' configurations, tight_heldout.sh)
runs=(
  "M3|--kernel matmul --size 896x1408 --depth 768 --type double --block 512 --order linear"
  "M3|--kernel matmul --size 896x1408 --depth 768 --type double --block 512 --order column:4"
  "M3|--kernel matmul --size 896x1408 --depth 768 --type double --block 512 --order column:32"
  "M3|--kernel matmul --size 896x1408 --depth 768 --type double --block 512 --order column:64"
  "M3|--kernel matmul --size 896x1408 --depth 768 --type double --block 512 --order zigzag:64"
  "M2|--kernel matmul --size 1792x1152 --depth 2048 --type float --block 384 --order column:32"
  "M2|--kernel matmul --size 1792x1152 --depth 2048 --type float --block 384 --order column:4"
  "S1|--kernel stencil --size 5120x2880 --stencil 3x3 --type float --block 64 --order column:64"
  "S1|--kernel stencil --size 5120x2880 --stencil 3x3 --type float --block 64 --order linear"
  "S4|--kernel stencil --size 2304x4608 --stencil 11x11 --type float --block 1024 --order linear"
)
i=0
for r in "${runs[@]}"; do
  IFS='|' read -r name args <<<"$r"
  order=${args##*--order }
  i=$((i + 1))
  echo "=== $name $order ($(date -u +%H:%M:%S))"
  # shellcheck disable=SC2086
  timeout 60 ncu --clock-control none --cache-control all --metrics $M --csv --print-units base \
    $cbi bench $args --no-time > $w/run-$i.csv 2> $w/run-$i.log
  echo "exit $?"
  grep -E "matmul_remap|stencil_remap" $w/run-$i.csv | sed "s/^/$name,$order,/" >> $out/l2src.csv
done
tar -C $w -czf $out/l2src.tar.gz .
