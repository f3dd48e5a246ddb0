#!/usr/bin/env bash
# 2026-11-28 (docs/results/tight/l2-bw.md §5): why the H100 runs the double 11x11 stencil (R11)
# 12% faster at column:32 than at column:128 with the same L1 hit rate within 2.5 points (the model
# predicts them alike), and whether the model's new counter lts__t_requests_srcunit_tex_op_read.sum
# counts as Nsight does: ncu on the first launch of stencil_remap / matmul_remap per order
# (cbi bench, its CPU-reference check skipped under ncu; the L2 not flushed before it).
# 2026-11-28, second stop (docs/results/tight/lrc-cap.md §5): SET q10 instead runs the fresh double
# stencils Q10 (3x3, predicted 22-41% fast) and Q9 (7x7), with DRAM's share of its peak beside.
# usage: OUT=... bash stall_run.sh DIR [SET] (DIR holds cbi; SET r11 (default) or q10). Results:
#        $OUT/stall.csv, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum
M=$M,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum
M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
M=$M,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_active
M=$M,lts__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_write.sum
echo "=== $(date -u +%H:%M:%S)"
one() { # label, then cbi bench arguments
  local label=$1; shift
  timeout 60 ncu --clock-control none --csv --print-units base --metrics $M -k regex:remap \
    --launch-count 1 --log-file /tmp/ncu-$label.csv "$dir/cbi" bench --no-check --min-samples 1 "$@" \
    > /tmp/ncu-$label.out 2>&1
  echo "$label: exit $?"; tail -3 /tmp/ncu-$label.out
  grep '^"' /tmp/ncu-$label.csv | sed "s/^/\"$label\",/" >> $out/stall.csv
}
if [ "${2:-r11}" = q10 ]; then
  for o in linear column:8 column:64 tile:16; do
    one "Q10-$o" --kernel stencil --size 2560x5120 --stencil 3x3 --type double --block 896 --order $o
  done
  for o in linear column:16; do
    one "Q9-$o" --kernel stencil --size 5888x1664 --stencil 7x7 --type double --block 288 --order $o
  done
else
  for o in column:32 column:64 column:128 linear; do
    one "R11-$o" --kernel stencil --size 2944x3712 --stencil 11x11 --type double --block 256 --order $o
  done
  for o in linear column:128 column:512; do
    one "R1-$o" --kernel matmul --size 1728x1152 --depth 704 --type float --block 256 --order $o
  done
fi
echo "=== done $(date -u +%H:%M:%S)"
