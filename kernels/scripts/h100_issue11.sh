#!/usr/bin/env bash
# Issue 11 on the H100, one call: the kernel tests, then the new variants checked and timed
# (compile-time windows, --remap-math div|fast, --block-order on the tiled kernels, smem stencil
# in every type), compute-sanitizer on every new variant, and (PART=all) the CUPTI-vs-ncu
# cross-check. Logs go to OUT_DIR as a few files (the device tool returns at most 8).
#
# usage: kernels/scripts/h100_issue11.sh BIN_DIR OUT_DIR [PART]
#   BIN_DIR holds cbi and the test binaries; PART names the parts to run (check, bench, ncu, joined
#   by + or all; default bench).
set -uo pipefail
bin=${1:?BIN_DIR}
out=${2:?OUT_DIR}
part=${3:-bench}
here=$(cd "$(dirname "$0")" && pwd) # bench_table.py and ncu_crosscheck.sh beside this script
mkdir -p "$out/raw"
step() { echo; echo "=== $1 ($(date -u +%H:%M:%S))"; }
bench() { # name, then cbi bench arguments: JSON under raw/, the table on stdout
  local name=$1; shift
  "$bin/cbi" bench "$@" --format json --output "$out/raw/$name.json"
  echo "exit $? ($name)"
  python3 "$here/bench_table.py" "$out/raw/$name.json" 2>/dev/null | tail -n +1
}

step "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit \
  --format=csv

if [[ $part == *check* || $part == all ]]; then
  step "tests"
  timeout 60 "$bin/test_remap" --gtest_brief=1 2>&1 | tail -2
  timeout 60 "$bin/test_kernels_cpu" --gtest_brief=1 2>&1 | tail -2
  timeout 240 "$bin/test_kernels_gpu" 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |Failure|rel error" | head -30
  CBI_BIN=$bin timeout 120 "$bin/test_bench_cli" --gtest_brief=1 2>&1 | tail -2

  step "compute-sanitizer memcheck: every new variant at 67x45 / 200x150 / 130x67"
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/cbi" bench \
    --kernel stencil,stencil-2d --order linear,column:32,zigzag:8,tile:8x4 --remap-math div,fast \
    --type half,float,double --size 67x45 --stencil 9x9 --no-time --format csv \
    > "$out/raw/memcheck-naive.csv" 2> "$out/raw/memcheck-naive.log"
  echo "exit $?"; grep -E "ERROR SUMMARY" "$out/raw/memcheck-naive.log" | sort | uniq -c
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/cbi" bench \
    --kernel stencil-smem --block-order linear,column:3,zigzag:2,tile:3x2 --type half,float,double \
    --size 201x150 --stencil 7x5 --no-time --format csv \
    > "$out/raw/memcheck-smem.csv" 2> "$out/raw/memcheck-smem.log"
  echo "exit $?"; grep -E "ERROR SUMMARY" "$out/raw/memcheck-smem.log" | sort | uniq -c
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/cbi" bench \
    --kernel sgemm-tiled --block-order linear,column:2,tile:2x2 --size 300x260 --depth 37 \
    --no-time --format csv > "$out/raw/memcheck-sgemm.csv" 2> "$out/raw/memcheck-sgemm.log"
  echo "exit $?"; grep -E "ERROR SUMMARY" "$out/raw/memcheck-sgemm.log" | sort | uniq -c
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/cbi" bench \
    --kernel stencil-smem --type half,float --size 130x70 --stencil 11x11 --no-time --format csv \
    > /dev/null 2> "$out/raw/racecheck-smem.log"
  echo "exit $?"; grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$out/raw/racecheck-smem.log" | sort | uniq -c
fi

if [[ $part == *bench* || $part == all ]]; then
  step "naive stencil 9x9 4096^2: order x remap math x type, block 256"
  timeout 150 bash -c "$(declare -f bench); bin=$bin out=$out here=$here; bench stencil-math --kernel stencil \
    --order linear,column:32,zigzag:32,tile:16x16,column:4096 --remap-math div,fast \
    --type half,float,double --size 4096 --stencil 9x9"
  step "windows: naive stencil linear float, 3x3..11x11 compile-time and 13x13 / 9x7 run-time"
  for s in 3x3 5x5 7x7 11x11 13x13 9x7; do
    "$bin/cbi" bench --kernel stencil,stencil-2d --size 4096 --stencil $s --format csv | grep -E "^stencil"
  done
  step "stencil-2d and stencil-smem 4096^2 9x9, every type, counters"
  timeout 100 bash -c "$(declare -f bench); bin=$bin out=$out here=$here; bench stencil-tiled --kernel \
    stencil-2d,stencil-smem --type half,float,double --size 4096 --stencil 9x9 --metrics"
  step "stencil-smem 16384^2 float, block orders, counters"
  timeout 100 bash -c "$(declare -f bench); bin=$bin out=$out here=$here; bench smem-16k --kernel stencil-smem \
    --block-order linear,column:4,column:16,tile:8x8 --size 16384 \
    --stencil 9x9 --metrics --max-seconds 0.5"
  step "sgemm-tiled 4096 and 8192, block orders, counters, cuBLAS"
  for n in 4096 8192; do
    timeout 150 bash -c "$(declare -f bench); bin=$bin out=$out here=$here; bench sgemm-$n --kernel \
      sgemm-tiled,cublas --block-order linear,column:2,column:4,column:8,column:16,tile:4x4,tile:8x8 \
      --size $n --metrics --max-seconds 0.5"
  done
  step "sgemm-tiled 16384 (A and B 1 GiB each, beyond the 50 MB L2), block orders, cuBLAS"
  timeout 120 bash -c "$(declare -f bench); bin=$bin out=$out here=$here; bench sgemm-16384 --kernel \
    sgemm-tiled,cublas --block-order linear,column:8 --size 16384 --min-samples 5 --max-seconds 0.3"
  step "naive matmul 4096^3 float: orders x remap math"
  timeout 100 bash -c "$(declare -f bench); bin=$bin out=$out here=$here; bench matmul-math --kernel matmul \
    --order linear,column:32,zigzag:32,tile:16x16 --remap-math div,fast --size 4096 --max-seconds 0.5"
fi

if [[ $part == *ncu* || $part == all ]]; then
  step "ncu cross-check"
  mkdir -p /tmp/ncu
  ONLY=${ONLY:-.} REPS=${REPS:-3} timeout 330 bash "$here/ncu_crosscheck.sh" "$bin/cbi" /tmp/ncu 2>&1 \
    | tee "$out/ncu-crosscheck.txt"
fi
tar czf "$out/raw.tar.gz" -C "$out" raw && rm -rf "$out/raw"
step "done"
