#!/usr/bin/env bash
# 2026-11-28, sixth stop (docs/results/tight/miss-cost.md): the L1 fill probe under ncu.
# usage: OUT=... bash fill_run.sh DIR (DIR holds l1_fill)
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
echo "=== $(date -u +%H:%M:%S)"
cuobjdump -sass $dir/l1_fill | grep -E "Function|LDG|SHFL|BRA" > $out/l1_fill.sass.txt 2>&1
M=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__data_bank_reads.sum
M=$M,l1tex__data_bank_writes.sum,l1tex__lsu_writeback_active.sum,sm__cycles_elapsed.avg,l1tex__f_wavefronts.sum
M=$M,l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum
ncu --clock-control none --csv --print-units base --metrics $M -k regex:fill \
  --log-file $out/fill-ncu.csv $dir/l1_fill > $out/fill.csv 2> $out/fill-err.txt
echo "ncu exit $?"; tail -3 $out/fill-err.txt; cat $out/fill.csv
$dir/l1_fill > /dev/null && echo "plain run exit $?"
echo "=== done $(date -u +%H:%M:%S)"
