#!/bin/bash
# ir.sh BIN ARGS: instructions of cbi simulate --model gpu (cachegrind, no cache sim)
B=$1; shift
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null ./$B simulate --model gpu --device h100 --block 256 --jobs 1 --format json "$@" 2>&1 >/tmp/speed/ir.$B.json | grep 'I *refs' | sed "s/^==[0-9]*==/$B/"
grep -o '"predicted_ms": [0-9.]*' /tmp/speed/ir.$B.json
