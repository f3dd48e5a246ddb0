#!/bin/bash
# tv.sh REPS BIN...: the two target commands, alternated over BINs, pinned to core 1; wall user maxrss load
REPS=$1; shift
for rep in $(seq $REPS); do for b in "$@"; do
for cfg in "matmul1024|--workload matmul --size 1024 --block 256" "stencil4096|--workload stencil --stencil 9x9 --size 4096 --block 256 --order column:256"; do
  name=${cfg%%|*}; args=${cfg#*|}
  l=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -o tv.tm -f "%e %U %M" taskset -c 1 ./$b simulate --model gpu --device h100 $args --jobs 1 --format json > tv.$b.$name.json 2>/dev/null
  echo "$(date -u +%H:%M:%S) $b $name $(cat tv.tm) load $l $(grep -o '"predicted_ms": [0-9.]*' tv.$b.$name.json)"
done; done; done
