#!/usr/bin/env bash
# 2026-11-28 (docs/results/tight/dram-rw.md §3): which unit holds the two families of time misses,
# by ncu's breakdown of the L2's, the L1's and DRAM's throughput into their sub-units, with the
# warps' stall reasons: the narrow naive stencils that the model predicts 20-40% fast (double 3x3,
# float 3x3: DRAM at 37-62% of its peak) and the float matmul's column orders that it predicts
# 25-37% slow (Q1, Q4), beside the 1:1 copy of kernels/probes/dram_rw for reference.
# usage: OUT=... bash breakdown_run.sh DIR   (DIR holds cbi and dram_rw). Results:
#        $OUT/breakdown.csv, $OUT/log.txt.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
echo "=== device ($(date -u +%H:%M:%S))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
M=breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,breakdown:l1tex__throughput.avg.pct_of_peak_sustained_active
M=$M,breakdown:dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,gpu__time_duration.sum,sm__cycles_elapsed.avg,smsp__inst_executed.sum
M=$M,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
M=$M,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
M=$M,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_lg.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
for s in long_scoreboard lg_throttle mio_throttle short_scoreboard tex_throttle math_pipe_throttle \
         wait not_selected selected barrier no_instruction dispatch_stall drain; do
  M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
one() { # label, then the program and its arguments
  local label=$1; shift
  timeout 90 ncu --clock-control none --csv --print-units base --metrics $M "$@" > /tmp/ncu.out 2>&1
  echo "$label: exit $?"; grep -v '^"' /tmp/ncu.out | tail -2
  grep '^"' /tmp/ncu.out | grep -v '"ID"' | sed "s/^/\"$label\",/" >> $out/breakdown.csv
}
bench() { # label, then cbi bench arguments
  local label=$1; shift
  one "$label" -k regex:remap --launch-count 1 "$dir/cbi" bench --no-check --min-samples 1 "$@"
}
for o in column:32 linear tile:32x8 column:1024; do
  bench "Q1-$o" --kernel matmul --size 1472x1088 --depth 608 --type float --block 128 --order $o
done
for o in linear column:8; do
  bench "Q10-$o" --kernel stencil --size 2560x5120 --stencil 3x3 --type double --block 896 --order $o
done
bench "F3-linear" --kernel stencil --size 4096 --stencil 3x3 --type float --block 256 --order linear
one "copy-1:1" -k regex:rw_kernel --launch-skip 11 --launch-count 1 "$dir/dram_rw" --ncu
one "read-1:0" -k regex:rw_kernel --launch-skip 1 --launch-count 1 "$dir/dram_rw" --ncu
echo "=== done ($(date -u +%H:%M:%S))"
