#!/bin/bash
# cg.sh BIN TAG ARGS: instructions and simulated D1/LL misses (4 MB LL: the host cache the replay gets)
B=$1; T=$2; shift 2
valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=4194304,16,64 --cachegrind-out-file=/dev/null $B simulate --model gpu --device h100 --block 256 --jobs 1 --format json "$@" 2>/tmp/speed/cg.$T.err >/tmp/speed/cg.$T.json
echo "== $T $*"; grep -E 'I *refs|D1  misses|LL misses' /tmp/speed/cg.$T.err | sed 's/^==[0-9]*==//'
grep -o '"predicted_ms": [0-9.]*' /tmp/speed/cg.$T.json
# Timed runs: ../window-prefetch/tm2.sh (user seconds, taskset -c 1, alternated); JSON: ../window-prefetch/jsons.sh, cmpj.sh.
