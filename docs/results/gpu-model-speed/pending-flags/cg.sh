#!/bin/bash
# cg.sh BIN TAG : cachegrind instruction + simulated miss counts (D1 32K, LL 4M) for two configs
BIN=$1; TAG=$2
for cfg in "mm512:--workload matmul --size 512 --order linear" "st1024:--workload stencil --stencil 9x9 --size 1024 --order linear"; do
  name=${cfg%%:*}; args=${cfg#*:}
  valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=4194304,16,64 --cachegrind-out-file=/tmp/sp/cg.$TAG.$name.out \
    $BIN simulate --model gpu --device h100 --block 256 --jobs 1 $args --format json > /tmp/sp/cg.$TAG.$name.json 2> /tmp/sp/cg.$TAG.$name.err
done
