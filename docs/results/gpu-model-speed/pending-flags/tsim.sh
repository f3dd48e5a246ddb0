#!/bin/bash
# tsim.sh BIN: the two simulate targets, --jobs 1 and 2, wall/user/RSS and load
for args in "--workload matmul --size 1024" "--workload stencil --stencil 9x9 --size 4096"; do for j in 1 2; do
  l=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %M" -o /tmp/sp/ts.out $1 simulate --model gpu --device h100 --block 256 --jobs $j $args --format json > /tmp/sp/ts.json 2>/dev/null
  echo "$(date -u +%T) $args --jobs $j load=$l $(cat /tmp/sp/ts.out) $(grep -m1 predicted_ms /tmp/sp/ts.json | tr -d ' ,')"
done; done
