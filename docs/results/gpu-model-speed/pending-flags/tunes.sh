#!/bin/bash
# the README tune, staged (default) and full, base binary, --jobs 2; JSON and progress kept
cd /tmp/sp
for s in default full; do
  extra=; [ $s = full ] && extra="--search full"
  echo "$s start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> tunes.log
  /usr/bin/time -f "%e %U %M" -o tune.$s.time ./cbi-base tune --device h100 --workload matmul --size 1024 --block 256 --jobs 2 $extra --format json > tune.$s.json 2> tune.$s.err
  echo "$s end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) $(cat tune.$s.time)" >> tunes.log
done
