#!/bin/bash
# gpusim device batch 1: probes, then hardware counters for the GPU-model validation sets.
set -u
D=.dev-gpusim
mkdir -p $OUT/cta
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv > $OUT/sweep.log 2>&1
( $D/l1_chase > $OUT/chase-default.csv && $D/l1_chase --carveout 0 > $OUT/chase-carveout0.csv ) 2>&1 | tail -3
$D/cta_sm $OUT/cta 2>&1 | tail -5
cd $OUT/cta && tar czf ../cta.tgz *.csv && cd - >/dev/null && rm -rf $OUT/cta
S="$D/cbi sweep --backend gpu --metrics --no-check --min-samples 5 --max-seconds 0.1"
( set -x
$S --grid fig5.1b -o $OUT/m-fig5.1b.csv
$S --grid fig5.1a -o $OUT/m-fig5.1a.csv
$S --kernel matmul --size 2048,4096 --block 256 --order linear,column:8,column:16,column:32,column:33,column:128,zigzag:32,tile:16 -o $OUT/m-matmul-big.csv
$S --kernel stencil --size 4037,2048 --stencil 9x9 --block 128,256 --order linear,column:8,column:32,column:33,column:128,zigzag:32,tile:16,tile:32x8 -o $OUT/m-untuned.csv
) >> $OUT/sweep.log 2>&1
tail -3 $OUT/sweep.log
ls -la $OUT
