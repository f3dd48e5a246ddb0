#!/bin/bash
# Alternating before/after timings: before = main at 9d99a83, after = main at 3d64675.
B=/tmp/cbi-base-9d99a83; A=/tmp/cbi-after-3d64675
run() { # label bin args
  local l=$1 b=$2; shift 2
  local load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -o /tmp/meas/t -f "%e %U %M" $b simulate --model gpu --device h100 --block 256 "$@" --format json > /tmp/meas/out.json 2>/dev/null
  echo "$(date -u +%H:%M:%S) load=$load $l $* : $(cat /tmp/meas/t) predicted_ms=$(grep '"predicted_ms"' /tmp/meas/out.json | tr -d ' ,' | cut -d: -f2)"
}
for r in 1 2; do
  for j in 1 2; do
    run before $B --workload matmul --size 1024 --jobs $j
    run after $A --workload matmul --size 1024 --jobs $j
  done
  for j in 1 2; do
    run before $B --workload stencil --stencil 9x9 --size 4096 --jobs $j
    run after $A --workload stencil --stencil 9x9 --size 4096 --jobs $j
  done
done
# the plain reference simulator on the same workload (no --model gpu), in the same run
for b in $B $A; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -o /tmp/meas/t -f "%e %U %M" $b simulate --workload matmul --size 1024 >/dev/null 2>&1
  echo "$(date -u +%H:%M:%S) load=$load reference $b simulate --workload matmul --size 1024 : $(cat /tmp/meas/t)"
done
