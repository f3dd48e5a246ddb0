#!/bin/bash
# The before/after timings of gpu-model-speed.md (2026-11-26 evening): /tmp/speed held copies of
# main at 394da75 (cbi-before) and of this branch at 9143a47 (cbi-after). Part 1, then part 2.
# Raw output: timing-2026-11-26.log.
# timing.sh: before/after, alternated; prints "label binary wall user rss load predicted_ms"
cd /tmp/speed
run() { # label bin args...
  label=$1 bin=$2; shift 2
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %M" -o t.$$ ./cbi-$bin "$@" > o.$$ 2>/dev/null
  p=$(grep -m1 '"predicted_ms"' o.$$ | tr -dc '0-9.')
  echo "$label $bin $(cat t.$$) load=$load pred=$p $(date -u +%H:%M:%S)"
}
MM="simulate --model gpu --device h100 --workload matmul --size 1024 --block 256 --format json"
ST="simulate --model gpu --device h100 --workload stencil --stencil 9x9 --size 4096 --block 256 --format json"
SG="simulate --model gpu --device h100 --kernel sgemm-tiled --size 2048 --block-order linear --format json"
for r in 1 2; do
  for b in before after; do run matmul-j2 $b $MM --jobs 2; done
  for b in before after; do run matmul-j1 $b $MM --jobs 1; done
  for b in before after; do run stencil-j2 $b $ST --jobs 2; done
  for b in before after; do run stencil-j1 $b $ST --jobs 1; done
  for b in before after; do run sgemm-j1 $b $SG --jobs 1; done
done
# part 2
cd /tmp/speed
run() {
  label=$1 bin=$2; shift 2
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %M" -o t2.$$ ./cbi-$bin "$@" > o2-$label-$bin.txt 2>/dev/null
  echo "$label $bin $(cat t2.$$) load=$load $(date -u +%H:%M:%S) winner=$(grep -m1 winner: o2-$label-$bin.txt | awk '{print $2}')"
}
for b in after before; do run tune-matmul $b tune --device h100 --workload matmul --size 1024 --block 256; done
for b in after before; do run tune-stencil $b tune --device h100 --workload stencil --stencil 9x9 --size 4096 --block 256; done
for b in before after; do
  valgrind --tool=cachegrind --cache-sim=yes --LL=1048576,16,64 --D1=65536,8,64 --cachegrind-out-file=cg3-mm-$b.out ./cbi-$b simulate --model gpu --device h100 --workload matmul --size 1024 --depth 64 --block 256 --jobs 1 --format json > cg3-mm-$b.log 2>&1
  valgrind --tool=cachegrind --cache-sim=yes --LL=1048576,16,64 --D1=65536,8,64 --cachegrind-out-file=cg3-st-$b.out ./cbi-$b simulate --model gpu --device h100 --workload stencil --stencil 9x9 --size 1024 --block 256 --jobs 1 --format json > cg3-st-$b.log 2>&1
  echo "cachegrind $b done $(date -u +%H:%M:%S)"
done
