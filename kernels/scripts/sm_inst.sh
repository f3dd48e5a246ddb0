#!/usr/bin/env bash
# Issue 20, session `sm` (docs/results/tight/sm.md): the naive kernels' executed warp instructions
# (ncu smsp__inst_executed.sum), per thread order, window, element type and matmul depth, so that
# the GPU model's instruction count can be taken from the kernels as they run rather than from an
# estimate; the issue rate and L1 wavefronts they run at; the kernels' SASS; and the CTA steps
# probe (kernels/probes/cta_steps.cu) at block 512 beside block 1024.
#
# usage: bash sm_inst.sh DIR   (DIR holds cbi and cta_steps built for sm_90; results in $OUT:
#   inst.csv (ncu rows, tagged), wave.csv (the second ncu pass), sass.txt.gz, steps.tar.gz, log.txt)
set -uo pipefail
dir=${1:?DIR}
out=${OUT:?}
exec > >(tee $out/log.txt) 2>&1
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
step "device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
ncu --version | tail -1
M=smsp__inst_executed.sum,sm__cycles_elapsed.max,gpu__time_duration.sum,\
smsp__issue_active.avg.per_cycle_active
# ncu over one cbi bench (comma lists of orders and types: one launch each, checked, not timed),
# its rows tagged with TAG. Only the remapped naive kernels are profiled.
prof() { # TAG METRICS FILE bench-args...
  local tag=$1 metrics=$2 file=$3; shift 3
  echo "--- $tag: cbi bench $* ($(date -u +%H:%M:%S))"
  timeout 120 ncu --clock-control none --cache-control all --metrics "$metrics" --csv \
    --print-units base -k regex:_remap $dir/cbi bench "$@" --no-time > /tmp/ncu-$tag.csv \
    2> /tmp/ncu-$tag.log
  echo "exit $?"
  grep '_remap' /tmp/ncu-$tag.csv | sed "s/^/$tag,/" >> $out/$file
}
ALL=linear,column:4,column:16,column:32,column:256,tile:16,tile:32x8,tile:8,zigzag:32,zigzag:64,hilbert:64
step "instructions: stencil windows x types (linear), orders (5x5 float), remap math"
for s in 3x3 5x5 7x7 9x9 11x11; do
  prof st-$s $M inst.csv --kernel stencil --size 2048x1024 --stencil $s --type half,float,double
done
prof st-orders $M inst.csv --kernel stencil --size 2048x1024 --stencil 5x5 --order $ALL
prof st-div $M inst.csv --kernel stencil --size 2048x1024 --stencil 5x5 --order linear,column:32,tile:16 \
  --remap-math div
step "instructions: matmul depths x types (linear), orders (float)"
for d in 128 512; do
  prof mm-d$d $M inst.csv --kernel matmul --size 1024x512 --depth $d --type half,float,double
done
prof mm-orders $M inst.csv --kernel matmul --size 1024x512 --depth 128 --order $ALL
step "L1 wavefronts and issue of the stencils (a second pass; metric names may be refused)"
W=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
smsp__inst_executed.sum,sm__cycles_elapsed.max,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
prof wave-st $W wave.csv --kernel stencil --size 4096x2048 --stencil 3x3,7x7,11x11 --type half,float,double \
  --order linear,column:32
prof wave-mm $W wave.csv --kernel matmul --size 1024x1024 --depth 512 --type half,float,double \
  --order linear,column:32
step "SASS of the remapped kernels"
cuobjdump --dump-sass $dir/cbi 2> /dev/null | awk '/Function :/{keep = /_remap/} keep' | gzip > $out/sass.txt.gz
ls -la $out/sass.txt.gz
step "CTA steps: block 512 beside 1024"
w=/tmp/steps; rm -rf $w; mkdir -p $w
for c in "float 1024 1536 640 1024 0" "float 1024 1536 640 512 0" "double 1024 1536 640 512 0" \
  "float 1024 1536 640 256 0" "double 1024 1536 640 256 0"; do
  # shellcheck disable=SC2086
  timeout 30 $dir/cta_steps $w $c; echo "cta_steps $c: exit $?"
done
tar -C $w -czf $out/steps.tar.gz .
tar -C /tmp -czf $out/ncu-raw.tar.gz $(cd /tmp && ls ncu-*)
step "done"
