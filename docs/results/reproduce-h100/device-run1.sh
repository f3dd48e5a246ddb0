#!/usr/bin/env bash
# Lead's device call 1 (2026-11-23): GPU tests that cover the refactored bench/sweep, a sim+gpu smoke,
# then every gpu-* part of `cbi reproduce` (the model and simulator parts run later / locally).
# Run on the device as `bash .dev-lead/run1.sh` with .dev-lead/bin holding the gpu-preset binaries.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); bin=$here/bin; out=${OUT:?}
exec > >(tee "$out/run1.log") 2>&1
echo "commit $(cat $here/COMMIT)  date $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
echo "=== tests $(date -u +%T)"
CBI_BIN=$bin timeout 90 $bin/test_bench_cli --gtest_brief=1 2>&1 | tail -4
CBI_BIN=$bin timeout 60 $bin/test_gpu_cli --gtest_brief=1 2>&1 | tail -4
echo "=== sim+gpu smoke $(date -u +%T)"
timeout 60 $bin/cbi sweep --backend sim+gpu --model gpu --kernel matmul --size 512 --order linear,column:32 \
  --block 256 --metrics --output "$out/simgpu-smoke.csv"; echo "exit $?"
echo "=== reproduce gpu parts $(date -u +%T)"
mkdir -p "$out/rep"
timeout 470 $bin/cbi reproduce --out "$out/rep" --only gpu-fig5.1a,gpu-fig5.2,gpu-fig5.1b,gpu-fig5.3,gpu-fig5.4,gpu-sec5.2,gpu-fig5.1a-half,gpu-fig5.1a-double,gpu-fig5.1b-half,gpu-fig5.1b-double
echo "reproduce exit $? $(date -u +%T)"
ls -la "$out/rep"
