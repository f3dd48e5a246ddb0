#!/usr/bin/env bash
# Issue 20 §1, session `tails`: the CTA steps probe (kernels/probes/cta_steps.cu) on the H200 for
# the double matmul L1 tail and the L2 request coalescer (docs/results/tight/tails.md): each
# configuration's per-warp k stamps, then ncu's L1 and L2 counts of the probe kernel itself (so
# that its hit rate can be held against cbi bench's of listing 4 in docs/results/tight/fix/).
#
# usage: bash tails_probe.sh DIR   (DIR holds cta_steps; results in $OUT/steps.tar.gz, $OUT/log.txt)
set -uo pipefail
dir=${1:?DIR}
out=${OUT:?}
w=/tmp/steps; rm -rf $w; mkdir -p $w
exec > >(tee $out/log.txt) 2>&1
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
# TYPE W H D BLOCK C (C = 0: linear, else column:C)
configs=(
  "double 1024 1536 640 1024 0"   # V2 linear: H200 55.5% L1 hits, model 11.7
  "float 1024 1536 640 1024 0"    # the same in float
  "double 1024 1536 640 1024 512" # V2 column:512: 75.7, model 55.4
  "double 960 1920 512 128 0"     # V3 linear: 44.7, model 22.6
  "float 2048 768 640 128 32"     # V4 column:32: L2 reads / L1 misses 0.45, model 0.08
  "float 2048 768 640 128 0"      # V4 linear: 36.4, model 35.4 (right)
  "float 1024 1024 1024 1024 0"   # fig5.1b float 1024 b1024 linear (H100: 26.1, model 55)
  "double 1024 1024 1024 512 0"   # warp_drift's double 1024 b512 linear, unrolled
)
step "device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
step "stamps"
for c in "${configs[@]}"; do
  # shellcheck disable=SC2086
  timeout 30 $dir/cta_steps $w $c; echo "cta_steps $c: exit $?"
done
tar -C $w -czf $out/steps.tar.gz .
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
gpu__time_duration.sum
step "ncu of the probe kernel (second launch of each)"
mkdir -p $w/ncu
i=0
for c in "${configs[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  timeout 40 ncu --cache-control all --clock-control none --print-units base --csv --metrics $M \
    --launch-skip 1 --launch-count 1 --log-file $w/ncu/ncu-$i.csv $dir/cta_steps $w/ncu $c \
    > /dev/null; echo "ncu $i ($c): exit $?"
done
rm -f $w/ncu/steps-*.csv
tar -C $w -czf $out/steps.tar.gz .
step "done"
