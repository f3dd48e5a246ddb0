#!/bin/bash
# tune.sh BIN...: cbi tune matmul 1024 block 256, --jobs 1, pinned to core 1, JSON
for b in "$@"; do
  l=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -o tune.tm -f "%e %U %M" taskset -c 1 ./$b tune --device h100 --workload matmul --size 1024 --block 256 --jobs 1 --format json > tune.$b.json 2> tune.$b.err
  echo "$(date -u +%H:%M:%S) $b $(cat tune.tm) load $l"
done
