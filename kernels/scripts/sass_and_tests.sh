#!/usr/bin/env bash
# 2026-11-28: the naive matmul's SASS loop (how many loads a warp has in flight: the model's
# loads_in_flight_per_warp 8) and the GPU tests of main on the H200.
set -uo pipefail
out=${OUT:?}
echo "=== $(date -u +%H:%M:%S) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
CUOBJ=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$CUOBJ -sass ./cbi > /tmp/all.sass 2>/dev/null; echo "cuobjdump exit $?"
awk '/Function : .*matmul_remapIf.*Linear6Params/{f=1} f&&/Function : / && !/matmul_remapIf.*Linear6Params/{f=0} f' /tmp/all.sass > $out/sass-matmul-float-linear.txt
awk '/Function : .*matmul_remapId.*Linear6Params/{f=1} f&&/Function : / && !/matmul_remapId.*Linear6Params/{f=0} f' /tmp/all.sass > $out/sass-matmul-double-linear.txt
awk '/Function : .*stencil_remapIL?i?1?E?f.*Linear6Params/{f=1} f&&/Function : / && !/Linear6Params/{f=0} f' /tmp/all.sass | head -400 > $out/sass-stencil-linear.txt
wc -l $out/*.txt
grep -c "LDG" $out/sass-matmul-float-linear.txt
echo "=== GPU tests $(date -u +%H:%M:%S)"
timeout 200 ./test_kernels_gpu > $out/test_kernels_gpu.log 2>&1; echo "test_kernels_gpu exit $?"
tail -5 $out/test_kernels_gpu.log
