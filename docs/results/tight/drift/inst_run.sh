#!/usr/bin/env bash
# The tiled kernels' executed instructions (ncu), against the GPU model's fp_ops_per_task estimates:
# smem stencils over windows and types, and the SGEMM.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd); out=${OUT:?}
gunzip -c $dir/cbi.gz > /tmp/cbi && chmod +x /tmp/cbi
m=smsp__inst_executed.sum,sm__cycles_elapsed.max,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_ldgsts.sum
one() { local label=$1; shift
  timeout 60 ncu --clock-control none --csv --print-units base --metrics $m -k regex:'stencil_smem|sgemm' --launch-skip 1 --launch-count 1 \
    /tmp/cbi bench --no-check --min-samples 2 "$@" > /tmp/i.csv 2>&1
  echo "$label: exit $?"
  grep '^"' /tmp/i.csv | sed "s/^/\"$label\",/" >> $out/inst.csv
}
for t in float half double; do
  for s in 3x3 5x5 9x9 11x11; do
    one "smem-$t-$s-3584" --kernel stencil-smem --size 3584 --stencil $s --type $t --block-order linear
  done
done
one "smem-float-9x9-8192" --kernel stencil-smem --size 8192 --stencil 9x9 --type float --block-order linear
one "smem-float-9x9-3584-c8" --kernel stencil-smem --size 3584 --stencil 9x9 --type float --block-order column:8
one "sgemm-2048" --kernel sgemm-tiled --size 2048 --block-order linear
one "sgemm-4096" --kernel sgemm-tiled --size 4096 --block-order linear
