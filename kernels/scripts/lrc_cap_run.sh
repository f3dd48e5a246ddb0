#!/usr/bin/env bash
# The L2 request coalescer's capacity (kernels/probes/lrc_cap.cu, docs/results/tight/lrc-cap.md):
# N SMs of one GPC (a thread-block cluster, one CTA an SM) read the same lines together, under ncu,
# N = 1..16, the L2 warm (--cache-control none) and cold (all), and two staggers; then cta_steps
# (kernels/probes/cta_steps.cu) on two float matmul column:32 launches of the R set, for the warps'
# and CTAs' spread in k.
# usage: OUT=... bash lrc_cap_run.sh DIR   (DIR holds lrc_cap and cta_steps). Results:
#        $OUT/lrc.csv (ncu), $OUT/log.txt, $OUT/steps.tar.gz.
set -uo pipefail
dir=$(cd "${1:?DIR}" && pwd)
out=${OUT:?}
exec > >(tee -a $out/log.txt) 2>&1
echo "=== device ($(date -u +%H:%M:%S))"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum
M=$M,lrc__request_sectors_op_read_coalescable.sum
M=$M,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum,dram__bytes_read.sum
ns="1 2 3 4 5 6 7 8 9 10 12 14 16"
run() { # NAME CACHE LINES STAGGER
  echo "=== $1: cache $2, $3 lines, stagger $4 ($(date -u +%H:%M:%S))"
  # shellcheck disable=SC2086
  timeout 120 ncu --clock-control none --cache-control "$2" --csv --print-units base --metrics $M \
    --log-file $out/tmp.csv $dir/lrc_cap "$3" "$4" $ns; echo "exit $?"
  sed "s/^/\"$1\",/" $out/tmp.csv >> $out/lrc.csv; rm -f $out/tmp.csv
}
run warm none 8192 0
run cold all 8192 0
run warm-big none 65536 0
run stagger200 none 8192 200
run stagger2000 none 8192 2000
echo "=== cta_steps ($(date -u +%H:%M:%S))"
mkdir -p /tmp/steps
timeout 120 $dir/cta_steps /tmp/steps float 2176 896 832 640 32 float 1728 1152 704 256 32 \
  float 1728 1152 704 256 0; echo "exit $?"
tar -C /tmp/steps -czf $out/steps.tar.gz .
echo "=== done ($(date -u +%H:%M:%S))"
