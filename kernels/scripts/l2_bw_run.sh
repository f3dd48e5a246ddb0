#!/usr/bin/env bash
# The L2->L1 bandwidth probe (kernels/probes/l2_bw.cu, docs/results/tight/l2-bw.md): its table of
# sector bytes a cycle an SM by request shape, warps an SM and SMs at once; then its full-device
# shapes under ncu (L1 sectors and hits, the L2's sectors from the L1s and their hits, cycles), so
# that the probe's loads are known to miss the L1 and hit the L2.
# usage: OUT=... bash l2_bw_run.sh DIR   (DIR holds l2_bw). Results: $OUT/l2bw.csv,
#        $OUT/l2bw-ncu.csv, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
echo "=== device ($(date -u +%H:%M:%S))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
echo "=== l2_bw ($(date -u +%H:%M:%S))"
timeout 200 $dir/l2_bw > $out/l2bw.csv; rc=$?; echo "exit $rc"
cat $out/l2bw.csv
echo "=== ncu ($(date -u +%H:%M:%S))"
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,l1tex__m_xbar2l1tex_read_sectors.sum
M=$M,sm__cycles_elapsed.avg,gpu__time_duration.sum,dram__bytes_read.sum
timeout 200 ncu --clock-control none --csv --print-units base --metrics $M --log-file $out/l2bw-ncu.csv \
  $dir/l2_bw --ncu > $out/l2bw-ncu-probe.csv; echo "ncu exit $?"
echo "=== done ($(date -u +%H:%M:%S))"
exit $rc
