#!/usr/bin/env bash
# Everything docs/results/kernels-h100.md records, in one pass on the GPU machine: device info,
# the kernel tests, every kernel x order x type checked and timed with CUPTI counters, the ncu
# cross-check and compute-sanitizer memcheck at a small size. Each step has its own time limit
# so the whole run fits one 10-minute call.
#
# usage: kernels/scripts/h100_run.sh BIN_DIR OUT_DIR
#   BIN_DIR holds cbi and the test binaries (build-gpu/bin + build-gpu/tests, or a copy of them).
set -uo pipefail
bin=${1:?BIN_DIR}
out=${2:?OUT_DIR}
mkdir -p "$out"
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit \
  --format=csv
nvcc --version | tail -2
ncu --version | tail -1
compute-sanitizer --version | head -2

step "tests"
timeout 120 "$bin/test_kernels_cpu" --gtest_brief=1 2>&1 | tail -3
timeout 240 "$bin/test_kernels_gpu" 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) " | head -20
CBI_BIN=$bin timeout 120 "$bin/test_bench_cli" --gtest_brief=1 2>&1 | tail -3

orders=linear,column:32,zigzag:32,tile:16x16
step "stencil family, 4096x4096, 9x9, every order and type, counters"
timeout 200 "$bin/cbi" bench --kernel stencil,stencil-2d,stencil-smem --order $orders,column:4096 \
  --type half,float,double --size 4096 --stencil 9x9 --metrics --format json \
  --output "$out/bench-stencil.json"
echo "exit $?"

step "naive stencil float: block sizes, linear vs column:32 vs column:4096 (= linear, listing 5 arithmetic)"
timeout 120 bash -c "for b in 128 512 1024; do \"$bin/cbi\" bench --kernel stencil \
  --order linear,column:32,column:4096 --size 4096 --block \$b --format csv; done" \
  > "$out/stencil-blocks.csv"
echo "exit $?"

step "cold L2: stencil-smem and stencil column:32, float"
timeout 60 "$bin/cbi" bench --kernel stencil-smem,stencil --order column:32 --size 4096 --cold

step "matmul family, 4096^3, every order and type, counters"
timeout 260 "$bin/cbi" bench --kernel matmul,sgemm-tiled,cublas --order $orders \
  --type half,float,double --size 4096 --metrics --max-seconds 0.5 --format json \
  --output "$out/bench-matmul.json"
echo "exit $?"

step "compute-sanitizer memcheck, every kernel x {linear, column:32} x type at 67x45"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/cbi" bench \
  --kernel stencil,stencil-2d,stencil-smem,matmul,sgemm-tiled,cublas --order linear,column:32 \
  --type half,float,double --size 67x45 --stencil 5x3 --depth 37 --no-time --format csv \
  > "$out/memcheck.csv" 2> "$out/memcheck.log"
echo "exit $?"; grep -E "ERROR SUMMARY|========= " "$out/memcheck.log" | tail -5

step "ncu cross-check"
mkdir -p /tmp/ncu
timeout 280 bash kernels/scripts/ncu_crosscheck.sh "$bin/cbi" /tmp/ncu 2>&1 | tee "$out/ncu-crosscheck.txt"
tar czf "$out/ncu-raw.tar.gz" -C /tmp ncu
step "done"
