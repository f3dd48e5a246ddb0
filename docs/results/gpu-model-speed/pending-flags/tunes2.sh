#!/bin/bash
cd /tmp/sp
run() { # name bin args...
  n=$1; b=$2; shift 2
  echo "$n start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> tunes2.log
  /usr/bin/time -f "%e %U %M" -o t2.$n.time $b tune "$@" --format json > t2.$n.json 2> t2.$n.err
  echo "$n end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) $(cat t2.$n.time)" >> tunes2.log
}
run st3-before ./cbi-base --device h100 --workload stencil --stencil 3x3 --size 4096 --block 256
run st3-after ./cbi-after --device h100 --workload stencil --stencil 3x3 --size 4096 --block 256
run readme-after ./cbi-after --device h100 --workload matmul --size 1024 --block 256
