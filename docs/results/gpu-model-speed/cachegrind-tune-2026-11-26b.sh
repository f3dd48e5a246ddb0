#!/bin/bash
for b in /tmp/cbi-base-9d99a83 /tmp/cbi-after-3d64675; do
  valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64 --cachegrind-out-file=/tmp/meas/cg.$(basename $b) $b simulate --model gpu --device h100 --workload matmul --size 512 --block 256 --jobs 1 > /dev/null 2> /tmp/meas/cg.$(basename $b).err
  echo "$b: $(grep -E 'I *refs|LL misses|D1  misses|LLd misses' /tmp/meas/cg.$(basename $b).err | tr -s ' ' | tr '\n' ';')"
done
for b in /tmp/cbi-base-9d99a83 /tmp/cbi-after-3d64675; do
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -o /tmp/meas/tt -f "%e %U %M" $b tune --device h100 --workload matmul --size 1024 --block 256 > /tmp/meas/tune.$(basename $b).out 2>/dev/null
  echo "$(date -u +%H:%M:%S) load=$load tune $b: $(cat /tmp/meas/tt)"
done
