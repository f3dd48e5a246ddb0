#!/bin/bash
# tm.sh ROUNDS "ARGS" BIN... : alternating user-time runs, one thread
R=$1; ARGS=$2; shift 2
for r in $(seq $R); do for b in "$@"; do
  l=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %M" -o /tmp/sp/tm.out $b simulate --model gpu --device h100 --block 256 --jobs 1 $ARGS --format json > /tmp/sp/tm.json 2>/dev/null
  echo "$(basename $b) load=$l $(cat /tmp/sp/tm.out) $(grep -m1 predicted_ms /tmp/sp/tm.json | tr -d ' ,')"
done; done
