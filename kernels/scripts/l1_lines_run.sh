#!/usr/bin/env bash
# The L1 throughput probe (kernels/probes/l1_lines.cu, docs/results/tight/h100-fresh.md §3): its
# table of cycles a request by lines and sectors, then the same launches under ncu (the L1 request,
# sector and hit counts, and the data stage's wavefronts where this ncu has the metric).
# usage: OUT=... bash l1_lines_run.sh DIR   (DIR holds l1_lines). Results: $OUT/lines.csv,
#        $OUT/lines-ncu.csv, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
echo "=== device ($(date -u +%H:%M:%S))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
echo "=== l1_lines ($(date -u +%H:%M:%S))"
command -v cuobjdump >/dev/null && cuobjdump -sass $dir/l1_lines | grep -c LDG
timeout 120 $dir/l1_lines > $out/lines.csv; echo "exit $?"
cat $out/lines.csv
echo "=== ncu ($(date -u +%H:%M:%S))"
ncu --query-metrics --chip gh100 2>/dev/null | grep -E "^l1tex__data_pipe_lsu_wavefronts|^l1tex__t_requests|^l1tex__data_bank" | head -20
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__data_pipe_lsu_wavefronts.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_lg.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_ld.sum
M=$M,sm__cycles_elapsed.avg,smsp__inst_executed.sum
timeout 300 ncu --clock-control none --csv --print-units base --metrics $M --log-file $out/lines-ncu.csv \
  $dir/l1_lines > /dev/null; echo "ncu exit $?"
echo "=== done ($(date -u +%H:%M:%S))"
