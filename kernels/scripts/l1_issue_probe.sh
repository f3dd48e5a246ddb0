#!/usr/bin/env bash
# 2026-11-29, third stop (docs/results/tight/l1-issue.md §1-§2): the l1_issue probe (event-timed),
# ncu on each of its rows (instructions, requests, wavefronts, stalls), and ncu on cbi bench's naive
# matmul in three groups at column:32 and column:16 (T2, X2, T1 of dram-rw.md).
# usage: OUT=... bash l1_issue_probe.sh   (in a folder holding l1_issue.gz and cbi.gz)
set -uo pipefail
w=/tmp/l1i; mkdir -p $w; gunzip -c l1_issue.gz > $w/l1_issue && chmod +x $w/l1_issue; gunzip -c cbi.gz > $w/cbi && chmod +x $w/cbi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/probe-log.txt
timeout 150 $w/l1_issue > $OUT/l1_issue.csv 2>> $OUT/probe-log.txt; echo "exit $?" >> $OUT/probe-log.txt
M=smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg.sum
M=$M,l1tex__t_sector_hit_rate.pct,sm__cycles_elapsed.max,smsp__issue_active.avg.per_cycle_active,gpu__time_duration.sum
M=$M,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__warps_active.avg.per_cycle_active
timeout 200 ncu --clock-control none --csv --print-units base --metrics $M --log-file $OUT/l1_issue-ncu.csv $w/l1_issue --ncu > /dev/null 2>> $OUT/probe-log.txt
echo "ncu exit $? $(date -u +%T)" >> $OUT/probe-log.txt
for c in "1344x960 832 half 128" "704x1920 736 half 576" "1600x1216 480 float 256"; do
  set -- $c
  for o in column:32 column:16; do
    timeout 60 ncu --clock-control none --csv --print-units base --metrics $M --kernel-name regex:matmul_remap --launch-skip 3 --launch-count 1 \
      $w/cbi bench --kernel matmul --size $1 --depth $2 --type $3 --block $4 --order $o --max-seconds 0.05 --format csv > $OUT/mm-$1-$3-${o/:/}.txt 2>&1
  done
done
cd $OUT && tar czf mm-ncu.tar.gz mm-*.txt && rm mm-*.txt
echo "mm ncu done $(date -u +%T)" >> $OUT/probe-log.txt
