#!/bin/bash
# tm2.sh REPS "VARIANTS" ARGS: VARIANTS = "bin:ahead ..."; min user time each, alternated, core 1
REPS=$1; V=$2; shift 2; ARGS="$@"
declare -A all
for rep in $(seq $REPS); do for v in $V; do b=${v%%:*}; a=${v#*:}
  AHEAD=$a /usr/bin/time -o tm2.txt -f "%U" taskset -c 1 ./$b simulate --model gpu --device h100 --block 256 --jobs 1 --format json $ARGS > out2.json 2>/dev/null
  all[$v]="${all[$v]} $(cat tm2.txt)"
done; done
for v in $V; do echo "$v min $(echo ${all[$v]} | tr ' ' '\n' | sort -n | head -1) all:${all[$v]}"; done
echo load $(cut -d' ' -f1-3 /proc/loadavg) $(date -u +%H:%M)
